"""Stores at interpreter exit: every live store is freed before Python finalizes, and callbacks
do nothing once exit has begun.

NB: once CPython finalizes, a thread that asks for the GIL (a threaded store's own thread calling
a Python subscriber, a daemon thread's handler) is stopped where it stands, inside a ctypes
callback, holding whatever the library held there. A `tca_store_free` from `Store.__del__` then
waits for ever. So the package frees its stores from an `atexit` hook, which runs while every
thread can still take the GIL; callbacks that arrive from then on return at once; and nothing
frees a store after finalization has begun (the process is ending; its memory goes with it).
"""

from __future__ import annotations

import atexit
import sys
import threading
import weakref
from typing import Callable, List, Optional, Protocol

__all__ = ["exiting", "free", "register", "shutdown", "unregister"]


class Closable(Protocol):
    """What the exit hook needs of a store (a `tca.Store`)."""

    feature: str
    _h: Optional[int]

    def _close_at_exit(self) -> None: ...

# How long the exit hook waits for the stores to be freed before it lets the interpreter go on.
# NB: only a callback that never returns (a handler blocked on something that will not happen)
# holds a store that long; exit must not wait for it.
EXIT_WAIT_SECONDS = 10.0

_live: weakref.WeakSet[Closable] = weakref.WeakSet()
_exiting = False


def exiting() -> bool:
    """Whether the interpreter is exiting: the exit hook ran, or finalization began."""
    return _exiting or sys.is_finalizing()


def register(store: Closable) -> None:
    """Remembers a live store, to be freed at exit."""
    _live.add(store)


def unregister(store: Closable) -> None:
    _live.discard(store)


def free(handle: int, release: Callable[[int], None]) -> None:
    """Frees a store's handle with `release` (`tca_store_free`) unless finalization has begun:
    then a thread stopped inside a callback may hold the store for ever, and it is left to the
    ending process instead."""
    if sys.is_finalizing():
        return
    release(handle)


def shutdown() -> None:
    """The exit hook: callbacks return at once from now on, and every live store is closed.

    The stores are freed on a thread of their own, so that a callback that never returns delays
    exit by at most `EXIT_WAIT_SECONDS` instead of hanging it."""
    global _exiting
    _exiting = True
    stores: List[Closable] = list(_live)
    if not stores:
        return

    def close_all() -> None:
        for store in stores:
            try:
                store._close_at_exit()
            except BaseException:  # noqa: BLE001 - exit goes on whatever one store does
                pass

    closer = threading.Thread(target=close_all, name="tca-exit", daemon=True)
    try:
        closer.start()
    except RuntimeError:  # a Python that starts no thread at exit: close them here
        close_all()
        return
    closer.join(EXIT_WAIT_SECONDS)
    if closer.is_alive():
        left = [store.feature for store in stores if store._h is not None]
        print(
            f"tca: at exit, {len(left)} store(s) still busy in a callback after "
            f"{EXIT_WAIT_SECONDS:g} s were left unfreed: {', '.join(left)}",
            file=sys.stderr,
        )


atexit.register(shutdown)
