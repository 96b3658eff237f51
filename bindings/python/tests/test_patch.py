"""JSON Patch from Python: `store.patch(since)`, checked by an independent implementation
(`jsonpatch` from PyPI) over random action sequences on every built-in feature; `store.state`
kept current by patches; subscribers that receive patches."""

import os
import random

import pytest

import tca

try:
    import jsonpatch
except ImportError:  # pragma: no cover - make venv installs it
    if os.environ.get("CI"):
        raise
    pytest.skip("jsonpatch is not installed (make venv installs it)", allow_module_level=True)

# NB: 10,000 steps (TCA_TEST_LONG=1) take minutes here (jsonpatch deep-copies each document);
# make test runs 2,000, valgrind 300.
STEPS = (
    10_000
    if os.environ.get("TCA_TEST_LONG")
    else 300
    if os.environ.get("TCA_TEST_QUICK")
    else 2_000
)


def todos_action(rng, state):
    ids = [todo["id"] for todo in state["todos"]]
    pick = rng.choice(ids) if ids else "00000000-0000-0000-0000-000000000000"
    count = len(ids)
    choice = rng.randrange(9)
    if choice in (0, 1):
        return "addTodoButtonTapped"
    if choice in (2, 8):
        return {"todos": {"element": {"id": pick, "action": "checkBoxToggled"}}}
    if choice == 3:
        text = f"t{rng.randrange(100)}/~x"
        return {"todos": {"element": {"id": pick, "action": {"textFieldChanged": text}}}}
    if choice == 4:
        return {"filterPicked": rng.choice(["all", "active", "completed"])}
    if choice == 5:
        return {"delete": [rng.randrange(count + 2)]}
    if choice == 6:
        return {"move": {"from": [rng.randrange(count + 2)], "to": rng.randrange(count + 2)}}
    return "clearCompletedButtonTapped" if count > 12 else "sortCompletedTodos"


def counter_action(rng, state):
    return rng.choice(
        [
            "incrementButtonTapped",
            "decrementButtonTapped",
            "numberFactButtonTapped",
            {"numberFactResponse": f"fact {rng.randrange(9)}"},
            {"numberFactFailed": "offline"},
        ]
    )


def dice_action(rng, state):
    return rng.choice(
        [
            "rollButtonTapped",
            "undoLastRoll",
            "resetHistory",
            "resetButtonTapped",
            {"alert": {"presented": {"confirmReset": {}}}},
            {"alert": "dismiss"},
            "viewFullHistoryTapped",
            {"destination": {"presented": {"history": "closeButtonTapped"}}},
            {"destination": "dismiss"},
            {"rollCompleted": rng.randrange(1, 7)},
        ]
    )


def matchscores_action(rng, state):
    lst = rng.choice(["teamList", "playerList"])
    team = rng.randrange(1, 13)
    choice = rng.randrange(10)
    if choice == 0:
        return {lst: "onAppear"}
    if choice == 1:
        first = rng.randrange(1, 9)
        ids = range(first, first + rng.randrange(6))
        if lst == "teamList":
            data = [{"id": i, "full_name": f"Team {i} {rng.randrange(9)}"} for i in ids]
        else:
            data = [{"id": i, "first_name": f"P{i}", "last_name": f"L{rng.randrange(9)}"} for i in ids]
        page = rng.randrange(1, 4)
        return {lst: {"pageLoaded": {"page": page, "response": {"data": data, "meta": {"total_pages": 3}}}}}
    if choice == 2:
        return {lst: {"searchQueryChanged": rng.choice(["", "1", "Team 2", "p"])}}
    if choice == 3:
        return {"favoriteButtonTapped": team}
    if choice == 4:
        return {"favorites": {"removeButtonTapped": team}}
    if choice == 5:
        return {"teamTapped": team}
    if choice == 6:
        return {"path": {"popFrom": {"id": rng.randrange(7)}}}
    if choice == 7:
        return {"tabSelected": rng.choice(["teams", "games", "players", "favorites"])}
    if choice == 8:
        return {lst: "refresh"}
    return {lst: {"pageFailed": {"page": 1, "message": "offline"}}}


ACTIONS = {
    "counter": counter_action,
    "todos": todos_action,
    "dice": dice_action,
    "matchscores": matchscores_action,
}


@pytest.mark.parametrize("feature", sorted(ACTIONS))
def test_patches_replay_random_sequences(feature):
    replay_random_sequence(feature, None, STEPS)


