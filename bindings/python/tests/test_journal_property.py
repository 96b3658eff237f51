"""The journal's promise, as a property: random sessions on every built-in feature — actions,
requests answered, failed and cancelled (re-taps), answers, sends and clock moves given inside
callbacks and later, the clock advanced — are recorded, and each is replayed to 10 random versions: the state
JSON is the recorded store's at that version, byte for byte, and the replayed store's version is
that version."""

import random
from pathlib import Path

import pytest

import tca

FIXTURES = Path(__file__).resolve().parents[3] / "Tests" / "fixtures" / "matchscores"
PAGES = {
    "matchScores.fetchTeams": ["teams_page1.json", "teams_page2.json"],
    "matchScores.fetchGames": ["games_page1.json"],
    "matchScores.fetchPlayers": ["players_page1.json", "players_page2.json"],
}
SESSIONS = 6  # per feature and request mode
STEPS = 40
REPLAYS = 10


def todo_action(rng, state):
    todos = state.get("todos", [])
    if todos and rng.random() < 0.5:
        todo = rng.choice(todos)
        action = rng.choice(["checkBoxToggled", {"textFieldChanged": rng.choice(["milk", ""])}])
        return {"todos": {"element": {"id": todo["id"], "action": action}}}
    return rng.choice([
        "addTodoButtonTapped",
        "addTodoButtonTapped",
        "clearCompletedButtonTapped",
        "sortCompletedTodos",
        {"delete": [rng.randrange(4)]},
        {"filterPicked": rng.choice(["all", "active", "completed"])},
        {"move": {"from": [rng.randrange(3)], "to": rng.randrange(3)}},
    ])


def matchscores_action(rng, state):
    lists = ["teamList", "gameList", "playerList"]
    return rng.choice([
        {"tabSelected": rng.choice(["teams", "games", "players", "favorites"])},
        {rng.choice(lists): "onAppear"},
        {rng.choice(lists): "refresh"},
        {rng.choice(lists): {"rowAppeared": rng.choice([0, 14, 15, 29, 30])}},
        {rng.choice(lists): {"searchQueryChanged": rng.choice(["", "a", "bos", "lebron"])}},
        {"favoriteButtonTapped": rng.randrange(1, 30)},
    ])


ACTIONS = {
    "counter": lambda rng, state: rng.choice(
        ["incrementButtonTapped", "decrementButtonTapped", "numberFactButtonTapped",
         "numberFactButtonTapped"]
    ),
    "dice": lambda rng, state: rng.choice(
        ["rollButtonTapped", "rollButtonTapped", "undoLastRoll", "resetHistory",
         "viewFullHistoryTapped", {"destination": "dismiss"}]
    ),
    "todos": todo_action,
    "matchscores": matchscores_action,
}


def answer(rng, name, payload):
    """A good answer to a request (bytes are sent as they are)."""
    if name == "numberFact.fetch":
        return f"{payload} is a number ({rng.randrange(100)})."
    if name == "shared.load":
        # The dice history the host kept (shared state), or none.
        return rng.choice([None, [rng.randint(1, 6) for _ in range(rng.randrange(4))]])
    pages = PAGES[name]
    page = payload.get("page", 1) if isinstance(payload, dict) else 1
    return (FIXTURES / pages[min(page, len(pages)) - 1]).read_bytes()


def record_session(feature, seed, requests):
    """Runs a random session; returns its journal and the state JSON at each version seen."""
    rng = random.Random(seed)
    states = {}
    store = tca.Store(
        feature, clock="manual", seed=seed + 1, requests=requests, record=True
    )
    waiting = {}  # id -> (name, payload, kind): requests taken, still answerable

    if requests == "callback":
        def handle(request):
            # Sometimes moves the clock or sends from inside the callback (applied once it
            # returns, the clock last); answers some at once; keeps the others for later.
            if rng.random() < 0.2:
                store.advance(rng.choice([100, 500]))
            if rng.random() < 0.2:
                store.send(ACTIONS[feature](rng, store.state))
            if request.kind == "fireAndForget":
                return
            if rng.random() < 0.4:
                request.respond(answer(rng, request.name, request.payload))
            else:
                waiting[request.id] = request

        store.on_request(handle)

    def look():
        states.setdefault(store.version, store.state_json())
        assert states[store.version] == store.state_json()
        if requests == "queued":
            for notice in store.take_requests():
                if "cancelled" in notice:
                    waiting.pop(notice["cancelled"], None)
                elif notice["kind"] != "fireAndForget":
                    waiting[notice["id"]] = notice

    look()
    for _ in range(STEPS):
        roll = rng.random()
        if roll < 0.45:
            store.send(ACTIONS[feature](rng, store.state))
        elif roll < 0.7 and waiting:
            rid = rng.choice(sorted(waiting))
            request = waiting.pop(rid)
            name = request["name"] if isinstance(request, dict) else request.name
            payload = request["payload"] if isinstance(request, dict) else request.payload
            try:
                if rng.random() < 0.7:
                    store.respond(rid, answer(rng, name, payload))
                else:
                    store.fail(rid, rng.choice(["offline", "timed out"]))
            except tca.RequestFinishedError:
                pass  # cancelled by a re-tap in the meantime (callback mode)
        elif roll < 0.8:
            # Refused inputs change nothing and are not recorded.
            with pytest.raises(tca.TCAError):
                store.send({"noSuchAction": 1})
            with pytest.raises(tca.TCAError):
                store.respond(999_999, "x")
        else:
            store.advance(rng.choice([0, 1, 100, 300, 500, 1000, 1500]))
        look()
    journal = store.journal()
    store.close()
    return journal, states


