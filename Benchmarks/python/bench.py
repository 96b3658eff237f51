"""The Python rows of `make bench` (docs/benchmarks.md): one JSON line per row on stdout.

    TCA_LIBRARY=build/lib/libtca.so.0 build/venv/bin/python Benchmarks/python/bench.py \\
        --noop build/bench/libbenchnoop.so

`tca.Store.send` against four alternatives measured in the same run, samples interleaved:
  - the C-extension floor: `Floor.send` of build/bench/_benchfloor.abi3.so (Benchmarks/python/
    floor.c, built beside libbenchnoop.so), Store.send's argument handling (a str looked up in the
    cache of encoded names, bytes, a dict written as JSON) around a no-op C function called with
    the GIL released;
  - the ctypes floor: a ctypes call of a no-op C function taking one bytes argument
    (libbenchnoop.so);
  - pydux, a pure-Python Redux-style store from PyPI, doing the same work with a Python reducer;
  - python-redux (PyPI `python-redux`, module `redux`, compiled with Cython), the same work with
    its immutable dataclass states and actions (rows `n/a` where it is not installed: it needs
    Python 3.11 or newer).
Settings from the environment: BENCH_SAMPLES (default 41), BENCH_SAMPLE_MS (default 120).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import statistics
import sys
import time
from typing import Any, Callable

import pydux
import tca
from tca._codec import ENCODED

try:
    from dataclasses import replace as _replace

    import redux as python_redux
    from immutable import Immutable
    from redux.main import Store as ReduxStore
except ImportError as _error:  # python-redux needs Python 3.11+ (the Makefile says so)
    python_redux = None
    PYTHON_REDUX_NA: str | None = f"needs python-redux ({_error})"
else:
    PYTHON_REDUX_NA = None

SAMPLES = max(3, int(os.environ.get("BENCH_SAMPLES", "41")))
SAMPLE_NS = max(1, int(os.environ.get("BENCH_SAMPLE_MS", "120"))) * 1_000_000

# A body runs the workload n times (the loop is inside, so no extra call per iteration).
Body = Callable[[int], None]


class Candidate:
    def __init__(self, label: str, kind: str, body: Body | None, na: str | None = None) -> None:
        self.label, self.kind, self.body, self.na = label, kind, body, na


def calibrate(body: Body) -> int:
    body(1)
    n = 1
    while True:
        start = time.perf_counter_ns()
        body(n)
        elapsed = time.perf_counter_ns() - start
        if elapsed >= SAMPLE_NS // 8:
            return max(1, int(n * SAMPLE_NS / max(elapsed, 1)))
        n *= 10 if elapsed < SAMPLE_NS // 1000 else 2


def measure(candidates: list[Candidate]) -> list[dict[str, Any]]:
    """Measures the candidates with their samples interleaved, rotating the order each round."""
    live = [c for c in candidates if c.na is None]
    iterations = {id(c): calibrate(c.body) for c in live}  # type: ignore[arg-type]
    per_op: dict[int, list[float]] = {id(c): [] for c in live}
    for sample in range(SAMPLES):
        order = live[sample % len(live):] + live[:sample % len(live)] if live else []
        for c in order:
            n = iterations[id(c)]
            start = time.perf_counter_ns()
            c.body(n)  # type: ignore[misc]
            per_op[id(c)].append((time.perf_counter_ns() - start) / n)
    sides = []
    for c in candidates:
        if c.na is not None:
            sides.append({"label": c.label, "kind": c.kind, "na": c.na})
            continue
        values = per_op[id(c)]
        sides.append({
            "label": c.label, "kind": c.kind, "median": statistics.median(values),
            "min": min(values), "max": max(values), "samples": len(values),
            "iterations": iterations[id(c)],
        })
    return sides


def emit(workload: str, ours: dict[str, Any], alt: dict[str, Any], note: str | None = None,
         target: dict[str, float] | None = None) -> None:
    row: dict[str, Any] = {"source": "python", "group": "Python", "workload": workload,
                           "unit": "ns/op", "ours": ours, "alt": alt}
    if note:
        row["note"] = note
    if target:
        row["target"] = target
    print(json.dumps(row), flush=True)


# -- the pure-Python Redux-style stores (pydux) ----------------------------------------------------

def counter_reducer(state: dict[str, int] | None, action: dict[str, Any]) -> dict[str, int]:
    if state is None:
        state = {"count": 0}
    kind = action["type"]
    if kind == "incrementButtonTapped":
        return {**state, "count": state["count"] + 1}
    if kind == "decrementButtonTapped":
        return {**state, "count": state["count"] - 1}
    return state


def todos_reducer(state: dict[str, Any] | None, action: dict[str, Any]) -> dict[str, Any]:
    """Redux's canonical immutable toggle: a new list with one new todo."""
    if state is None:
        state = {"editMode": False, "filter": "all", "todos": []}
    if action["type"] == "toggle":
        target = action["id"]
        return {
            **state,
            "todos": [
                {**todo, "isComplete": not todo["isComplete"]} if todo["id"] == target else todo
                for todo in state["todos"]
            ],
        }
    return state


