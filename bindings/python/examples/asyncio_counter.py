"""The counter driven by an asyncio event loop, with an async effect handler.

    python bindings/python/examples/asyncio_counter.py

`store.attach()` registers the store's descriptor with the loop (`loop.add_reader`); the number
fact handler is a coroutine: the request is answered when it returns, on the loop. A watcher task
prints every state the store goes through (`tca.aio.changes`).
"""

from __future__ import annotations

import asyncio

import tca
import tca.aio


async def main() -> None:
    with tca.Store("counter") as store, store.attach():

        @store.effect("numberFact.fetch")
        async def fetch(count: int) -> str:
            await asyncio.sleep(0.2)  # a network round trip
            shape = ["point", "line", "digon", "triangle"][count % 4]
            return f"{count} is the number of sides of a {shape}."

        async def watch() -> None:
            async for state in tca.aio.changes(store):
                fact = state.get("numberFact") or ("…" if state["isNumberFactLoading"] else "")
                print(f"  state: count={state['count']} fact={fact}", flush=True)

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0)  # let the watcher subscribe
        for action in ["incrementButtonTapped"] * 3 + ["numberFactButtonTapped"]:
            print("send:", action, flush=True)
            store.send(action)
            await asyncio.sleep(0.01)
        state = await store.wait_for(lambda s: not s["isNumberFactLoading"], timeout=5)
        await asyncio.sleep(0.01)
        watcher.cancel()
        print("fact:", state["numberFact"])


if __name__ == "__main__":
    asyncio.run(main())
