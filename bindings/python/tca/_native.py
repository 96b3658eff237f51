"""The one place that loads libtca and declares the C functions of tca.h.

Everything else in the package calls the library through `lib` (or the pre-bound functions of
this module) and never declares a signature of its own.

Where the library comes from, first found wins:
  1. `$TCA_LIBRARY` (a path; nothing else is tried when it is set),
  2. the package's own folder (`tca/libtca.so.0`: the wheel `make wheel` builds carries it),
  3. inside the libtca repository only (an editable install): the `build/lib` of `make lib`,
  4. the dynamic loader's own search for `libtca.so.0` (LD_LIBRARY_PATH, ldconfig's cache, the
     system's library folders): where `make install` into a system prefix puts it,
  5. the standard prefixes, for an install ldconfig has not indexed: `sys.prefix`/lib,
     /usr/local/lib, /usr/local/lib64, /usr/lib/<multiarch>, /usr/lib64, /usr/lib.
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
from pathlib import Path
from typing import Any, Callable

# ---- status codes of tca.h (stable numbers, only ever appended) -----------------------------

OK = 0
ERR_INVALID_ARGUMENT = 1
ERR_INVALID_HANDLE = 2
ERR_UNKNOWN_FEATURE = 3
ERR_JSON_SYNTAX = 4
ERR_JSON_SHAPE = 5
ERR_UNENCODABLE = 6
ERR_UNKNOWN_REQUEST = 7
ERR_REQUEST_FINISHED = 8
ERR_ALREADY_ANSWERED = 9
ERR_NOT_A_STREAM = 10
ERR_REAL_CLOCK = 11
ERR_NOT_FOUND = 12
ERR_SYSTEM = 13
ERR_NO_MEMORY = 14
ERR_CALLBACK_UNWOUND = 15
ERR_VERSION_GONE = 16

VERSION_NONE = (1 << 64) - 1

REQUEST_ONE_SHOT = 0
REQUEST_STREAM = 1
REQUEST_FIRE_AND_FORGET = 2

# ---- options --------------------------------------------------------------------------------

OPTIONS_VERSION = 2
CLOCK_REAL = 0
CLOCK_MANUAL = 1
REQUESTS_CALLBACK = 0
REQUESTS_QUEUED = 1
ANSWERS_ANY_THREAD = 0
ANSWERS_HOST_THREAD = 1
SHARED_PROCESS = 0
SHARED_ISOLATED = 1


class Options(ctypes.Structure):
    """`tca_options`, version 2: 64 bytes, every one a named field."""

    _fields_ = [
        ("version", ctypes.c_uint32),
        ("clock", ctypes.c_int32),
        ("threaded", ctypes.c_int32),
        ("requests", ctypes.c_int32),
        ("seed", ctypes.c_uint64),
        ("answers", ctypes.c_int32),
        ("record", ctypes.c_int32),
        ("record_limit", ctypes.c_uint64),
        ("shared", ctypes.c_int32),
        ("reserved32", ctypes.c_int32),
        ("reserved", ctypes.c_uint64 * 2),
    ]


class OptionsV1(ctypes.Structure):
    """`tca_options`, version 1 (the first 24 bytes), for a library older than pull mode."""

    _fields_ = [
        ("version", ctypes.c_uint32),
        ("clock", ctypes.c_int32),
        ("threaded", ctypes.c_int32),
        ("seed", ctypes.c_uint64),
    ]


# ---- callbacks ------------------------------------------------------------------------------


class Request(ctypes.Structure):
    """`tca_request`. NB: payload_json is c_void_p, read once with its exact length."""

    _fields_ = [
        ("id", ctypes.c_uint64),
        ("name", ctypes.c_char_p),
        ("payload_json", ctypes.c_void_p),
        ("payload_length", ctypes.c_size_t),
        ("kind", ctypes.c_int32),
    ]


# tca_request_fn(userdata, store, const tca_request *)
RequestFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(Request))
# tca_effect_fn(userdata, store, id, name, payload, length): the kind-less form, declared for
# completeness; the package uses RequestFn.
EffectFn = ctypes.CFUNCTYPE(
    None,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_uint64,
    ctypes.c_char_p,
    ctypes.c_void_p,
    ctypes.c_size_t,
)
CancelFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
StateFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
StateJSONFn = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t
)


# ---- loading --------------------------------------------------------------------------------


SONAME = "libtca.so.0"

FIX = (
    "To fix: `pip install` the wheel that carries the library (`make wheel` in the libtca "
    "repository builds build/wheel/tca-*.whl), or install libtca (`make install`, then "
    "`ldconfig`), or set TCA_LIBRARY to the path of libtca.so.0."
)


def _repository_library(here: Path) -> Path | None:
    """`build/lib/libtca.so.0` of the libtca repository this package's source sits in, None when
    the package is not inside one (a wheel, a copy)."""
    root = here.parent.parent.parent  # bindings/python/tca -> the repository
    if (root / "include" / "tca.h").is_file() and (root / "bindings" / "python").is_dir():
        return root / "build" / "lib" / SONAME
    return None


def _standard_folders() -> list[tuple[str, str]]:
    folders = [(os.path.join(sys.prefix, "lib"), "this Python's prefix")]
    system = ["/usr/local/lib", "/usr/local/lib64"]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    if multiarch:
        system.append(f"/usr/lib/{multiarch}")
    system += ["/usr/lib64", "/usr/lib"]
    folders += [(folder, "a standard prefix") for folder in system if folder != folders[0][0]]
    return folders


def candidates() -> list[tuple[str, str]]:
    """The places tried, in order, as (path or library name, where it comes from)."""
    explicit = os.environ.get("TCA_LIBRARY")
    if explicit:
        return [(explicit, "$TCA_LIBRARY")]
    here = Path(__file__).resolve().parent
    found = [(str(here / SONAME), "the package's folder")]
    repository = _repository_library(here)
    if repository is not None:
        found.append((str(repository), "this repository's `make lib`"))
    found.append((SONAME, "the dynamic loader: LD_LIBRARY_PATH, ldconfig's cache"))
    for folder, origin in _standard_folders():
        found.append((os.path.join(folder, SONAME), origin))
    return found


def _load() -> tuple[ctypes.CDLL, str]:
    tried: list[str] = []
    for name, origin in candidates():
        if os.path.sep in name and not os.path.exists(name):
            tried.append(f"  {name} ({origin}): not found")
            continue
        try:
            library = ctypes.CDLL(name)
        except OSError as error:
            tried.append(f"  {name} ({origin}): {error}")
            continue
        return library, _loaded_path(library, name)
    raise ImportError("cannot load libtca. Tried, in order:\n" + "\n".join(tried) + "\n" + FIX)


def _loaded_path(library: ctypes.CDLL, name: str) -> str:
    """The file a library name resolved to (the dynamic loader knows; name when it cannot say)."""
    if os.path.sep in name:
        return name
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.rstrip("\n").split(" ", 5)[-1].strip()
                if os.path.basename(path).startswith(SONAME):
                    return path
    except OSError:
        pass
    return name


lib, path = _load()

_missing: set[str] = set()


def _declare(name: str, restype: Any, *argtypes: Any) -> None:
    try:
        function = getattr(lib, name)
    except AttributeError:
        # NB: an older library may lack a function; calling it raises a clear error (below)
        # instead of failing the import of the whole package.
        _missing.add(name)
        setattr(lib, name, _absent(name))
        return
    function.restype = restype
    function.argtypes = list(argtypes)


def _absent(name: str) -> Callable[..., Any]:
    def absent(*_: Any) -> Any:
        raise NotImplementedError(f"{path} has no {name}: rebuild libtca (`make lib`)")

    return absent


def has(name: str) -> bool:
    """Whether the loaded library exports `name`."""
    return name not in _missing


_store = ctypes.c_void_p
_size_p = ctypes.POINTER(ctypes.c_size_t)
_string_p = ctypes.POINTER(ctypes.c_void_p)

# NB: functions returning strings the caller frees return c_void_p, so that the pointer survives
# to be handed back to tca_string_free (c_char_p would turn it into bytes and lose it).
_declare("tca_version", ctypes.c_char_p)
_declare("tca_features", ctypes.c_void_p)
_declare(
    "tca_feature_schema_n", ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t, _string_p, _size_p
)
_declare("tca_string_free", None, ctypes.c_void_p)
_declare("tca_last_error", ctypes.c_char_p)
_declare("tca_status_str", ctypes.c_char_p, ctypes.c_int32)

# NB: options are passed as void *: a v2 struct, or a v1 struct for an older library.
_declare("tca_options_init", None, ctypes.POINTER(Options))
_declare(
    "tca_store_new",
    ctypes.c_int32,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p),
)
_declare(
    "tca_store_new_n",
    ctypes.c_int32,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_size_t,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p),
)
_declare("tca_store_free", None, _store)
_declare("tca_store_send", ctypes.c_int32, _store, ctypes.c_char_p)
_declare("tca_store_send_n", ctypes.c_int32, _store, ctypes.c_char_p, ctypes.c_size_t)


def _undeclared(name: str) -> Any:
    """A second function object for `name` with no argtypes, for a hot path: ctypes then passes a
    `c_void_p` instance and a bytes object as they are, building no conversion object for either
    (an int handle through `argtypes` costs a `c_void_p` per call, a c_char_p argtype another).

    NB: the caller must pass exactly the C types: a `c_void_p` (or None for NULL) for a store and
    bytes for a `const char *`; restype stays ctypes' default, a C int (tca_status)."""
    if not has(name):
        return getattr(lib, name)
    return lib._FuncPtr((name, lib))


