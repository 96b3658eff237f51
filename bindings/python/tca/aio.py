"""asyncio integration: a store driven by the event loop through its descriptor.

    async def main():
        with tca.Store("counter") as store, store.attach():
            @store.effect("numberFact.fetch")
            async def fetch(count):
                await asyncio.sleep(0.1)
                return f"{count} is a number."

            store.send("numberFactButtonTapped")
            state = await store.wait_for(lambda s: s["numberFact"])

`attach` registers `store.fileno()` with `loop.add_reader`, so the loop calls `store.poll()`
whenever the library has due work (a timer's deadline passed, an answer arrived from another
thread), and makes the loop the one `async` effect handlers run on. An exception `poll` raises
there (a subscriber's, say) goes to the loop's exception handler.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, List, Optional, Protocol

if TYPE_CHECKING:
    from .errors import InvalidHandleError
    from .subscriptions import Subscription

__all__ = ["AioStore", "Attachment", "attach", "changes", "wait_for"]


class AioStore(Protocol):
    """What this module needs of a store: a `tca.Store` is one.

    NB: a protocol rather than the `Store` class, so that this module, below tca.store (the
    store's `attach` and `wait_for` come here), never imports it."""

    feature: str
    _loop: Optional[asyncio.AbstractEventLoop]
    _attachments: List[Any]

    @property
    def state(self) -> Any: ...

    @property
    def closed(self) -> bool: ...

    def fileno(self) -> int: ...

    def poll(self) -> int: ...

    def _watch(self, fn: Callable[..., Any], on_close: Callable[[], Any]) -> Subscription: ...

    def _closed_error(self) -> InvalidHandleError: ...


class Attachment:
    """A store attached to an event loop. `detach()` (or leaving its `with` / `async with`
    block) removes the reader; closing the store detaches it too."""

    def __init__(self, store: AioStore, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        if loop is None:
            loop = asyncio.get_running_loop()
        if store._loop is not None:
            raise RuntimeError(f"the {store.feature} store is already attached to an event loop")
        self.store: Optional[AioStore] = store
        self.loop = loop
        self.fd = store.fileno()
        loop.add_reader(self.fd, self._ready)
        store._loop = loop
        store._attachments.append(self)

    def _ready(self) -> None:
        if self.store is not None:
            self.store.poll()

    @property
    def attached(self) -> bool:
        return self.store is not None

    def detach(self) -> None:
        """Stops driving the store. Detaching twice is fine."""
        store, self.store = self.store, None
        if store is None:
            return
        if not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
        store._loop = None
        if self in store._attachments:
            store._attachments.remove(self)

    def __enter__(self) -> Attachment:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

    async def __aenter__(self) -> Attachment:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.detach()


def attach(store: AioStore, loop: Optional[asyncio.AbstractEventLoop] = None) -> Attachment:
    """`store.attach(loop)`."""
    return Attachment(store, loop)


def _on_loop(loop: asyncio.AbstractEventLoop, fn: Callable[[], Any]) -> Callable[..., None]:
    """`fn` made callable on any thread, with any arguments (dropped): it runs at once on the
    loop's own thread, and is handed to the loop from any other (a worker thread's send, a
    threaded store's thread, a close); nothing runs once the loop is closed."""

    def call(*_args: Any) -> None:
        try:
            here = asyncio.get_running_loop() is loop
        except RuntimeError:  # no loop runs on this thread
            here = False
        if here:
            fn()
            return
        try:
            # NB: asyncio's futures and events may be touched on their loop's thread only; and a
            # loop asleep in select() hears of nothing else (docs/python.md, "asyncio").
            loop.call_soon_threadsafe(fn)
        except RuntimeError:  # the loop is closed: nobody waits any more
            pass

    return call


async def wait_for(
    store: AioStore, predicate: Callable[[Any], Any], timeout: Optional[float] = None
) -> Any:
    """Waits until `predicate(store.state)` is true and returns the state; checks now, then after
    each change (made on another thread: on the loop's thread, against the state then). Raises
    `asyncio.TimeoutError` after `timeout` seconds, and `InvalidHandleError` if the store is
    closed meanwhile."""
    state = store.state
    if predicate(state):
        return state
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()

    def changed() -> None:
        if done.done():
            return
        try:
            state = store.state
            if predicate(state):
                done.set_result(state)
        except BaseException as error:  # noqa: BLE001 - handed to the waiter
            done.set_exception(error)

    def closed() -> None:
        if not done.done():
            done.set_exception(store._closed_error())

    with store._watch(_on_loop(loop, changed), _on_loop(loop, closed)):
        # NB: again once subscribed: a change another thread made since the first check would
        # otherwise go unheard.
        changed()
        return await asyncio.wait_for(done, timeout)


async def changes(store: AioStore) -> AsyncIterator[Any]:
    """The store's state after each change, as an async iterator (states that change faster than
    the consumer reads are skipped: it always gets the latest). It ends when the store closes."""
    if store.closed:
        return
    ready = asyncio.Event()
    wake = _on_loop(asyncio.get_running_loop(), ready.set)
    with store._watch(wake, wake):
        while not store.closed:
            await ready.wait()
            ready.clear()
            if store.closed:
                return
            yield store.state
