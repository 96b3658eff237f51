"""Feature schemas (docs/schema.md), checked against reality with an independent validator
(`jsonschema`): random walks on every built-in feature validate every action sent and reduced,
every state read, every request's payload and every answer given; every action made from a
schema is accepted by the store."""

import ctypes
import json
import random

import pytest

import tca
from tca import _native
from tca.testing import random_action, random_value

jsonschema = pytest.importorskip("jsonschema")

FEATURES = ["counter", "todos", "dice", "matchscores"]


def validator(document, subschema):
    """A 2020-12 validator of `subschema`, whose `$ref`s point into `document`'s `$defs`."""
    if subschema is True:
        subschema = {}
    return jsonschema.Draft202012Validator({"$defs": document["$defs"], **subschema})


def check(document, subschema, value, what):
    errors = list(validator(document, subschema).iter_errors(value))
    assert not errors, f"{what} {json.dumps(value)[:300]} is invalid: {errors[0].message[:300]}"


def canonical(feature, action):
    data = json.dumps(action).encode()
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    name = feature.encode()
    status = _native.lib.tca_canonical_action_n(
        name, len(name), data, len(data), ctypes.byref(out), ctypes.byref(length)
    )
    assert status == 0, _native.last_error()
    return json.loads(_native.take_string(out.value, length.value))


def take_reductions(store):
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    status = _native.lib.tca_store_take_reductions(
        store._h, ctypes.byref(out), ctypes.byref(length)
    )
    assert status == 0, _native.last_error()
    return json.loads(_native.take_string(out.value, length.value))


@pytest.mark.parametrize("feature", FEATURES)
def test_each_feature_has_a_schema_that_is_one(feature):
    document = tca.schema(feature)
    assert document["feature"] == feature
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(document) == {"feature", "$schema", "state", "action", "requests", "$defs"}
    for part in ("state", "action"):
        jsonschema.Draft202012Validator.check_schema({"$defs": document["$defs"], **document[part]})
    listed = next(f for f in tca.features() if f["name"] == feature)
    assert sorted(document["requests"]) == sorted(listed["requests"])
    for name, request in document["requests"].items():
        # Every built-in feature declares what its requests carry.
        assert request["kind"] in ("oneShot", "stream", "fireAndForget"), name
        assert "x-tca-undeclared" not in request
        assert ("response" in request) == (request["kind"] != "fireAndForget")
    for key, definition in document["$defs"].items():
        assert definition["title"], key
        assert definition["x-tca-kind"] in (
            "struct", "action", "enum", "presentation", "stack", "alert", "dialog",
            "identifiedArray", "dictionary",
        )
    # A new dict each time, the same as the store's.
    assert tca.schema(feature) == document
    assert tca.schema(feature) is not document
    with tca.Store(feature, clock="manual") as store:
        assert store.schema == document
        check(document, document["state"], store.state, "the initial state")


def test_an_unknown_feature_is_refused_with_the_names_of_the_features():
    with pytest.raises(tca.UnknownFeatureError, match='no feature named "countr".*counter, todos'):
        tca.schema("countr")
    with pytest.raises(TypeError):
        tca.schema(3)
    with pytest.raises(ValueError):
        tca.schema("coun\0ter")


def test_the_counter_schema_is_what_docs_schema_md_shows():
    document = tca.schema("counter")
    assert document["state"] == {"$ref": "#/$defs/Counter.State"}
    state = document["$defs"]["Counter.State"]
    assert list(state["properties"]) == [
        "count", "numberFact", "numberFactError", "isNumberFactLoading"
    ]
    assert state["required"] == ["count", "isNumberFactLoading"]
    cases = document["$defs"]["Counter.Action"]["oneOf"]
    assert [case["x-tca-case"] for case in cases] == [
        "decrementButtonTapped", "incrementButtonTapped", "numberFactButtonTapped",
        "saveNumberFactButtonTapped", "numberFactResponse", "numberFactFailed",
    ]
    assert document["requests"] == {
        "numberFact.fetch": {
            "kind": "oneShot", "payload": {"type": "integer"}, "response": {"type": "string"}
        },
        "numberFact.save": {
            "kind": "oneShot", "payload": {"type": "string"}, "response": {"type": "boolean"}
        },
    }


