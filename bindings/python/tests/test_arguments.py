"""Integer and string arguments are checked before they reach C (issue 13 item 5).

ctypes passes a Python int to `uint64_t` modulo 2**64 and a `char *` up to its first NUL, so
without these checks `respond(2**64 + 1, ...)` answered request #1, `advance(2**64 + 500)`
advanced 500 ms and `Store("counter\\x00junk")` made a counter.
"""

import pytest

import tca

TOO_BIG = [2**64, 2**64 + 1, 2**64 + 500, 2**100]
NEGATIVE = [-1, -(2**64) + 1]


@pytest.fixture
def asked():
    """A counter with request #1 (numberFact.fetch) waiting for its answer."""
    with tca.Store("counter", clock="manual") as store:
        requests = []
        store.on_request(requests.append)
        store.send("numberFactButtonTapped")
        assert [r.id for r in requests] == [1]
        store.requests = requests
        yield store


def still_waiting(store):
    assert [r.id for r in store.pending_requests] == [1]
    assert store.state["isNumberFactLoading"] is True
    assert "numberFact" not in store.state or store.state["numberFact"] is None


@pytest.mark.parametrize("rid", TOO_BIG)
def test_respond_fail_complete_refuse_ids_past_uint64(asked, rid):
    with pytest.raises(OverflowError, match="respond: request_id"):
        asked.respond(rid, "a fact")
    with pytest.raises(OverflowError, match="fail: request_id"):
        asked.fail(rid, "no")
    with pytest.raises(OverflowError, match="complete: request_id"):
        asked.complete(rid)
    still_waiting(asked)


@pytest.mark.parametrize("rid", NEGATIVE)
def test_respond_fail_complete_refuse_negative_ids(asked, rid):
    with pytest.raises(ValueError, match="must not be negative"):
        asked.respond(rid, "a fact")
    with pytest.raises(ValueError, match="must not be negative"):
        asked.fail(rid, "no")
    with pytest.raises(ValueError, match="must not be negative"):
        asked.complete(rid)
    still_waiting(asked)


@pytest.mark.parametrize("rid", [True, 1.0, "1", None])
def test_ids_must_be_integers(asked, rid):
    with pytest.raises(TypeError):
        asked.respond(rid, "a fact")
    still_waiting(asked)


def test_the_same_id_in_range_is_answered(asked):
    asked.respond(1, "1 is the loneliest number.")
    assert asked.pending_requests == []
    assert asked.state["isNumberFactLoading"] is False


def test_fail_message_with_nul_is_refused(asked):
    with pytest.raises(ValueError, match="fail: message must not contain a NUL"):
        asked.fail(1, "no\x00 forged tail")
    still_waiting(asked)


def test_a_handler_exception_text_with_nul_is_not_cut_short():
    with tca.Store("counter") as store:

        @store.effect("numberFact.fetch")
        def fetch(count):
            raise RuntimeError("offline\x00tail")

        store.send("numberFactButtonTapped")
        assert store.state["isNumberFactLoading"] is False
        assert store.state["numberFactError"].endswith("offline\\0tail")


@pytest.mark.parametrize("ms", [2**64, 2**64 + 500, 2**70])
def test_advance_refuses_times_past_uint64(ms):
    with tca.Store("dice", clock="manual", seed=7) as store:
        store.effect("haptics.impact")(lambda payload: None)
        store.send("rollButtonTapped")
        with pytest.raises(OverflowError, match="advance: ms"):
            store.advance(ms)
        assert store.state["isRolling"] is True  # no time passed
        assert store.next_deadline() == 500
        store.advance(500)
        assert store.state["isRolling"] is False


@pytest.mark.parametrize("ms", [-1, -500, -(2**64) + 500])
def test_advance_refuses_negative_times(ms):
    with tca.Store("dice", clock="manual", seed=7) as store:
        store.effect("haptics.impact")(lambda payload: None)
        store.send("rollButtonTapped")
        with pytest.raises(ValueError, match="advance: ms must not be negative"):
            store.advance(ms)
        assert store.next_deadline() == 500


def test_advance_refuses_non_integers():
    with tca.Store("counter", clock="manual") as store:
        with pytest.raises(TypeError):
            store.advance(1.5)


@pytest.mark.parametrize("seed", [2**64, 2**64 + 7])
def test_seed_past_uint64_is_refused(seed):
    with pytest.raises(OverflowError, match="Store: seed"):
        tca.Store("dice", clock="manual", seed=seed)


def test_negative_seed_is_refused():
    with pytest.raises(ValueError, match="Store: seed must not be negative"):
        tca.Store("dice", clock="manual", seed=-1)


def test_largest_seed_is_taken():
    with tca.Store("dice", clock="manual", seed=2**64 - 1) as store:
        assert store.seed == 2**64 - 1


@pytest.mark.parametrize("feature", ["counter\x00junk", "counter\x00", "\x00counter"])
def test_feature_with_nul_is_refused(feature):
    with pytest.raises(ValueError, match="Store: feature must not contain a NUL"):
        tca.Store(feature)


def test_feature_must_be_text():
    with pytest.raises(TypeError):
        tca.Store(None)


@pytest.mark.parametrize("state", ['{"count": 5}\x00junk', b'{"count": 5}\x00junk'])
def test_state_text_with_nul_is_refused(state):
    with pytest.raises(ValueError, match="Store: state must not contain a NUL"):
        tca.Store("counter", state=state)


def test_state_dict_with_nul_in_a_string_is_escaped_json():
    todo = {"id": "00000000-0000-0000-0000-000000000001", "description": "x\x00y"}
    with tca.Store("todos", state={"todos": [todo]}) as store:
        assert store.get("/todos/0/description") == "x\x00y"


def test_get_pointer_with_nul_is_refused():
    with tca.Store("counter", state={"count": 3}) as store:
        with pytest.raises(ValueError, match="get: pointer must not contain a NUL"):
            store.get("/count\x00/junk")
        assert store.get("/count") == 3


@pytest.mark.parametrize("version", [1.5, "1", True, None, b"1"])
def test_patch_takes_only_integer_versions(version):
    # As respond does: TypeError for a float, a string or a bool (which ctypes took as 1).
    with tca.Store("counter") as store:
        store.send("incrementButtonTapped")
        with pytest.raises(TypeError, match="patch: since_version must be an integer"):
            store.patch(version)


def test_patch_checks_the_range_of_its_version():
    with tca.Store("counter") as store:
        with pytest.raises(ValueError, match="must not be negative"):
            store.patch(-1)
        for version in TOO_BIG:
            with pytest.raises(OverflowError, match="less than 2\\*\\*64"):
                store.patch(version)
        assert store.patch(0) == []
