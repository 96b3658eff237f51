"""Text helpers the generators share: string literals of each language, the header."""

from __future__ import annotations

import json
from typing import Callable, List

from .model import Feature

__all__ = [
    "cpp_string",
    "csharp_string",
    "header_lines",
    "python_string",
    "rust_string",
]


def python_string(text: str) -> str:
    """A Python (and JavaScript, TypeScript) string literal: JSON's, ASCII only."""
    return json.dumps(text)


def csharp_string(text: str) -> str:
    """A C# string literal: ASCII only, other characters as `\\uXXXX` escapes."""
    return _c_like(text, lambda code: f"\\u{code:04x}")


def cpp_string(text: str) -> str:
    """A C++ string literal: ASCII only, control characters as octal escapes, others as
    universal character names (written as UTF-8 in a narrow literal)."""
    return _c_like(text, lambda code: f"\\{code:03o}" if code < 0x80 else f"\\u{code:04x}")


def _c_like(text: str, escape: Callable[[int], str]) -> str:
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code <= 0xFFFF:
            out.append(escape(code))
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def rust_string(text: str) -> str:
    """A Rust string literal: ASCII only, other characters as `\\u{…}` escapes."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif code < 0x20 or code >= 0x7F:
            out.append(f"\\u{{{code:x}}}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def header_lines(feature: Feature, command: str) -> List[str]:
    """The lines that say where a file came from (no comment marks)."""
    return [
        f"Written by `{command}` from the feature's schema",
        "(docs/schema.md): generate it again rather than edit it.",
    ]
