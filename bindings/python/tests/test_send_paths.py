"""Store.send's two paths, compiled (tca._speedups) and pure Python, behave the same.

`make test-python` builds the compiled path, so there it must be present (CI fails without it);
each test runs once on each path.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import threading
import weakref

import pytest

import tca
from tca import _fastsend


def compiled() -> str:
    if not _fastsend.AVAILABLE:
        if os.environ.get("CI") or os.environ.get("TCA_REQUIRE_SPEEDUPS"):
            pytest.fail("tca._speedups is not built (make test-python builds it)")
        pytest.skip("tca._speedups is not built")
    return "compiled"


@pytest.fixture(params=["compiled", "pure"])
def path(request):
    return compiled() if request.param == "compiled" else "pure"


def store_on(path: str, feature: str = "counter", **options) -> tca.Store:
    store = tca.Store(feature, **options)
    if path == "pure":
        _fastsend.uninstall(store)
    assert _fastsend.installed(store) == (path == "compiled")
    return store


def test_every_action_form_is_sent(path):
    with store_on(path) as store:
        store.send("incrementButtonTapped")  # not cached yet: the pure path encodes it
        store.send("incrementButtonTapped")  # cached
        store.send(b'"incrementButtonTapped"')
        store.send(bytearray(b'"incrementButtonTapped"'))
        store.send({"incrementButtonTapped": {}})
        assert store.state["count"] == 5


def test_the_compiled_send_is_a_method_and_keeps_no_cycle():
    store = store_on(compiled())
    assert type(tca.Store.send).__name__ == "method_descriptor"
    assert type(store.send).__name__ == "builtin_function_or_method"
    assert store.send.__self__ is store
    assert "Sends an action" in tca.Store.send.__doc__
    assert str(inspect.signature(tca.Store.send)) == "(self, action, /)"
    assert store.send("incrementButtonTapped") is None
    closed = []
    reference = weakref.ref(store)
    weakref.finalize(store, closed.append, True)
    del store
    # NB: no garbage collection: the last reference going is enough (no cycle through `send`).
    assert reference() is None and closed == [True]


def test_a_subclass_that_overrides_send_keeps_its_own():
    compiled()

    class Logged(tca.Store):
        def send(self, action):
            self.sent = action
            super().send(action)

    with Logged("counter") as store:
        store.send("incrementButtonTapped")
        assert store.sent == "incrementButtonTapped" and store.state["count"] == 1
        with pytest.raises(tca.JSONShapeError):
            store.send("noSuchCase")
        assert store.sent == "noSuchCase"


def test_errors_are_the_same_on_both_paths(path):
    with store_on(path) as store:
        for _ in range(2):  # the second time from the cache
            with pytest.raises(tca.JSONShapeError, match='"jump" is not a known case'):
                store.send("jump")
        with pytest.raises(tca.JSONSyntaxError, match="at byte"):
            store.send(b'{"incrementButtonTapped":')
        with pytest.raises(TypeError):
            store.send(object())
        with pytest.raises(tca.JSONShapeError, match=r'"a\\u0000b" is not a known case'):
            store.send("a\x00b")  # JSON escapes the NUL: never cut short in C
        assert store.state["count"] == 0


def test_dict_actions_the_encoder_declines_fail_the_same_on_both_paths(path):
    deep: dict = {}
    for _ in range(100_000):
        deep = {"a": deep}
    with store_on(path) as store:
        with pytest.raises(TypeError, match="action cannot be written as JSON: .*not JSON"):
            store.send({"setCount": object()})
        with pytest.raises(TypeError, match="action cannot be written as JSON: .*surrogate"):
            store.send({"setCount": "\ud800"})
        with pytest.raises(TypeError, match="action cannot be written as JSON: nested too deeply"):
            store.send({"setCount": deep})
        with pytest.raises(TypeError, match="action cannot be written as JSON"):
            store.send({"setCount": float("nan")})
        with pytest.raises(tca.JSONShapeError, match='one known case, found "jump"'):
            store.send({"jump": {}})
        store.send({"incrementButtonTapped": {}})
        store.send(type("Action", (dict,), {})(incrementButtonTapped={}))  # a subclass: pure path
        assert store.state["count"] == 2


def test_the_compiled_send_writes_a_dict_itself(monkeypatch):
    with store_on(compiled()) as store:
        def no_pure_encoding(value, what):
            raise AssertionError("the pure-Python send encoded the action")

        monkeypatch.setattr(tca.store, "encode", no_pure_encoding)
        store.send({"incrementButtonTapped": {}})
        assert store.state["count"] == 1


@pytest.mark.parametrize(
    "value",
    [
        {"todos": {"element": {"id": "00000000-0000-4000-8000-000000000042", "action": "x"}}},
        {"s": 'quote " backslash \\ newline \n tab \t cr \r bs \b ff \f nul \x00 \x1f del \x7f'},
        {"s": "caf\u00e9 \u2028 \U0001f600", "": "", "n": None, "t": True, "f": False},
        {"i": [0, -1, 2**63 - 1, -(2**63)], "nested": [[], {}, ({"a": (1, "b")},)]},
        {"x" * 2000: ["y" * 3000] * 3},
        "bare",
        [1, "two"],
    ],
)
def test_the_compiled_writer_writes_what_json_does(value):
    compiled()
    from tca import _speedups

    written = _speedups.dumps(value)
    assert written == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize(
    "value",
    [
        {"f": 1.5},
        {1: "int key"},
        {"big": 2**64},
        {"s": "\ud800"},
        {"o": object()},
        type("Sub", (dict,), {})(a=1),
        {"deep": json.loads("[" * 70 + "]" * 70)},
    ],
)
def test_the_compiled_writer_leaves_the_rest_to_the_pure_send(value):
    compiled()
    from tca import _speedups

    assert _speedups.dumps(value) is None


def test_a_dict_the_compiled_writer_declines_is_still_sent(path):
    with store_on(path) as store:
        store.send({"incrementButtonTapped": {"ignored": 1.5}})
        store.send({"incrementButtonTapped": {1: 2}})
        assert store.state["count"] == 2


def test_a_todo_is_toggled_by_a_dict_on_both_paths(path):
    todo = "00000000-0000-4000-8000-000000000001"
    with store_on(path, "todos", state={"todos": [{"id": todo, "description": "Milk"}]}) as store:
        toggle = {"todos": {"element": {"id": todo, "action": "checkBoxToggled"}}}
        store.send(toggle)
        assert store.state["todos"][0]["isComplete"] is True
        store.send(toggle)
        assert store.state["todos"][0]["isComplete"] is False


def test_a_closed_store_says_so(path):
    store = store_on(path)
    store.send("incrementButtonTapped")
    store.close()
    actions = ("incrementButtonTapped", b'"incrementButtonTapped"', {"incrementButtonTapped": {}})
    for action in actions:
        with pytest.raises(tca.InvalidHandleError, match="closed"):
            store.send(action)


def test_an_exception_in_a_callback_surfaces_from_send(path):
    with store_on(path) as store:
        store.send("incrementButtonTapped")

        def boom(version):
            raise RuntimeError("from a subscriber")

        store.subscribe(boom)
        with pytest.raises(RuntimeError, match="from a subscriber"):
            store.send("incrementButtonTapped")
        assert store.state["count"] == 2


def test_sends_from_many_threads_to_a_threaded_store_all_count(path):
    with store_on(path, threaded=True) as store:
        store.send("incrementButtonTapped")

        def sender():
            for _ in range(200):
                store.send("incrementButtonTapped")

        threads = [threading.Thread(target=sender) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert store.state["count"] == 801


# Python threads sending while a threaded store's thread and answering threads deliver Python
# callbacks (subscribers, requests): the compiled send holds the GIL through the library's send
# (docs/python.md, "The compiled send"), so a wait for the GIL inside the library would hang
# here. Run in a child process: a hang fails the test instead of the run.
THREADED_TRAFFIC = """
import queue, sys, threading
import tca
from tca import _fastsend

