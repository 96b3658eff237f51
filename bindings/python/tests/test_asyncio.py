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
