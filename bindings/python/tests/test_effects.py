"""Effect handlers: host requests answered at once, later, from other threads, failed, cancelled."""

import threading
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

import tca
from tca import _native

FACT = "numberFact.fetch"


def fact(count):
    return f"{count} is a good number."


def test_handler_return_value_answers_the_request():
    with tca.Store("counter") as store:
        calls = []

        @store.effect(FACT)
        def fetch(count):
            calls.append(count)
            return fact(count)

        store.send("incrementButtonTapped")
        store.send("numberFactButtonTapped")
        assert calls == [1]
        state = store.state
        assert state["numberFact"] == "1 is a good number."
        assert state["isNumberFactLoading"] is False
        assert store.pending_requests == []


def test_decorator_returns_the_function():
    with tca.Store("counter") as store:
        decorated = store.effect(FACT)(fact)
        assert decorated is fact


def test_handler_exception_fails_the_request_with_its_message():
    with tca.Store("counter") as store:

        @store.effect(FACT)
        def fetch(count):
            raise ConnectionError("the network is down")

        store.send("numberFactButtonTapped")  # does not raise: the failure is the feature's
        state = store.state
        assert state["numberFactError"] == "Could not load a number fact: the network is down"
        assert state["isNumberFactLoading"] is False


def test_exception_without_message_fails_with_its_class_name():
    with tca.Store("counter") as store:

        @store.effect(FACT)
        def fetch(count):
            raise TimeoutError

        store.send("numberFactButtonTapped")
        assert store.state["numberFactError"].endswith("TimeoutError")


def test_request_without_handler_fails_with_a_clear_message():
    with tca.Store("counter") as store:
        store.send("numberFactButtonTapped")
        error = store.state["numberFactError"]
        assert "no Python handler for the request 'numberFact.fetch'" in error
        assert "@store.effect('numberFact.fetch')" in error


def test_remove_effect():
    with tca.Store("counter") as store:
        store.effect(FACT)(fact)
        store.remove_effect(FACT)
        store.remove_effect(FACT)
        store.send("numberFactButtonTapped")
        assert "no Python handler" in store.state["numberFactError"]


def test_future_answers_later():
    with tca.Store("counter") as store:
        pending = []

        @store.effect(FACT)
        def fetch(count):
            future = Future()
            pending.append((future, count))
            return future

        store.send("numberFactButtonTapped")
        assert store.state["isNumberFactLoading"] is True
        assert len(store.pending_requests) == 1
        future, count = pending.pop()
        future.set_result(fact(count))  # answered here, outside any call: processed at once
        assert store.state["numberFact"] == "0 is a good number."
        assert store.pending_requests == []


def test_future_exception_fails_the_request():
    with tca.Store("counter") as store:
        futures = []
        store.effect(FACT)(lambda count: futures.append(Future()) or futures[-1])
        store.send("numberFactButtonTapped")
        futures[0].set_exception(LookupError("no fact for 0"))
        assert store.state["numberFactError"].endswith("no fact for 0")


def test_answer_from_a_worker_thread():
    with tca.Store("counter") as store, ThreadPoolExecutor(1) as pool:
        seen = []
        store.subscribe(lambda version: seen.append(threading.get_ident()))
        gate = threading.Event()

        @store.effect(FACT)
        def fetch(count):
            return pool.submit(lambda: gate.wait() and fact(count))

        store.send("numberFactButtonTapped")
        assert store.state["isNumberFactLoading"] is True
        gate.set()
        pool.shutdown(wait=True)
        assert store.state["numberFact"] == "0 is a good number."
        # the answer was processed on the worker thread that gave it (the store was free)
        assert seen[0] == threading.get_ident()
        assert len(seen) == 2 and seen[1] != seen[0]


def test_catch_all_handler_answers_through_the_request_later():
    with tca.Store("counter") as store:
        kept = []

        @store.on_request
        def anything(request):
            kept.append(request)

        store.send("numberFactButtonTapped")
        (request,) = kept
        assert request.name == FACT
        assert request.payload == 0
        assert request.payload_json == b"0"
        assert request.kind == "oneShot"
        assert not request.stream
        assert FACT in repr(request)
        assert store.pending_requests == [request]
        request.respond("zero")
        assert store.state["numberFact"] == "zero"
        assert store.pending_requests == []
        with pytest.raises(tca.RequestError, match="tca_store_respond"):
            request.respond("again")
        with pytest.raises(tca.RequestError):
            request.fail("too late")


