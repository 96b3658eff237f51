"""`TestStore`: exhaustive tests of a feature, as the Composable Architecture's TestStore.

    from tca.testing import TestStore

    def test_number_fact():
        store = TestStore("counter")
        store.send("incrementButtonTapped", {"count": 1})
        store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
        store.request("numberFact.fetch").respond("1 is a number.")
        store.receive({"numberFactResponse": "1 is a number."},
                      lambda s: s.update(isNumberFactLoading=False, numberFact="1 is a number."))
        store.finish()

Every change must be asserted: `send` and `receive` fail when the state changed other than
`expected` says, `receive` when the action an effect fed back is another, `send` when actions
fed back were not received first, `finish` when requests or timers are still in flight or
requests were never asserted. Failures are `AssertionError`s with a diff. `store.exhaustive =
False` asserts only what a test states.

The store runs on a manual clock (`advance(ms)`), takes requests in pull mode, and records: the
library tells it each action it reduced, with its origin and the state after it
(`tca_store_take_reductions`), and compares actions in their canonical form
(`tca_canonical_action`), so any form the store accepts may be given.

Shared state (`@Shared`, docs/kernel.md): a shared field is state, asserted as any other. The
store's `shared.load` requests are answered `null` (the initial state holds the values a test
starts from), and its `shared.save` payloads are kept in `store.shared_saves`, not asserted. Its
shared fields are its own (`Store(shared="isolated")`): a live store of the same process does not
change them, nor they it.

For property tests, `random_action(tca.schema(feature), rng, seen=store.state)` makes an action
of a feature at random from its schema (docs/schema.md), often naming ids the state has;
`random_value(document, subschema, rng)` makes any value a schema allows (a request's answer).
"""

from __future__ import annotations

import copy
import ctypes
import difflib
import json
from typing import Any, Callable, Dict, List, Mapping, NoReturn, Optional, Union

from . import _native
from ._codec import dumps, encode
from ._schema import random_action, random_value
from .errors import error_for
from .store import Action, Store

__all__ = ["TestStore", "TestRequest", "random_action", "random_value"]

_lib = _native.lib

Expected = Union[None, Mapping[str, Any], Callable[[Dict[str, Any]], Any]]
"""What a step should have done to the state: None (nothing), a dict of the top-level fields that
changed, or a function that changes a copy of the previous state into the expected one."""


def _show(value: Any) -> str:
    return dumps(value)


def _pretty(value: Any) -> List[str]:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).splitlines()


def _diff(expected: Any, actual: Any) -> str:
    lines = difflib.unified_diff(
        _pretty(expected), _pretty(actual), "expected", "actual", lineterm="", n=2
    )
    return "\n".join(f"  {line}" for line in lines)


class TestRequest:
    """A host request the store made, as `TestStore.request(name)` returns it."""

    __test__ = False  # not a pytest test class

    def __init__(self, store: TestStore, rid: int, name: str, kind: str, payload: Any) -> None:
        self._store = store
        self.id = rid
        self.name = name
        self.kind = kind
        self.payload = payload
        self.asserted = False
        self.finished = kind == "fireAndForget"

    def respond(self, value: Any) -> None:
        """Answers the request (a stream: one more element), then collects what it led to."""
        self._store._answer(self, lambda: self._store._store.respond(self.id, value))
        if self.kind == "oneShot":
            self.finished = True

    def fail(self, message: str) -> None:
        """Fails the request (ends a stream) with `message`."""
        self._store._answer(self, lambda: self._store._store.fail(self.id, message))
        self.finished = True

    def complete(self) -> None:
        """Ends a stream."""
        self._store._answer(self, lambda: self._store._store.complete(self.id))
        self.finished = True

    def __repr__(self) -> str:
        return f"{self.name} #{self.id} ({self.kind}) payload {_show(self.payload)}"


