"""The counter feature, tested with tca.testing.TestStore as a user of the library would."""

import pytest

from tca.testing import TestStore


@pytest.fixture
def store():
    return TestStore("counter")


def test_increment_and_decrement(store):
    store.send("incrementButtonTapped", {"count": 1})
    store.send({"incrementButtonTapped": {}}, lambda state: state.update(count=2))
    store.send("decrementButtonTapped", {"count": 1})
    store.finish()


def test_number_fact(store):
    store.send("incrementButtonTapped", {"count": 1})
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    fetch = store.request("numberFact.fetch")
    assert fetch.payload == 1
    fetch.respond("1 is the loneliest number.")
    store.receive(
        {"numberFactResponse": "1 is the loneliest number."},
        {"isNumberFactLoading": False, "numberFact": "1 is the loneliest number."},
    )
    store.finish()


def test_number_fact_failure(store):
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    store.request("numberFact.fetch").fail("offline")
    store.receive(
        {"numberFactFailed": "offline"},
        lambda state: state.update(
            isNumberFactLoading=False, numberFactError="Could not load a number fact: offline"
        ),
    )
    store.finish()


def test_a_second_tap_cancels_the_first_request(store):
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    first = store.request("numberFact.fetch")
    store.send("numberFactButtonTapped")
    second = store.request("numberFact.fetch")
    assert second.id != first.id and first.finished
    second.respond("0 is nothing.")
    store.receive(
        {"numberFactResponse": "0 is nothing."},
        {"isNumberFactLoading": False, "numberFact": "0 is nothing."},
    )
    store.finish()


def test_non_exhaustive(store):
    store.exhaustive = False
    store.send("incrementButtonTapped")
    store.send("numberFactButtonTapped", {"count": 1})
    store.request("numberFact.fetch").respond("1 is a number.")
    store.finish()  # the response was never received: fine when not exhaustive


def test_the_expectation_sees_the_state_before_the_action(store):
    """As upstream's TestStore (testStateAccess): inside the expectation, `store.state` is the
    state before the action; after it, the state after."""
    seen = []

    def expect(state):
        seen.append(store.state["count"])
        state["count"] = 1

    store.send("incrementButtonTapped", expect)
    assert seen == [0]
    assert store.state["count"] == 1
    store.send("incrementButtonTapped", lambda state: seen.append(store.state["count"]) or
               state.update(count=2))
    assert seen == [0, 1]
    store.finish()


def test_an_effect_that_awaits_two_requests(store):
    """"saveNumberFactButtonTapped" is one `.run` that awaits `numberFact.fetch`, then
    `numberFact.save` (`send.request` in Swift): each is answered as any request."""
    store.send("saveNumberFactButtonTapped", {"isNumberFactLoading": True})
    fetch = store.request("numberFact.fetch")
    assert fetch.payload == 0 and fetch.kind == "oneShot"
    fetch.respond("0 is nothing.")
    save = store.request("numberFact.save")
    assert save.payload == "0 is nothing."
    save.respond(True)
    store.receive(
        {"numberFactResponse": "0 is nothing."},
        {"isNumberFactLoading": False, "numberFact": "0 is nothing."},
    )
    store.finish()


def test_an_awaited_request_that_fails_throws(store):
    store.send("saveNumberFactButtonTapped", {"isNumberFactLoading": True})
    store.request("numberFact.fetch").respond("0 is nothing.")
    store.request("numberFact.save").fail("disk full")
    store.receive(
        {"numberFactFailed": "disk full"},
        {"isNumberFactLoading": False,
         "numberFactError": "Could not load a number fact: disk full"},
    )
    store.finish()


def test_cancelling_an_effect_cancels_the_request_it_awaits(store):
    store.send("saveNumberFactButtonTapped", {"isNumberFactLoading": True})
    awaited = store.request("numberFact.fetch")
    store.send("numberFactButtonTapped")
    assert awaited.finished
    store.request("numberFact.fetch").respond("0 is nothing.")
    store.receive(
        {"numberFactResponse": "0 is nothing."},
        {"isNumberFactLoading": False, "numberFact": "0 is nothing."},
    )
    store.finish()
