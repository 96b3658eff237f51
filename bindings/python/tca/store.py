"""`Store`: a running libtca store, driven with Python values.

The class is put together from one module per concern:
- `_core`: the handle, the bookkeeping, failures and exceptions raised in callbacks;
- `effects`: effect handlers, requests in flight, answers (`respond`, `fail`, `complete`);
- `patch`: `patch(since_version)`, and `apply_patch`;
- `subscriptions`: `subscribe` and `Subscription` (on `patch`: a subscriber may take patches);
- `clock`: `poll`, `advance`, `next_deadline`, `fileno`, event loops (asyncio's in `aio`);
- `journal`: `journal()` and `Store.replay(...)` of a store made with `record=True`;
- `_options`, `_codec`, `_fastsend`: a new store's options, JSON in and out, the compiled send;
- this module: creating a store, sending actions, reading state, closing.

Dependencies go one way: no module this one imports imports it (`aio`, `_fastsend` and
`_lifetime` take any object with what they need), nor one another in a circle
(tests/test_imports.py).
"""

from __future__ import annotations

import ctypes
import sys
import weakref
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from . import _fastsend, _lifetime, _native
from ._codec import ENCODED, encode, encode_text, loads
from ._options import make_options
from ._schema import schema as feature_schema
from ._validate import c_string
from .clock import Clock
from .effects import Effects, Handler
from .errors import error_for
from .journal import Journal
from .patch import Patches
from .request import Request
from .subscriptions import Subscription, Subscriptions

__all__ = ["Action", "Handler", "Request", "Store", "Subscription"]

Action = Union[str, Mapping[str, Any], bytes]
"""An action: a case name (`"incrementButtonTapped"`), a dict in the wire format
(`{"setCount": 5}`), or JSON bytes."""

State = Union[Mapping[str, Any], str, bytes]
"""A state to start from: a dict, or JSON text (a snapshot)."""

_lib = _native.lib


