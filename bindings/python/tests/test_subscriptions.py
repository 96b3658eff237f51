"""Subscriptions, and exceptions raised in callbacks coming out of the call that ran them."""

import gc

import pytest

import tca

FACT = "numberFact.fetch"


def test_subscriber_called_once_per_call_that_changed_the_state():
    with tca.Store("counter") as store:
        versions = []
        store.subscribe(versions.append)
        store.send("incrementButtonTapped")
        assert versions == [store.version]
        store.state  # reading changes nothing
        with pytest.raises(tca.JSONShapeError):
            store.send("nope")
        assert len(versions) == 1

        @store.effect(FACT)
        def fetch(count):
            store.send("incrementButtonTapped")
            return "fact"

        store.send("numberFactButtonTapped")  # several changes, one call: one notification
        assert len(versions) == 2
        assert versions[-1] == store.version


def test_unsubscribe_in_every_form():
    with tca.Store("counter") as store:
        calls = []
        first = store.subscribe(lambda v: calls.append("first"))
        second = store.subscribe(lambda v: calls.append("second"))
        store.send("incrementButtonTapped")
        assert calls == ["first", "second"]  # in the order they subscribed
        first()  # calling the handle
        assert not first.active
        store.send("incrementButtonTapped")
        assert calls[2:] == ["second"]
        second.unsubscribe()
        second.unsubscribe()  # twice is fine
        store.send("incrementButtonTapped")
        assert len(calls) == 3
        with store.subscribe(lambda v: calls.append("third")) as third:
            store.send("incrementButtonTapped")
        assert not third.active
        store.send("incrementButtonTapped")
        assert calls[3:] == ["third"]


def test_unsubscribe_from_inside_the_callback():
    with tca.Store("counter") as store:
        calls = []

        def once(version):
            calls.append(version)
            subscription.unsubscribe()

        subscription = store.subscribe(once)
        store.send("incrementButtonTapped")
        store.send("incrementButtonTapped")
        assert len(calls) == 1


def test_subscriber_reads_the_new_state():
    with tca.Store("counter") as store:
        counts = []
        store.subscribe(lambda v: counts.append(store.state["count"]))
        for _ in range(3):
            store.send("incrementButtonTapped")
        assert counts == [1, 2, 3]


def test_subscriber_exception_comes_out_of_send_after_the_work_is_done():
    with tca.Store("counter") as store:
        calls = []

        def broken(version):
            calls.append(version)
            raise RuntimeError("subscriber bug")

        store.subscribe(broken)
        with pytest.raises(RuntimeError, match="subscriber bug"):
            store.send("incrementButtonTapped")
        assert store.state["count"] == 1  # the action was processed
        assert len(calls) == 1
        with pytest.raises(RuntimeError):
            store.send("incrementButtonTapped")  # raised again by the next call that runs it
        assert store.state["count"] == 2


def test_several_callback_exceptions_first_one_raised_others_noted():
    with tca.Store("counter") as store:
        store.subscribe(lambda v: 1 / 0)
        store.subscribe(lambda v: [][1])
        with pytest.raises(ZeroDivisionError) as info:
            store.send("incrementButtonTapped")
        notes = getattr(info.value, "__notes__", [])
        assert any("IndexError" in note for note in notes)
        assert store._raised == []  # nothing left over for another call to raise


def test_exception_in_a_subscriber_run_by_an_answer_comes_out_of_the_answer():
    with tca.Store("counter") as store:
        kept = []
        store.on_request(kept.append)
        store.send("numberFactButtonTapped")
        store.subscribe(lambda v: (_ for _ in ()).throw(KeyError("from subscriber")))
        with pytest.raises(KeyError, match="from subscriber"):
            kept[0].respond("fact")
        assert store.state["numberFact"] == "fact"


def test_keyboard_interrupt_in_a_callback_is_not_swallowed():
    with tca.Store("counter") as store:

        def interrupted(version):
            raise KeyboardInterrupt

        store.subscribe(interrupted)
        with pytest.raises(KeyboardInterrupt):
            store.send("incrementButtonTapped")


def test_exception_in_a_cancel_hook_comes_out_of_the_call_that_cancelled():
    store = tca.Store("counter")
    store.on_request(lambda request: request.on_cancel(lambda: 1 / 0))
    store.send("numberFactButtonTapped")
    with pytest.raises(ZeroDivisionError):
        store.send("numberFactButtonTapped")  # cancels the first request
    assert store.state["isNumberFactLoading"] is True
    with pytest.raises(ZeroDivisionError):
        store.close()  # cancels the second one
    assert store.closed


def test_callback_objects_survive_garbage_collection():
    with tca.Store("counter") as store:
        counts = []
        store.subscribe(lambda v: counts.append(v))
        store.effect(FACT)(lambda count: f"fact {count}")
        gc.collect()
        for _ in range(50):
            store.send("incrementButtonTapped")
            gc.collect()
        store.send("numberFactButtonTapped")
        assert len(counts) == 51
        assert store.state["numberFact"] == "fact 50"


def test_subscriptions_end_with_the_store():
    store = tca.Store("counter")
    subscription = store.subscribe(lambda v: None)
    store.close()
    subscription.unsubscribe()  # fine after close