def test_catch_all_handler_fails_through_the_request():
    with tca.Store("counter") as store:
        store.on_request(lambda request: request.fail(ValueError("bad count")))
        store.send("numberFactButtonTapped")
        assert store.state["numberFactError"].endswith("bad count")


def test_low_level_answers_and_their_errors():
    with tca.Store("counter") as store:
        kept = []
        store.on_request(kept.append)
        store.send("numberFactButtonTapped")
        rid = kept[0].id
        with pytest.raises(tca.UnknownRequestError) as info:
            store.respond(rid + 1000, "x")
        assert "tca_store_respond" in str(info.value)
        with pytest.raises(tca.NotAStreamError):
            store.complete(rid)
        store.respond(rid, b'"raw json"')
        assert store.state["numberFact"] == "raw json"
        with pytest.raises(tca.RequestFinishedError):
            store.respond(rid, "twice")
        store.send("numberFactButtonTapped")
        store.fail(kept[1].id, "gave up")
        assert store.state["numberFactError"].endswith("gave up")


def test_answer_of_the_wrong_type_fails_the_request_and_raises():
    with tca.Store("counter") as store:
        store.effect(FACT)(lambda count: count * 2)  # an int where a string is expected
        with pytest.raises(tca.JSONShapeError) as info:
            store.send("numberFactButtonTapped")
        state = store.state
        # the action went through; the request did not hang
        assert state["isNumberFactLoading"] is False
        assert "expected a string" in state["numberFactError"]


def test_answer_of_the_wrong_type_is_reported_once_and_consistently():
    """Issue 14 item 7: the package fails the request, and the exception and the request's
    failure say the same, never that the request is still waiting."""
    with tca.Store("counter") as store:
        store.effect(FACT)(lambda count: 42)
        with pytest.raises(tca.JSONShapeError) as info:
            store.send("numberFactButtonTapped")
        message = str(info.value)
        assert message.startswith("the handler of 'numberFact.fetch' returned an answer the")
        assert "expected a string, found 42" in message
        assert "still waiting" not in message
        assert info.value.status == _native.ERR_JSON_SHAPE
        # The request's failure carries the same words, once.
        assert store.state["numberFactError"] == "Could not load a number fact: " + message
        assert store.pending_requests == []
        with pytest.raises(tca.RequestFinishedError):
            store.respond(1, "too late")
        # Nothing more is raised later: the failure was reported once.
        store.send("incrementButtonTapped")
        assert store.state["count"] == 1


def test_effect_for_a_request_the_feature_never_makes_warns():
    with tca.Store("counter") as store:
        with pytest.warns(tca.RequestNameWarning) as caught:

            @store.effect("numberFact.fetsh")
            def fetch(count):
                return "never called"

        message = str(caught[0].message)
        assert "never makes the request 'numberFact.fetsh'" in message
        assert "did you mean 'numberFact.fetch'?" in message
        assert caught[0].filename == __file__  # points at the decorator, not at the package


def test_effect_for_a_request_the_feature_makes_is_silent():
    import warnings

    with tca.Store("counter") as store, warnings.catch_warnings():
        warnings.simplefilter("error")
        store.effect("numberFact.fetch")(str)
        store.remove_effect("numberFact.fetch")


def test_answer_python_cannot_encode_fails_the_request_and_raises():
    with tca.Store("counter") as store:
        store.effect(FACT)(lambda count: object())
        with pytest.raises(TypeError, match="the answer to 'numberFact.fetch'"):
            store.send("numberFactButtonTapped")
        assert store.state["isNumberFactLoading"] is False


def test_a_bad_low_level_answer_leaves_the_request_waiting():
    with tca.Store("counter") as store:
        kept = []
        store.on_request(kept.append)
        store.send("numberFactButtonTapped")
        with pytest.raises(tca.JSONShapeError):
            kept[0].respond(12)
        assert store.pending_requests == kept
        kept[0].respond("twelve")
        assert store.state["numberFact"] == "twelve"


