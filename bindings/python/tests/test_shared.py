"""Shared state from Python: the dice history kept by the host (`shared.load`, `shared.save`),
and matchscores' favorites shared by two stores, one store's change in the other's patch."""

import json
import os
import selectors

import tca
from tca.testing import TestStore

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "fixtures")


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as file:
        return json.load(file)


def test_the_dice_history_is_kept_by_the_host():
    saved = {"dice.history": [3, 4]}
    with tca.Store("dice", clock="manual", seed=7) as store:
        store.effect("shared.load")(lambda payload: saved.get(payload["key"]))

        @store.effect("shared.save")
        def save(payload):
            saved[payload["key"]] = payload["value"]

        store.effect("haptics.impact")(lambda payload: None)
        store.send("rollButtonTapped")
        assert store.state["rollHistory"] == [3, 4]
        store.advance(500)
        assert store.state["rollHistory"] == [5, 3, 4]
        assert saved == {"dice.history": [5, 3, 4]}
        store.send("undoLastRoll")
        assert saved == {"dice.history": [3, 4]}


def test_two_stores_share_the_favorites():
    with tca.Store("matchscores", clock="manual") as a, tca.Store(
        "matchscores", clock="manual"
    ) as b:
        a.effect("matchScores.fetchTeams")(lambda payload: fixture("matchscores/teams_page1.json"))
        a.send({"teamList": "onAppear"})
        before = b.version
        selector = selectors.DefaultSelector()
        selector.register(b.fileno(), selectors.EVENT_READ)
        assert selector.select(timeout=0) == []
        a.send({"favoriteButtonTapped": 2})
        assert a.state["favorites"]["teams"][0]["name"] == "Celtics"
        # B takes the change at its next turn: its descriptor says so.
        assert len(selector.select(timeout=0)) == 1
        assert b.version == before
        assert b.poll() > 0
        patch = b.patch(before)
        assert any(
            op["path"] == "/favorites/teams/0" and op["value"]["name"] == "Celtics"
            for op in patch
        ), patch
        assert b.version == before + 1
        # And back.
        b.send({"favorites": {"removeButtonTapped": 2}})
        a.send({"tabSelected": "favorites"})
        assert a.state["favorites"]["teams"] == []
        selector.close()


def test_a_test_store_asserts_shared_changes_like_state():
    store = TestStore("dice", seed=7)
    store.send("rollButtonTapped", {"isRolling": True})
    store.receive(
        "startAnimation", lambda s: s.update(rollAnimationAngle=s["rollAnimationAngle"] + 360)
    )
    store.request("haptics.impact")
    store.advance(500)
    store.receive(
        {"rollCompleted": 5},
        {"isRolling": False, "currentRoll": 5, "rollHistory": [5], "lastFiveRolls": [5]},
    )
    store.finish()
    assert store.shared_saves == [{"key": "dice.history", "value": [5]}]


def test_a_test_store_shares_nothing_with_live_stores():
    """`TestStore` makes its store with `shared="isolated"`: a live store of the same process
    holding the same key neither changes its state nor sees its changes."""
    with tca.Store("matchscores", clock="manual") as live:
        live.effect("matchScores.fetchTeams")(
            lambda payload: fixture("matchscores/teams_page1.json")
        )
        live.send({"teamList": "onAppear"})
        live.send({"favoriteButtonTapped": 2})
        store = TestStore("matchscores")
        assert store.state["favorites"]["teams"] == []
        store.exhaustive = False
        store.send({"teamList": "onAppear"})
        store.request("matchScores.fetchTeams").respond(fixture("matchscores/teams_page1.json"))
        store.send({"favoriteButtonTapped": 3})
        live.poll()
        assert [team["id"] for team in live.state["favorites"]["teams"]] == [2]
        assert [team["id"] for team in store.state["favorites"]["teams"]] == [3]


def test_an_isolated_store_is_asked_for_by_name():
    with tca.Store("matchscores", clock="manual", shared="isolated") as isolated:
        assert isolated.state["favorites"]["teams"] == []
    try:
        tca.Store("matchscores", shared="private")
    except ValueError as error:
        assert "'process' or 'isolated'" in str(error)
    else:
        raise AssertionError("shared='private' was taken")
