"""TestStore.skip_received_actions and skip_in_flight_effects (strict and not), and the store
calls under them: running_effects, cancel_effects (tca_store_running_effects,
tca_store_cancel_effects), journaled so that a replay cancels too."""

import pytest

import tca
from tca.testing import TestStore


def test_skip_received_actions_moves_the_state_to_the_last_one():
    store = TestStore("dice", seed=3)
    store.send("rollButtonTapped", {"isRolling": True})
    store.skip_received_actions()
    assert store.state["rollAnimationAngle"] == 360
    store.request("haptics.impact")
    store.advance(500)
    store.receive(
        {"rollCompleted": 5},
        {"isRolling": False, "currentRoll": 5, "rollHistory": [5], "lastFiveRolls": [5]},
    )
    store.finish()


def test_skip_received_actions_when_strict_needs_some():
    store = TestStore("counter")
    with pytest.raises(AssertionError, match="There were no received actions to skip."):
        store.skip_received_actions()
    store.skip_received_actions(strict=False)
    store.finish()


def test_skip_in_flight_effects_cancels_a_timer():
    store = TestStore("dice", seed=3)
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive("startAnimation", {"rollAnimationAngle": 360})
    store.request("haptics.impact")
    store.skip_in_flight_effects()
    store.advance(500)  # nothing fires: the roll was cancelled
    store.finish()


def test_skip_in_flight_effects_cancels_a_request():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    request = store.request("numberFact.fetch")
    store.skip_in_flight_effects()
    assert request.finished
    with pytest.raises(AssertionError, match="has finished"):
        request.respond("too late")
    store.finish()


def test_an_unasserted_request_cancelled_by_the_skip_needs_no_assertion():
    store = TestStore("counter")
    store.send("numberFactButtonTapped", {"isNumberFactLoading": True})
    store.skip_in_flight_effects()
    store.finish()


def test_skip_in_flight_effects_when_strict_needs_some():
    store = TestStore("counter")
    with pytest.raises(AssertionError, match="There were no in-flight effects to skip."):
        store.skip_in_flight_effects()
    store.skip_in_flight_effects(strict=False)
    store.finish()


def test_running_effects_and_cancel_effects_on_a_store():
    with tca.Store("counter", clock="manual", requests="queued") as store:
        assert store.running_effects() == []
        assert store.cancel_effects() == 0
        store.send("numberFactButtonTapped")
        [request] = store.take_requests()
        assert store.running_effects() == [f'host request #{request["id"]} "numberFact.fetch"']
        assert store.cancel_effects() == 1
        assert store.take_requests() == [{"cancelled": request["id"]}]
        assert store.running_effects() == []
        with pytest.raises(tca.RequestFinishedError):
            store.respond(request["id"], "too late")
        store.send("incrementButtonTapped")
        assert store.state["count"] == 1


def test_a_replay_cancels_as_the_recorded_store_did():
    with tca.Store("counter", clock="manual", requests="queued", record=True) as store:
        store.send("numberFactButtonTapped")
        [request] = store.take_requests()
        store.cancel_effects()
        store.send("incrementButtonTapped")
        journal = store.journal()
        state = store.state
    assert '{"cancelEffects":true,' in journal
    with tca.Store.replay(journal, requests="queued") as replayed:
        assert replayed.state == state
        # The request was cancelled in the replay too: nothing waits for an answer.
        assert replayed.running_effects() == []
        assert replayed.take_requests() == []


def test_the_command_line_prints_cancellations_and_dates(tmp_path):
    import subprocess
    import sys

    with tca.Store("counter", clock="manual", requests="queued", record=True, seed=7) as store:
        store.send("numberFactButtonTapped")
        store.take_requests()
        store.cancel_effects()
        journal = store.journal()
    lines = journal.splitlines()
    # A date line, as a feature that reads the date journals it (no built-in feature does).
    lines.insert(1, '{"date":1764263700000}')
    session = tmp_path / "session.jsonl"
    session.write_text("\n".join(lines) + "\n")
    with tca.Store.replay(session.read_text(), requests="queued") as replayed:
        assert replayed.state["isNumberFactLoading"] is True
        assert '{"date":1764263700000}' in replayed.journal()
    result = subprocess.run(
        [sys.executable, "-m", "tca", "replay", str(session)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "      date 1764263700000 ms since 1970\n" in result.stdout
    assert "[2] cancel every effect  (version 1)\n" in result.stdout
