"""The dice feature, tested with tca.testing.TestStore as a user of the library would: a 500 ms
animated roll on the manual clock, haptics asked of the host, undo, reset, the history screen."""

import pytest

from tca.testing import TestStore


@pytest.fixture
def store():
    # NB: closed at the end: dice stores share their history while they live (shared state).
    test_store = TestStore("dice", seed=3)
    yield test_store
    test_store.store.close()


def roll(store, expected_roll, history):
    """A whole roll: tap, animation, haptics, 500 ms, the result."""
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive(
        "startAnimation", lambda s: s.update(rollAnimationAngle=s["rollAnimationAngle"] + 360)
    )
    assert store.request("haptics.impact").payload == {"style": "medium"}
    store.advance(499)
    store.advance(1)
    store.receive(
        {"rollCompleted": expected_roll},
        {
            "isRolling": False,
            "currentRoll": expected_roll,
            "rollHistory": history,
            "lastFiveRolls": history[:5],
        },
    )


def test_roll(store):
    roll(store, 5, [5])
    store.finish()


def test_a_roll_in_flight_is_not_finished(store):
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive("startAnimation", {"rollAnimationAngle": 360})
    store.request("haptics.impact")
    with pytest.raises(AssertionError, match="a timer is due in 500 ms"):
        store.finish()


def test_tapping_while_rolling_does_nothing(store):
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive("startAnimation", {"rollAnimationAngle": 360})
    store.request("haptics.impact")
    store.send("rollButtonTapped")
    store.advance(500)
    store.receive(
        {"rollCompleted": 5},
        {"isRolling": False, "currentRoll": 5, "rollHistory": [5], "lastFiveRolls": [5]},
    )
    store.finish()


def test_undo_and_reset(store):
    roll(store, 5, [5])
    roll(store, 4, [4, 5])
    store.send("undoLastRoll", {"currentRoll": 5, "rollHistory": [5], "lastFiveRolls": [5]})
    store.send("resetHistory", {"currentRoll": None, "rollHistory": [], "lastFiveRolls": []})
    store.send("undoLastRoll")  # nothing to undo: no change
    store.finish()


def test_reset_cancels_a_roll(store):
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive("startAnimation", {"rollAnimationAngle": 360})
    store.request("haptics.impact")
    store.send("resetHistory", {"isRolling": False})
    store.advance(1000)  # the cancelled roll never completes
    store.finish()


def test_history_screen(store):
    roll(store, 5, [5])
    store.send(
        "viewFullHistoryTapped",
        {"destination": {"history": {"rolls": [5], "entries": [{"number": 1, "value": 5}]}}},
    )
    store.send({"destination": "dismiss"}, {"destination": None})
    store.finish()
