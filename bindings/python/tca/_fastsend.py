"""Store.send's optional compiled path: `tca._speedups`, a small C extension (limited API, one
build for CPython 3.9+) that sends a cached action name or bytes without ctypes' per-call work.

`make venv` / `make test-python` build it in place and `make wheel` puts it in the wheel; without it
(another Python, no compiler, or `TCA_PYTHON_PURE=1` in the environment) Store.send is the
pure-Python path, which behaves the same: the compiled one hands everything it does not take (a
dict, a dataclass, a name not cached yet) to it, and every failure and callback exception to
`Store._surface`, which the pure path raises them with.
"""

from __future__ import annotations

import ctypes
import os
import weakref
from typing import Any

from ._codec import ENCODED
from ._native import lib as _lib

try:
    if os.environ.get("TCA_PYTHON_PURE", "") not in ("", "0"):
        raise ImportError("TCA_PYTHON_PURE is set")
    from . import _speedups  # type: ignore[attr-defined]
except ImportError:
    _speedups = None

#: Whether Store.send has its compiled path.
AVAILABLE = _speedups is not None


def _address(function: Any) -> int:
    address = ctypes.cast(function, ctypes.c_void_p).value
    return int(address or 0)


def install(store: Any) -> None:
    """Puts the compiled send on `store` as its `send` (an instance attribute, so that a call
    costs no Python frame), unless the module is missing or `send` is overridden in a subclass.

    NB: the compiled send refers to the store only through weak methods, so that it keeps no
    cycle: dropping the last reference to a store still closes it at once."""
    if _speedups is None or not store._h or type(store).send is not _pure_send(store):
        return
    slow = weakref.WeakMethod(store.send)
    surface = weakref.WeakMethod(store._surface)
    store.__dict__["send"] = _speedups.sender(
        _address(_lib.tca_store_send_n), store._h, ENCODED, store._raised, slow, surface
    )


def uninstall(store: Any) -> None:
    """Takes the compiled send off `store`: `send` is the pure-Python method again."""
    store.__dict__.pop("send", None)


def installed(store: Any) -> bool:
    return "send" in store.__dict__


def _pure_send(store: Any) -> Any:
    from .store import Store

    return Store.send
