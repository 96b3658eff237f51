"""The pytest module that replays a session with `tca.testing.TestStore`, exhaustively.

Each input of the journal becomes a step of the test: a `send` with the state change it made,
an answer to the request it answers (`respond`, `fail`, `complete`), a move of the clock. Every
action an effect fed back is then asserted with `receive` and the state after it, and every
request the store made with `request(name)` and its payload; `finish()` ends the test when
nothing was left in flight. A jump starts another test, from the state jumped to.

Everything taken from the session is written as a Python literal (`repr` of the decoded JSON),
never as code or inside a comment, so no session can put code into the test.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .redrive import Segment, redrive

__all__ = ["write_test"]


def _expected(before: Any, after: Any) -> Optional[str]:
    """The `expected` argument for a change from `before` to `after`: None when nothing changed,
    a dict of the top-level fields that changed, or a function giving the whole new state."""
    if before == after:
        return None
    if isinstance(before, dict) and isinstance(after, dict) and set(before) <= set(after):
        changed = {key: value for key, value in after.items() if before.get(key, _MISSING) != value}
        return repr(changed)
    return f"lambda _: {after!r}"


_MISSING = object()


def _call(method: str, argument: str, expected: Optional[str]) -> str:
    return f"{method}({argument}, {expected})" if expected is not None else f"{method}({argument})"


def _segment_test(
    name: str, feature: str, seed: Any, segment: Segment, lines: List[str]
) -> None:
    seed_argument = f", seed={seed!r}" if isinstance(seed, int) and seed > 0 else ""
    lines.append(f"def {name}():")
    lines.append(f"    store = TestStore({feature!r}, {segment.state!r}{seed_argument})")
    state = segment.state
    open_requests: Dict[int, Dict[str, Any]] = {}
    body = 0
    for step in segment.steps:
        line = step.line
        if step.note and step.note.startswith("refused"):
            lines.append(f"    # an input the store refused: {repr(step.note)[:200]}")
            continue
        reductions = list(step.reductions)
        if "send" in line:
            first = reductions.pop(0) if reductions and reductions[0].origin == "host" else None
            after = first.state if first is not None else state
            lines.append("    " + _call("store.send", repr(line["send"]), _expected(state, after)))
            state = after
        elif "respond" in line or "fail" in line or "complete" in line:
            key = "respond" if "respond" in line else "fail" if "fail" in line else "complete"
            rid = line[key]
            variable = f"request_{int(rid)}" if isinstance(rid, int) else "request"
            if rid not in open_requests:
                lines.append(f"    # an answer to request {rid!r}, which was not open")
                continue
            if key == "respond":
                lines.append(f"    {variable}.respond({line.get('value')!r})")
            elif key == "fail":
                lines.append(f"    {variable}.fail({str(line.get('message', ''))!r})")
            else:
                lines.append(f"    {variable}.complete()")
            if key != "respond" or open_requests[rid].get("kind") == "oneShot":
                open_requests.pop(rid, None)
        elif "advance" in line:
            lines.append(f"    store.advance({int(line['advance'])!r})")
        elif "clock" in line or "poll" in line:
            pass  # NB: moved below, by the time of the line
        if "clock" in line or "at" in line:
            lines.append(f"    # the clock moved to {int(line.get('clock', line.get('at', 0)))!r} ns")
        for reduction in reductions:
            lines.append(
                "    " + _call("store.receive", repr(reduction.action),
                               _expected(state, reduction.state))
            )
            state = reduction.state
        for request in step.requests:
            rid = request.get("id")
            if not isinstance(rid, int):
                continue
            variable = f"request_{int(rid)}"
            lines.append(f"    {variable} = store.request({request.get('name')!r})")
            lines.append(f"    assert {variable}.payload == {request.get('payload')!r}")
            if request.get("kind") != "fireAndForget":
                open_requests[rid] = request
        for rid in step.cancelled:
            open_requests.pop(rid, None)
        body += 1
    if open_requests:
        lines.append("    # still in flight when the session was saved, so no finish():")
        for rid, request in open_requests.items():
            lines.append(f"    #   request {int(rid)!r}, {str(request.get('name'))!r}")
    else:
        lines.append("    store.finish()")
    lines.append(f"    assert store.state == {state!r}")
    lines.append("")
    lines.append("")


def write_test(journal: str, name: str = "session") -> str:
    """The pytest module for the session `journal` (see the module's documentation)."""
    header, segments = redrive(journal)
    feature = header["feature"]
    safe = "".join(c if c.isascii() and c.isalnum() else "_" for c in name)[:60] or "session"
    lines = [
        '"""A libtca session replayed with TestStore, written by the inspector '
        '(python -m tca devtools)."""',
        "",
        "from tca.testing import TestStore",
        "",
        "",
    ]
    for index, segment in enumerate(segments):
        test = f"test_{safe}" if index == 0 else f"test_{safe}_after_jump_{index}"
        _segment_test(test, feature, header.get("seed"), segment, lines)
    return "\n".join(lines).rstrip() + "\n"
