"""Pull mode from Python (issue 15): `Store(..., requests="queued")` keeps host requests in the
store until `take_requests()`; `answers="host_thread"` applies answers from other threads in the
host's next call, on the host's thread."""

import ctypes
import select
import threading

import pytest

import tca
from tca import _native

pytestmark = pytest.mark.skipif(
    not _native.has("tca_store_take_requests"),
    reason=f"{_native.path} has no pull mode (tca_store_take_requests): rebuild libtca",
)

FETCH = "numberFact.fetch"


def readable(store):
    return bool(select.select([store.fileno()], [], [], 0)[0])


@pytest.fixture
def queued():
    with tca.Store("counter", clock="manual", requests="queued") as store:
        yield store


def test_options_are_the_64_bytes_of_coord_md():
    options = _native.Options
    assert ctypes.sizeof(options) == 64
    offsets = {name: getattr(options, name).offset for name, _ in options._fields_}
    assert offsets == {
        "version": 0, "clock": 4, "threaded": 8, "requests": 12, "seed": 16,
        "answers": 24, "record": 28, "record_limit": 32, "shared": 40, "reserved32": 44,
        "reserved": 48,
    }


def test_requests_wait_until_taken(queued):
    assert queued.requests == "queued"
    assert queued.take_requests() == []
    assert not readable(queued)
    queued.send("incrementButtonTapped")
    queued.send("numberFactButtonTapped")
    assert queued.state["isNumberFactLoading"] is True
    assert readable(queued)  # the descriptor says something waits
    assert queued.take_requests() == [
        {"id": 1, "name": FETCH, "kind": "oneShot", "payload": 1}
    ]
    assert queued.take_requests() == []  # each is taken once
    assert not readable(queued)
    # Answered when the host chooses.
    queued.respond(1, "1 is the loneliest number.")
    assert queued.state["numberFact"] == "1 is the loneliest number."
    assert queued.state["isNumberFactLoading"] is False


def test_a_retap_queues_a_cancelled_notice_before_the_new_request(queued):
    queued.send("numberFactButtonTapped")
    queued.send("numberFactButtonTapped")
    taken = queued.take_requests()
    assert [item.get("id", item.get("cancelled")) for item in taken][-2:] == [1, 2]
    assert {"cancelled": 1} in taken
    assert taken[-1] == {"id": 2, "name": FETCH, "kind": "oneShot", "payload": 0}
    with pytest.raises(tca.RequestFinishedError):
        queued.respond(1, "too late")
    queued.respond(2, "zero")
    assert queued.state["numberFact"] == "zero"


def test_fail_and_answers_from_another_thread(queued):
    queued.send("numberFactButtonTapped")
    (request,) = queued.take_requests()
    queued.fail(request["id"], "offline")
    assert queued.state["numberFactError"].endswith("offline")

    queued.send("numberFactButtonTapped")
    (request,) = queued.take_requests()
    worker = threading.Thread(target=queued.respond, args=(request["id"], "from a worker"))
    worker.start()
    worker.join()
    assert queued.state["numberFact"] == "from a worker"


def test_fire_and_forget_requests_are_queued_too():
    with tca.Store("dice", clock="manual", seed=7, requests="queued") as store:
        store.send("rollButtonTapped")
        # NB: the history is shared state the host keeps: shared.load at the first turn.
        assert store.take_requests() == [
            {"id": 1, "name": "shared.load", "kind": "oneShot",
             "payload": {"key": "dice.history"}},
            {"id": 2, "name": "haptics.impact", "kind": "fireAndForget",
             "payload": {"style": "medium"}},
        ]
        store.advance(500)
        assert store.state["isRolling"] is False


def test_handlers_are_refused_on_a_queued_store(queued):
    with pytest.raises(RuntimeError, match="requests='queued'"):
        queued.effect(FETCH)
    with pytest.raises(RuntimeError, match="take_requests"):
        queued.on_request(lambda request: None)


def test_a_callback_store_has_nothing_to_take():
    with tca.Store("counter") as store:
        store.effect(FETCH)(lambda count: "a fact")
        store.send("numberFactButtonTapped")
        assert store.take_requests() == []
        assert store.state["numberFact"] == "a fact"


def test_closing_with_requests_waiting():
    store = tca.Store("counter", clock="manual", requests="queued")
    store.send("numberFactButtonTapped")
    store.close()
    with pytest.raises(tca.InvalidHandleError):
        store.take_requests()


def test_answers_on_the_host_thread():
    with tca.Store(
        "counter", clock="manual", requests="queued", answers="host_thread"
    ) as store:
        assert store.answers == "host_thread"
        threads = []
        store.subscribe(lambda version: threads.append(threading.get_ident()))
        store.send("numberFactButtonTapped")
        (request,) = store.take_requests()
        threads.clear()
        worker = threading.Thread(target=store.respond, args=(request["id"], "later"))
        worker.start()
        worker.join()
        assert store.state["isNumberFactLoading"] is True  # only queued
        assert "numberFact" not in store.state
        assert readable(store)  # the descriptor wakes the host
        assert threads == []
        store.poll()
        assert store.state["numberFact"] == "later"
        assert threads and set(threads) == {threading.get_ident()}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"requests": "pull"}, "requests must be 'callback' or 'queued'"),
        ({"answers": "main"}, "answers must be 'any_thread' or 'host_thread'"),
        ({"answers": "host_thread", "threaded": True}, "threaded"),
    ],
)
def test_options_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tca.Store("counter", **kwargs)


def test_an_awaited_request_is_taken_as_any_other(queued):
    """An effect that awaits requests (`send.request` in Swift) makes each when it gets there:
    the save is asked for once the fetch is answered; cancelling the effect gives a notice."""
    queued.send("saveNumberFactButtonTapped")
    assert queued.take_requests() == [
        {"id": 1, "name": FETCH, "kind": "oneShot", "payload": 0}
    ]
    with pytest.raises(tca.JSONShapeError):
        queued.respond(1, 5)  # not a string: refused, and the request waits
    queued.respond(1, "0 is nothing.")
    assert queued.take_requests() == [
        {"id": 2, "name": "numberFact.save", "kind": "oneShot", "payload": "0 is nothing."}
    ]
    queued.send("numberFactButtonTapped")  # the same cancellation id: the save is cancelled
    assert queued.take_requests() == [
        {"cancelled": 2}, {"id": 3, "name": FETCH, "kind": "oneShot", "payload": 0}
    ]
