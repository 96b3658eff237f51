"""libtca from Python: Composable-Architecture stores driven through ctypes.

    import tca
    with tca.Store("counter") as store:
        store.send("incrementButtonTapped")
        print(store.state)
"""

from __future__ import annotations

import json
from typing import Any

from . import _native
from .errors import (
    InvalidArgumentError,
    InvalidHandleError,
    JSONShapeError,
    JSONSyntaxError,
    TCAError,
    UnencodableError,
    UnknownFeatureError,
)
from .store import Store

__all__ = [
    "Store",
    "features",
    "version",
    "TCAError",
    "InvalidArgumentError",
    "InvalidHandleError",
    "UnknownFeatureError",
    "JSONSyntaxError",
    "JSONShapeError",
    "UnencodableError",
]


def version() -> str:
    """The version of the loaded libtca."""
    return _native.lib.tca_version().decode()


def features() -> list[dict[str, Any]]:
    """The features compiled into the loaded library: name, description, requests, initialState."""
    return json.loads(_native.take_string(_native.lib.tca_features()))