# tca_store_send(store, action_json) for Store.send: (c_void_p, bytes) -> int.
store_send = _undeclared("tca_store_send")
_declare("tca_store_state", ctypes.c_int32, _store, _string_p, _size_p)
_declare("tca_store_get", ctypes.c_int32, _store, ctypes.c_char_p, _string_p, _size_p)
_declare("tca_store_version", ctypes.c_uint64, _store)
_declare("tca_store_patch", ctypes.c_int32, _store, ctypes.c_uint64, _string_p, _size_p)

_declare(
    "tca_store_subscribe",
    ctypes.c_int32,
    _store,
    StateFn,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64),
)
_declare(
    "tca_store_subscribe_state",
    ctypes.c_int32,
    _store,
    StateJSONFn,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64),
)
_declare("tca_store_unsubscribe", ctypes.c_int32, _store, ctypes.c_uint64)

_declare(
    "tca_store_set_effect_handler", ctypes.c_int32, _store, EffectFn, CancelFn, ctypes.c_void_p
)
_declare(
    "tca_store_set_request_handler", ctypes.c_int32, _store, RequestFn, CancelFn, ctypes.c_void_p
)
_declare("tca_store_respond", ctypes.c_int32, _store, ctypes.c_uint64, ctypes.c_char_p)
_declare(
    "tca_store_respond_n",
    ctypes.c_int32,
    _store,
    ctypes.c_uint64,
    ctypes.c_char_p,
    ctypes.c_size_t,
)
_declare("tca_store_fail", ctypes.c_int32, _store, ctypes.c_uint64, ctypes.c_char_p)
_declare("tca_store_take_requests", ctypes.c_int32, _store, _string_p, _size_p)
_declare("tca_store_complete", ctypes.c_int32, _store, ctypes.c_uint64)

