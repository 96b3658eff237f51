"""libtca from Python: Composable-Architecture stores driven through ctypes.

    import tca

    with tca.Store("counter") as store:
        @store.effect("numberFact.fetch")
        def fetch(count):
            return f"{count} is the number of moons of Mars."

        store.send("incrementButtonTapped")
        store.send("numberFactButtonTapped")
        print(store.state)

See docs/python.md for the guide: effects (sync, async, streams), subscriptions, clocks, event
loops (asyncio: `store.attach()`; Tk: `tca.tk.attach(store, root)`) and errors.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from . import _native
from .errors import (
    AlreadyAnsweredError,
    CallbackUnwoundError,
    InvalidArgumentError,
    InvalidHandleError,
    JSONError,
    JSONShapeError,
    JSONSyntaxError,
    NoMemoryError,
    NotAStreamError,
    NotFoundError,
    RealClockError,
    RequestError,
    RequestFinishedError,
    RequestNameWarning,
    SystemCallError,
    TCAError,
    UnencodableError,
    UnknownFeatureError,
    UnknownRequestError,
    VersionGoneError,
)
from ._schema import schema
from .patch import apply_patch
from .store import Action, Request, Store, Subscription

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Request",
    "Store",
    "Subscription",
    "features",
    "schema",
    "library_path",
    "version",
    "TCAError",
    "InvalidArgumentError",
    "InvalidHandleError",
    "UnknownFeatureError",
    "JSONError",
    "JSONSyntaxError",
    "JSONShapeError",
    "UnencodableError",
    "RequestError",
    "UnknownRequestError",
    "RequestFinishedError",
    "RequestNameWarning",
    "AlreadyAnsweredError",
    "NotAStreamError",
    "RealClockError",
    "NotFoundError",
    "SystemCallError",
    "NoMemoryError",
    "CallbackUnwoundError",
    "VersionGoneError",
    "apply_patch",
]


def version() -> str:
    """The version of the loaded libtca ("MAJOR.MINOR.PATCH")."""
    text: bytes = _native.lib.tca_version()
    return text.decode()


def features() -> List[Dict[str, Any]]:
    """The features compiled into the loaded library: each with its `name`, `description`,
    `requests` (the host requests it may make) and `initialState`."""
    listed: List[Dict[str, Any]] = json.loads(_native.take_string(_native.lib.tca_features()))
    return listed


def library_path() -> str:
    """Where the loaded libtca came from."""
    return _native.path
