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
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Optional

if TYPE_CHECKING:
    from .store import Store

__all__ = ["Attachment", "attach", "changes", "wait_for"]


class Attachment:
    """A store attached to an event loop. `detach()` (or leaving its `with` / `async with`
    block) removes the reader; closing the store detaches it too."""

    def __init__(self, store: Store, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        if loop is None:
            loop = asyncio.get_running_loop()
        if store._loop is not None:
            raise RuntimeError(f"the {store.feature} store is already attached to an event loop")
        self.store: Optional[Store] = store
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


def attach(store: Store, loop: Optional[asyncio.AbstractEventLoop] = None) -> Attachment:
    """`store.attach(loop)`."""
    return Attachment(store, loop)


async def wait_for(
    store: Store, predicate: Callable[[Any], Any], timeout: Optional[float] = None
) -> Any:
    """Waits until `predicate(store.state)` is true and returns the state; checks now, then after
    each change. Raises `asyncio.TimeoutError` after `timeout` seconds."""
    state = store.state
    if predicate(state):
        return state
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def changed(_version: int) -> None:
        if done.done():
            return
        try:
            state = store.state
            if predicate(state):
                done.set_result(state)
        except BaseException as error:  # noqa: BLE001 - handed to the waiter
            done.set_exception(error)

    with store.subscribe(changed):
        return await asyncio.wait_for(done, timeout)


async def changes(store: Store) -> AsyncIterator[Any]:
    """The store's state after each change, as an async iterator (states that change faster than
    the consumer reads are skipped: it always gets the latest)."""
    ready = asyncio.Event()

    def changed(_version: int) -> None:
        ready.set()

    with store.subscribe(changed):
        while not store.closed:
            await ready.wait()
            ready.clear()
            if store.closed:
                return
            yield store.state
