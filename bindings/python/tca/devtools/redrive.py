"""A journal driven through a recorded store again, input by input.

`redrive(text)` gives, for each input line of a journal, the actions the store reduced because of
it (with their origin and the state after each), the requests it made, and the state after it:
what the inspector shows for a saved file, and what `testgen` writes a test from. A jump line
(`{"jump":V,"state":S,"version":N}`, the inspector protocol's input) starts a new segment: a
store made from S, whose versions count on from N. `replay(text, to_version)` is the state at a
version of such a journal.

The store is a `tca.Store` on a manual clock with the journal's seed, in pull mode, logging its
reductions (`tca_store_log_reductions`). A real-clock journal's times are followed to the
millisecond (`advance`), which is what a test can do too.
"""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .. import _native
from ..errors import TCAError, error_for
from ..store import Store

__all__ = ["Reduction", "Step", "Segment", "parse_journal", "redrive", "replay", "INPUTS"]

INPUTS = (
    "send", "respond", "fail", "complete", "advance", "clock", "poll", "jump", "cancelEffects",
)
"""The keys of input lines; `request` and `cancelled` lines record what the store asked."""


@dataclass
class Reduction:
    """An action the store reduced: `origin` "host" or "effect", the state right after it, and
    the session's version then."""

    origin: str
    action: Any
    state: Any
    version: int


@dataclass
class Step:
    """An input line, what it led to, and the state after it."""

    line: Dict[str, Any]
    version: int
    state: Any
    reductions: List[Reduction] = field(default_factory=list)
    requests: List[Dict[str, Any]] = field(default_factory=list)
    cancelled: List[int] = field(default_factory=list)
    note: Optional[str] = None


@dataclass
class Segment:
    """The steps from the start of the journal, or from a jump, to the next jump. `base` is the
    session's version at its start and `state` the state there; `jump` the jump line that began
    it (None for the first)."""

    base: int
    state: Any
    jump: Optional[Dict[str, Any]]
    steps: List[Step] = field(default_factory=list)


