"""Interpreter exit with live stores never hangs (issue 13 item 4).

The scenario: 20 threaded dice stores, each with a Python subscriber; the script exits just as
their 500 ms roll timers fire. Before the package freed its stores from an exit hook, every run
hung: `Store.__del__` -> `tca_store_free` waited for a store whose own thread CPython's
finalization had stopped inside a ctypes callback.
"""

import os
import subprocess
import sys
import textwrap

import pytest

import tca

SCENARIO = textwrap.dedent(
    """
    import sys, time
    import tca

    stores = []
    for i in range(20):
        store = tca.Store("dice", seed=i + 1, threaded=True)
        store.effect("haptics.impact")(lambda payload: None)
        store.subscribe(lambda version, store=store: store.state)
        stores.append(store)
    for store in stores:
        store.send("rollButtonTapped")
    # Exit just as the 500 ms roll timers fire on the stores' own threads.
    time.sleep(float(sys.argv[1]))
    print("exiting", flush=True)
    """
)

# NB: a hang is what this test looks for; a run that takes this long has hung.
HANG_SECONDS = 30


def run(code, *args):
    env = dict(os.environ, TCA_LIBRARY=tca.library_path())
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        env=env,
    )


@pytest.mark.parametrize("run_number", range(10))
def test_exit_with_threaded_stores_firing_does_not_hang(run_number):
    # Sleeps from 470 to 515 ms: the timers fire before, during and after the exit begins.
    delay = 0.470 + 0.005 * run_number
    try:
        result = run(SCENARIO, str(delay))
    except subprocess.TimeoutExpired:
        pytest.fail(f"the interpreter hung at exit (run {run_number}, exit after {delay:.3f} s)")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "exiting\n"
    assert result.stderr == ""


def test_stores_left_open_are_closed_at_exit_and_callbacks_stop():
    code = textwrap.dedent(
        """
        import atexit
        import tca
        from tca import _lifetime

        store = tca.Store("counter", clock="manual")
        calls = []
        store.subscribe(calls.append)

        def after_tca_exit_hook():
            # atexit runs hooks last-registered first: this one runs after the package's.
            assert store.closed, "the exit hook did not close the store"
            assert _lifetime.exiting()
            print("closed at exit", calls, flush=True)

        store.send("incrementButtonTapped")
        """
    )
    # The check runs from a hook registered before the package's (so it runs after it).
    code = "import atexit\nchecks = []\natexit.register(lambda: [c() for c in checks])\n" + code
    code += "checks.append(after_tca_exit_hook)\n"
    result = run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "closed at exit [1]\n"


def test_a_callback_running_when_its_store_closes_at_exit_reports_nothing():
    """A subscriber already running on the store's thread when the exit hook closes the store
    fails on the closed store: that is not an error to print as the program ends."""
    code = textwrap.dedent(
        """
        import threading
        import tca
        from tca import _lifetime

        main = threading.current_thread()
        inside, closing = threading.Event(), threading.Event()
        store = tca.Store("dice", threaded=True)
        store.effect("haptics.impact")(lambda payload: None)

        def changed(version):
            if threading.current_thread() is not main:  # the roll landing, on the store's thread
                inside.set()
                closing.wait(10)
                store.state  # the store is closed by now: InvalidHandleError

        real_free = _lifetime.free

        def free(handle, release):
            closing.set()  # the exit hook is freeing the store; let the subscriber go on
            real_free(handle, release)

        _lifetime.free = free
        store.subscribe(changed)
        store.send("rollButtonTapped")
        assert inside.wait(10)
        print("exiting", flush=True)
        """
    )
    result = run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "exiting\n"
    assert result.stderr == ""
