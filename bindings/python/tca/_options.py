"""The options of a new store, checked and turned into `tca_options`."""

from __future__ import annotations

import ctypes
from typing import Optional, Union

from . import _native
from ._validate import uint64

__all__ = ["ANSWERS", "CLOCKS", "REQUESTS", "SHARED", "make_options"]

CLOCKS = {"real": _native.CLOCK_REAL, "manual": _native.CLOCK_MANUAL}
REQUESTS = {"callback": _native.REQUESTS_CALLBACK, "queued": _native.REQUESTS_QUEUED}
ANSWERS = {"any_thread": _native.ANSWERS_ANY_THREAD, "host_thread": _native.ANSWERS_HOST_THREAD}
SHARED = {"process": _native.SHARED_PROCESS, "isolated": _native.SHARED_ISOLATED}


def _choice(value: object, choices: dict[str, int], what: str) -> int:
    if not isinstance(value, str) or value not in choices:
        listed = " or ".join(repr(name) for name in choices)
        raise ValueError(f"Store: {what} must be {listed}, not {value!r}")
    return choices[value]


def make_options(
    clock: str,
    seed: Optional[int],
    threaded: bool,
    requests: str = "callback",
    answers: str = "any_thread",
    record: bool = False,
    record_limit: int = 0,
    shared: str = "process",
) -> Union[_native.Options, _native.OptionsV1]:
    """`tca_options` for `Store(...)`'s keyword arguments; raises ValueError for a value the
    library would not take.

    >>> make_options("manual", 7, False, requests="queued").requests
    1
    """
    clock_value = _choice(clock, CLOCKS, "clock")
    requests_value = _choice(requests, REQUESTS, "requests")
    answers_value = _choice(answers, ANSWERS, "answers")
    seed_value = 0 if seed is None else uint64(seed, "Store: seed")
    limit_value = uint64(record_limit, "Store: record_limit")
    shared_value = _choice(shared, SHARED, "shared")
    if threaded and answers_value == _native.ANSWERS_HOST_THREAD:
        raise ValueError(
            "Store: answers='host_thread' applies answers in the host's next call, which a "
            "threaded store does not wait for: use one or the other"
        )
    if not _native.has("tca_options_init"):
        # NB: a library older than pull mode takes version-1 options only.
        if requests_value or answers_value or record or limit_value or shared_value:
            raise NotImplementedError(
                f"{_native.path} has no pull mode (requests=, answers=): rebuild libtca"
            )
        return _native.OptionsV1(1, clock_value, 1 if threaded else 0, seed_value)
    options = _native.Options()
    _native.lib.tca_options_init(ctypes.byref(options))
    options.clock = clock_value
    options.threaded = 1 if threaded else 0
    options.requests = requests_value
    options.answers = answers_value
    options.seed = seed_value
    options.record = 1 if record else 0
    options.record_limit = limit_value
    options.shared = shared_value
    return options