_declare("tca_store_poll", ctypes.c_int32, _store, ctypes.POINTER(ctypes.c_uint32))
_declare("tca_store_advance", ctypes.c_int32, _store, ctypes.c_uint64)
_declare("tca_store_next_deadline_ms", ctypes.c_int64, _store)
_declare("tca_store_fd", ctypes.c_int, _store)

# Recording, replay and tests (tca.journal, tca.testing).
_declare("tca_store_journal", ctypes.c_int32, _store, _string_p, _size_p)
_declare(
    "tca_store_replay",
    ctypes.c_int32,
    ctypes.c_char_p,
    ctypes.c_size_t,
    ctypes.c_uint64,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p),
)
_declare("tca_store_log_reductions", ctypes.c_int32, _store, ctypes.c_int32)
_declare("tca_store_take_reductions", ctypes.c_int32, _store, _string_p, _size_p)
_declare("tca_store_running_effects", ctypes.c_int32, _store, _string_p, _size_p)
_declare("tca_store_cancel_effects", ctypes.c_int32, _store, ctypes.POINTER(ctypes.c_uint32))
_declare(
    "tca_canonical_action_n",
    ctypes.c_int32,
    ctypes.c_char_p,
    ctypes.c_size_t,
    ctypes.c_char_p,
    ctypes.c_size_t,
    _string_p,
    _size_p,
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


def last_error() -> str:
    """The message of the last failed call on this thread."""
    message: bytes = lib.tca_last_error()
    return message.decode("utf-8", "replace")


def status_name(status: int) -> str:
    """tca_status_str: a short English description of a status code."""
    text: bytes = lib.tca_status_str(status)
    return text.decode("utf-8", "replace")
