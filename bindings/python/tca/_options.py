"""The options of a new store, checked and turned into `tca_options`."""

from __future__ import annotations

from typing import Optional

from . import _native
from ._validate import uint64

__all__ = ["CLOCKS", "make_options"]

CLOCKS = {"real": _native.CLOCK_REAL, "manual": _native.CLOCK_MANUAL}


def make_options(clock: str, seed: Optional[int], threaded: bool) -> _native.Options:
    """`tca_options` for `Store(...)`'s keyword arguments; raises ValueError for a value the
    library would not take.

    >>> make_options("manual", 7, False).seed
    7
    """
    if clock not in CLOCKS:
        raise ValueError(f"clock must be 'real' or 'manual', not {clock!r}")
    seed_value = 0 if seed is None else uint64(seed, "Store: seed")
    return _native.Options(_native.OPTIONS_VERSION, CLOCKS[clock], 1 if threaded else 0, seed_value)
