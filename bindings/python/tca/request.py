"""`Request`: a host request, as a catch-all handler receives it."""

from __future__ import annotations

from typing import Any, Callable, List, Protocol, Union

from . import _native
from ._codec import loads

__all__ = ["KINDS", "Answers", "Request"]

KINDS = {
    _native.REQUEST_ONE_SHOT: "oneShot",
    _native.REQUEST_STREAM: "stream",
    _native.REQUEST_FIRE_AND_FORGET: "fireAndForget",
}


class Answers(Protocol):
    """What answers a request: its store (`tca.Store`)."""

    def respond(self, request_id: int, value: Any) -> None: ...

    def fail(self, request_id: int, message: Union[str, BaseException]) -> None: ...

    def complete(self, request_id: int) -> None: ...


class Request:
    """A host request, as a catch-all handler (`Store.on_request`) receives it.

    `id` names it in answers, `name` says what to do, `payload` is the decoded payload
    (`payload_json` the raw bytes), `kind` says how it is answered: `"oneShot"`, `"stream"` or
    `"fireAndForget"` (which takes no answer). Answer it now or later, on any thread:
    `respond(value)` (once for a one-shot request; once per element of a stream),
    `fail(message)`, `complete()` (ends a stream). `cancelled` turns true when the store cancels
    it (the effect that made it was cancelled, or the store closed); `on_cancel(fn)` calls `fn()`
    then.
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
        self, store: Answers, request_id: int, name: str, payload_json: bytes, kind: str
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
        return loads(self.payload_json)

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
