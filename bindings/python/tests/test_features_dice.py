"""The dice feature end to end from Python: rolls on the manual clock from a seeded random source,
haptics as a fire-and-forget request, undo, reset (cancelling a roll), the history screen."""

import pytest

import tca

# A store seeded with 7 rolls these faces, in order (the random source is part of the contract).
SEED7 = [5, 2, 6, 6, 6, 6, 1, 1]


@pytest.fixture
def dice():
    with tca.Store("dice", clock="manual", seed=7) as store:
        felt = []
        store.effect("haptics.impact")(felt.append)
        store.felt = felt
        yield store


def roll(store):
    store.send("rollButtonTapped")
    store.advance(500)


def test_a_roll_animates_at_once_and_lands_500ms_later(dice):
    dice.send("rollButtonTapped")
    assert dice.felt == [{"style": "medium"}]
    assert dice.pending_requests == []  # fire-and-forget: nothing to answer
    state = dice.state
    assert state["isRolling"] is True
    assert state["rollAnimationAngle"] == 360
    assert state["currentRoll"] is None
    assert dice.next_deadline() == 500
    dice.send({"view": "rollButtonTapped"})  # ignored while rolling
    assert dice.felt == [{"style": "medium"}]
    dice.advance(499)
    assert dice.state["isRolling"] is True
    dice.advance(1)
    state = dice.state
    assert state["isRolling"] is False
    assert state["currentRoll"] == SEED7[0]
    assert state["rollHistory"] == [SEED7[0]]
    assert dice.next_deadline() is None


def test_history_preview_undo_and_reset(dice):
    for _ in range(7):
        roll(dice)
    newest_first = SEED7[:7][::-1]
    assert dice.state["rollHistory"] == newest_first
    assert dice.state["lastFiveRolls"] == newest_first[:5]
    assert len(dice.felt) == 7

    dice.send("undoLastRoll")
    assert dice.state["rollHistory"] == newest_first[1:]
    assert dice.state["currentRoll"] == newest_first[1]

    # Reset during a roll cancels it.
    dice.send("rollButtonTapped")
    dice.advance(100)
    dice.send({"view": "resetHistory"})
    state = dice.state
    assert (state["rollHistory"], state["currentRoll"], state["isRolling"]) == ([], None, False)
    assert dice.next_deadline() is None
    dice.advance(1000)
    assert dice.state["rollHistory"] == []

    dice.send("undoLastRoll")  # nothing to undo
    assert dice.state["lastFiveRolls"] == []


def test_the_history_screen_is_presented_and_dismissed(dice):
    roll(dice)
    roll(dice)
    dice.send("viewFullHistoryTapped")
    assert dice.state["destination"] == {
        "history": {
            "rolls": [SEED7[1], SEED7[0]],
            "entries": [{"number": 2, "value": SEED7[1]}, {"number": 1, "value": SEED7[0]}],
        }
    }
    roll(dice)  # the open screen follows the history
    assert dice.get("/destination/history/rolls") == SEED7[2::-1]
    dice.send({"destination": {"presented": {"history": "closeButtonTapped"}}})
    assert dice.state["destination"] is None
    dice.send({"view": "viewFullHistoryTapped"})
    dice.send({"destination": "dismiss"})
    assert dice.get("/destination") is None
    # Nothing presented: a dismissal and the screen's actions change nothing.
    version = dice.version
    dice.send({"destination": "dismiss"})
    dice.send({"destination": {"presented": {"history": "closeButtonTapped"}}})
    assert dice.version == version and dice.get("/destination") is None


def test_a_restored_history_screen_is_dismissed(dice):
    roll(dice)
    dice.send("viewFullHistoryTapped")
    with tca.Store("dice", state=dice.snapshot(), clock="manual") as restored:
        assert restored.get("/destination/history/rolls") == [SEED7[0]]
        restored.send({"destination": {"presented": {"history": "closeButtonTapped"}}})
        assert restored.get("/destination") is None
        restored.send("viewFullHistoryTapped")
        restored.send({"destination": {"dismiss": {}}})
        assert restored.get("/destination") is None


def test_the_reset_alert_is_plain_data_and_its_button_comes_back(dice):
    roll(dice)
    assert dice.state["alert"] is None
    dice.send("resetButtonTapped")
    alert = dice.state["alert"]
    assert alert == {
        "title": "Reset the history?",
        "message": "The roll is forgotten.",
        "buttons": [
            {"label": "Reset", "role": "destructive", "action": {"confirmReset": {}}},
            {"label": "Cancel", "role": "cancel", "action": None},
        ],
    }
    dice.send({"alert": "dismiss"})  # Cancel
    assert dice.state["alert"] is None and dice.state["rollHistory"] == [SEED7[0]]
    dice.send("resetButtonTapped")
    (reset,) = [b for b in dice.state["alert"]["buttons"] if b["role"] == "destructive"]
    dice.send({"alert": {"presented": reset["action"]}})
    state = dice.state
    assert (state["alert"], state["rollHistory"], state["currentRoll"]) == (None, [], None)
    with pytest.raises(tca.JSONShapeError):
        dice.send({"alert": {"presented": "launch"}})


def test_snapshots_restore_and_ignore_derived_values(dice):
    roll(dice)
    dice.send("viewFullHistoryTapped")
    snapshot = dice.snapshot()
    with tca.Store("dice", state=snapshot, clock="manual") as restored:
        assert restored.state == snapshot
    # NB: the history is shared: while another dice store holds it, a new store takes its value.
    with tca.Store("dice", state={"rollHistory": [3, 4], "lastFiveRolls": "ignored"}) as partial:
        assert partial.state["lastFiveRolls"] == dice.state["rollHistory"]
        assert partial.state["currentRoll"] is None
    with pytest.raises(tca.JSONShapeError, match="/rollHistory"):
        tca.Store("dice", state={"rollHistory": "x"})


def test_bad_actions_are_refused_with_the_place(dice):
    version = dice.version
    with pytest.raises(tca.JSONShapeError):
        dice.send("jump")
    with pytest.raises(tca.JSONShapeError, match="/rollCompleted"):
        dice.send({"rollCompleted": "six"})
    with pytest.raises(tca.JSONShapeError, match="/view"):
        dice.send({"view": "jump"})
    dice.send({"rollCompleted": 7})  # not a face: ignored
    assert dice.version == version
