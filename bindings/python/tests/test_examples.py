"""The terminal examples run as a newcomer would run them."""

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def run_example(name, timeout=30):
    return subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, name)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_counter_example():
    result = run_example("counter.py")
    assert result.returncode == 0, result.stderr
    assert "JSONShapeError" in result.stdout


def test_asyncio_example():
    result = run_example("asyncio_counter.py")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "send: numberFactButtonTapped" in lines
    assert "  state: count=3 fact=…" in lines
    assert lines[-1] == "fact: 3 is the number of sides of a triangle."


def test_curses_example_in_a_terminal(tmp_path):
    """Runs the curses example in a tmux pane: types keys, reads the screen."""
    tmux = shutil.which("tmux")
    if tmux is None:
        if os.environ.get("CI") or os.environ.get("TCA_REQUIRE_XVFB"):
            pytest.fail("tmux is not installed (make test-python installs it)")
        pytest.skip("tmux is not installed")
    socket = f"tca-test-{os.getpid()}"
    command = [tmux, "-L", socket, "-f", "/dev/null"]
    script = os.path.join(EXAMPLES, "curses_counter.py")
    status_file = tmp_path / "status"
    shell = f"{shlex.quote(sys.executable)} {shlex.quote(script)}; echo $? > {status_file}"
    env = dict(os.environ, TERM="xterm-256color")
    subprocess.run(
        command + ["new-session", "-d", "-x", "80", "-y", "24", shell], env=env, check=True
    )

    def screen():
        return subprocess.run(
            command + ["capture-pane", "-p"], capture_output=True, text=True
        ).stdout

    def wait_for(text, timeout=10.0):
        deadline = time.monotonic() + timeout
        while text not in screen():
            assert time.monotonic() < deadline, f"{text!r} never showed; screen:\n{screen()}"
            time.sleep(0.02)

    def keys(text):
        subprocess.run(command + ["send-keys", "-l", text], check=True)

    try:
        wait_for("count: 0")
        keys("+++")
        wait_for("count: 3")
        keys("-")
        wait_for("count: 2")
        keys("f")
        wait_for("fetching a fact")
        wait_for("2 is even, and 2 × 2 is 4.")
        keys("q")
        deadline = time.monotonic() + 10
        while not status_file.exists():
            assert time.monotonic() < deadline, "the example did not quit"
            time.sleep(0.02)
        assert status_file.read_text().strip() == "0"
    finally:
        subprocess.run(command + ["kill-server"], capture_output=True)
