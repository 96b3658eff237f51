"""JSON to and from the library: the encoders of actions, states and answers."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict

__all__ = ["dumps", "encode", "encode_text", "loads", "message", "ENCODED"]

dumps: Callable[[Any], str] = json.JSONEncoder(
    separators=(",", ":"), allow_nan=False, ensure_ascii=False
).encode
loads = json.loads

# Encodings of string actions ("incrementButtonTapped" -> b'"incrementButtonTapped"'), shared by
# every store: a host sends the same few names over and over.
ENCODED: Dict[str, bytes] = {}
ENCODED_LIMIT = 4096


def encode_text(value: str) -> bytes:
    """The JSON string of `value`, remembered for the next send of the same name."""
    data = dumps(value).encode()
    if len(ENCODED) >= ENCODED_LIMIT:
        ENCODED.clear()
    ENCODED[value] = data
    return data


def encode(value: Any, what: str) -> bytes:
    """JSON bytes of a Python value (bytes pass through as they are).

    >>> encode({"setCount": 5}, "action")
    b'{"setCount":5}'
    """
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    try:
        return dumps(value).encode()
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} cannot be written as JSON: {error}") from error


def message(error: BaseException) -> str:
    """The text of an exception, or its type's name when it has none."""
    text = str(error)
    return text if text else type(error).__name__
