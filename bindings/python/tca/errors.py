"""Exceptions raised by the tca package, one class per status code of tca.h."""

from __future__ import annotations

from . import _native


class TCAError(Exception):
    """A libtca call failed. `status` is the code of tca.h; the message is the library's."""

    status: int = -1

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status


class InvalidArgumentError(TCAError, ValueError):
    status = 1


class InvalidHandleError(TCAError):
    """The store was closed (or never created)."""

    status = 2


class UnknownFeatureError(TCAError, LookupError):
    status = 3


class JSONSyntaxError(TCAError, ValueError):
    """The input is not JSON."""

    status = 4


class JSONShapeError(TCAError, ValueError):
    """The input is JSON, but not of the expected type (an unknown action, a wrong field)."""

    status = 5


class UnencodableError(TCAError, ValueError):
    status = 6


_BY_STATUS = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        InvalidHandleError,
        UnknownFeatureError,
        JSONSyntaxError,
        JSONShapeError,
        UnencodableError,
    )
}


def check(status: int) -> None:
    """Raises the exception for `status` with the library's message, if it is not OK."""
    if status == _native.OK:
        return
    message = _native.lib.tca_last_error().decode("utf-8", "replace")
    raise _BY_STATUS.get(status, TCAError)(message, status)
