"""JSON Patch (RFC 6902): what changed in a store's state since a version, as data.

`Store.patch(since_version)` returns the list of operations that turn the state JSON of
`since_version` into the current one; `apply_patch` applies such a list to a value. `Store.state`
keeps its cached value current this way, so reading it after a change costs what changed.

>>> apply_patch({"count": 1}, [{"op": "replace", "path": "/count", "value": 2}])
{'count': 2}
"""

from __future__ import annotations

import copy
import ctypes
from typing import Any, Dict, List, Optional, Tuple

from . import _native
from ._codec import loads
from ._core import StoreCore
from ._validate import uint64
from .errors import InvalidArgumentError, VersionGoneError

__all__ = ["Patches", "apply_patch"]

Patch = List[Dict[str, Any]]


def _tokens(path: str) -> List[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise InvalidArgumentError(f"patch path {path!r} does not start with /", 1)
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _index(container: List[Any], token: str, *, end: bool) -> int:
    if end and token == "-":
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise InvalidArgumentError(f"patch index {token!r} is not an index", 1)
    index = int(token)
    if index > len(container) or (index == len(container) and not end):
        raise InvalidArgumentError(f"patch index {token!r} is out of range", 1)
    return index


def _parent(root: Any, tokens: List[str]) -> Any:
    """The container holding the last token, copied along the way (the caller's value is left
    as it was: containers on the path are copied, everything else is shared)."""
    node = root
    for token in tokens[:-1]:
        if isinstance(node, list):
            i = _index(node, token, end=False)
            node[i] = _shallow(node[i])
            node = node[i]
        elif isinstance(node, dict):
            node[token] = _shallow(node[token])
            node = node[token]
        else:
            raise InvalidArgumentError(f"patch path goes into a scalar at {token!r}", 1)
    return node


def _shallow(value: Any) -> Any:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def _get(root: Any, tokens: List[str]) -> Any:
    node = root
    for token in tokens:
        node = node[_index(node, token, end=False)] if isinstance(node, list) else node[token]
    return node


def apply_patch(document: Any, patch: Patch) -> Any:
    """`document` with the operations of `patch` applied in order, as a new value: `document`
    itself is not changed, and the parts no operation touches are shared with it."""
    root = _shallow(document)
    for op in patch:
        kind, tokens = op["op"], _tokens(op["path"])
        if kind in ("move", "copy"):
            source = _tokens(op["from"])
            value = _get(root, source)
            if kind == "move":
                root = _remove(root, source)
            else:
                value = copy.deepcopy(value)
            root = _add(root, tokens, value)
        elif kind == "add":
            root = _add(root, tokens, op["value"])
        elif kind == "remove":
            root = _remove(root, tokens)
        elif kind == "replace":
            root = _add(_remove(root, tokens), tokens, op["value"]) if tokens else op["value"]
        elif kind == "test":
            if _get(root, tokens) != op["value"]:
                raise InvalidArgumentError(f"patch test failed at {op['path']!r}", 1)
        else:
            raise InvalidArgumentError(f"unknown patch op {kind!r}", 1)
    return root


def _add(root: Any, tokens: List[str], value: Any) -> Any:
    if not tokens:
        return value
    parent = _parent(root, tokens)
    if isinstance(parent, list):
        parent.insert(_index(parent, tokens[-1], end=True), value)
    else:
        parent[tokens[-1]] = value
    return root


def _remove(root: Any, tokens: List[str]) -> Any:
    if not tokens:
        raise InvalidArgumentError("a patch cannot remove the whole document", 1)
    parent = _parent(root, tokens)
    if isinstance(parent, list):
        del parent[_index(parent, tokens[-1], end=False)]
    else:
        del parent[tokens[-1]]
    return root


class Patches(StoreCore):
    """The patch methods of `Store`."""

    def patch(self, since_version: int) -> Patch:
        """The RFC 6902 JSON Patch from the state of version `since_version` to the current
        state: a list of operations (`[]` when nothing changed). Raises `VersionGoneError` when
        the store no longer keeps that version (it keeps its last 16): read `state` instead.
        A version that is not an int raises `TypeError`, a negative one `ValueError`, one of
        2**64 or more `OverflowError`."""
        since_version = uint64(since_version, "patch: since_version")
        pointer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(
            _native.lib.tca_store_patch(
                self._h, since_version, ctypes.byref(pointer), ctypes.byref(length)
            )
        )
        result: Patch = loads(_native.take_string(pointer.value, length.value))
        return result

    def _patched_state(self, cached: Any, cached_version: int) -> Optional[Any]:
        """`cached` (the state of `cached_version`) brought up to date by a patch, or None when
        the store no longer keeps that version."""
        try:
            return apply_patch(cached, self.patch(cached_version))
        except VersionGoneError:
            return None

    def _patch_for(self, since: int) -> Tuple[int, Patch]:
        """The current version and the patch to it from `since`: the version is read before and
        after the patch until they agree (another thread may change the state in between). A
        version no longer kept gives a patch that replaces the whole state."""
        while True:
            before = int(_native.lib.tca_store_version(self._h))
            try:
                patch = self.patch(since)
            except VersionGoneError:
                pointer = ctypes.c_void_p()
                length = ctypes.c_size_t()
                self._check(
                    _native.lib.tca_store_state(self._h, ctypes.byref(pointer), ctypes.byref(length))
                )
                whole = loads(_native.take_string(pointer.value, length.value))
                patch = [{"op": "replace", "path": "", "value": whole}]
            if int(_native.lib.tca_store_version(self._h)) == before:
                return before, patch
