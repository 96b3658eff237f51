"""One store's session as the inspector keeps it: its journal, its log rows, its states.

A session is fed the messages of the inspector protocol (`handle`), from a live store or from a
saved journal (`from_journal`, through `redrive`). Everything in a message is data from a
stranger: a member of the wrong type is ignored and counted, nothing is evaluated, and the
session keeps at most `budget` bytes of messages (past it, messages are dropped and counted in
`dropped`, as a store counts what it drops).

The state at a version is rebuilt from the nearest full state kept at or before it and the
patches after that; a full state is kept whenever the patches since the last one add up to more
than its size, so the full states cost no more than the patches do.
"""

from __future__ import annotations

import bisect
import json
import threading
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..patch import apply_patch

__all__ = ["Session", "DEFAULT_BUDGET", "diff", "from_journal", "summary"]

DEFAULT_BUDGET = 64 * 1024 * 1024
_SUMMARY = 300
_CACHE = 16


def _pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def diff(before: Any, after: Any, path: str = "") -> Iterator[Dict[str, Any]]:
    """RFC 6902 operations turning `before` into `after` (add, remove and replace only)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                yield {"op": "remove", "path": f"{path}/{_pointer(key)}"}
            elif before[key] != after[key]:
                yield from diff(before[key], after[key], f"{path}/{_pointer(key)}")
        for key in after:
            if key not in before:
                yield {"op": "add", "path": f"{path}/{_pointer(key)}", "value": after[key]}
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            if old != new:
                yield from diff(old, new, f"{path}/{index}")
    elif before != after or type(before) is not type(after):
        yield {"op": "replace", "path": path, "value": after}


def summary(value: Any) -> str:
    """`value` as short JSON text, for a row (the page shows it as text)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= _SUMMARY else text[: _SUMMARY - 1] + "…"


