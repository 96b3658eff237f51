"""The Tk example under a virtual X server: simulated clicks change what the window shows."""

import time

import pytest

from conftest import screenshot


def pump(root, until, timeout=5.0):
    """Runs Tk's event loop (and so the store, through its descriptor) until `until()`."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            pytest.fail("the window did not change in time")
        root.update()
        time.sleep(0.005)


def test_tk_counter_window_follows_clicks(tk_root, examples_path, xdisplay):
    import tca
    import tk_counter

    root = tk_root
    with tca.Store("counter") as store:
        window = tk_counter.CounterWindow(root, store)
        root.update()
        assert window.count["text"] == "0"
        assert window.fact["text"] == ""
        before = screenshot(xdisplay, "tk_counter_before")

        window.increment.invoke()
        window.increment.invoke()
        window.increment.invoke()
        window.decrement.invoke()
        root.update()
        assert window.count["text"] == "2"

        # a real pointer click, through X: press and release over the + button
        x, y = window.increment.winfo_width() // 2, window.increment.winfo_height() // 2
        window.increment.event_generate("<Enter>", x=x, y=y)
        window.increment.event_generate("<ButtonPress-1>", x=x, y=y)
        window.increment.event_generate("<ButtonRelease-1>", x=x, y=y)
        pump(root, lambda: window.count["text"] == "3")

        window.fact_button.invoke()
        root.update()
        assert window.fact["text"] == "Fetching a fact…"
        assert str(window.fact_button["state"]) == "disabled"
        # answered 400 ms later by Tk's timer; the store wakes through its descriptor
        pump(root, lambda: window.fact["text"] != "Fetching a fact…")
        assert window.fact["text"] == tk_counter.number_fact(3)
        assert str(window.fact_button["state"]) == "normal"
        assert window.attachment.uses_descriptor
        after = screenshot(xdisplay, "tk_counter_after")
        if before is not None and after is not None:
            assert before.read_bytes() != after.read_bytes()
        window.close()
