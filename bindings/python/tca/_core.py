"""What every part of a `Store` shares: its handle, its bookkeeping, and how failures and
exceptions raised in callbacks come out of the call that ran them."""

from __future__ import annotations

import ctypes
import threading
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

from . import _lifetime, _native
from .errors import InvalidHandleError, TCAError, error_for

if TYPE_CHECKING:
    import asyncio

__all__ = ["StoreCore"]


class StoreCore:
    """The state shared by the parts of `Store` (effects, subscriptions, clock): declared here
    once so that each part, a mixin of its own module, type-checks on its own. (What one part
    alone keeps, it declares itself: this module imports none of them.)"""

    feature: str
    clock: str
    seed: Optional[int]
    threaded: bool
    requests: str
    answers: str
    _h: Optional[int]
    # The same handle as a c_void_p (None once closed), for the hot paths' untyped calls.
    _hp: Optional[ctypes.c_void_p]
    # Exceptions raised in callbacks, with the thread that ran them, for that thread's call.
    _raised: List[Tuple[int, BaseException]]
    _loop: Optional[asyncio.AbstractEventLoop]
    # Event loops driving the store (asyncio, Tk): detached when it closes.
    _attachments: List[Any]
    # NB: C keeps raw pointers to these; they live as long as the store.
    _request_fn: Any
    _cancel_fn: Any
    _state_fn: Any

    def _close_at_exit(self) -> None:
        raise NotImplementedError

    def _closed_error(self) -> InvalidHandleError:
        status = _native.ERR_INVALID_HANDLE
        return InvalidHandleError(f"the {self.feature} store is closed", status)

    def _raise_later(self, error: BaseException) -> None:
        """Keeps an exception raised in a callback, for the call that ran it to raise."""
        if _lifetime.exiting():
            # NB: a callback already running when the exit hook closed its store may fail on
            # the closed store; the program has ended, and nobody is left to tell.
            return
        if self.threaded and isinstance(threading.current_thread(), threading._DummyThread):
            # NB: a threaded store's own thread runs callbacks with no Python call to raise
            # from: report it as an uncaught exception of that thread. The default hook (C)
            # takes nothing but a real ExceptHookArgs.
            args = threading.ExceptHookArgs((type(error), error, error.__traceback__, None))
            threading.excepthook(args)
            return
        self._raised.append((threading.get_ident(), error))

    def _error(self, status: int) -> TCAError:
        if status == _native.ERR_INVALID_HANDLE and self._h is None:
            return self._closed_error()
        return error_for(status)

    def _surface(self, status: int = 0) -> None:
        """Raises the failure of the call just made (`status`), or the first exception a callback
        raised during it (with the failure as its context, and later ones as notes)."""
        failure: Optional[BaseException] = self._error(status) if status else None
        first = self._take_raised()
        if first is not None:
            if failure is not None:
                first.__context__ = failure
            failure = first
        if failure is not None:
            try:
                raise failure
            finally:
                # NB: the exception's traceback holds this frame, and the frame `self`: a local
                # still naming the exception would be a cycle, keeping a store whose send failed
                # alive after its last reference goes, until a garbage collection.
                failure = first = None

    def _take_raised(self) -> Optional[BaseException]:
        """Takes the exceptions callbacks raised on this thread: the first, the others added to
        it as notes; None if there are none."""
        if not self._raised:
            return None
        me = threading.get_ident()
        mine = [error for thread, error in self._raised if thread == me]
        if not mine:
            return None
        self._raised[:] = [pair for pair in self._raised if pair[0] != me]
        for later in mine[1:]:
            if hasattr(mine[0], "add_note"):
                mine[0].add_note(f"also raised in a callback: {later!r}")
        return mine[0]

    def _check(self, status: int) -> None:
        if status or self._raised:
            self._surface(status)