class Session:
    """A store's session (see the module's documentation)."""

    def __init__(self, sid: str, *, connected: bool, budget: int = DEFAULT_BUDGET) -> None:
        self.id = sid
        self.connected = connected
        self.budget = budget
        self.lock = threading.Lock()
        self.feature = ""
        self.pid: Optional[int] = None
        self.schema: Any = None
        self.header: Optional[Dict[str, Any]] = None
        self.lines: List[str] = []
        self.rows: List[Dict[str, Any]] = []
        self.versions: List[int] = []
        self.patches: Dict[int, Any] = {}
        self.states: Dict[int, Any] = {}
        self.dropped = 0
        self.ignored = 0
        self.size = 0
        self._since_state = 0
        self._state_size = 0
        self._cache: Dict[int, Any] = {}
        self.error: Optional[str] = None

    # ---- the protocol ------------------------------------------------------------------------

    def handle(self, message: Dict[str, Any], size: int) -> None:
        """Takes one message of the store (`size`: its line's length). Never raises for what
        the message holds."""
        with self.lock:
            kind = message.get("type")
            if kind == "hello":
                self._hello(message, size)
                return
            if self.header is None:
                self.ignored += 1
                return
            if kind == "dropped":
                count = message.get("count")
                if isinstance(count, int) and 0 < count < 1 << 62:
                    self.dropped += count
                return
            if self.size + size > self.budget:
                self.dropped += 1
                return
            self.size += size
            if kind == "entry":
                self._entry(message.get("line"))
            elif kind == "reduction":
                self._reduction(message)
            elif kind == "version":
                self._version(message, size)
            else:
                self.ignored += 1

    def _hello(self, message: Dict[str, Any], size: int) -> None:
        header = message.get("header")
        if self.header is not None or not isinstance(header, dict):
            self.ignored += 1
            return
        feature = message.get("feature", header.get("feature"))
        self.feature = feature[:200] if isinstance(feature, str) else ""
        pid = message.get("pid")
        self.pid = pid if isinstance(pid, int) else None
        self.schema = message.get("schema")
        self.header = header
        self.size += size
        self.lines.append(json.dumps(header, separators=(",", ":")))
        version = header.get("version")
        version = version if isinstance(version, int) and version >= 0 else 0
        self.versions.append(version)
        self._keep_state(version, header.get("state"), size)

    def _entry(self, line: Any) -> None:
        if not isinstance(line, dict):
            self.ignored += 1
            return
        self.lines.append(json.dumps(line, separators=(",", ":")))
        if "jump" in line and isinstance(line.get("version"), int):
            self.rows.append({
                "version": line["version"], "origin": "jump",
                "summary": f"jump to {summary(line.get('jump'))}", "line": line,
            })

    def _reduction(self, message: Dict[str, Any]) -> None:
        version = message.get("version")
        if not isinstance(version, int) or version < 0:
            self.ignored += 1
            return
        origin = message.get("origin")
        self.rows.append({
            "version": version,
            "origin": origin if origin in ("host", "effect") else "effect",
            "summary": summary(message.get("action")),
            "line": {"action": message.get("action")},
        })

    def _version(self, message: Dict[str, Any], size: int) -> None:
        version = message.get("version")
        if not isinstance(version, int) or version <= self.versions[-1]:
            self.ignored += 1
            return
        if "state" in message:
            self.versions.append(version)
            self._keep_state(version, message["state"], size)
            return
        patch = message.get("patch")
        if not isinstance(patch, list):
            self.ignored += 1
            return
        self.versions.append(version)
        self.patches[version] = patch
        self._since_state += size
        if self._since_state > self._state_size:
            state, _ = self._rebuild(version)
            if state is not None:
                self._keep_state(version, state, 0)

    def _keep_state(self, version: int, state: Any, size: int) -> None:
        self.states[version] = state
        self._state_size = size or len(json.dumps(state))
        self.size += 0 if size else self._state_size
        self._since_state = 0

    # ---- reading -----------------------------------------------------------------------------

    def _rebuild(self, version: int) -> Tuple[Any, Optional[str]]:
        """The state at the last version sent at or before `version`, and an error."""
        at = bisect.bisect_right(self.versions, version)
        if at == 0:
            return None, f"no state at version {version}"
        target = self.versions[at - 1]
        if target in self._cache:
            return self._cache[target], None
        start = at - 1
        while self.versions[start] not in self.states:
            start -= 1
        state = self.states[self.versions[start]]
        try:
            for v in self.versions[start + 1: at]:
                state = apply_patch(state, self.patches[v])
        except Exception as error:  # NB: a patch from a stranger: any failure is its own
            return None, f"the patch of version {v} does not apply: {error}"
        if len(self._cache) >= _CACHE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[target] = state
        return state, None

    def state_at(self, version: int) -> Dict[str, Any]:
        """`{"version", "state", "patch"}` at `version` (the state at the last version sent at
        or before it; `patch`: the one that led to it, [] when there is none)."""
        with self.lock:
            state, error = self._rebuild(version)
            at = bisect.bisect_right(self.versions, version)
            shown = self.versions[at - 1] if at else version
            out: Dict[str, Any] = {
                "version": shown, "state": state, "patch": self.patches.get(shown, []),
            }
            if shown not in self.patches and at > 1 and state is not None:
                # NB: a full state (a saved journal, or after a drop): the patch is worked out.
                previous, _ = self._rebuild(self.versions[at - 2])
                out["patch"] = list(diff(previous, state))
            if error:
                out["error"] = error
            return out

    def describe(self) -> Dict[str, Any]:
        with self.lock:
            return {
                "store": self.id, "feature": self.feature, "connected": self.connected,
                "versions": [self.versions[0], self.versions[-1]] if self.versions else [],
                "rows": len(self.rows), "dropped": self.dropped, "ignored": self.ignored,
                "pid": self.pid, "schema": self.schema, "error": self.error,
            }

    def log(self, since: int = 0) -> List[Dict[str, Any]]:
        with self.lock:
            return self.rows[max(0, since):]

    def journal(self) -> str:
        with self.lock:
            return "".join(line + "\n" for line in self.lines)


def from_journal(sid: str, text: str, budget: int = DEFAULT_BUDGET) -> Session:
    """A session (not connected) made from the journal `text`, driven through a store again
    (`redrive`): its rows are the actions each input led to, its states those after them."""
    from .redrive import INPUTS, parse_journal, redrive

    header, segments = redrive(text)
    _, lines = parse_journal(text)
    session = Session(sid, connected=False, budget=budget)
    hello = {"type": "hello", "feature": header.get("feature"), "header": header}
    session.handle(hello, len(text.split("\n", 1)[0]))
    steps = [step for segment in segments for step in segment.steps]
    jumps = {id(segment.jump): segment for segment in segments if segment.jump is not None}
    index = 0
    for line in lines:
        size = len(json.dumps(line))
        session.handle({"type": "entry", "line": line}, size)
        if "jump" in line and id(line) in jumps:
            segment = jumps[id(line)]
            session.handle({"type": "version", "version": segment.base, "state": segment.state}, 0)
        if not any(key in line for key in INPUTS) or "jump" in line:
            continue
        if index >= len(steps):
            continue
        step = steps[index]
        index += 1
        for reduction in step.reductions:
            session.handle({
                "type": "reduction", "origin": reduction.origin, "action": reduction.action,
                "version": reduction.version,
            }, 0)
            session.handle(
                {"type": "version", "version": reduction.version, "state": reduction.state}, 0
            )
    return session
