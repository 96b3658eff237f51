"""JSON to and from the library: the encoders of actions, states and answers."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict

__all__ = ["dumps", "encode", "encode_text", "loads", "message", "ENCODED"]

dumps: Callable[[Any], str] = json.JSONEncoder(
    separators=(",", ":"), allow_nan=False, ensure_ascii=False
).encode
loads = json.loads


def _unencodable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make_fast_dumps() -> Callable[[Any], str]:
    """`dumps`, through one C encoder made once: `JSONEncoder.encode` makes a new one on every call
    (for a small action that is half the time). Plain `dumps` where the C encoder is missing."""
    try:
        from json.encoder import (  # type: ignore[attr-defined]
            c_make_encoder,
            encode_basestring,
        )
    except ImportError:  # pragma: no cover - an interpreter without the C accelerator
        return dumps
    if c_make_encoder is None:  # pragma: no cover
        return dumps
    # NB: no circular check (markers None): a shared markers dict would see two threads encoding
    # the same value as a cycle. A real cycle ends in a RecursionError, reported as one.
    encoder = c_make_encoder(
        None, _unencodable, encode_basestring, None, ":", ",", False, False, False
    )

    def fast_dumps(value: Any) -> str:
        try:
            return "".join(encoder(value, 0))
        except RecursionError as error:
            raise ValueError("nested too deeply, or a circular reference") from error

    return fast_dumps


fast_dumps = _make_fast_dumps()

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
        return fast_dumps(value).encode()
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} cannot be written as JSON: {error}") from error


def message(error: BaseException) -> str:
    """The text of an exception, or its type's name when it has none."""
    text = str(error)
    return text if text else type(error).__name__