class TestStore:
    """A store of `feature` under test (see the module's documentation)."""

    __test__ = False  # not a pytest test class

    def __init__(
        self, feature: str, state: Optional[Mapping[str, Any]] = None, seed: Optional[int] = None
    ) -> None:
        self.feature = feature
        self.exhaustive = True
        self._store = Store(
            feature, state, clock="manual", seed=seed if seed is not None else 1,
            requests="queued", record=True, shared="isolated",
        )
        status = _lib.tca_store_log_reductions(self._store._h, 1)
        if status:
            raise error_for(status)
        self._state: Any = self._store.snapshot()
        self._received: List[Dict[str, Any]] = []
        self._requests: List[TestRequest] = []
        #: The payloads of the `shared.save` requests the store made, oldest first.
        self.shared_saves: List[Any] = []

    # ---- the state and the store -------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state as last asserted (a copy of your own)."""
        return copy.deepcopy(self._state)

    @property
    def store(self) -> Store:
        """The `tca.Store` under test (its `journal()` replays the test)."""
        return self._store

    def canonical(self, action: Action) -> Any:
        """`action` in its canonical form (decoded by the library, then encoded)."""
        data = action if isinstance(action, bytes) else encode(action, "action")
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        name = self.feature.encode()
        status = _lib.tca_canonical_action_n(
            name, len(name), data, len(data), ctypes.byref(out), ctypes.byref(length)
        )
        if status:
            raise error_for(status)
        return json.loads(_native.take_string(out.value, length.value))

    # ---- steps -------------------------------------------------------------------------------

    def send(self, action: Action, expected: Expected = None) -> None:
        """Sends `action` and asserts the state change it made (`expected`)."""
        wanted = self.canonical(action)
        if self.exhaustive and self._received:
            self._fail(
                f"Must handle {len(self._received)} received action(s) before sending "
                f"{_show(wanted)}:\n" + self._list_received()
            )
        self._store.send(action)
        reductions = self._collect()
        host = [r for r in reductions if r["origin"] == "host"]
        self._received += [r for r in reductions if r["origin"] != "host"]
        if not host:  # pragma: no cover - the library reduces every action sent
            self._fail(f"send({_show(wanted)}): the store reduced no such action")
        self._assert_state(f"send({_show(wanted)})", expected, host[0]["state"])

    def receive(self, action: Action, expected: Expected = None) -> None:
        """Asserts that an effect fed `action` back (the oldest not yet received), and the state
        change it made."""
        wanted = self.canonical(action)
        self._received += [r for r in self._collect()]
        if not self._received:
            self._fail(f"Expected to receive {_show(wanted)}, but no action was received.")
        if self.exhaustive:
            got = self._received.pop(0)
            if got["action"] != wanted:
                self._fail(
                    "Received an unexpected action:\n" + _diff(wanted, got["action"])
                )
        else:
            index = next(
                (i for i, r in enumerate(self._received) if r["action"] == wanted), None
            )
            if index is None:
                self._fail(
                    f"Expected to receive {_show(wanted)}, but it was not among the actions "
                    "received:\n" + self._list_received()
                )
            got = self._received[index]
            del self._received[: index + 1]
        self._assert_state(f"receive({_show(wanted)})", expected, got["state"])

    def request(self, name: str) -> TestRequest:
        """The oldest host request named `name` that waits for an answer and was not returned
        before (else the oldest that waits; a fire-and-forget one: the oldest not returned
        before). Returning it asserts it; fails if there is none."""
        self._received += self._collect()
        for request in self._requests:
            if request.name == name and not request.finished and not request.asserted:
                request.asserted = True
                return request
        for request in self._requests:
            if request.name == name and not request.finished:
                return request
        for request in self._requests:
            if request.name == name and not request.asserted:
                request.asserted = True
                return request
        waiting = [r for r in self._requests if not r.finished or not r.asserted]
        listed = "\n".join(f"  {r!r}" for r in waiting) or "  (none)"
        self._fail(f"Expected a request {name!r}, but none is waiting. Waiting:\n{listed}")

    def advance(self, ms: int) -> None:
        """Moves the clock by `ms` milliseconds; actions that timers feed back are to be
        received."""
        self._store.advance(ms)
        self._received += self._collect()

    def skip_received_actions(self, strict: bool = True) -> None:
        """Drops the actions fed back and not yet received; the state is then as of the last
        one. With `strict` (the default), there must be some to skip."""
        self._received += self._collect()
        if not self._received:
            if strict:
                self._fail("There were no received actions to skip.")
            return
        self._state = self._received[-1]["state"]
        self._received = []

    def skip_in_flight_effects(self, strict: bool = True) -> None:
        """Cancels every effect still running (timers, streams, requests in flight): the
        requests it cancels need no assertion. With `strict` (the default), some must be
        running. The actions they fed back before stay to be received."""
        self._received += self._collect()
        running = self._store.running_effects()
        if not running:
            if strict:
                self._fail("There were no in-flight effects to skip.")
            return
        open_before = [r for r in self._requests if not r.finished]
        self._store.cancel_effects()
        self._received += self._collect()
        for request in open_before:
            if request.finished:
                request.asserted = True

    def finish(self) -> None:
        """Fails if actions fed back were never received, requests were never asserted or are
        still waiting for an answer, or timers are still pending. The store stays open: its
        `journal()` replays the test (`python -m tca replay`)."""
        self._received += self._collect()
        problems: List[str] = []
        if self.exhaustive:
            if self._received:
                problems.append(
                    f"{len(self._received)} received action(s) were never asserted:\n"
                    + self._list_received()
                )
            unasserted = [r for r in self._requests if not r.asserted]
            if unasserted:
                problems.append(
                    f"{len(unasserted)} request(s) were never asserted:\n"
                    + "\n".join(f"  {r!r}" for r in unasserted)
                )
            waiting = [r for r in self._requests if r.asserted and not r.finished]
            if waiting:
                problems.append(
                    f"{len(waiting)} request(s) are still in flight:\n"
                    + "\n".join(f"  {r!r}" for r in waiting)
                )
            deadline = self._store.next_deadline()
            if deadline is not None:
                problems.append(
                    f"An effect is still in flight: a timer is due in {deadline} ms "
                    "(advance the clock, or cancel the effect)."
                )
        if problems:
            self._fail("\n".join(problems))

    # ---- inner workings ----------------------------------------------------------------------

    def _fail(self, message: str) -> NoReturn:
        raise AssertionError(message)

    def _list_received(self) -> str:
        return "\n".join(f"  {_show(r['action'])}" for r in self._received)

    def _collect(self) -> List[Dict[str, Any]]:
        """Takes the reductions and requests the library kept since the last look."""
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status = _lib.tca_store_take_reductions(
            self._store._h, ctypes.byref(out), ctypes.byref(length)
        )
        if status:
            raise error_for(status)
        reductions: List[Dict[str, Any]] = json.loads(
            _native.take_string(out.value, length.value)
        )
        for notice in self._store.take_requests():
            if "cancelled" in notice:
                for request in self._requests:
                    if request.id == notice["cancelled"]:
                        request.finished = True
            elif notice["name"] == "shared.load":
                # NB: shared state (docs/kernel.md, "Shared state"): as in Swift, a test store
                # starts from the values its initial state holds. The load is answered `null`
                # (nothing saved), which changes nothing.
                self._store.respond(notice["id"], None)
            elif notice["name"] == "shared.save":
                self.shared_saves.append(notice["payload"])
            else:
                self._requests.append(
                    TestRequest(
                        self, notice["id"], notice["name"], notice["kind"], notice["payload"]
                    )
                )
        return reductions

    def _answer(self, request: TestRequest, give: Callable[[], None]) -> None:
        if request.finished:
            self._fail(f"{request!r} has finished: it takes no answer")
        give()
        self._received += self._collect()

    def _wanted(self, step: str, expected: Expected, actual: Any) -> Any:
        previous = self._state
        if expected is None:
            wanted = previous if self.exhaustive else actual
        elif callable(expected):
            wanted = copy.deepcopy(previous if self.exhaustive else actual)
            returned = expected(wanted)
            if returned is not None and returned is not wanted:
                wanted = returned
        elif isinstance(expected, Mapping):
            wanted = copy.deepcopy(previous if self.exhaustive else actual)
            if not isinstance(wanted, dict):
                self._fail(f"{step}: the state is not an object; give expected as a function")
            wanted.update(copy.deepcopy(dict(expected)))
        else:
            raise TypeError(
                f"{step}: expected is a dict of changed fields or a function, "
                f"not {type(expected).__name__}"
            )
        return wanted

    def _assert_state(self, step: str, expected: Expected, actual: Any) -> None:
        # NB: `state` is still the state before the action while `expected` runs (as upstream's
        # TestStore: the assertion closure sees the state before); it moves on afterwards,
        # whether or not the expectation holds.
        try:
            wanted = self._wanted(step, expected, actual)
        finally:
            self._state = actual
        if wanted != actual:
            self._fail(
                f"State change does not match expectation after {step}: "
                "(-) expected, (+) actual\n" + _diff(wanted, actual)
            )