def parse_journal(text: str) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    """The header and the other lines of a journal; ValueError naming the line otherwise."""
    header: Optional[Dict[str, Any]] = None
    lines: List[Dict[str, Any]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except RecursionError:
            raise ValueError(f"line {number} is nested too deeply") from None
        except ValueError as error:
            raise ValueError(f"line {number} is not JSON: {error}") from None
        if not isinstance(value, dict):
            raise ValueError(f"line {number} is not a JSON object")
        if header is None:
            if "tcaJournal" not in value or not isinstance(value.get("feature"), str):
                raise ValueError("not a libtca journal: its first line has no tcaJournal header")
            header = value
        else:
            lines.append(value)
    if header is None:
        raise ValueError("not a libtca journal: it is empty")
    return header, lines


class _Driver:
    """One segment's store."""

    def __init__(self, header: Dict[str, Any], state: Any, base: int) -> None:
        seed = header.get("seed")
        self.store = Store(
            header["feature"],
            json.dumps(state) if state is not None else None,
            clock="manual",
            seed=seed if isinstance(seed, int) and seed > 0 else 1,
            requests="queued",
            record=True,
        )
        status = _native.lib.tca_store_log_reductions(self.store._h, 1)
        if status:
            raise error_for(status)
        self.base = base
        self.clock_ns = 0

    def take(self) -> List[Dict[str, Any]]:
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status = _native.lib.tca_store_take_reductions(
            self.store._h, ctypes.byref(out), ctypes.byref(length)
        )
        if status:
            raise error_for(status)
        taken: List[Dict[str, Any]] = json.loads(_native.take_string(out.value, length.value))
        return taken

    def move_to(self, ns: Any) -> None:
        if isinstance(ns, int) and ns > self.clock_ns:
            ms = (ns - self.clock_ns) // 1_000_000
            if ms > 0:
                self.store.advance(ms)
                self.clock_ns += ms * 1_000_000

    def apply(self, line: Dict[str, Any]) -> None:
        store = self.store
        if "from" in line and "poll" not in line:
            # NB: the library's replay sets its clock to `from` without firing what is due then
            # (it fires in the move to `at`); advance always fires, so this is the nearest.
            self.move_to(line["from"])
        if "send" in line:
            store.send(json.dumps(line["send"]).encode())
        elif "respond" in line:
            store.respond(line["respond"], line.get("value"))
        elif "fail" in line:
            store.fail(line["fail"], str(line.get("message", "")))
        elif "complete" in line:
            store.complete(line["complete"])
        elif "advance" in line:
            ms = line["advance"]
            if not isinstance(ms, int) or ms < 0:
                raise ValueError(f"advance {ms!r} is not a count of milliseconds")
            store.advance(ms)
            self.clock_ns += ms * 1_000_000
        elif "clock" in line:
            self.move_to(line["clock"])
        elif "cancelEffects" in line:
            store.cancel_effects()
        if "at" in line:
            self.move_to(line["at"])

    def close(self) -> None:
        self.store.close()


def redrive(text: str) -> Tuple[Dict[str, Any], List[Segment]]:
    """The journal `text` driven again (see the module's documentation). ValueError when it is
    not a journal; a line the store refuses is kept as a step with a `note`."""
    header, lines = parse_journal(text)
    state = header.get("state")
    start = header.get("version")
    base = start if isinstance(start, int) else 0
    segments = [Segment(base=base, state=state, jump=None)]
    driver = _Driver(header, state, base)
    try:
        for line in lines:
            if "request" in line or "cancelled" in line:
                continue  # NB: the redriven store makes them again (take_requests below)
            if "jump" in line:
                version = line.get("version")
                if not isinstance(version, int):
                    raise ValueError(f"a jump line without a version: {json.dumps(line)[:200]}")
                driver.close()
                driver = _Driver(header, line.get("state"), version)
                segments.append(Segment(base=version, state=driver.store.snapshot(), jump=line))
                continue
            if not any(key in line for key in INPUTS):
                continue  # NB: a kind of line this inspector does not know: not an input
            before = driver.store.version
            note = None
            try:
                driver.apply(line)
            except (TCAError, TypeError, ValueError) as error:
                note = f"refused by the store: {error}"
            taken = driver.take()
            after = driver.store.version
            # NB: each action reduced moves the version by one (docs/wire-format.md).
            sequential = after - before == len(taken)
            reductions = [
                Reduction(
                    r.get("origin", "effect"), r.get("action"), r.get("state"),
                    driver.base + (before + i + 1 if sequential else after),
                )
                for i, r in enumerate(taken)
            ]
            step = Step(line, driver.base + after, driver.store.snapshot(), reductions, note=note)
            for notice in driver.store.take_requests():
                if "cancelled" in notice:
                    step.cancelled.append(notice["cancelled"])
                else:
                    step.requests.append(notice)
            recorded = line.get("version")
            # NB: inputs given inside a callback are journaled with the version after them all,
            # so a recorded version may be ahead of the redriven one, never behind.
            if note is None and isinstance(recorded, int) and recorded < step.version:
                step.note = f"the journal says version {recorded}, the replay reached {step.version}"
            segments[-1].steps.append(step)
    finally:
        driver.close()
    return header, segments


def replay(text: str, to_version: Optional[int] = None) -> Any:
    """The state of the journal `text` at `to_version` (None: at its end). A journal without
    jumps is replayed by the library (`Store.replay`); one with jumps from the state of the last
    jump at or before `to_version`."""
    header, lines = parse_journal(text)
    jumps = [
        line for line in lines
        if "jump" in line and isinstance(line.get("version"), int)
        and (to_version is None or line["version"] <= to_version)
    ]
    if not jumps:
        kept = [json.dumps(header)] + [json.dumps(line) for line in lines if "jump" not in line]
        with Store.replay("\n".join(kept) + "\n", to_version, requests="queued") as store:
            return store.snapshot()
    last = jumps[-1]
    after = lines[lines.index(last) + 1:]
    base = last["version"]
    start = dict(header, state=last.get("state"), version=0)
    kept = [json.dumps(start)]
    for line in after:
        if "jump" in line:
            break
        if isinstance(line.get("version"), int):
            line = dict(line, version=line["version"] - base)
        kept.append(json.dumps(line))
    target = None if to_version is None else to_version - base
    with Store.replay("\n".join(kept) + "\n", target, requests="queued") as store:
        return store.snapshot()


def state_at(text: str, version: int) -> Any:
    """The state of the journal `text` at the session's version `version` (or the last before
    it), from the states the redriven store reached: exact where `replay` can only stop between
    journal lines (inputs given inside a callback share a line's version)."""
    _, segments = redrive(text)
    state = segments[0].state
    for segment in segments:
        if segment.base > version:
            break
        state = segment.state
        for step in segment.steps:
            for reduction in step.reductions:
                if reduction.version > version:
                    return state
                state = reduction.state
            if step.version <= version:
                state = step.state
    return state