def make_todos(count: int) -> dict[str, Any]:
    """The same 1,000 todos as the Swift and C benchmarks."""
    chores = ["Buy milk and bread", "Call the plumber", "Water the plants", "Pay the bills",
              "Walk the dog", "Book the flights", "Fix the bike", "Read a chapter"]
    todos = []
    for i in range(count):
        text = f"{chores[i % len(chores)]} (item {i})"
        if i % 10 == 3:
            text += " at the café"
        if i % 25 == 7:
            text += ' "soon"\t!'
        todos.append({"description": text, "id": i, "isComplete": i % 3 == 0})
    return {"editMode": False, "filter": "all", "todos": todos}


# -- python-redux: immutable dataclasses, the style of its README ---------------------------------

if python_redux is not None:

    class CounterState(Immutable):
        count: int

    class IncrementButtonTapped(python_redux.BaseAction):
        pass

    class TodoItem(Immutable):
        id: int
        description: str
        is_complete: bool

    class TodosState(Immutable):
        edit_mode: bool
        filter: str
        todos: tuple[TodoItem, ...]

    class ToggleTodo(python_redux.BaseAction):
        id: int

    def redux_counter_reducer(state: Any, action: Any) -> Any:
        if state is None:
            return CounterState(count=0)
        if isinstance(action, IncrementButtonTapped):
            return _replace(state, count=state.count + 1)
        return state

    def redux_todos_reducer_for(initial: Any) -> Callable[[Any, Any], Any]:
        def reducer(state: Any, action: Any) -> Any:
            if state is None:
                return initial
            if isinstance(action, ToggleTodo):
                target = action.id
                return _replace(state, todos=tuple(
                    _replace(todo, is_complete=not todo.is_complete) if todo.id == target
                    else todo
                    for todo in state.todos
                ))
            return state

        return reducer

    def redux_todos_state(state: dict[str, Any]) -> Any:
        return TodosState(
            edit_mode=state["editMode"], filter=state["filter"],
            todos=tuple(TodoItem(id=t["id"], description=t["description"],
                                 is_complete=t["isComplete"]) for t in state["todos"]))


# SWITCH-ON (todos): once tca.features() lists "todos", the toggle row measures tca.Store too.
# The store starts from the snapshot `make_todos(1000)`; TODOS_TOGGLE is the toggle action in the
# wire format (adjust both to the feature's real shapes: a mismatch prints "na" with the error).
def todo_uuid(todo_id: int) -> str:
    """The todos feature's ids are UUIDs: the todo's number, written as one (as the C bench)."""
    return f"00000000-0000-4000-8000-{todo_id:012d}"


def TODOS_TOGGLE(todo_id: int) -> dict[str, Any]:
    return {"todos": {"element": {"id": todo_uuid(todo_id), "action": "checkBoxToggled"}}}


def todos_store(state: dict[str, Any]) -> tuple[tca.Store | None, str | None]:
    if "todos" not in {f["name"] for f in tca.features()}:
        return None, "needs the todos feature"
    try:
        snapshot = {**state, "todos": [{**t, "id": todo_uuid(t["id"])} for t in state["todos"]]}
        store = tca.Store("todos", snapshot)
        store.send(TODOS_TOGGLE(0))
        store.send(TODOS_TOGGLE(0))
        return store, None
    except tca.TCAError as error:
        return None, f"todos store: {error}"


