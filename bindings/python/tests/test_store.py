import gc

import pytest

import tca


def test_version_and_features():
    assert tca.version() == "0.1.0"
    names = [feature["name"] for feature in tca.features()]
    assert "counter" in names
    counter = next(f for f in tca.features() if f["name"] == "counter")
    assert counter["initialState"]["count"] == 0
    assert counter["requests"] == ["numberFact.fetch"]


def test_thousand_increments():
    with tca.Store("counter") as store:
        for _ in range(1000):
            store.send("incrementButtonTapped")
        assert store.state["count"] == 1000


def test_action_forms():
    with tca.Store("counter", state={"count": 10}) as store:
        store.send({"decrementButtonTapped": {}})
        store.send(b'"decrementButtonTapped"')
        assert store.state["count"] == 8
        assert store.state_json().startswith(b'{"count":8,')


def test_unknown_action_raises_shape_error_and_changes_nothing():
    with tca.Store("counter") as store:
        with pytest.raises(tca.JSONShapeError) as info:
            store.send("jumpButtonTapped")
        assert "tca_store_send" in str(info.value)
        assert "jumpButtonTapped" in str(info.value)
        assert info.value.status == 5
        assert store.state["count"] == 0


def test_malformed_json_raises_syntax_error():
    with tca.Store("counter") as store:
        with pytest.raises(tca.JSONSyntaxError, match="at byte"):
            store.send(b'{"incrementButtonTapped":')
        with pytest.raises(tca.JSONSyntaxError, match="UTF-8"):
            store.send(b'"increment\xff"')
        assert store.state["count"] == 0


def test_errors_are_value_errors_too():
    with tca.Store("counter") as store:
        with pytest.raises(ValueError):
            store.send("nope")


def test_unknown_feature():
    with pytest.raises(tca.UnknownFeatureError, match="nope"):
        tca.Store("nope")


def test_bad_state():
    with pytest.raises(tca.JSONShapeError, match="/count"):
        tca.Store("counter", state={"count": "many"})


def test_closed_store_raises():
    store = tca.Store("counter")
    store.close()
    store.close()
    with pytest.raises(tca.InvalidHandleError):
        store.send("incrementButtonTapped")
    with pytest.raises(tca.InvalidHandleError):
        store.state


def test_store_released_when_collected():
    store = tca.Store("counter")
    store.send("incrementButtonTapped")
    del store
    gc.collect()