def test_cancelled_request_tells_the_handler():
    with tca.Store("counter") as store:
        futures, cancelled = [], []

        @store.on_request
        def anything(request):
            request.on_cancel(lambda: cancelled.append(request.id))
            futures.append(request)

        store.send("numberFactButtonTapped")
        store.send("numberFactButtonTapped")  # cancelInFlight: the first request is cancelled
        first, second = futures
        assert first.cancelled and cancelled == [first.id]
        assert store.pending_requests == [second]
        with pytest.raises(tca.RequestFinishedError):
            first.respond("late")
        hooked = []
        first.on_cancel(lambda: hooked.append(True))  # already cancelled: called at once
        assert hooked == [True]
        second.respond("fresh")
        assert store.state["numberFact"] == "fresh"


def test_cancelled_future_is_cancelled_and_its_late_result_dropped():
    with tca.Store("counter") as store:
        futures = []
        store.effect(FACT)(lambda count: futures.append(Future()) or futures[-1])
        store.send("numberFactButtonTapped")
        store.send("numberFactButtonTapped")
        assert futures[0].cancelled()
        futures[1].set_result("second")
        assert store.state["numberFact"] == "second"


def test_closing_the_store_cancels_requests_in_flight():
    store = tca.Store("counter")
    futures, kept = [], []
    store.effect(FACT)(lambda count: futures.append(Future()) or futures[-1])
    store.send("numberFactButtonTapped")
    store.close()
    assert futures[0].cancelled()
    assert store.pending_requests == []

    store = tca.Store("counter")
    store.on_request(kept.append)
    store.send("numberFactButtonTapped")
    store.close()
    assert kept[0].cancelled
    with pytest.raises(tca.InvalidHandleError):
        kept[0].respond("after close")


def test_running_future_finishing_after_close_is_dropped():
    store = tca.Store("counter")
    gate = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        store.effect(FACT)(lambda count: pool.submit(lambda: gate.wait() and "late"))
        store.send("numberFactButtonTapped")
        store.close()  # the future runs: it cannot be cancelled
        gate.set()
    assert store.closed


def test_sync_generator_answers_a_one_shot_request_with_its_first_element():
    with tca.Store("counter") as store:
        closed = []

        @store.effect(FACT)
        def fetch(count):
            try:
                yield f"first {count}"
                yield "second"
            finally:
                closed.append(True)

        store.send("numberFactButtonTapped")
        assert store.state["numberFact"] == "first 0"
        assert closed == [True]


def test_generator_that_yields_nothing_fails_a_one_shot_request():
    with tca.Store("counter") as store:

        @store.effect(FACT)
        def fetch(count):
            return
            yield

        store.send("numberFactButtonTapped")
        assert "yielded no answer" in store.state["numberFactError"]


def test_handlers_may_send_actions_which_are_queued():
    with tca.Store("counter") as store:

        @store.effect(FACT)
        def fetch(count):
            store.send("incrementButtonTapped")  # queued, reduced after this request
            return fact(count)

        store.send("numberFactButtonTapped")
        state = store.state
        assert state["count"] == 1
        assert state["numberFact"] == "0 is a good number."


def test_effects_answer_the_requests_an_effect_awaits_in_turn():
    """"saveNumberFactButtonTapped" awaits `numberFact.fetch`, then `numberFact.save`, inside
    one `.run` (Swift's `send.request`): Python's handlers see two ordinary requests."""
    with tca.Store("counter") as store:
        saved = []

        @store.effect(FACT)
        def fetch(count):
            return fact(count)

        @store.effect("numberFact.save")
        def save(text):
            saved.append(text)
            return True

        store.send("incrementButtonTapped")
        store.send("saveNumberFactButtonTapped")
        assert saved == ["1 is a good number."]
        assert store.state["numberFact"] == "1 is a good number."
        assert store.state["isNumberFactLoading"] is False


def test_an_awaited_request_that_fails_throws_in_the_effect():
    with tca.Store("counter") as store:
        store.effect(FACT)(fact)

        @store.effect("numberFact.save")
        def save(text):
            raise OSError("disk full")

        store.send("saveNumberFactButtonTapped")
        assert store.state["numberFactError"] == "Could not load a number fact: disk full"
