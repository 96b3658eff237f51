"""The stopwatch library driven from Python through the same `tca` package as libtca."""

import tca


def test_only_this_librarys_features():
    names = {feature["name"] for feature in tca.features()}
    assert names == {"stopwatch", "counter"}


def test_stopwatch_with_a_host_request():
    with tca.Store("stopwatch", clock="manual") as store:
        saved = []

        @store.effect("stopwatch.save")
        def save(laps):
            saved.append(laps)
            return f"laps-{len(saved)}.json"

        store.send("startTapped")
        store.advance(250)
        assert store.state["elapsedMilliseconds"] == 200
        store.send("lapTapped")
        store.send("stopTapped")
        store.advance(1000)
        store.send("saveTapped")
        assert saved == [[200]]
        assert store.state["savedAs"] == "laps-1.json"


def test_a_partial_snapshot_takes_the_initial_states_values():
    # Stopwatch.State has a synthesized Codable: the members left out still take their defaults.
    with tca.Store("stopwatch", state={"laps": [300]}, clock="manual") as store:
        assert store.state == {"elapsedMilliseconds": 0, "isRunning": False, "laps": [300]}
        store.send("startTapped")
        store.advance(100)
        assert store.state["elapsedMilliseconds"] == 100
