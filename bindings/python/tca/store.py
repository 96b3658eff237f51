"""`Store`: a running libtca store, driven with Python values."""

from __future__ import annotations

import ctypes
import inspect
import json
import sys
import threading
import weakref
from concurrent.futures import Future
from types import TracebackType
from typing import (
    TYPE_CHECKING,
    Any,
    Awaitable,
    Callable,
    Dict,
    Generator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Type,
    Tuple,
    TypeVar,
    Union,
)

from . import _native
from .errors import InvalidHandleError, TCAError, error_for

if TYPE_CHECKING:
    import asyncio

    from .aio import Attachment

__all__ = ["Action", "Handler", "Request", "Store", "Subscription"]

Action = Union[str, Mapping[str, Any], bytes]
"""An action: a case name (`"incrementButtonTapped"`), a dict in the wire format
(`{"setCount": 5}`), or JSON bytes."""

State = Union[Mapping[str, Any], str, bytes]
"""A state to start from: a dict, or JSON text (a snapshot)."""

Handler = Callable[[Any], Any]
"""An effect handler: called with the request's decoded payload; see `Store.effect`."""

H = TypeVar("H", bound=Callable[..., Any])

_lib = _native.lib
_dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode
_loads = json.loads

# Encodings of string actions ("incrementButtonTapped" -> b'"incrementButtonTapped"'), shared by
# every store: a host sends the same few names over and over.
_ENCODED: Dict[str, bytes] = {}
_ENCODED_LIMIT = 4096


def _encode_text(value: str) -> bytes:
    data = _dumps(value).encode()
    if len(_ENCODED) >= _ENCODED_LIMIT:
        _ENCODED.clear()
    _ENCODED[value] = data
    return data


