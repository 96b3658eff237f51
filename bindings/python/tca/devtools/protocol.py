"""The inspector protocol's limits and its line reader (docs/devtools.md, "Protocol").

A store connection carries JSON Lines both ways: one JSON object per line, at most `MAX_LINE`
bytes a line. Everything a store sends is data: it is parsed as JSON, never evaluated.
"""

from __future__ import annotations

import json
import socket
from typing import Any, Dict, Iterator, Optional

__all__ = ["PROTOCOL", "UPGRADE", "MAX_LINE", "LineTooLong", "lines", "parse", "encode"]

PROTOCOL = 1
UPGRADE = "tca-store/1"
MAX_LINE = 16 * 1024 * 1024


class LineTooLong(Exception):
    """A line past `MAX_LINE`: the connection is closed."""


def lines(
    sock: socket.socket, limit: int = MAX_LINE, initial: bytes = b""
) -> Iterator[Optional[bytes]]:
    """The lines read from `sock`, without their `\\n`; None when a read timed out (the caller
    may check whether to go on); ends at end of file. Raises LineTooLong past `limit`."""
    buffer = bytearray(initial)
    searched = 0
    while True:
        end = buffer.find(b"\n", searched)
        if end >= 0:
            yield bytes(buffer[:end])
            del buffer[: end + 1]
            searched = 0
            continue
        searched = len(buffer)
        if searched > limit:
            raise LineTooLong(f"a line is longer than {limit} bytes")
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            yield None
            continue
        if not chunk:
            return
        buffer += chunk


def parse(line: bytes) -> Dict[str, Any]:
    """A line as a JSON object with a string `type`; ValueError otherwise (never more: deep
    nesting, bad UTF-8 and the like are ValueErrors too)."""
    try:
        value = json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"not JSON: {error}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ValueError("not an object with a string \"type\"")
    return value


def encode(message: Dict[str, Any]) -> bytes:
    """`message` as one line (compact JSON, ASCII, `\\n`-terminated)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"
