"""The counter in a terminal (curses), driven by a select loop.

    python bindings/python/examples/curses_counter.py

Keys: + / - change the count, f fetches a number fact, q quits. The loop waits on the keyboard and
on the store's descriptor at once (`select`), with a timeout for the host's own pending work; the
number fact is answered 300 ms after it is asked for, by the loop itself, as a network reply would.
"""

from __future__ import annotations

import curses
import select
import sys
import time
from concurrent.futures import Future
from typing import Any, List, Tuple

import tca

LATENCY = 0.3
KEYS = {ord("+"): "incrementButtonTapped", ord("="): "incrementButtonTapped",
        ord("-"): "decrementButtonTapped", ord("f"): "numberFactButtonTapped"}


def number_fact(n: int) -> str:
    return f"{n} is {'even' if n % 2 == 0 else 'odd'}, and {n} × {n} is {n * n}."


def draw(screen: Any, state: Any) -> None:
    screen.erase()
    screen.addstr(0, 0, "libtca counter — + / - to count, f for a fact, q to quit")
    screen.addstr(2, 2, f"count: {state['count']}")
    if state["isNumberFactLoading"]:
        fact = "fetching a fact…"
    else:
        fact = state.get("numberFact") or state.get("numberFactError") or ""
    screen.addstr(4, 2, fact[: max(0, curses.COLS - 3)])
    screen.refresh()


def run(screen: Any) -> None:
    curses.curs_set(0)
    screen.nodelay(True)
    replies: List[Tuple[float, "Future[str]", str]] = []  # (when, reply, fact): the host's work

    with tca.Store("counter") as store:

        @store.effect("numberFact.fetch")
        def fetch(count: int) -> "Future[str]":
            reply: Future[str] = Future()
            replies.append((time.monotonic() + LATENCY, reply, number_fact(count)))
            return reply

        dirty = [True]
        store.subscribe(lambda version: dirty.__setitem__(0, True))
        while True:
            if dirty[0]:
                dirty[0] = False
                draw(screen, store.state)
            timeouts = [when - time.monotonic() for when, _, _ in replies]
            deadline = store.next_deadline()
            if deadline is not None:
                timeouts.append(deadline / 1000)
            timeout = max(0.0, min(timeouts)) if timeouts else None
            ready, _, _ = select.select([sys.stdin, store.fileno()], [], [], timeout)
            if store.fileno() in ready:
                store.poll()
            for item in [r for r in replies if r[0] <= time.monotonic()]:
                replies.remove(item)
                item[1].set_result(item[2])  # answers the request: the store processes it now
            key = screen.getch()
            while key != -1:
                if key in (ord("q"), 27):
                    return
                if key in KEYS:
                    store.send(KEYS[key])
                key = screen.getch()


if __name__ == "__main__":
    curses.wrapper(run)
