"""The counter in a Tk window, driven by Tk's own event loop.

    python bindings/python/examples/tk_counter.py

The store's descriptor is registered with Tk (`tca.tk.attach`), so Tk wakes the store when it has
due work; the window redraws from a subscription. The number fact is "fetched" by the host: the
handler returns a Future that Tk resolves 400 ms later, as a network reply would arrive.
"""

from __future__ import annotations

import tkinter
from concurrent.futures import Future
from typing import Any

import tca
import tca.tk

LATENCY_MS = 400


def number_fact(n: int) -> str:
    """A fact about n, made up locally (no network here)."""
    if n == 0:
        return "0 is the only number that is neither positive nor negative."
    kind = "even" if n % 2 == 0 else "odd"
    prime = abs(n) > 1 and all(abs(n) % d for d in range(2, int(abs(n) ** 0.5) + 1))
    return f"{n} is an {kind} number{' and a prime' if prime else ''}; {n}² is {n * n}."


class CounterWindow:
    """The window: − count +, a fact button and the fact. `store` is the counter's store."""

    def __init__(self, root: tkinter.Tk, store: tca.Store) -> None:
        self.root = root
        self.store = store
        root.title("libtca counter")

        row = tkinter.Frame(root, padx=16, pady=12)
        row.pack()
        self.decrement = tkinter.Button(
            row, text="−", width=3, command=lambda: store.send("decrementButtonTapped")
        )
        self.count = tkinter.Label(row, width=6, font=("TkDefaultFont", 20))
        self.increment = tkinter.Button(
            row, text="+", width=3, command=lambda: store.send("incrementButtonTapped")
        )
        self.decrement.pack(side="left")
        self.count.pack(side="left")
        self.increment.pack(side="left")

        self.fact_button = tkinter.Button(
            root, text="Number fact", command=lambda: store.send("numberFactButtonTapped")
        )
        self.fact_button.pack()
        self.fact = tkinter.Label(root, wraplength=320, justify="center", padx=16, pady=12)
        self.fact.pack()

        store.effect("numberFact.fetch")(self.fetch)
        self.attachment = tca.tk.attach(store, root)
        self.subscription = store.subscribe(lambda version: self.render())
        self.render()

    def fetch(self, count: int) -> Future[str]:
        """The host's side of numberFact.fetch: answered later, on Tk's thread."""
        reply: Future[str] = Future()
        self.root.after(LATENCY_MS, lambda: reply.done() or reply.set_result(number_fact(count)))
        return reply

    def render(self) -> None:
        state: Any = self.store.state
        self.count["text"] = str(state["count"])
        if state["isNumberFactLoading"]:
            self.fact["text"] = "Fetching a fact…"
            self.fact_button["state"] = "disabled"
        else:
            self.fact["text"] = state.get("numberFact") or state.get("numberFactError") or ""
            self.fact_button["state"] = "normal"

    def close(self) -> None:
        self.subscription.unsubscribe()
        self.attachment.detach()


def main() -> None:
    root = tkinter.Tk()
    with tca.Store("counter") as store:
        window = CounterWindow(root, store)
        root.mainloop()
        window.close()


if __name__ == "__main__":
    main()
