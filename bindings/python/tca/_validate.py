"""Checks of the integers and strings a caller passes, before they reach C.

ctypes converts a Python int to `uint64_t` modulo 2**64 and passes `char *` up to the first NUL:
`respond(2**64 + 1, ...)` would answer request #1 and `Store("counter\\x00junk")` would make a
counter. Every integer and string argument of the package goes through these functions first.
"""

from __future__ import annotations

import operator
from typing import Any

__all__ = ["UINT64_LIMIT", "c_string", "uint64"]

UINT64_LIMIT = 1 << 64


def uint64(value: Any, what: str) -> int:
    """`value` as an int in 0 ..< 2**64; raises TypeError (not an integer), ValueError
    (negative) or OverflowError (2**64 or more).

    >>> uint64(7, "advance: ms")
    7
    """
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, not a bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    if number < 0:
        raise ValueError(f"{what} must not be negative, not {number}")
    if number >= UINT64_LIMIT:
        raise OverflowError(f"{what} must be less than 2**64, not {number}")
    return number


def c_string(value: Any, what: str) -> bytes:
    """`value` (str or bytes) as UTF-8 bytes with no NUL inside; raises TypeError or ValueError.

    >>> c_string("counter", "feature")
    b'counter'
    """
    if isinstance(value, str):
        data = value.encode()
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if b"\0" in data:
        shown = repr(value if len(value) <= 40 else value[:40])
        raise ValueError(f"{what} must not contain a NUL character: {shown}")
    return data