def _encode(value: Any, what: str) -> bytes:
    """JSON bytes of a Python value (bytes pass through as they are)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    try:
        return _dumps(value).encode()
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} cannot be written as JSON: {error}") from error


def _message(error: BaseException) -> str:
    text = str(error)
    return text if text else type(error).__name__


_CLOCKS = {"real": _native.CLOCK_REAL, "manual": _native.CLOCK_MANUAL}
_KINDS = {
    _native.REQUEST_ONE_SHOT: "oneShot",
    _native.REQUEST_STREAM: "stream",
    _native.REQUEST_FIRE_AND_FORGET: "fireAndForget",
}


class Request:
    """A host request, as a catch-all handler (`Store.on_request`) receives it.

    `id` names it in answers, `name` says what to do, `payload` is the decoded payload
    (`payload_json` the raw bytes), `kind` says how it is answered: `"oneShot"`, `"stream"` or
    `"fireAndForget"` (which takes no answer). Answer it now or later, on any thread: `respond(value)` (once
    for a one-shot request; once per element of a stream), `fail(message)`, `complete()` (ends a
    stream). `cancelled` turns true when the store cancels it (the effect that made it was
    cancelled, or the store closed); `on_cancel(fn)` calls `fn()` then.
    """

    __slots__ = (
        "id",
        "name",
        "payload_json",
        "_store",
        "_cancel_hooks",
        "cancelled",
        "finished",
        "kind",
    )

    def __init__(
        self, store: Store, request_id: int, name: str, payload_json: bytes, kind: str
    ) -> None:
        self.id = request_id
        self.name = name
        self.payload_json = payload_json
        self._store = store
        self._cancel_hooks: List[Callable[[], Any]] = []
        self.cancelled = False
        self.finished = False
        self.kind = kind

    @property
    def payload(self) -> Any:
        """The payload, decoded from JSON."""
        return _loads(self.payload_json)

    def respond(self, value: Any) -> None:
        """Answers with `value` (encoded as JSON; bytes are sent as they are)."""
        self._store.respond(self.id, value)

    def fail(self, message: Union[str, BaseException]) -> None:
        """Fails the request (ends a stream) with `message`."""
        self._store.fail(self.id, message)

    def complete(self) -> None:
        """Ends a stream."""
        self._store.complete(self.id)

    @property
    def stream(self) -> bool:
        """Whether the request takes many answers, then `complete()`."""
        return self.kind == "stream"

    def on_cancel(self, fn: Callable[[], Any]) -> None:
        """Calls `fn()` when the store cancels the request (at once if it already has)."""
        if self.cancelled:
            fn()
        else:
            self._cancel_hooks.append(fn)

    def __repr__(self) -> str:
        return f"<tca.Request #{self.id} {self.name} {self.payload_json.decode(errors='replace')}>"


class Subscription:
    """What `Store.subscribe` returns: call it, or its `unsubscribe()`, or leave its `with` block,
    to stop the calls."""

    __slots__ = ("_store", "_fn", "__weakref__")

    def __init__(self, store: Store, fn: Callable[[int], Any]) -> None:
        self._store: Optional[Store] = store
        self._fn = fn

    @property
    def active(self) -> bool:
        return self._store is not None

    def unsubscribe(self) -> None:
        """Stops the calls. Unsubscribing twice is fine."""
        store, self._store = self._store, None
        if store is not None:
            store._drop_subscriber(self)

    __call__ = unsubscribe

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.unsubscribe()


class Store:
    """A store of one of the library's features.

    >>> with Store("counter") as store:
    ...     store.send("incrementButtonTapped")
    ...     store.state["count"]
    1

    - `feature`: a name from `tca.features()`.
    - `state`: where to start: a dict or JSON text (a `snapshot()`); None for the feature's
      default state. Fields left out take their defaults, as the feature decides.
    - `clock`: `"real"` (monotonic time; timers fire in `poll`, when `fileno()` is readable) or
      `"manual"` (time moves only by `advance(ms)`: tests, replays, a game's clock).
    - `seed`: the seed of the store's random generator, for replayable runs; None (or 0): one
      from the system.
    - `threaded`: run due work on a thread of the store's own (if the library offers it).

    Every method may raise a subclass of `tca.TCAError` carrying the library's message. Callbacks
    (effect handlers, subscribers) run inside the calls into the store (`send`, `poll`,
    `advance`, answers) on the calling thread; an exception one of them raises comes out of that
    call, after the store has finished its work.
    """

    def __init__(
        self,
        feature: str,
        state: Optional[State] = None,
        *,
        clock: str = "real",
        seed: Optional[int] = None,
        threaded: bool = False,
    ) -> None:
        if clock not in _CLOCKS:
            raise ValueError(f"clock must be 'real' or 'manual', not {clock!r}")
        if seed is not None and not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be in 0 ..< 2**64, not {seed}")
        self.feature = feature
        self._h: Optional[int] = None
        self._raised: List[Tuple[int, BaseException]] = []
        self._handlers: Dict[str, Handler] = {}
        self._fallback: Optional[Callable[[Request], Any]] = None
        self._requests: Dict[int, Request] = {}
        self._inflight: Dict[int, Any] = {}
        self._subscribers: List[Subscription] = []
        self._subscription_token: Optional[int] = None
        self._state_version = -1
        self._state: Any = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        # Event loops driving the store (asyncio, Tk): detached when it closes.
        self._attachments: List[Any] = []

        state_json = None
        if state is not None:
            state_json = state.encode() if isinstance(state, str) else _encode(state, "state")
        options = _native.Options(
            _native.OPTIONS_VERSION, _CLOCKS[clock], 1 if threaded else 0, seed or 0
        )
        handle = ctypes.c_void_p()
        if _native.has("tca_store_new_n"):
            status = _lib.tca_store_new_n(
                feature.encode(),
                state_json,
                0 if state_json is None else len(state_json),
                ctypes.byref(options),
                ctypes.byref(handle),
            )
        else:  # pragma: no cover - a library older than tca.h 0.1's full API
            status = _lib.tca_store_new(
                feature.encode(), state_json, ctypes.byref(options), ctypes.byref(handle)
            )
        if status:
            raise error_for(status)
        self._h = handle.value
        self.clock = clock
        self.seed = seed
        self.threaded = threaded

        # NB: the trampolines reach the store through a weak reference, so that dropping the last
        # reference to a Store frees it at once (no cycle through the callbacks to wait for).
        this = weakref.ref(self)

        def on_request(_userdata: Any, _store: Any, request: Any) -> None:
            store = this()
            if store is None:
                return
            try:
                r = request.contents
                payload = ctypes.string_at(r.payload_json, r.payload_length)
                store._on_request(r.id, r.name.decode(), payload, r.kind)
            except BaseException as error:  # noqa: BLE001 - nothing may unwind into C
                store._raise_later(error)

        def on_cancel(_userdata: Any, _store: Any, rid: int) -> None:
            store = this()
            if store is None:
                return
            try:
                store._on_cancel(rid)
            except BaseException as error:  # noqa: BLE001
                store._raise_later(error)

        def on_state(_userdata: Any, _store: Any, version: int) -> None:
            store = this()
            if store is None:
                return
            for subscription in list(store._subscribers):
                if subscription.active:
                    try:
                        subscription._fn(version)
                    except BaseException as error:  # noqa: BLE001
                        store._raise_later(error)

        # NB: C keeps raw pointers to these; they live as long as the store (see close()).
        self._request_fn = _native.RequestFn(on_request)
        self._cancel_fn = _native.CancelFn(on_cancel)
        self._state_fn = _native.StateFn(on_state)
        if _native.has("tca_store_set_request_handler"):
            self._check(
                _lib.tca_store_set_request_handler(
                    self._h, self._request_fn, self._cancel_fn, None
                )
            )

        # Pre-bound for send's fast path.
        self._send = _lib.tca_store_send
        self._send_n = _lib.tca_store_send_n

    # ---- errors -------------------------------------------------------------------------------

    def _raise_later(self, error: BaseException) -> None:
        """Keeps an exception raised in a callback, for the call that ran it to raise."""
        if self.threaded and isinstance(threading.current_thread(), threading._DummyThread):
            # NB: a threaded store's own thread runs callbacks with no Python call to raise
            # from: report it as an uncaught exception of that thread.
            args = _ThreadErrorArgs(type(error), error, error.__traceback__)
            threading.excepthook(args)  # type: ignore[arg-type]
            return
        self._raised.append((threading.get_ident(), error))

    def _error(self, status: int) -> TCAError:
        if status == _native.ERR_INVALID_HANDLE and self._h is None:
            return InvalidHandleError(f"the {self.feature} store is closed", status)
        return error_for(status)

    def _surface(self, status: int = 0) -> None:
        """Raises the failure of the call just made (`status`) or the first exception a callback
        raised during it; later exceptions are chained as its context."""
        failure: Optional[BaseException] = self._error(status) if status else None
        if self._raised:
            me = threading.get_ident()
            mine = [error for thread, error in self._raised if thread == me]
            if mine:
                self._raised[:] = [pair for pair in self._raised if pair[0] != me]
                first = mine[0]
                for later in mine[1:]:
                    if hasattr(first, "add_note"):
                        first.add_note(f"also raised in a callback: {later!r}")
                if failure is not None:
                    first.__context__ = failure
                raise first
        if failure is not None:
            raise failure

    def _check(self, status: int) -> None:
        if status or self._raised:
            self._surface(status)

    # ---- actions and state --------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """Sends an action and processes everything it leads to before returning: the reducer,
        synchronous effects, host requests (your handlers run inside this call), and async work
        up to the point where it waits (on the clock, or on an answer).

        Raises `JSONShapeError` (not an action of this feature) or `JSONSyntaxError` with the
        library's message; then nothing was sent and the state is unchanged.
        """
        try:
            data = _ENCODED[action]  # type: ignore[index]
        except (KeyError, TypeError):
            if isinstance(action, str):
                data = _encode_text(action)
            elif isinstance(action, (bytes, bytearray, memoryview)):
                data = bytes(action)
                status = self._send_n(self._h, data, len(data))
                if status or self._raised:
                    self._surface(status)
                return
            else:
                data = _encode(action, "action")
        # NB: JSON from json.dumps never holds a NUL byte, so the NUL-terminated call is safe.
        status = self._send(self._h, data)
        if status or self._raised:
            self._surface(status)

    @property
    def version(self) -> int:
        """The state's version: it changes whenever the state does."""
        if self._h is None:
            raise InvalidHandleError(f"the {self.feature} store is closed", 2)
        version: int = _lib.tca_store_version(self._h)
        return version

    @property
    def state(self) -> Any:
        """The current state, decoded from JSON; cached per state version. It is shared: don't
        change it (take a `snapshot()` for a copy of your own)."""
        if _native.has("tca_store_version"):
            version = self.version
            if version == self._state_version:
                return self._state
            self._state = _loads(self.state_json())
            self._state_version = version
            return self._state
        return _loads(self.state_json())

    def state_json(self) -> bytes:
        """The current state as JSON bytes (the library caches them per version)."""
        pointer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(_lib.tca_store_state(self._h, ctypes.byref(pointer), ctypes.byref(length)))
        return _native.take_string(pointer.value, length.value)

    def snapshot(self) -> Any:
        """A copy of the current state that is yours to keep or change; `Store(feature,
        state=snapshot)` starts a store from it."""
        return _loads(self.state_json())

    def get(self, pointer: str) -> Any:
        """The part of the state at a JSON Pointer (RFC 6901): `store.get("/todos/0/title")`;
        `""` is the whole state. Raises `LookupError` (a `TCAError`) if nothing is there."""
        pointer_bytes = pointer.encode()
        if b"\0" in pointer_bytes:
            raise ValueError("a JSON Pointer cannot contain a NUL character")
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(
            _lib.tca_store_get(self._h, pointer_bytes, ctypes.byref(out), ctypes.byref(length))
        )
        return _loads(_native.take_string(out.value, length.value))

    # ---- subscriptions ------------------------------------------------------------------------

    def subscribe(self, fn: Callable[[int], Any]) -> Subscription:
        """Calls `fn(version)` at the end of each call into the store that changed its state
        (once per call, on that call's thread). Returns a `Subscription`: call it (or its
        `unsubscribe()`, or use it in a `with` block) to stop."""
        subscription = Subscription(self, fn)
        if self._subscription_token is None:
            token = ctypes.c_uint64()
            self._check(
                _lib.tca_store_subscribe(self._h, self._state_fn, None, ctypes.byref(token))
            )
            self._subscription_token = token.value
        self._subscribers.append(subscription)
        return subscription

    def _drop_subscriber(self, subscription: Subscription) -> None:
        try:
            self._subscribers.remove(subscription)
        except ValueError:
            return
        if not self._subscribers and self._subscription_token is not None and self._h:
            _lib.tca_store_unsubscribe(self._h, self._subscription_token)
            self._subscription_token = None

    # ---- effects ------------------------------------------------------------------------------

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
        message naming the request.
        """

        def register(fn: H) -> H:
            self._handlers[name] = fn
            return fn

        return register

    def on_request(self, fn: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """Registers a catch-all handler: it receives the `Request` of every request that has no
        `effect` handler, and answers it (now or later) through the request's methods. An
        exception it raises fails the request."""
        self._fallback = fn
        return fn

    def remove_effect(self, name: str) -> None:
        """Unregisters the handler of `name` (no error if there is none)."""
        self._handlers.pop(name, None)

    @property
    def pending_requests(self) -> List[Request]:
        """The requests made and not yet answered, failed, completed or cancelled."""
        return list(self._requests.values())

    def _on_request(self, rid: int, name: str, payload_json: bytes, kind_code: int) -> None:
        kind = _KINDS.get(kind_code, "oneShot")
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
            data = _encode(value, f"the answer to {request.name!r}")
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
        self._auto_fail(request, _message(refusal))
        self._raise_later(refusal)

    def _auto_fail(self, request: Request, message: str) -> None:
        if request.cancelled or request.finished or self._h is None:
            return
        self._finish(request)
        status = _lib.tca_store_fail(self._h, request.id, message.encode("utf-8", "replace"))
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
        data = _encode(value, "the answer")
        status = _lib.tca_store_respond_n(self._h, request_id, data, len(data))
        request = self._requests.get(request_id)
        if status == 0 and request is not None and not request.stream:
            self._finish(request)
        self._check(status)

    def fail(self, request_id: int, message: Union[str, BaseException]) -> None:
        """Fails request `request_id` (ends a stream) with `message`."""
        text = message if isinstance(message, str) else _message(message)
        status = _lib.tca_store_fail(self._h, request_id, text.encode("utf-8", "replace"))
        request = self._requests.get(request_id)
        if status == 0 and request is not None:
            self._finish(request)
        self._check(status)

    def complete(self, request_id: int) -> None:
        """Ends stream `request_id`."""
        status = _lib.tca_store_complete(self._h, request_id)
        request = self._requests.get(request_id)
        if status == 0 and request is not None:
            self._finish(request)
        self._check(status)

    # ---- time and the loop --------------------------------------------------------------------

    def poll(self) -> int:
        """Runs whatever is due (answers from other threads, timers whose deadline passed, the
        work they release) on this thread; returns how much ran."""
        ran = ctypes.c_uint32()
        self._check(_lib.tca_store_poll(self._h, ctypes.byref(ran)))
        return ran.value

    def advance(self, ms: int) -> None:
        """Moves a manual clock by `ms` milliseconds, firing due timers in deadline order, each
        followed by the work it releases. A real-clock store raises `RealClockError`."""
        if ms < 0:
            raise ValueError(f"cannot advance by a negative time ({ms} ms)")
        self._check(_lib.tca_store_advance(self._h, ms))

    def next_deadline(self) -> Optional[int]:
        """Milliseconds until the next timer is due (0: due now), None if none is pending. A loop
        with no descriptor to wait on may sleep this long, then `poll()`."""
        if self._h is None:
            raise InvalidHandleError(f"the {self.feature} store is closed", 2)
        ms: int = _lib.tca_store_next_deadline_ms(self._h)
        return None if ms < 0 else ms

    def fileno(self) -> int:
        """A descriptor readable exactly when `poll()` has something to do (for select, asyncio's
        `add_reader`, Tk's `createfilehandler`). Owned by the store: don't close it."""
        fd: int = _lib.tca_store_fd(self._h)
        if fd < 0:
            raise self._error(_native.ERR_INVALID_HANDLE if self._h is None else _native.ERR_SYSTEM)
        return fd

    def attach(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> Attachment:
        """Drives the store from an asyncio event loop (the running one by default): the loop
        calls `poll()` whenever `fileno()` turns readable, and `async` effect handlers run on it.
        Returns an `Attachment`: `detach()` it, or use it in a `with`/`async with` block."""
        from .aio import Attachment

        return Attachment(self, loop)

    async def wait_for(
        self, predicate: Callable[[Any], Any], timeout: Optional[float] = None
    ) -> Any:
        """Waits (on the running event loop) until `predicate(state)` is true; returns the state.
        Raises `asyncio.TimeoutError` after `timeout` seconds."""
        from .aio import wait_for

        return await wait_for(self, predicate, timeout)

    # ---- lifetime -----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._h is None

    def close(self) -> None:
        """Cancels the store's effects (handlers of requests in flight hear of it) and releases
        it; later calls raise `InvalidHandleError`. Closing twice is fine."""
        handle = self._h
        if handle is None:
            return
        for attachment in list(self._attachments):
            attachment.detach()
        # NB: the library calls the cancel callback for each request in flight while freeing;
        # the callback objects must outlive this call.
        _lib.tca_store_free(handle)
        self._h = None
        self._subscribers.clear()
        self._subscription_token = None
        if self._raised:
            self._surface()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # NB: at interpreter exit the module globals may already be gone; never raise here.
        try:
            if getattr(self, "_h", None) is not None:
                self._raised = []
                self.close()
        except BaseException:  # noqa: BLE001
            pass

    def __repr__(self) -> str:
        shown = "closed" if self._h is None else f"version {self.version}"
        return f"<tca.Store {self.feature!r} {self.clock} clock, {shown}>"


class _ThreadErrorArgs(NamedTuple):
    exc_type: Type[BaseException]
    exc_value: Optional[BaseException]
    exc_traceback: Optional[TracebackType]
    thread: Optional[threading.Thread] = None


_STREAM_DONE = object()  # what the task of an async generator handler returns: nothing to answer


if sys.version_info < (3, 9):  # pragma: no cover
    raise ImportError("tca needs Python 3.9 or newer")