@pytest.mark.parametrize("requests", ["queued", "callback"])
@pytest.mark.parametrize("feature", ["counter", "dice", "todos", "matchscores"])
def test_replays_give_the_recorded_states(feature, requests):
    kinds = set()
    for session in range(SESSIONS):
        seed = 1000 * session + len(feature)
        journal, states = record_session(feature, seed, requests)
        kinds |= {line[2:line.index('"', 2)] for line in journal.splitlines()[1:]}
        rng = random.Random(seed)
        versions = sorted(states)
        chosen = [rng.choice(versions) for _ in range(REPLAYS - 1)] + [versions[-1]]
        for version in chosen:
            with tca.Store.replay(journal, to_version=version, requests="queued") as replayed:
                assert replayed.version == version
                assert replayed.state_json() == states[version], (
                    f"{feature} session {session}, version {version}:\n{journal}"
                )
        with tca.Store.replay(journal, requests="queued") as replayed:
            assert replayed.state_json() == states[versions[-1]]
    # The sessions did what this test is about.
    assert {"send", "advance"} <= kinds
    if feature in ("counter", "matchscores"):
        assert {"request", "respond", "fail", "cancelled"} <= kinds, kinds
    if feature == "dice":
        assert "request" in kinds  # fire and forget: nothing to answer


def test_a_real_clock_session_replays_on_a_manual_clock():
    import time

    with tca.Store("dice", seed=5, record=True, requests="queued") as store:
        store.send("rollButtonTapped")
        while store.next_deadline() != 0:  # the roll's 500 ms, on the real clock
            time.sleep(0.05)
        assert store.poll() > 0
        assert store.state["currentRoll"] is not None
        journal = store.journal()
        assert '"clock":"real"' in journal.splitlines()[0]
        assert '{"poll":true,"at":' in journal
        with tca.Store.replay(journal, requests="queued") as replayed:
            assert replayed.state_json() == store.state_json()
            assert replayed.version == store.version


def test_a_timer_set_after_an_idle_gap_replays_from_its_own_start():
    # The second roll starts 0.6 s after the first one landed, and lands 500 ms later: the
    # journal is taken before. Its line's "from" (the time the roll read the clock) puts the
    # replayed clock there first; from the first roll's time, the replay landed it at once.
    import json
    import time

    with tca.Store("dice", seed=5, record=True, requests="queued") as store:
        store.send("rollButtonTapped")
        while store.next_deadline() != 0:
            time.sleep(0.05)
        assert store.poll() > 0
        time.sleep(0.6)
        store.send("rollButtonTapped")
        assert store.state["isRolling"] is True
        journal = store.journal()
        lines = [json.loads(line) for line in journal.splitlines()[1:]]
        sends = [line for line in lines if "send" in line]
        assert len(sends) == 2
        assert all("from" in line and line["from"] <= line["at"] for line in sends)
        before = [line["at"] for line in lines[: lines.index(sends[1])] if "at" in line]
        assert sends[1]["from"] - before[-1] >= 500_000_000
        with tca.Store.replay(journal, requests="queued") as replayed:
            assert replayed.state["isRolling"] is True
            assert replayed.state_json() == store.state_json()
            assert replayed.version == store.version


def test_a_send_that_reads_no_time_journals_none():
    with tca.Store("counter", record=True) as store:
        store.send("incrementButtonTapped")
        line = store.journal().splitlines()[1]
        assert line == '{"send":"incrementButtonTapped","version":1}'
