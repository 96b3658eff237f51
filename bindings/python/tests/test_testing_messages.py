"""TestStore's failures: plain AssertionErrors whose messages say what differed, with a diff."""

import re

import pytest

from tca.testing import TestStore


def failure(step):
    with pytest.raises(AssertionError) as caught:
        step()
    return str(caught.value)


def test_a_wrong_expectation_shows_a_diff():
    store = TestStore("counter")
    message = failure(lambda: store.send("incrementButtonTapped", {"count": 2}))
    assert message.startswith(
        'State change does not match expectation after send({"incrementButtonTapped":{}}): '
        "(-) expected, (+) actual\n"
    )
    assert '  -  "count": 2,' in message
    assert '  +  "count": 1,' in message
    assert "--- expected" in message and "+++ actual" in message


def test_an_unasserted_change_fails():
    store = TestStore("counter")
    message = failure(lambda: store.send("incrementButtonTapped"))
    assert '  -  "count": 0,' in message and '  +  "count": 1,' in message


def test_a_function_that_changes_the_wrong_field():
    store = TestStore("counter")
    message = failure(
        lambda: store.send("incrementButtonTapped", lambda s: s.update(count=1, numberFact="x"))
    )
    assert '  -  "numberFact": "x"' in message


def test_receiving_another_action():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    store.request("numberFact.fetch").respond("a fact")
    message = failure(lambda: store.receive({"numberFactFailed": "a fact"}))
    assert message.startswith("Received an unexpected action:\n")
    assert '-  "numberFactFailed": {' in message
    assert '+  "numberFactResponse": {' in message


def test_receiving_when_nothing_was_received():
    store = TestStore("counter")
    message = failure(lambda: store.receive("incrementButtonTapped"))
    assert message == (
        'Expected to receive {"incrementButtonTapped":{}}, but no action was received.'
    )


def test_sending_before_receiving():
    store = TestStore("dice", seed=3)
    store.send("rollButtonTapped", {"isRolling": True})
    message = failure(lambda: store.send("undoLastRoll"))
    assert message == (
        'Must handle 1 received action(s) before sending {"view":{"_0":{"undoLastRoll":{}}}}:\n'
        '  {"internal":{"_0":{"startAnimation":{}}}}'
    )


def test_finish_with_an_unasserted_request_and_an_unreceived_action():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    message = failure(store.finish)
    assert message == (
        "1 request(s) were never asserted:\n"
        "  numberFact.fetch #1 (oneShot) payload 0"
    )
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    store.request("numberFact.fetch").respond("a fact")
    message = failure(store.finish)
    assert message == (
        "1 received action(s) were never asserted:\n"
        '  {"numberFactResponse":{"_0":"a fact"}}'
    )


def test_finish_with_a_request_in_flight():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    assert store.request("numberFact.fetch").id == 1
    message = failure(store.finish)
    assert message == (
        "1 request(s) are still in flight:\n  numberFact.fetch #1 (oneShot) payload 0"
    )


def test_asking_for_a_request_that_was_not_made():
    store = TestStore("counter")
    message = failure(lambda: store.request("numberFact.fetch"))
    assert message == (
        "Expected a request 'numberFact.fetch', but none is waiting. Waiting:\n  (none)"
    )


def test_answering_a_finished_request():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    fetch = store.request("numberFact.fetch")
    fetch.fail("offline")
    message = failure(lambda: fetch.respond("late"))
    assert message == 'numberFact.fetch #1 (oneShot) payload 0 has finished: it takes no answer'


def test_actions_are_compared_decoded():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    store.request("numberFact.fetch").respond("a fact")
    # The canonical form, given in full, is the same action as the short one.
    store.receive(
        {"numberFactResponse": {"_0": "a fact"}},
        {"isNumberFactLoading": False, "numberFact": "a fact"},
    )
    store.finish()


def test_a_diff_shows_only_what_changed():
    store = TestStore("counter")
    message = failure(lambda: store.send("decrementButtonTapped", {"count": 1}))
    # One diff line per changed field, nothing else changed.
    changed = [line for line in message.splitlines() if re.match(r"  [-+] ", line)]
    assert changed == ['  -  "count": 1,', '  +  "count": -1,']
