"""Recording and time travel: `Store(..., record=True)`, `store.journal()`, `Store.replay(...)`.

    >>> store = Store("counter", clock="manual", seed=7, record=True)
    >>> store.send("incrementButtonTapped")
    >>> journal = store.journal()            # JSON Lines: a header, then one line per input
    >>> Store.replay(journal, to_version=0).state["count"]
    0

The journal's format is documented in docs/wire-format.md ("Journals"); `python -m tca replay
session.jsonl` prints a recorded session step by step.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, Optional, Type, TypeVar, Union

from . import _native
from ._core import StoreCore
from ._validate import uint64

__all__ = ["Journal", "header"]

_lib = _native.lib

S = TypeVar("S", bound="Journal")

# NB: TCA_VERSION_NONE: replay to the end.
_TO_THE_END = (1 << 64) - 1


def _text(journal: Union[str, bytes, bytearray, memoryview]) -> bytes:
    if isinstance(journal, str):
        return journal.encode()
    if isinstance(journal, (bytes, bytearray, memoryview)):
        return bytes(journal)
    raise TypeError(f"a journal is str or bytes, not {type(journal).__name__}")


def header(journal: Union[str, bytes]) -> Dict[str, Any]:
    """The journal's first line: `tcaJournal` (its format), `feature`, `clock`, `seed`,
    `version` and `state`. Raises ValueError if it is not a journal header."""
    first = _text(journal).split(b"\n", 1)[0]
    try:
        line = json.loads(first)
    except ValueError as error:
        raise ValueError(f"not a libtca journal: its first line is not JSON ({error})") from None
    if not isinstance(line, dict) or "tcaJournal" not in line or "feature" not in line:
        raise ValueError("not a libtca journal: its first line has no tcaJournal header")
    return line


class Journal(StoreCore):
    """The journal half of `tca.Store`."""

    def journal(self) -> str:
        """The store's journal, as JSON Lines (a store made with `record=True`, or replayed)."""
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        self._check(_lib.tca_store_journal(self._h, ctypes.byref(out), ctypes.byref(length)))
        return _native.take_string(out.value, length.value).decode()

    @classmethod
    def replay(
        cls: Type[S],
        journal: Union[str, bytes],
        to_version: Optional[int] = None,
        *,
        requests: str = "callback",
        answers: str = "any_thread",
        threaded: bool = False,
    ) -> S:
        """A new store rebuilt from `journal` up to the state version `to_version` (None: to the
        end): its state is the recorded store's at that version, byte for byte, and its requests
        have the same ids. The replay asks nothing of effect handlers (the journal answers);
        requests it leaves unanswered go to the effect handlers at the first `send`, `poll` or
        `advance` (register them first), or to `take_requests()` with `requests="queued"`. The
        store runs on a manual clock, with the journal's seed, and records on.

        Raises a `tca.JSONError` naming the line of a journal this library cannot read, or the
        error of an input it refuses (`tca.UnknownRequestError`: a journal of another run).
        """
        text = _text(journal)
        feature = header(text).get("feature")
        if not isinstance(feature, str):
            raise ValueError("not a libtca journal: its header names no feature")
        version = _TO_THE_END if to_version is None else uint64(to_version, "replay: to_version")
        store = cls(  # type: ignore[call-arg]
            feature,
            clock="manual",
            threaded=threaded,
            requests=requests,
            answers=answers,
            record=True,
            _journal=(text, version),
        )
        return store
