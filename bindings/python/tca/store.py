"""`Store`: a running libtca store, driven with Python values."""

from __future__ import annotations

import ctypes
import json
from typing import Any, Mapping, Union

from . import _native
from .errors import InvalidHandleError, check

Action = Union[str, Mapping[str, Any], bytes]


def _encode(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return json.dumps(value).encode()
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode()


class Store:
    """A store of one of the library's features.

    >>> with Store("counter") as store:
    ...     store.send("incrementButtonTapped")
    ...     store.state["count"]
    1

    `send` takes an action as a case name (`"incrementButtonTapped"`), a dict in the wire format
    (`{"setCount": 5}`), or JSON bytes. Errors raise subclasses of `tca.TCAError`.
    """

    def __init__(self, feature: str, state: Mapping[str, Any] | None = None) -> None:
        handle = _native.StoreHandle()
        state_json = None if state is None else _encode(state)
        check(_native.lib.tca_store_new(feature.encode(), state_json, None, ctypes.byref(handle)))
        self._handle: _native.StoreHandle | None = handle
        self.feature = feature

    def _live(self) -> _native.StoreHandle:
        if self._handle is None:
            raise InvalidHandleError(f"the {self.feature} store is closed")
        return self._handle

    def send(self, action: Action) -> None:
        """Sends an action and processes everything it leads to before returning."""
        data = _encode(action)
        check(_native.lib.tca_store_send_n(self._live(), data, len(data)))

    @property
    def state(self) -> Any:
        """The current state, decoded from JSON."""
        return json.loads(self.state_json())

    def state_json(self) -> bytes:
        """The current state as JSON bytes."""
        pointer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        check(_native.lib.tca_store_state(self._live(), ctypes.byref(pointer), ctypes.byref(length)))
        return _native.take_string(pointer.value, length.value)

    def close(self) -> None:
        """Releases the store; later calls raise `InvalidHandleError`. Closing twice is fine."""
        if self._handle is not None:
            _native.lib.tca_store_free(self._handle)
            self._handle = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # NB: at interpreter exit the module globals may already be gone.
        if getattr(self, "_handle", None) is not None and _native is not None:
            self.close()
