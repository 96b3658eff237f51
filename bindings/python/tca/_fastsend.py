"""Store.send's optional compiled path: `tca._speedups`, a small C extension (limited API, one
build for CPython 3.9+) that sends a cached action name or bytes without ctypes' per-call work.

`make venv` / `make test-python` build it in place and `make wheel` puts it in the wheel; without it
(another Python, no compiler, or `TCA_PYTHON_PURE=1` in the environment) Store.send is the
pure-Python path, which behaves the same: the compiled one hands everything it does not take (a
dict, a dataclass, a name not cached yet) back to it, and every failure is reported by it.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Optional

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


def sender(handle: Optional[int]) -> Optional[Callable[[Any], Any]]:
    """The compiled send of the store `handle`, or None: called with an action, it returns the
    status of tca_store_send, or NotImplemented when it sent nothing (the pure path then runs)."""
    if _speedups is None or not handle:
        return None
    send: Callable[[Any], Any] = _speedups.sender(
        _address(_lib.tca_store_send), _address(_lib.tca_store_send_n), handle, ENCODED
    )
    return send