store = tca.Store("counter", threaded=True)
if sys.argv[1] == "pure":
    _fastsend.uninstall(store)
assert _fastsend.installed(store) == (sys.argv[1] == "compiled")
notified = []
store.subscribe(lambda version: notified.append(version))
requests = queue.Queue()
store.on_request(requests.put)


def answer():
    while True:
        request = requests.get()
        if request is None:
            return
        try:
            request.respond("a fact")
        except tca.TCAError:
            pass  # cancelled by a newer request (the feature's cancelInFlight)


def send():
    for i in range(300):
        store.send("numberFactButtonTapped" if i % 3 == 0 else "incrementButtonTapped")


answerers = [threading.Thread(target=answer) for _ in range(2)]
senders = [threading.Thread(target=send) for _ in range(4)]
for thread in answerers + senders:
    thread.start()
for thread in senders:
    thread.join()
for _ in answerers:
    requests.put(None)
for thread in answerers:
    thread.join()
state = store.state
store.close()
assert state["count"] == 800, state
assert notified, "no subscriber call"
print("ok", state["count"], len(notified))
"""


def test_python_threads_send_while_other_threads_run_python_callbacks(path):
    result = subprocess.run(
        [sys.executable, "-c", THREADED_TRAFFIC, path],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok 800 ")


def test_tca_python_pure_turns_the_compiled_path_off():
    code = "import tca; from tca import _fastsend; print(_fastsend.AVAILABLE)"
    environment = dict(os.environ, TCA_PYTHON_PURE="1")
    result = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(
    "action", ["noSuchCase", b'"noSuchCase"', {"noSuchCase": 1}, {"noSuchCase": 1.5}]
)
def test_a_bad_send_to_a_temporary_store_raises(path, action):
    # `Store("counter").send(...)`: nothing but the call refers to the store. The send must keep
    # it open until it returns, and its error must come out (the compiled send reached the store
    # through a weak reference, dead by then: it sent to a freed store and raised nothing).
    for _ in range(2):  # a name's second send takes the compiled path's cache
        with pytest.raises(tca.JSONShapeError, match="noSuchCase"):
            store_on(path).send(action)


def test_a_send_holds_its_store(path):
    store = store_on(path)
    released = []
    weakref.finalize(store, released.append, True)
    send = store.send
    del store
    assert released == []  # the send holds its store, as a Python method does
    assert send("incrementButtonTapped") is None
    assert send.__self__.state["count"] == 1
    del send
    assert released == [True]


def test_a_store_is_released_when_dropped_after_any_send(path):
    # However its last send ended, dropping the last reference to a store closes it at once:
    # the send keeps no cycle through the store.
    for action in ("incrementButtonTapped", "noSuchCase", {"noSuchCase": 1.5}, b"nope"):
        store = store_on(path)
        closed = []
        weakref.finalize(store, closed.append, True)
        try:
            store.send(action)
        except tca.TCAError:
            pass
        del store
        assert closed == [True], action
