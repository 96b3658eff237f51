"""Effects: the host requests a store makes, the Python handlers that answer them, and the
low-level answers (`respond`, `fail`, `complete`)."""

from __future__ import annotations

import ctypes
import difflib
import inspect
import warnings
from concurrent.futures import Future
from typing import (
    TYPE_CHECKING,
    Any,
    Awaitable,
    Callable,
    Dict,
    FrozenSet,
    Generator,
    List,
    Optional,
    TypeVar,
    Union,
)

from . import _native
from ._codec import encode, loads
from ._codec import message as _message
from ._core import StoreCore
from ._validate import c_string, uint64
from .errors import RequestNameWarning
from .request import KINDS, Request

if TYPE_CHECKING:
    import asyncio

__all__ = ["Effects", "Handler"]

Handler = Callable[[Any], Any]
"""An effect handler: called with the request's decoded payload; see `Store.effect`."""

H = TypeVar("H", bound=Callable[..., Any])

_lib = _native.lib


def _c_text(text: str) -> bytes:
    """A message of the package's own making (an exception's text) as a C string: a NUL inside
    is written as `\\0` rather than cutting the message short."""
    return text.replace("\0", "\\0").encode("utf-8", "replace")


_REQUEST_NAMES: Dict[str, Optional[FrozenSet[str]]] = {}


def _request_names(feature: str) -> Optional[FrozenSet[str]]:
    """The host requests `feature` may make (from `tca_features()`), None if it is not listed."""
    if feature not in _REQUEST_NAMES:
        listed = loads(_native.take_string(_lib.tca_features()))
        for entry in listed:
            _REQUEST_NAMES[entry["name"]] = frozenset(entry.get("requests", []))
        _REQUEST_NAMES.setdefault(feature, None)
    return _REQUEST_NAMES[feature]


def _refused_answer(name: str, library_message: str) -> str:
    """The failure of a request whose handler's answer the library refused."""
    detail = library_message
    for prefix in ("tca_store_respond_n: ", "tca_store_respond: "):
        if detail.startswith(prefix):
            detail = detail[len(prefix):]
    cut = detail.find("; the request is still waiting")
    if cut >= 0:
        detail = detail[:cut]
    return f"the handler of {name!r} returned an answer the library refused: {detail}"


_STREAM_DONE = object()  # what the task of an async generator handler returns: nothing to answer


