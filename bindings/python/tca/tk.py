"""Tk integration: a store driven by Tk's event loop.

    root = tkinter.Tk()
    store = tca.Store("counter")
    tca.tk.attach(store, root)    # Tk calls store.poll() when the store has due work
    root.mainloop()

`attach` registers the store's descriptor with `createfilehandler`, so Tk's own loop wakes when a
timer of the store is due or an answer arrives from another thread. Where Tk cannot watch
descriptors (Windows), it polls instead, at the store's next deadline (and at least every
`interval` ms, for answers from other threads). An exception `poll` raises goes to Tk's
`report_callback_exception`.
"""

from __future__ import annotations

import tkinter
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .store import Store

__all__ = ["TkAttachment", "attach"]


class TkAttachment:
    """A store attached to a Tk interpreter; `detach()` stops driving it."""

    def __init__(self, store: Store, widget: tkinter.Misc, interval: int = 50) -> None:
        self.store: Optional[Store] = store
        self.widget = widget
        self.interval = interval
        self.fd = store.fileno()
        self._after: Optional[str] = None
        self.uses_descriptor = True
        store._attachments.append(self)
        try:
            widget.tk.createfilehandler(self.fd, tkinter.READABLE, self._readable)
        except (AttributeError, RuntimeError, tkinter.TclError):
            self.uses_descriptor = False
            self._schedule()

    def _readable(self, _fd: Any, _mask: Any) -> None:
        if self.store is None or self.store.closed:
            self.detach()
            return
        self.store.poll()

    def _tick(self) -> None:
        self._after = None
        if self.store is None or self.store.closed:
            return
        try:
            self.store.poll()
        finally:
            self._schedule()

    def _schedule(self) -> None:
        if self.store is None or self.store.closed:
            return
        deadline = self.store.next_deadline()
        delay = self.interval if deadline is None else min(deadline, self.interval)
        self._after = self.widget.after(delay, self._tick)

    @property
    def attached(self) -> bool:
        return self.store is not None

    def detach(self) -> None:
        """Stops driving the store. Detaching twice is fine."""
        store, self.store = self.store, None
        if store is None:
            return
        if self in store._attachments:
            store._attachments.remove(self)
        if self.uses_descriptor:
            try:
                self.widget.tk.deletefilehandler(self.fd)
            except tkinter.TclError:
                pass
        elif self._after is not None:
            try:
                self.widget.after_cancel(self._after)
            except tkinter.TclError:
                pass
            self._after = None

    def __enter__(self) -> TkAttachment:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.detach()


def attach(store: Store, widget: tkinter.Misc, interval: int = 50) -> TkAttachment:
    """Drives `store` from the Tk event loop of `widget` (any widget of the interpreter)."""
    return TkAttachment(store, widget, interval)
