"""Store.send's optional compiled path: `tca._speedups`, a small C extension (limited API, one
build for CPython 3.9+) that sends a cached action name, bytes or a dict of plain JSON values
without ctypes' per-call work.

`make venv` / `make test-python` build it in place and `make wheel` puts it in the wheel; without it
(another Python, no compiler, or `TCA_PYTHON_PURE=1` in the environment) Store.send is the
pure-Python path, which behaves the same: the compiled one hands everything it does not take (a
dataclass, a name not cached yet, a dict holding a float) to it, and every failure and callback
exception to `Store._surface`, which the pure path raises them with.

NB: this module knows nothing of `Store`: tca.store hands it the class and each store.
"""

from __future__ import annotations

import ctypes
import os
from typing import TYPE_CHECKING, Any, Callable

from ._codec import ENCODED
from ._native import lib as _lib

try:
    if os.environ.get("TCA_PYTHON_PURE", "") not in ("", "0"):
        raise ImportError("TCA_PYTHON_PURE is set")
    from . import _speedups  # type: ignore[attr-defined]

    # NB: an extension built from an older _speedups.c (a stale build in a source tree) lacks
    # what this module needs: taken as missing rather than failing `import tca`.
    if not hasattr(_speedups, "StoreBase"):
        raise ImportError("tca._speedups is older than the package: rebuild it")
except ImportError:
    _speedups = None

#: Whether Store.send has its compiled path.
AVAILABLE = _speedups is not None

# NB: Store derives from StoreBase, whose `_sender` is a field of C that the compiled send reads
# in a few instructions (an attribute of the store's __dict__ cost about 190 of a send's:
# docs/benchmarks.md, "The Python floor"); `object` without the module.
if TYPE_CHECKING:
    StoreBase = object
else:
    StoreBase = object if _speedups is None else _speedups.StoreBase


def _address(function: Any) -> int:
    address = ctypes.cast(function, ctypes.c_void_p).value
    return int(address or 0)


def compiled_method(cls: type, pure_send: Callable[..., Any]) -> Any:
    """The compiled `send` method for class `cls` (tca.store's `Store`, derived from
    `StoreBase`), falling back on `pure_send`; `pure_send` itself when the module is missing.

    NB: a method of the class rather than a function kept on each store: the call then holds
    the store, as a Python method's does, and no store refers to its own send (a cycle would
    keep a dropped store alive until garbage collection)."""
    if _speedups is None:
        return pure_send
    return _speedups.method(cls, pure_send, ENCODED)


def install(store: Any) -> None:
    """Binds the compiled send to `store` (its `_sender`: the handle and the list of callback
    exceptions, read on every send). A store without one takes the pure-Python path."""
    if _speedups is None or not store._h:
        return
    store._sender = _speedups.sender(_address(_lib.tca_store_send_n), store._h, store._raised)


def uninstall(store: Any) -> None:
    """Unbinds the compiled send from `store`: its sends take the pure-Python path (a closed
    store's say it is closed)."""
    store._sender = None


def installed(store: Any) -> bool:
    return getattr(store, "_sender", None) is not None
