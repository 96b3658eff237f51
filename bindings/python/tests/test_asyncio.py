"""asyncio: stores attached to the event loop, async effect handlers."""

import asyncio
import threading

import pytest

import tca
from tca import aio

FACT = "numberFact.fetch"
FEATURES = {f["name"] for f in tca.features()}


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 10))


def test_async_handler_answers_when_the_coroutine_finishes():
    async def main():
        with tca.Store("counter") as store:

            @store.effect(FACT)
            async def fetch(count):
                await asyncio.sleep(0.01)
                return f"{count} is async."

            store.send("numberFactButtonTapped")
            assert store.state["isNumberFactLoading"] is True
            state = await store.wait_for(lambda s: s.get("numberFact"))
            assert state["numberFact"] == "0 is async."
            assert store.pending_requests == []

    run(main())


def test_async_handler_exception_fails_the_request():
    async def main():
        with tca.Store("counter") as store:

            @store.effect(FACT)
            async def fetch(count):
                await asyncio.sleep(0)
                raise ConnectionRefusedError("numbersapi.com refused")

            store.send("numberFactButtonTapped")
            state = await store.wait_for(lambda s: s.get("numberFactError"))
            assert state["numberFactError"].endswith("numbersapi.com refused")

    run(main())


def test_cancelling_the_request_cancels_the_task():
    async def main():
        with tca.Store("counter") as store:
            started, cancelled = [], []

            @store.effect(FACT)
            async def fetch(count):
                started.append(count)
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    cancelled.append(count)
                    raise
                return "never"

            store.send("numberFactButtonTapped")
            await asyncio.sleep(0)
            store.send("incrementButtonTapped")
            store.send("numberFactButtonTapped")  # cancelInFlight
            await asyncio.sleep(0.01)
            assert started == [0, 1]
            assert cancelled == [0]
            store.close()  # cancels the second
            await asyncio.sleep(0.01)
            assert cancelled == [0, 1]

    run(main())


def test_awaitable_and_thread_results():
    async def main():
        with tca.Store("counter") as store:
            loop = asyncio.get_running_loop()

            @store.effect(FACT)
            def fetch(count):
                # a plain function handing back an awaitable: work done in a thread
                return loop.run_in_executor(None, lambda: f"{count} from a thread")

            store.send("numberFactButtonTapped")
            state = await store.wait_for(lambda s: s.get("numberFact"), timeout=5)
            assert state["numberFact"] == "0 from a thread"

    run(main())


def test_async_handler_without_a_loop_fails_with_a_clear_message():
    with tca.Store("counter") as store:

        @store.effect(FACT)
        async def fetch(count):
            return "unreachable"

        store.send("numberFactButtonTapped")
        assert "no asyncio event loop runs here" in store.state["numberFactError"]


def test_attached_store_runs_async_handlers_on_its_loop_from_other_threads():
    async def main():
        loop = asyncio.get_running_loop()
        with tca.Store("counter") as store, store.attach() as attachment:
            assert attachment.attached and attachment.loop is loop

            @store.effect(FACT)
            async def fetch(count):
                assert asyncio.get_running_loop() is loop
                return "on the loop"

            # sent from a thread with no loop: the handler runs on the attached loop
            await loop.run_in_executor(None, store.send, "numberFactButtonTapped")
            state = await store.wait_for(lambda s: s.get("numberFact"), timeout=5)
            assert state["numberFact"] == "on the loop"
        assert not attachment.attached

    run(main())


def test_attached_store_is_polled_when_an_answer_arrives_from_another_thread():
    async def main():
        with tca.Store("counter") as store:
            attachment = aio.attach(store)
            kept = []
            store.on_request(kept.append)
            store.send("numberFactButtonTapped")
            holding, answered = threading.Event(), threading.Event()

            def answer():
                holding.wait()
                kept[0].respond("threaded answer")
                answered.set()

            def hold(version):
                holding.set()
                answered.wait(5)

            worker = threading.Thread(target=answer)
            worker.start()
            with store.subscribe(hold):
                store.send("incrementButtonTapped")
            worker.join()
            state = await store.wait_for(lambda s: s.get("numberFact"), timeout=5)
            assert state["numberFact"] == "threaded answer"
            attachment.detach()
            attachment.detach()

    run(main())


def test_attach_twice_is_refused_and_close_detaches():
    async def main():
        store = tca.Store("counter")
        async with store.attach():
            with pytest.raises(RuntimeError, match="already attached"):
                store.attach()
        again = store.attach()
        store.close()
        assert not again.attached

    run(main())


def test_wait_for_times_out_and_unsubscribes():
    async def main():
        with tca.Store("counter") as store:
            with pytest.raises(asyncio.TimeoutError):
                await store.wait_for(lambda s: s["count"] > 0, timeout=0.01)
            assert store._subscribers == []
            assert (await store.wait_for(lambda s: True))["count"] == 0

    run(main())


def test_changes_iterates_over_states():
    async def main():
        with tca.Store("counter") as store:
            seen = []

            async def watch():
                async for state in aio.changes(store):
                    seen.append(state["count"])
                    if state["count"] >= 3:
                        return

            watcher = asyncio.ensure_future(watch())
            for _ in range(3):
                await asyncio.sleep(0)
                store.send("incrementButtonTapped")
            await asyncio.wait_for(watcher, 5)
            assert seen[-1] == 3

    run(main())


