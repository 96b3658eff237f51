"""Exceptions raised by the tca package: one class per status code of tca.h.

    TCAError                      every failure of a libtca call; .status, the library's message
    ├── InvalidArgumentError      (also a ValueError)
    ├── InvalidHandleError        the store is closed
    ├── UnknownFeatureError       (also a LookupError)
    ├── JSONError                 (also a ValueError) the JSON given does not fit
    │   ├── JSONSyntaxError       not JSON (or not UTF-8, or nested too deep)
    │   ├── JSONShapeError        JSON, but not of the expected shape (an unknown action, …)
    │   └── UnencodableError      a value cannot be written as JSON (NaN, infinity)
    ├── RequestError              (also a LookupError) an answer to a host request was refused
    │   ├── UnknownRequestError   no request with that id was made by this store
    │   ├── RequestFinishedError  answered, failed, completed, cancelled or fire-and-forget
    │   ├── AlreadyAnsweredError  a one-shot request answered twice
    │   └── NotAStreamError       complete() on a one-shot request
    ├── RealClockError            advance() on a real-clock store
    ├── NotFoundError             (also a LookupError) nothing at that JSON Pointer
    ├── SystemCallError           (also an OSError) the operating system refused
    ├── NoMemoryError             (also a MemoryError)
    ├── CallbackUnwoundError      a foreign callback unwound through the store: it refuses calls
    └── VersionGoneError          patch() since a version the store no longer keeps
"""

from __future__ import annotations

from . import _native


class TCAError(Exception):
    """A libtca call failed. `status` is the code of tca.h; the message is the library's."""

    status: int = -1

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status

    @property
    def message(self) -> str:
        """The library's message: the function, the place, the reason."""
        return str(self.args[0]) if self.args else ""


class RequestNameWarning(UserWarning):
    """`@store.effect(name)` names a request the store's feature never makes (a misspelling:
    its handler would never run)."""


class InvalidArgumentError(TCAError, ValueError):
    """An argument the library refuses (a NULL, bad options, …)."""

    status = _native.ERR_INVALID_ARGUMENT


class InvalidHandleError(TCAError):
    """The store was closed (or never created)."""

    status = _native.ERR_INVALID_HANDLE


class UnknownFeatureError(TCAError, LookupError):
    """No feature of that name in the loaded library (see `tca.features()`)."""

    status = _native.ERR_UNKNOWN_FEATURE


class JSONError(TCAError, ValueError):
    """JSON given to (or asked of) the library does not fit."""


class JSONSyntaxError(JSONError):
    """The input is not JSON (or not UTF-8, or nested too deep)."""

    status = _native.ERR_JSON_SYNTAX


class JSONShapeError(JSONError):
    """The input is JSON, but not of the expected type (an unknown action, a wrong field)."""

    status = _native.ERR_JSON_SHAPE


class UnencodableError(JSONError):
    """A value cannot be written as JSON (NaN, infinity)."""

    status = _native.ERR_UNENCODABLE


class RequestError(TCAError, LookupError):
    """An answer (respond, fail, complete) to a host request was refused."""


class UnknownRequestError(RequestError):
    """No request with that id was made by this store."""

    status = _native.ERR_UNKNOWN_REQUEST


class RequestFinishedError(RequestError):
    """The request has finished (answered, failed, completed, cancelled, or fire-and-forget) and
    takes no answer."""

    status = _native.ERR_REQUEST_FINISHED


class AlreadyAnsweredError(RequestError):
    """The one-shot request already has its answer."""

    status = _native.ERR_ALREADY_ANSWERED


class NotAStreamError(RequestError):
    """`complete()` on a one-shot request: respond or fail it instead."""

    status = _native.ERR_NOT_A_STREAM


class RealClockError(TCAError):
    """`advance()` on a store whose clock is real (create it with `clock="manual"`)."""

    status = _native.ERR_REAL_CLOCK


class NotFoundError(TCAError, LookupError):
    """Nothing at that JSON Pointer (the message says where the lookup stopped)."""

    status = _native.ERR_NOT_FOUND


class SystemCallError(TCAError, OSError):
    """The operating system refused (a descriptor, a thread)."""

    status = _native.ERR_SYSTEM


class NoMemoryError(TCAError, MemoryError):
    """The library ran out of memory."""

    status = _native.ERR_NO_MEMORY


class CallbackUnwoundError(TCAError):
    """A callback of another language unwound through libtca (a C++ exception, a longjmp): the
    store refuses every later call. Python callbacks never unwind (the package catches all)."""

    status = _native.ERR_CALLBACK_UNWOUND


class VersionGoneError(TCAError):
    """`patch(since_version)` of a version the store no longer keeps (it keeps its last 16), or
    newer than the current one: read the whole `state` instead."""

    status = _native.ERR_VERSION_GONE


_BY_STATUS: dict[int, type[TCAError]] = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        InvalidHandleError,
        UnknownFeatureError,
        JSONSyntaxError,
        JSONShapeError,
        UnencodableError,
        UnknownRequestError,
        RequestFinishedError,
        AlreadyAnsweredError,
        NotAStreamError,
        RealClockError,
        NotFoundError,
        SystemCallError,
        NoMemoryError,
        CallbackUnwoundError,
        VersionGoneError,
    )
}


def error_for(status: int, message: str | None = None) -> TCAError:
    """The exception for `status`, with `message` (default: the library's last error)."""
    if message is None:
        message = _native.last_error()
    cls = _BY_STATUS.get(status)
    if cls is None:
        # NB: a code appended after this package was written: still a TCAError, named by the
        # library's own description.
        return TCAError(f"{message} [{_native.status_name(status)}]", status)
    return cls(message, status)


def check(status: int) -> None:
    """Raises the exception for `status` with the library's message, if it is not OK."""
    if status:
        raise error_for(status)