def test_patches_replay_random_sequences_on_a_large_todos_list():
    # NB: 300 todos span several 64-element chunks of the list's tree: patches of changes in
    # place are made by walking past shared chunks, others by the fallback diff (issue 16).
    todos = [
        {
            "id": f"00000000-0000-4000-8000-{index:012x}",
            "description": f"todo {index}",
            "isComplete": index % 3 == 0,
        }
        for index in range(300)
    ]
    replay_random_sequence("todos", {"filter": "all", "todos": todos}, STEPS // 4)


def replay_random_sequence(feature, state, steps):
    rng = random.Random(feature)
    # NB: queued requests: nobody answers them; the generator feeds answers as actions.
    with tca.Store(feature, state, clock="manual", seed=7, requests="queued") as store:
        seen = [(store.version, store.snapshot())]
        changed = 0
        for step in range(steps):
            if rng.randrange(100) < 8:
                store.advance(rng.choice([50, 150, 400, 1100]))
            else:
                store.send(ACTIONS[feature](rng, seen[-1][1]))
            store.take_requests()
            version = store.version
            current = store.snapshot()
            previous_version, previous = seen[-1]
            patch = store.patch(previous_version)
            assert jsonpatch.apply_patch(previous, patch) == current, (feature, step, patch)
            back_version, back = seen[0]
            assert jsonpatch.apply_patch(back, store.patch(back_version)) == current, (feature, step)
            if version != previous_version:
                changed += 1
                seen.append((version, current))
            else:
                assert patch == []
            del seen[:-11]
        # NB: a generator that changed nothing would make the checks vacuous.
        assert changed > steps // 5


def test_state_is_kept_current_by_patches():
    with tca.Store("todos", clock="manual", seed=3) as store:
        store.send("addTodoButtonTapped")
        before = store.state
        first = before["todos"][0]["id"]
        store.send({"todos": {"element": {"id": first, "action": "checkBoxToggled"}}})
        after = store.state
        assert after == store.snapshot()
        assert after["todos"][0]["isComplete"] is True
        # The earlier value is not changed by the patch.
        assert before["todos"][0]["isComplete"] is False


def test_a_version_no_longer_kept():
    with tca.Store("counter") as store:
        for _ in range(20):
            store.send("incrementButtonTapped")
            store.version
        with pytest.raises(tca.VersionGoneError) as caught:
            store.patch(0)
        assert caught.value.status == 16
        assert "no longer kept" in str(caught.value)
        with pytest.raises(tca.VersionGoneError):
            store.patch(store.version + 1)
        assert store.patch(store.version) == []
        assert store.patch(store.version - 1) == [
            {"op": "replace", "path": "/count", "value": 20}
        ]


def test_subscribers_receive_patches():
    with tca.Store("counter") as store:
        mirror = store.snapshot()
        heard = []

        def on_change(version, patch):
            nonlocal mirror
            heard.append(version)
            mirror = tca.apply_patch(mirror, patch)

        with store.subscribe(on_change, patches=True):
            for _ in range(3):
                store.send("incrementButtonTapped")
            store.send({"numberFactResponse": "3 is a number."})
        assert heard == [1, 2, 3, 4]
        assert mirror == store.snapshot()


def test_apply_patch_leaves_its_input_alone():
    document = {"a": [1, {"b": 2}]}
    patched = tca.apply_patch(
        document,
        [
            {"op": "replace", "path": "/a/1/b", "value": 3},
            {"op": "add", "path": "/a/-", "value": 4},
            {"op": "move", "from": "/a/0", "path": "/c"},
        ],
    )
    assert patched == {"a": [{"b": 3}, 4], "c": 1}
    assert document == {"a": [1, {"b": 2}]}
    # The whole document replaced (what a subscriber gets when its version is no longer kept).
    assert tca.apply_patch(document, [{"op": "replace", "path": "", "value": [1]}]) == [1]


def test_a_subscriber_that_fell_behind_gets_the_whole_state():
    with tca.Store("counter") as store:
        heard = []
        with store.subscribe(lambda version, patch: heard.append(patch), patches=True) as sub:
            # NB: the subscriber's version is set back past what the store keeps, as if it had
            # missed 16 versions.
            for _ in range(20):
                store.send("incrementButtonTapped")
                store.version
            heard.clear()
            sub._version = 0
            store.send("incrementButtonTapped")
        assert heard == [[{"op": "replace", "path": "", "value": store.snapshot()}]]
