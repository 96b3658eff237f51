"""Time and the loop: polling, the manual clock, deadlines, the descriptor, event loops."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Callable, Optional, cast

from . import _native
from ._core import StoreCore
from ._validate import uint64

if TYPE_CHECKING:
    import asyncio

    from .aio import AioStore, Attachment

__all__ = ["Clock"]


class Clock(StoreCore):
    """The clock and event-loop methods of `Store`."""

    def poll(self) -> int:
        """Runs whatever is due (answers from other threads, timers whose deadline passed, the
        work they release) on this thread; returns how much ran."""
        ran = ctypes.c_uint32()
        self._check(_native.lib.tca_store_poll(self._h, ctypes.byref(ran)))
        return ran.value

    def advance(self, ms: int) -> None:
        """Moves a manual clock by `ms` milliseconds, firing due timers in deadline order, each
        followed by the work it releases. A real-clock store raises `RealClockError`."""
        self._check(_native.lib.tca_store_advance(self._h, uint64(ms, "advance: ms")))

    def next_deadline(self) -> Optional[int]:
        """Milliseconds until the next timer is due (0: due now), None if none is pending. A loop
        with no descriptor to wait on may sleep this long, then `poll()`."""
        if self._h is None:
            raise self._closed_error()
        ms: int = _native.lib.tca_store_next_deadline_ms(self._h)
        return None if ms < 0 else ms

    def fileno(self) -> int:
        """A descriptor readable exactly when `poll()` has something to do (for select, asyncio's
        `add_reader`, Tk's `createfilehandler`). Owned by the store: don't close it."""
        fd: int = _native.lib.tca_store_fd(self._h)
        if fd < 0:
            closed = self._h is None
            raise self._error(_native.ERR_INVALID_HANDLE if closed else _native.ERR_SYSTEM)
        return fd

    def attach(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> Attachment:
        """Drives the store from an asyncio event loop (the running one by default): the loop
        calls `poll()` whenever `fileno()` turns readable, and `async` effect handlers run on it.
        Returns an `Attachment`: `detach()` it, or use it in a `with`/`async with` block."""
        from .aio import Attachment

        return Attachment(cast("AioStore", self), loop)

    async def wait_for(
        self, predicate: Callable[[Any], Any], timeout: Optional[float] = None
    ) -> Any:
        """Waits (on the running event loop) until `predicate(state)` is true; returns the state.
        Hears of changes made on any thread. Raises `asyncio.TimeoutError` after `timeout`
        seconds, and `InvalidHandleError` if the store is closed meanwhile."""
        from .aio import wait_for

        return await wait_for(cast("AioStore", self), predicate, timeout)
