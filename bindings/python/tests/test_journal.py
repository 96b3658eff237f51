"""Recording and time travel from Python: Store(record=True), journal(), Store.replay(), and the
command line `python -m tca replay`."""

import json
import subprocess
import sys

import pytest

import tca


def counter_session():
    """A recorded counter session: two taps, a fact answered inside the handler, the version
    read after each send (a line's version is the one the host reads next)."""
    store = tca.Store("counter", clock="manual", seed=7, record=True)

    @store.effect("numberFact.fetch")
    def fetch(count):
        return f"{count} is a number."

    for action in ["incrementButtonTapped", "numberFactButtonTapped", "incrementButtonTapped"]:
        store.send(action)
        assert store.version > 0
    return store


def test_the_journal_is_json_lines_with_a_header():
    store = counter_session()
    journal = store.journal()
    assert journal.endswith("\n")
    lines = [json.loads(line) for line in journal.splitlines()]
    assert lines[0] == {
        "tcaJournal": 1, "feature": "counter", "clock": "manual", "seed": 7, "version": 0,
        "state": {"count": 0, "isNumberFactLoading": False},
    }
    assert lines[1:] == [
        {"send": "incrementButtonTapped", "version": 1},
        {"send": "numberFactButtonTapped", "version": 2},
        {"request": {"id": 1, "name": "numberFact.fetch", "kind": "oneShot", "payload": 1}},
        {"respond": 1, "value": "1 is a number.", "version": 2},
        {"send": "incrementButtonTapped", "version": 3},
    ]


def test_inputs_no_read_came_between_share_a_version():
    store = tca.Store("counter", clock="manual", seed=7, record=True)
    store.send("incrementButtonTapped")
    store.send({"incrementButtonTapped": {}})
    lines = [json.loads(line) for line in store.journal().splitlines()[1:]]
    assert lines == [{"send": "incrementButtonTapped", "version": 1},
                     {"send": {"incrementButtonTapped": {}}, "version": 1}]
    assert tca.Store.replay(store.journal(), to_version=1).state["count"] == 2


def test_replay_is_time_travel():
    store = counter_session()
    journal = store.journal()
    assert tca.Store.replay(journal, to_version=0).state == {
        "count": 0, "isNumberFactLoading": False}
    assert tca.Store.replay(journal, to_version=1).state["count"] == 1
    end = tca.Store.replay(journal)
    assert end.state_json() == store.state_json()
    assert end.version == store.version == 3
    assert end.record and end.clock == "manual" and end.feature == "counter"
    # The replayed store goes on, and records.
    end.send("decrementButtonTapped")
    assert tca.Store.replay(end.journal()).state["count"] == 1


def test_a_store_that_does_not_record_has_no_journal():
    with tca.Store("counter") as store:
        with pytest.raises(tca.InvalidArgumentError, match="options.record"):
            store.journal()


def test_replay_refuses_what_is_not_a_journal():
    with pytest.raises(ValueError, match="not a libtca journal"):
        tca.Store.replay("hello\n")
    bad = '{"tcaJournal":1,"feature":"counter","clock":"manual","seed":1,"state":{}}\n{"send":1}\n'
    with pytest.raises(tca.JSONShapeError, match="journal line 2"):
        tca.Store.replay(bad)


def test_unanswered_requests_reach_the_handlers_registered_after_the_replay():
    store = tca.Store("counter", clock="manual", seed=7, record=True, requests="queued")
    store.send("numberFactButtonTapped")
    assert [r["id"] for r in store.take_requests()] == [1]
    replayed = tca.Store.replay(store.journal())

    @replayed.effect("numberFact.fetch")
    def fetch(count):
        return "asked again"

    replayed.poll()
    assert replayed.state["numberFact"] == "asked again"


def run_cli(*arguments, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "tca", *arguments],
        input=stdin, capture_output=True, text=True, check=False,
    )


def test_the_command_line_prints_each_step(tmp_path):
    session = tmp_path / "session.jsonl"
    session.write_text(counter_session().journal())
    result = run_cli("replay", str(session))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        'counter, manual clock, seed 7: {"count":0,"isNumberFactLoading":false}\n'
        '[1] send "incrementButtonTapped"  (version 1)\n'
        "      count: 0 -> 1\n"
        '[2] send "numberFactButtonTapped"  (version 2)\n'
        "      isNumberFactLoading: false -> true\n"
        "      request #1 numberFact.fetch (oneShot) 1\n"
        '[3] respond #1 "1 is a number."  (version 2)\n'
        "      isNumberFactLoading: true -> false\n"
        '      numberFact: (absent) -> "1 is a number."\n'
        '[4] send "incrementButtonTapped"  (version 3)\n'
        "      count: 1 -> 2\n"
    )


def test_the_command_line_prints_the_state_at_a_version(tmp_path):
    session = tmp_path / "session.jsonl"
    session.write_text(counter_session().journal())
    result = run_cli("replay", str(session), "--to", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout == '{"count":1,"isNumberFactLoading":false}\n'
    result = run_cli("replay", "-", "--to", "99", stdin=session.read_text())
    assert json.loads(result.stdout)["count"] == 2


def test_the_command_line_reports_errors(tmp_path):
    result = run_cli("replay", str(tmp_path / "missing.jsonl"))
    assert result.returncode == 1
    assert result.stderr.startswith("python -m tca replay: ")
    assert "missing.jsonl" in result.stderr
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not a journal\n")
    result = run_cli("replay", str(garbage))
    assert result.returncode == 1
    assert "not a libtca journal" in result.stderr
    assert result.stdout == ""


def test_a_journal_with_a_limit_keeps_its_newest_lines():
    store = tca.Store("counter", clock="manual", seed=7, record=True, record_limit=100)
    for i in range(5000):
        store.send("incrementButtonTapped" if i % 3 else "decrementButtonTapped")
        if i % 4 == 0:
            assert store.version > 0
    lines = store.journal().splitlines()
    assert len(lines) <= 102
    checkpoint = json.loads(lines[1])
    assert "checkpoint" in checkpoint
    assert tca.Store.replay(store.journal()).state == store.state
    with pytest.raises(tca.TCAError, match="checkpoint"):
        tca.Store.replay(store.journal(), to_version=checkpoint["version"] - 1)
    with pytest.raises(ValueError, match="record_limit"):
        tca.Store("counter", record=True, record_limit=-1)


def test_a_checkpoint_keeps_the_random_numbers_position():
    store = tca.Store("dice", clock="manual", seed=3, record=True, record_limit=20)
    for _ in range(100):
        store.send("rollButtonTapped")
        store.advance(600)
        assert store.version > 0
    assert '"random":[' in store.journal().splitlines()[1]
    replayed = tca.Store.replay(store.journal())
    assert replayed.state == store.state
    for each in (store, replayed):
        each.send("rollButtonTapped")
        each.advance(600)
    assert replayed.state == store.state