def walk(feature, seed, steps):
    """Drives a store of `feature` with actions and answers made from its schema, validating
    everything that crosses the boundary against the schema."""
    document = tca.schema(feature)
    rng = random.Random(seed)
    pending = {}
    with tca.Store(
        feature, clock="manual", seed=seed + 1, requests="queued", record=True
    ) as store:
        assert _native.lib.tca_store_log_reductions(store._h, 1) == 0
        check(document, document["state"], store.state, "the initial state")
        for _ in range(steps):
            roll = rng.random()
            if roll < 0.65:
                action = random_action(document, rng, seen=store.state)
                check(document, document["action"], action, "an action made from the schema")
                store.send(action)  # every action made from the schema is accepted
                check(document, document["action"], canonical(feature, action), "canonical")
            elif roll < 0.85 and pending:
                request = pending.pop(rng.choice(sorted(pending)))
                declared = document["requests"][request["name"]]
                if request["kind"] == "fireAndForget":
                    pass
                elif rng.random() < 0.8:
                    answer = random_value(document, declared["response"], rng, seen=store.state)
                    check(document, declared["response"], answer, f"an answer to {request['name']}")
                    store.respond(request["id"], answer)
                    if request["kind"] == "stream" and rng.random() < 0.5:
                        pending[request["id"]] = request
                    elif request["kind"] == "stream":
                        store.complete(request["id"])
                else:
                    store.fail(request["id"], rng.choice(["offline", "é\n\"quoted\""]))
            else:
                store.advance(rng.choice([1, 100, 300, 500, 1000, 1100]))
            for request in store.take_requests():
                if "cancelled" in request:
                    pending.pop(request["cancelled"], None)
                    continue
                assert request["name"] in document["requests"], request["name"]
                declared = document["requests"][request["name"]]
                assert request["kind"] == declared["kind"]
                check(document, declared["payload"], request["payload"], request["name"])
                if request["kind"] != "fireAndForget":
                    pending[request["id"]] = request
            for reduction in take_reductions(store):
                check(document, document["action"], reduction["action"], "a reduced action")
                check(document, document["state"], reduction["state"], "a state")
            check(document, document["state"], store.state, "the state")
            check(document, document["state"], json.loads(store.state_json()), "the state")


@pytest.mark.parametrize("feature", FEATURES)
@pytest.mark.parametrize("seed", range(4))
def test_random_walks_stay_within_the_schema(feature, seed):
    walk(feature, seed, 120)


@pytest.mark.parametrize("feature", FEATURES)
def test_every_action_made_from_the_schema_is_accepted(feature):
    document = tca.schema(feature)
    rng = random.Random(7)
    with tca.Store(feature, clock="manual", requests="queued") as store:
        for _ in range(300):
            store.send(random_action(document, rng))
            store.take_requests()


@pytest.mark.parametrize("feature", FEATURES)
def test_actions_the_schema_refuses_the_store_refuses(feature):
    document = tca.schema(feature)
    with tca.Store(feature, clock="manual") as store:
        for action in ["jump", {"jump": {}}, {}, 12, [], None]:
            assert list(validator(document, document["action"]).iter_errors(action))
            with pytest.raises(tca.JSONShapeError):
                store.send(action)


def test_a_misspelled_case_is_named_with_the_valid_ones():
    with tca.Store("counter") as store:
        with pytest.raises(tca.JSONShapeError) as raised:
            store.send({"numberFactResponseFailed": "offline"})
    message = str(raised.value)
    assert 'found "numberFactResponseFailed"' in message
    assert 'did you mean "numberFactResponse" or "numberFactFailed"?' in message
    assert '"incrementButtonTapped"' in message