class Effects(StoreCore):
    """The effect methods of `Store`: handlers, the requests in flight, answers."""

    _handlers: Dict[str, Any]
    _fallback: Optional[Any]
    _requests: Dict[int, Request]
    # What answers a request later (a task, a future, a generator), by request id.
    _inflight: Dict[int, Any]

    def effect(self, name: str) -> Callable[[H], H]:
        """Registers the decorated function as the handler of host request `name`:

            @store.effect("numberFact.fetch")
            def fetch(count):
                return f"{count} is a good number."

        It is called with the request's decoded payload, inside the call that made the request.
        - Its return value answers the request (JSON-encoded; bytes are sent as they are).
        - An exception it raises fails the request with `str(exception)` as the message.
        - `async def`: the coroutine runs on the asyncio event loop (the running one, or the one
          the store is attached to); its result answers the request when it finishes.
        - A returned `concurrent.futures.Future` or awaitable answers when it resolves.
        - A generator answers a stream request: each `yield` sends an element, returning
          completes it, raising fails it (async generators likewise, on the event loop).
        Cancelling the request (its effect was cancelled, or the store closed) cancels a pending
        coroutine, future or generator. A fire-and-forget request's answer is dropped.

        Requests without a handler go to `on_request`'s handler if one is set, or fail with a
        message naming the request. A `name` the feature never requests (see `tca.features()`)
        warns with `RequestNameWarning`; a store made with `requests="queued"` raises
        `RuntimeError` (it takes its requests with `take_requests()`).
        """
        self._refuse_handlers_when_queued("effect")

        def register(fn: H) -> H:
            self._handlers[name] = fn
            self._check_request_name(name)
            return fn

        return register

    def _check_request_name(self, name: str) -> None:
        """Warns (`RequestNameWarning`) when the feature never makes request `name`: a handler
        registered under a misspelled name would never run."""
        known = _request_names(self.feature)
        if known is None or name in known:
            return
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        listed = ", ".join(repr(n) for n in sorted(known)) or "none"
        warnings.warn(
            f"the {self.feature} feature never makes the request {name!r} (its requests: "
            f"{listed}){hint}",
            RequestNameWarning,
            # NB: 1 is here, 2 register(), 3 the code that applied the decorator.
            stacklevel=3,
        )

    def on_request(self, fn: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """Registers a catch-all handler: it receives the `Request` of every request that has no
        `effect` handler, and answers it (now or later) through the request's methods. An
        exception it raises fails the request."""
        self._refuse_handlers_when_queued("on_request")
        self._fallback = fn
        return fn

    def _refuse_handlers_when_queued(self, method: str) -> None:
        if self.requests == "queued":
            raise RuntimeError(
                f"{method}: the {self.feature} store was made with requests='queued': its "
                "requests wait for take_requests(), no handler is ever called"
            )

    def take_requests(self) -> List[Dict[str, Any]]:
        """Pull mode (`Store(..., requests="queued")`): the host requests and cancellation
        notices waiting in the store, oldest first, taken (each is returned once):

            >>> store.take_requests()
            [{'id': 1, 'name': 'numberFact.fetch', 'kind': 'oneShot', 'payload': 1}]

        A request is `{"id", "name", "kind", "payload"}` (kind `"oneShot"`, `"stream"` or
        `"fireAndForget"`); answer it when you choose with `respond(id, value)`, `fail(id,
        message)` or `complete(id)`. `{"cancelled": id}` says the effect that made request `id`
        was cancelled: drop its work (an answer would raise `RequestFinishedError`). Empty when
        nothing waits (always, for a store in callback mode). Never runs the store or a callback;
        `fileno()` is readable while anything waits.
        """
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(
            _lib.tca_store_take_requests(self._h, ctypes.byref(out), ctypes.byref(length))
        )
        taken: List[Dict[str, Any]] = loads(_native.take_string(out.value, length.value))
        return taken

    def running_effects(self) -> List[str]:
        """Descriptions of the effects still running, oldest first (`'host request #1
        "numberFact.fetch"'`, `'a timer due at 0.5 seconds'`): for people, not for parsing."""
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(
            _lib.tca_store_running_effects(self._h, ctypes.byref(out), ctypes.byref(length))
        )
        running: List[str] = loads(_native.take_string(out.value, length.value))
        return running

    def cancel_effects(self) -> int:
        """Cancels every effect still running (timers, streams, requests in flight, whose
        handlers hear of it); returns how many were running. The store stays open."""
        cancelled = ctypes.c_uint32()
        self._check(_lib.tca_store_cancel_effects(self._h, ctypes.byref(cancelled)))
        return cancelled.value

    def remove_effect(self, name: str) -> None:
        """Unregisters the handler of `name` (no error if there is none)."""
        self._handlers.pop(name, None)

    @property
    def pending_requests(self) -> List[Request]:
        """The requests made and not yet answered, failed, completed or cancelled."""
        return list(self._requests.values())

    def _on_request(self, rid: int, name: str, payload_json: bytes, kind_code: int) -> None:
        kind = KINDS.get(kind_code, "oneShot")
        request = Request(self, rid, name, payload_json, kind)
        if kind == "fireAndForget":
            request.finished = True
        else:
            self._requests[rid] = request
        handler = self._handlers.get(name)
        try:
            if handler is None:
                if self._fallback is not None:
                    self._fallback(request)
                elif not request.finished:
                    self._auto_fail(
                        request,
                        f"no Python handler for the request {name!r}: register one with "
                        f"@store.effect({name!r})",
                    )
                return
            result = handler(request.payload)
        except Exception as error:
            if request.finished:
                # NB: a fire-and-forget request has no one to hear of a failure: it comes out of
                # the call that made the request instead.
                self._raise_later(error)
            else:
                self._auto_fail(request, _message(error))
            return
        self._settle(request, result)

    def _settle(self, request: Request, result: Any) -> None:
        """Answers `request` with what its handler returned."""
        if inspect.isgenerator(result):
            self._inflight[request.id] = result
            self._drain_generator(request, result)
        elif inspect.isasyncgen(result):
            self._start_async(request, self._drain_async_generator(request, result))
        elif inspect.isawaitable(result):
            self._start_async(request, result)
        elif isinstance(result, Future):
            self._inflight[request.id] = result
            result.add_done_callback(lambda future: self._future_done(request, future))
        elif request.kind == "stream":
            if result is not None:
                self._auto_respond(request, result, final=False)
            self._auto_complete(request)
        else:
            self._auto_respond(request, result)

    def _drain_generator(self, request: Request, generator: Generator[Any, Any, Any]) -> None:
        """Runs a generator handler to its end: each element answers (a one-shot request takes
        the first and closes the generator), returning completes, raising fails."""
        stream = request.kind == "stream"
        try:
            for element in generator:
                if request.cancelled or request.finished:
                    break
                self._auto_respond(request, element, final=not stream)
                if request.finished:
                    break
        except Exception as error:
            self._inflight.pop(request.id, None)
            self._auto_fail(request, _message(error))
            return
        finally:
            generator.close()
        self._inflight.pop(request.id, None)
        if stream:
            self._auto_complete(request)
        elif not request.finished:
            self._auto_fail(request, f"the handler of {request.name!r} yielded no answer")

    async def _drain_async_generator(self, request: Request, generator: Any) -> Any:
        stream = request.kind == "stream"
        try:
            async for element in generator:
                if request.cancelled or request.finished:
                    break
                self._auto_respond(request, element, final=not stream)
                if request.finished:
                    break
        finally:
            await generator.aclose()
        if stream:
            self._auto_complete(request)
        elif not request.finished:
            self._auto_fail(request, f"the handler of {request.name!r} yielded no answer")
        return _STREAM_DONE

    def _start_async(self, request: Request, awaitable: Awaitable[Any]) -> None:
        import asyncio

        loop: Optional[asyncio.AbstractEventLoop]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = self._loop
        if loop is None or loop.is_closed():
            if inspect.iscoroutine(awaitable):
                awaitable.close()
            message = (
                f"the handler of {request.name!r} is async but no asyncio event loop runs here: "
                "send from a coroutine, or attach the store to a loop (store.attach(loop))"
            )
            if request.finished:
                self._raise_later(RuntimeError(message))
            else:
                self._auto_fail(request, message)
            return
        task = asyncio.ensure_future(awaitable, loop=loop)
        if not request.finished:
            self._inflight[request.id] = task
        task.add_done_callback(lambda done: self._future_done(request, done))

    def _future_done(self, request: Request, future: Any) -> None:
        """A coroutine, task or future of a handler finished: answer with its outcome. Runs where
        the future finished (the event loop; a worker thread), outside any call into the store:
        the answer is a call of its own, and what it raises comes out here."""
        self._inflight.pop(request.id, None)
        if request.cancelled:
            return
        if request.finished:
            # A fire-and-forget handler's outcome: nothing to answer; its error is not dropped.
            if not future.cancelled() and future.exception() is not None:
                raise future.exception()
            return
        if future.cancelled():
            self._auto_fail(request, "the handler was cancelled")
        elif future.exception() is not None:
            self._auto_fail(request, _message(future.exception()))
        elif future.result() is not _STREAM_DONE:
            result = future.result()
            if request.kind == "stream":
                if result is not None:
                    self._auto_respond(request, result, final=False)
                self._auto_complete(request)
            else:
                self._auto_respond(request, result)
        if self._raised:
            self._surface()

    def _auto_respond(self, request: Request, value: Any, final: bool = True) -> None:
        """Answers with a handler's result. When the library refuses it (an answer that does not
        fit the response type), the request is failed with the library's message, and the error
        comes out of the call that ran the handler: it is a bug of the handler."""
        if request.cancelled or request.finished or self._h is None:
            return
        try:
            data = encode(value, f"the answer to {request.name!r}")
        except TypeError as error:
            self._auto_fail(request, _message(error))
            self._raise_later(error)
            return
        status = _lib.tca_store_respond_n(self._h, request.id, data, len(data))
        if status == 0:
            if final:
                self._finish(request)
            return
        if self._request_gone(request, status):
            return
        refusal = self._error(status)
        # NB: the library's message is written for a host that may answer again ("the request
        # is still waiting"); the package fails the request instead, and says so, in the same
        # words in the request's failure and in the exception.
        text = _refused_answer(request.name, refusal.message)
        self._auto_fail(request, text)
        self._raise_later(type(refusal)(text, refusal.status))

    def _auto_fail(self, request: Request, message: str) -> None:
        if request.cancelled or request.finished or self._h is None:
            return
        self._finish(request)
        status = _lib.tca_store_fail(self._h, request.id, _c_text(message))
        if status and not self._request_gone(request, status):
            self._raise_later(self._error(status))

    def _auto_complete(self, request: Request) -> None:
        if request.cancelled or request.finished or self._h is None:
            return
        self._finish(request)
        status = _lib.tca_store_complete(self._h, request.id)
        if status and not self._request_gone(request, status):
            self._raise_later(self._error(status))

    def _request_gone(self, request: Request, status: int) -> bool:
        """Whether the request ended on the library's side meanwhile (cancelled, its store
        closed): its answer is then dropped without an error."""
        return (
            request.cancelled
            or self._h is None
            or status in (_native.ERR_REQUEST_FINISHED, _native.ERR_INVALID_HANDLE)
        )

    def _finish(self, request: Request) -> None:
        request.finished = True
        self._requests.pop(request.id, None)

    def _on_cancel(self, rid: int) -> None:
        request = self._requests.pop(rid, None)
        pending = self._inflight.pop(rid, None)
        if request is not None:
            request.cancelled = True
        if pending is not None:
            if inspect.isgenerator(pending):
                pending.close()
            else:
                pending.cancel()
        if request is not None:
            hooks, request._cancel_hooks = request._cancel_hooks, []
            for hook in hooks:
                hook()

    # ---- answers (low level) ------------------------------------------------------------------

    def respond(self, request_id: int, value: Any) -> None:
        """Answers request `request_id` with `value` (JSON-encoded; bytes as they are): a
        one-shot request's answer, or one more element of a stream. May be called from any
        thread; the answer is processed at once if the store is free, else by the call holding
        it. Raises `TCAError` if the library refuses the answer."""
        request_id = uint64(request_id, "respond: request_id")
        data = encode(value, "the answer")
        status = _lib.tca_store_respond_n(self._h, request_id, data, len(data))
        request = self._requests.get(request_id)
        if status == 0 and request is not None and not request.stream:
            self._finish(request)
        self._check(status)

    def fail(self, request_id: int, message: Union[str, BaseException]) -> None:
        """Fails request `request_id` (ends a stream) with `message`."""
        request_id = uint64(request_id, "fail: request_id")
        if isinstance(message, str):
            text = c_string(message, "fail: message")
        else:
            text = _c_text(_message(message))
        status = _lib.tca_store_fail(self._h, request_id, text)
        request = self._requests.get(request_id)
        if status == 0 and request is not None:
            self._finish(request)
        self._check(status)

    def complete(self, request_id: int) -> None:
        """Ends stream `request_id`."""
        request_id = uint64(request_id, "complete: request_id")
        status = _lib.tca_store_complete(self._h, request_id)
        request = self._requests.get(request_id)
        if status == 0 and request is not None:
            self._finish(request)
        self._check(status)