class Store(Effects, Subscriptions, Clock, Journal, Patches, _fastsend.StoreBase):
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
    - `requests`: `"callback"` (effect handlers answer host requests inside the calls that make
      them) or `"queued"` (pull mode: requests wait in the store until `take_requests()`).
    - `answers`: `"any_thread"` (an answer is applied by the call that gives it, on its thread)
      or `"host_thread"` (an answer from any thread is only queued; the next `poll`, `send` or
      `advance` applies it, so subscribers and requests all run on the host's thread).
    - `record`: keep a journal of every input, for `journal()` and `Store.replay(...)` (time
      travel, `python -m tca replay`).
    - `record_limit`: with `record`, how many journal lines to keep (0: all); older ones fold
      into a checkpoint, from whose version on `Store.replay` works (docs/wire-format.md,
      "Checkpoints").
    - `shared`: `"process"` (the state's shared fields are shared with every store of the
      process holding the same key) or `"isolated"` (they are this store's own: no other store
      sees its changes, nor it theirs; what `tca.testing.TestStore` uses).

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
        requests: str = "callback",
        answers: str = "any_thread",
        record: bool = False,
        record_limit: int = 0,
        shared: str = "process",
        _journal: Optional[Tuple[bytes, int]] = None,
    ) -> None:
        options = make_options(
            clock, seed, threaded, requests, answers, record, record_limit, shared
        )
        feature_name = c_string(feature, "Store: feature")
        self.feature = feature
        self._h = None
        # NB: the handle again as a c_void_p, for send's hot path (see _native.store_send).
        self._hp: Optional[ctypes.c_void_p] = None
        # What the compiled send needs of this store (tca._fastsend); None: the pure path.
        self._sender: Any = None
        self._raised = []
        self._handlers = {}
        self._fallback = None
        self._requests = {}
        self._inflight = {}
        self._subscribers = []
        self._subscription_token = None
        # The state `state` last decoded and its version (-1: none yet).
        self._cached: Tuple[int, Any] = (-1, None)
        self._loop = None
        self._attachments = []

        state_json = None
        if state is not None:
            if isinstance(state, (str, bytes, bytearray, memoryview)):
                state_json = c_string(state, "Store: state")
            else:
                state_json = encode(state, "state")
        handle = ctypes.c_void_p()
        if _journal is not None:
            # NB: Store.replay: a store rebuilt from a journal (tca.journal).
            status = _lib.tca_store_replay(
                _journal[0], len(_journal[0]), _journal[1], ctypes.byref(options),
                ctypes.byref(handle),
            )
        elif _native.has("tca_store_new_n"):
            status = _lib.tca_store_new_n(
                feature_name,
                state_json,
                0 if state_json is None else len(state_json),
                ctypes.byref(options),
                ctypes.byref(handle),
            )
        else:  # pragma: no cover - a library older than tca.h 0.1's full API
            status = _lib.tca_store_new(
                feature_name, state_json, ctypes.byref(options), ctypes.byref(handle)
            )
        if status:
            raise error_for(status)
        self._h = handle.value
        self._hp = handle
        _lifetime.register(self)
        self.clock = clock
        self.seed = seed
        self.threaded = threaded
        self.requests = requests
        self.answers = answers
        self.record = record
        self._install_callbacks()

        # Pre-bound for send's fast path.
        self._send = _native.store_send
        self._send_n = _lib.tca_store_send_n
        # NB: last, once `send` can run: the compiled send's binding, where tca._speedups is built.
        _fastsend.install(self)

    def _install_callbacks(self) -> None:
        # NB: the trampolines reach the store through a weak reference, so that dropping the last
        # reference to a Store frees it at once (no cycle through the callbacks to wait for).
        this = weakref.ref(self)
        # NB: once the interpreter exits, callbacks return at once (see _lifetime).
        exiting = _lifetime.exiting

        def on_request(_userdata: Any, _store: Any, request: Any) -> None:
            if exiting():
                return
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
            if exiting():
                return
            store = this()
            if store is None:
                return
            try:
                store._on_cancel(rid)
            except BaseException as error:  # noqa: BLE001
                store._raise_later(error)

        def on_state(_userdata: Any, _store: Any, version: int) -> None:
            if exiting():
                return
            store = this()
            if store is not None:
                store._notify(version)

        # NB: C keeps raw pointers to these; they live as long as the store (see close()).
        self._request_fn = _native.RequestFn(on_request)
        self._cancel_fn = _native.CancelFn(on_cancel)
        self._state_fn = _native.StateFn(on_state)
        # NB: a queued store keeps its requests for take_requests(): no request callback.
        if self.requests == "callback" and _native.has("tca_store_set_request_handler"):
            self._check(
                _lib.tca_store_set_request_handler(
                    self._h, self._request_fn, self._cancel_fn, None
                )
            )

    # ---- actions and state --------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """Sends an action and processes everything it leads to before returning: the reducer,
        synchronous effects, host requests (your handlers run inside this call), and async work
        up to the point where it waits (on the clock, or on an answer).

        Raises `JSONShapeError` (not an action of this feature) or `JSONSyntaxError` with the
        library's message; then nothing was sent and the state is unchanged.
        """
        # NB: the hot path, kept short: every line here costs on each send (docs/benchmarks.md).
        if action.__class__ is str:
            try:
                data = ENCODED[action]
            except KeyError:
                data = encode_text(action)
        elif isinstance(action, (bytes, bytearray, memoryview)):
            data = bytes(action)
            status = self._send_n(self._h, data, len(data))
            if status or self._raised:
                self._surface(status)
            return
        else:
            data = encode(action, "action")
        # NB: JSON from json.dumps never holds a NUL byte, so the NUL-terminated call is safe.
        # The handle goes as the c_void_p `_hp` (None once closed: the library's closed-store
        # error), the JSON as bytes: store_send converts neither.
        # NB: read first, then called: `self._send(...)` would be a method lookup that Python
        # cannot specialize for an instance attribute.
        call = self._send
        status = call(self._hp, data)
        if status or self._raised:
            self._surface(status)

    @property
    def version(self) -> int:
        """The state's version: it changes whenever the state does."""
        if self._h is None:
            raise self._closed_error()
        version: int = _lib.tca_store_version(self._h)
        return version

    @property
    def state(self) -> Any:
        """The current state, decoded from JSON; cached per state version, and brought up to
        date by applying the patch since the cached version (`patch`), so reading it after a
        change costs what changed. It is shared: don't change it (take a `snapshot()` for a copy
        of your own); a value read earlier is never changed by a later read."""
        if not _native.has("tca_store_version"):  # pragma: no cover - a library before tca.h 0.1
            return loads(self.state_json())
        version = self.version
        # NB: the cache is one tuple, (version, state), read and replaced whole: threads reading
        # at once never see a state under another version's label (docs/python.md, "Threads").
        cached_version, cached = self._cached
        if version == cached_version:
            return cached
        state = None
        if cached_version >= 0 and _native.has("tca_store_patch"):
            state = self._patched_state(cached, cached_version)
        if state is None:
            state = loads(self.state_json())
        # NB: the patch (or the JSON) is of the version current when it was made, which `version`
        # names only if nothing changed meanwhile (another thread's send): else the value is
        # returned, maybe newer than `version`, but not cached, for want of its version. A newer
        # state another thread cached meanwhile is kept (replacing it would cost a later read).
        if self.version == version and version > self._cached[0]:
            self._cached = (version, state)
        return state

    @property
    def schema(self) -> Dict[str, Any]:
        """The schema of this store's feature (`tca.schema(store.feature)`, docs/schema.md): the
        JSON Schemas of its state, actions and requests. A new dict on every read."""
        return feature_schema(self.feature)

    def state_json(self) -> bytes:
        """The current state as JSON bytes (the library caches them per version)."""
        pointer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(_lib.tca_store_state(self._h, ctypes.byref(pointer), ctypes.byref(length)))
        return _native.take_string(pointer.value, length.value)

    def snapshot(self) -> Any:
        """A copy of the current state that is yours to keep or change; `Store(feature,
        state=snapshot)` starts a store from it."""
        return loads(self.state_json())

    def get(self, pointer: str) -> Any:
        """The part of the state at a JSON Pointer (RFC 6901): `store.get("/todos/0/title")`;
        `""` is the whole state. Raises `LookupError` (a `TCAError`) if nothing is there."""
        pointer_bytes = c_string(pointer, "get: pointer")
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(
            _lib.tca_store_get(self._h, pointer_bytes, ctypes.byref(out), ctypes.byref(length))
        )
        return loads(_native.take_string(out.value, length.value))

    # ---- lifetime -----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._h is None

    def close(self) -> None:
        """Cancels the store's effects (handlers of requests in flight hear of it) and releases
        it; its subscriptions end, and coroutines waiting on it (`wait_for`, `tca.aio.changes`)
        are woken. Later calls raise `InvalidHandleError`. Closing twice is fine."""
        handle = self._h
        if handle is None:
            return
        for attachment in list(self._attachments):
            attachment.detach()
        # NB: the library calls the cancel callback for each request in flight while freeing;
        # the callback objects must outlive this call.
        _lifetime.unregister(self)
        _fastsend.uninstall(self)
        _lifetime.free(handle, _lib.tca_store_free)
        self._h = None
        self._hp = None
        # NB: after the handle: a subscription added meanwhile sees the store closed.
        self._end_subscriptions()
        if self._raised:
            self._surface()

    def _close_at_exit(self) -> None:
        """Frees the store from the exit hook: no event loop is touched (it may belong to
        another thread), and callbacks already return at once."""
        handle, self._h = self._h, None
        self._hp = None
        _fastsend.uninstall(self)
        if handle is None:
            return
        _lifetime.unregister(self)
        _lifetime.free(handle, _lib.tca_store_free)

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


# NB: Store.send is the compiled send where tca._speedups is built (docs/python.md, "The compiled
# send"): a method of C that takes the pure-Python one above for what it does not handle itself.
setattr(Store, "send", _fastsend.compiled_method(Store, Store.send))

if sys.version_info < (3, 9):  # pragma: no cover
    raise ImportError("tca needs Python 3.9 or newer")