def test_async_generator_answers_a_one_shot_request_with_its_first_element():
    async def main():
        with tca.Store("counter") as store:

            @store.effect(FACT)
            async def fetch(count):
                yield "streamed first"
                yield "never sent"

            store.send("numberFactButtonTapped")
            state = await store.wait_for(lambda s: s.get("numberFact"), timeout=5)
            assert state["numberFact"] == "streamed first"

    run(main())


@pytest.mark.skipif("dice" not in FEATURES, reason="needs the dice feature")
def test_real_clock_timer_fires_on_an_attached_loop():
    async def main():
        with tca.Store("dice") as store, store.attach():
            store.send("rollButtonTapped")
            state = await store.wait_for(lambda s: not s["isRolling"], timeout=5)
            assert 1 <= state["currentRoll"] <= 6

    run(main())


def run_checked(coroutine, limit=10):
    """Runs `coroutine` on a new loop in debug mode; fails if it has not finished after `limit`
    seconds (a hang guard only: a wait that is never woken leaves its task waiting).

    NB: debug mode makes the loop refuse a call from another thread that is not thread-safe (a
    future's result set there) instead of leaving the loop asleep; and the guard does not
    cancel the task, whose cancellation would wait for ever on a future that nobody wakes."""
    loop = asyncio.new_event_loop()
    loop.set_debug(True)
    try:
        task = loop.create_task(coroutine)
        loop.run_until_complete(asyncio.wait([task], timeout=limit))
        assert task.done(), f"still waiting after {limit} s"
        loop.run_until_complete(loop.shutdown_default_executor())
        return task.result()
    finally:
        loop.close()


def test_wait_for_is_woken_by_a_send_on_another_thread():
    async def main():
        with tca.Store("counter") as store:
            worker = threading.Thread(target=store.send, args=("incrementButtonTapped",))
            waiting = store.wait_for(lambda s: s["count"] == 1)
            worker.start()
            state = await waiting
            worker.join()
            assert state["count"] == 1 and store._subscribers == []

    run_checked(main())


def test_wait_for_hears_a_change_made_on_another_thread_before_it_subscribed():
    async def main():
        with tca.Store("counter") as store:
            checked = []

            def predicate(state):
                checked.append(state["count"])
                if len(checked) == 1:  # after the first check, before wait_for subscribes
                    worker = threading.Thread(target=store.send, args=("incrementButtonTapped",))
                    worker.start()
                    worker.join()
                return state["count"] == 1

            assert (await store.wait_for(predicate))["count"] == 1
            assert checked == [0, 1]

    run_checked(main())


def test_wait_for_is_woken_by_a_threaded_stores_own_thread():
    async def main():
        with tca.Store("dice", threaded=True) as store:
            store.send("rollButtonTapped")  # the roll lands 500 ms later, on the store's thread
            state = await store.wait_for(lambda s: not s["isRolling"])
            assert 1 <= state["currentRoll"] <= 6

    run_checked(main())


def test_changes_are_seen_from_sends_on_other_threads():
    async def main():
        with tca.Store("counter") as store:

            def sends():
                for _ in range(3):
                    store.send("incrementButtonTapped")

            changes = aio.changes(store)
            first = asyncio.ensure_future(changes.__anext__())
            await asyncio.sleep(0)  # the iterator subscribes, then waits
            worker = threading.Thread(target=sends)
            worker.start()
            seen = [(await first)["count"]]
            while seen[-1] < 3:
                seen.append((await changes.__anext__())["count"])
            worker.join()
            await changes.aclose()
            assert seen == sorted(seen) and store._subscribers == []

    run_checked(main())


def test_changes_are_seen_from_a_threaded_stores_own_thread():
    async def main():
        with tca.Store("dice", threaded=True) as store:
            store.send("rollButtonTapped")
            async for state in aio.changes(store):
                if not state["isRolling"]:
                    break
            assert 1 <= state["currentRoll"] <= 6

    run_checked(main())


@pytest.mark.parametrize("closer", ["loop", "thread"])
def test_closing_a_store_ends_its_waits(closer):
    # wait_for raises InvalidHandleError (the store is closed); changes ends its iteration.
    async def main():
        store = tca.Store("counter")
        waiting = asyncio.ensure_future(store.wait_for(lambda s: s["count"] == 5))
        seen = []

        async def watch():
            async for state in aio.changes(store):
                seen.append(state["count"])

        watching = asyncio.ensure_future(watch())
        await asyncio.sleep(0)  # both subscribe, then wait
        store.send("incrementButtonTapped")
        await asyncio.sleep(0)
        if closer == "loop":
            store.close()
        else:
            closing = threading.Thread(target=store.close)
            closing.start()
            await asyncio.get_running_loop().run_in_executor(None, closing.join)
        with pytest.raises(tca.InvalidHandleError, match="closed"):
            await waiting
        await watching
        assert seen == [1]

    run_checked(main())


def test_waits_on_a_closed_store_end_at_once():
    async def main():
        store = tca.Store("counter")
        store.close()
        with pytest.raises(tca.InvalidHandleError, match="closed"):
            await store.wait_for(lambda s: True)
        assert [state async for state in aio.changes(store)] == []

    run_checked(main())