def load_floor(noop: str) -> tuple[Any, str | None]:
    """The C-extension floor (a `_benchfloor.Floor`) bound to libbenchnoop.so's bench_noop_send_n
    and tca's cache of encoded names; None and why when it is not built."""
    path = os.path.join(os.path.dirname(os.path.abspath(noop)), "_benchfloor.abi3.so")
    if not os.path.exists(path):
        return None, f"needs {path} (make bench builds it)"
    spec = importlib.util.spec_from_file_location("_benchfloor", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    function = ctypes.CDLL(noop).bench_noop_send_n
    address = ctypes.cast(function, ctypes.c_void_p).value
    return module.Floor(address, ENCODED), None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--noop", required=True, help="path of libbenchnoop.so")
    args = parser.parse_args()

    noop = ctypes.CDLL(args.noop).bench_noop_bytes
    noop.argtypes = [ctypes.c_char_p]
    noop.restype = ctypes.c_int

    floor, floor_na = load_floor(args.noop)

    action = "incrementButtonTapped"
    action_bytes = json.dumps(action).encode()
    store = tca.Store("counter")
    store.send(action)  # NB: caches the name's encoding, which the floor then finds
    redux = pydux.create_store(counter_reducer)

    def tca_send(n: int) -> None:
        send = store.send
        for _ in range(n):
            send(action)

    def extension_floor(n: int) -> None:
        send = floor.send
        for _ in range(n):
            send(action)

    def ctypes_floor(n: int) -> None:
        call = noop
        for _ in range(n):
            call(action_bytes)

    def pydux_dispatch(n: int) -> None:
        dispatch = redux.dispatch
        message = {"type": action}
        for _ in range(n):
            dispatch(message)

    redux_stores: list[Any] = []
    predux_dispatch = None
    if python_redux is not None:
        predux = ReduxStore(redux_counter_reducer)
        redux_stores.append(predux)

        def predux_dispatch(n: int) -> None:
            dispatch = predux.dispatch
            for _ in range(n):
                dispatch(IncrementButtonTapped())

    print("  Python: Store.send, counter", file=sys.stderr)
    ours, cfloor, ctfloor, pure, predux = measure([
        Candidate("tca.Store.send", "ours", tca_send),
        Candidate("C-extension no-op send (floor)", "floor", extension_floor, floor_na),
        Candidate("ctypes no-op call (floor)", "floor",
                  ctypes_floor),
        Candidate("pydux dispatch", "competitor",
                  pydux_dispatch),
        Candidate("python-redux dispatch", "competitor", predux_dispatch, PYTHON_REDUX_NA),
    ])
    if store.state["count"] <= 0 or redux.get_state()["count"] <= 0:
        sys.exit("bench.py: a counter did not count")
    if redux_stores and redux_stores[0]._state.count <= 0:
        sys.exit("bench.py: python-redux's counter did not count")
    # At most 1.5x the C-extension floor (issue 36), 2x the ctypes floor, at least 1.5x pydux and
    # 5x python-redux (issue 17).
    emit("Store.send, counter", ours, cfloor, note="same argument handling, GIL released",
         target={"ratio_max": 1.5})
    emit("Store.send, counter", ours, ctfloor, target={"ratio_max": 2})
    emit("Store.send, counter", ours, pure, target={"speedup": 1.5})
    emit("Store.send, counter", ours, predux, note="action built per call (a dataclass)",
         target={"speedup": 5})
    store.close()

    state = make_todos(1000)
    tstore, why = todos_store(state)
    redux_todos = pydux.create_store(todos_reducer, state)

    def tca_toggle(n: int) -> None:
        send = tstore.send  # type: ignore[union-attr]
        for i in range(n):
            send(TODOS_TOGGLE(i % 1000))

    def pydux_toggle(n: int) -> None:
        dispatch = redux_todos.dispatch
        for i in range(n):
            dispatch({"type": "toggle", "id": i % 1000})

    def floor_toggle(n: int) -> None:
        send = floor.send
        for i in range(n):
            send(TODOS_TOGGLE(i % 1000))

    predux_toggle = None
    if python_redux is not None:
        predux_todos = ReduxStore(redux_todos_reducer_for(redux_todos_state(state)))
        redux_stores.append(predux_todos)

        def predux_toggle(n: int) -> None:
            dispatch = predux_todos.dispatch
            for i in range(n):
                dispatch(ToggleTodo(id=i % 1000))

    print("  Python: Store.send toggling one of 1,000 todos", file=sys.stderr)
    ours, tfloor, pure, predux = measure([
        Candidate("tca.Store.send", "ours", tca_toggle if tstore else None, why),
        Candidate("C-extension no-op send (floor)", "floor", floor_toggle, floor_na),
        Candidate("pydux dispatch", "competitor", pydux_toggle),
        Candidate("python-redux dispatch", "competitor", predux_toggle, PYTHON_REDUX_NA),
    ])
    note = "ids visited in turn, 0…999; action built per call on both sides"
    emit("Store.send, toggle 1 of 1,000 todos", ours, tfloor, note=note)
    emit("Store.send, toggle 1 of 1,000 todos", ours, pure, note=note)
    emit("Store.send, toggle 1 of 1,000 todos", ours, predux, note=note, target={"speedup": 10})
    if tstore:
        tstore.close()
    for finished in redux_stores:
        finished.clean_up()


if __name__ == "__main__":
    main()
