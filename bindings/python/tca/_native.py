"""The one place that loads libtca and declares the signatures of the C functions it uses."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

# Status codes of tca.h (stable numbers).
OK = 0


class StoreHandle(ctypes.c_void_p):
    """An opaque `tca_store *`."""


def _candidates() -> list[str]:
    found: list[str] = []
    explicit = os.environ.get("TCA_LIBRARY")
    if explicit:
        return [explicit]
    here = Path(__file__).resolve().parent
    found += [str(here / "libtca.so"), str(here / "libtca.so.0")]
    # bindings/python/tca -> project root /build/lib
    found.append(str(here.parent.parent.parent / "build" / "lib" / "libtca.so.0"))
    system = ctypes.util.find_library("tca")
    if system:
        found.append(system)
    return found


def _load() -> ctypes.CDLL:
    tried: list[str] = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(f"{path} (not found)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
    raise ImportError(
        "cannot load libtca; set TCA_LIBRARY to the path of libtca.so. Tried: " + "; ".join(tried)
    )


lib = _load()

_c_char_pp = ctypes.POINTER(ctypes.c_char_p)


def _declare(name: str, restype, *argtypes) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_declare("tca_version", ctypes.c_char_p)
# NB: functions returning strings the caller frees return c_void_p, so the pointer survives to be
# handed back to tca_string_free (c_char_p would convert it to bytes and lose it).
_declare("tca_features", ctypes.c_void_p)
_declare("tca_string_free", None, ctypes.c_void_p)
_declare("tca_last_error", ctypes.c_char_p)
_declare("tca_status_str", ctypes.c_char_p, ctypes.c_int32)
_declare(
    "tca_store_new",
    ctypes.c_int32,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_void_p,
    ctypes.POINTER(StoreHandle),
)
_declare("tca_store_free", None, StoreHandle)
_declare("tca_store_send", ctypes.c_int32, StoreHandle, ctypes.c_char_p)
_declare("tca_store_send_n", ctypes.c_int32, StoreHandle, ctypes.c_char_p, ctypes.c_size_t)
_declare(
    "tca_store_state",
    ctypes.c_int32,
    StoreHandle,
    ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_size_t),
)


def take_string(pointer: int | None, length: int | None = None) -> bytes:
    """Copies a string the library returned and releases it."""
    if not pointer:
        raise MemoryError("libtca returned no string")
    try:
        if length is None:
            return ctypes.string_at(pointer)
        return ctypes.string_at(pointer, length)
    finally:
        lib.tca_string_free(pointer)
