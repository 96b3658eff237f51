"""Stream requests (many answers, then complete) and their handlers: generators, async generators.

No built-in feature makes a stream request yet, so these tests deliver a stream request to the
store's request dispatch themselves and record the answers at the library's edge (respond, fail,
complete), as the library would receive them.
"""

import asyncio

import pytest

import tca
from tca import _native
from tca import effects as effects_module

STREAM = _native.REQUEST_STREAM

# NB: the counter never makes these stream requests (the tests deliver them themselves).
pytestmark = pytest.mark.filterwarnings("ignore::tca.RequestNameWarning")


class Recorder:
    """Stands in for the library's answer functions; everything else goes to the library."""

    def __init__(self, real):
        self.real = real
        self.calls = []

    def __getattr__(self, name):
        return getattr(self.real, name)

    def tca_store_respond_n(self, handle, rid, data, length):
        self.calls.append(("respond", rid, data[:length]))
        return 0

    def tca_store_fail(self, handle, rid, message):
        self.calls.append(("fail", rid, message.decode()))
        return 0

    def tca_store_complete(self, handle, rid):
        self.calls.append(("complete", rid))
        return 0


@pytest.fixture
def recorder(monkeypatch):
    recorder = Recorder(effects_module._lib)
    monkeypatch.setattr(effects_module, "_lib", recorder)
    return recorder


def deliver(store, rid=900, name="scores.live", payload=b'{"game":1}'):
    store._on_request(rid, name, payload, STREAM)
    store._surface()


def test_generator_streams_each_element_then_completes(recorder):
    with tca.Store("counter") as store:

        @store.effect("scores.live")
        def live(payload):
            assert payload == {"game": 1}
            yield {"home": 1, "away": 0}
            yield {"home": 1, "away": 1}

        deliver(store)
        assert recorder.calls == [
            ("respond", 900, b'{"home":1,"away":0}'),
            ("respond", 900, b'{"home":1,"away":1}'),
            ("complete", 900),
        ]
        assert store.pending_requests == []


def test_generator_exception_fails_the_stream(recorder):
    with tca.Store("counter") as store:

        @store.effect("scores.live")
        def live(payload):
            yield 1
            raise ConnectionResetError("feed lost")

        deliver(store)
        assert recorder.calls == [("respond", 900, b"1"), ("fail", 900, "feed lost")]


def test_plain_return_value_is_one_element_and_none_just_completes(recorder):
    with tca.Store("counter") as store:
        store.effect("one")(lambda payload: [1, 2])
        store.effect("none")(lambda payload: None)
        deliver(store, 1, "one")
        deliver(store, 2, "none")
        assert recorder.calls == [("respond", 1, b"[1,2]"), ("complete", 1), ("complete", 2)]


def test_stream_request_through_the_catch_all_handler(recorder):
    with tca.Store("counter") as store:
        kept = []
        store.on_request(kept.append)
        deliver(store)
        (request,) = kept
        assert request.kind == "stream" and request.stream
        request.respond("a")
        request.respond("b")
        assert store.pending_requests == [request]  # a stream stays open until it completes
        request.complete()
        assert store.pending_requests == []
        assert [c[0] for c in recorder.calls] == ["respond", "respond", "complete"]


def test_cancelling_a_stream_closes_its_generator(recorder):
    with tca.Store("counter") as store:
        closed = []

        @store.effect("scores.live")
        def live(payload):
            try:
                yield "first"
                store._on_cancel(900)  # the library cancels it between two elements
                yield "second"
                yield "third"
            finally:
                closed.append(True)

        deliver(store)
        assert closed == [True]
        assert recorder.calls == [("respond", 900, b'"first"')]


def test_async_generator_streams_on_the_loop(recorder):
    async def main():
        with tca.Store("counter") as store:
            finished = asyncio.Event()

            @store.effect("scores.live")
            async def live(payload):
                for goal in range(3):
                    await asyncio.sleep(0)
                    yield goal
                finished.set()

            deliver(store)
            await asyncio.wait_for(finished.wait(), 5)
            await asyncio.sleep(0.01)
            assert recorder.calls == [
                ("respond", 900, b"0"),
                ("respond", 900, b"1"),
                ("respond", 900, b"2"),
                ("complete", 900),
            ]

    asyncio.run(main())


def test_async_generator_exception_fails_the_stream(recorder):
    async def main():
        with tca.Store("counter") as store:

            @store.effect("scores.live")
            async def live(payload):
                yield "kickoff"
                raise RuntimeError("match abandoned")

            deliver(store)
            for _ in range(100):
                await asyncio.sleep(0)
                if len(recorder.calls) == 2:
                    break
            assert recorder.calls == [
                ("respond", 900, b'"kickoff"'),
                ("fail", 900, "match abandoned"),
            ]

    asyncio.run(main())


def test_coroutine_result_on_a_stream_is_one_element(recorder):
    async def main():
        with tca.Store("counter") as store:

            @store.effect("scores.live")
            async def live(payload):
                return "final score"

            deliver(store)
            for _ in range(100):
                await asyncio.sleep(0)
                if len(recorder.calls) == 2:
                    break
            assert recorder.calls == [("respond", 900, b'"final score"'), ("complete", 900)]

    asyncio.run(main())
