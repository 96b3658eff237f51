"""The package type-checks under mypy --strict (it ships py.typed)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent


def test_py_typed_is_shipped():
    assert (PACKAGE / "tca" / "py.typed").exists()


def test_mypy_strict():
    pytest.importorskip("mypy", reason="mypy is installed by `make test-python` (tca[test])")
    cache = PACKAGE.parents[1] / "build" / "mypy-cache"
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "tca"],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        env=dict(os.environ, MYPY_FORCE_COLOR="0"),
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_accepts_typical_use(tmp_path):
    pytest.importorskip("mypy")
    program = tmp_path / "use.py"
    program.write_text(
        "import tca\n"
        "from concurrent.futures import Future\n"
        "with tca.Store('counter', clock='manual', seed=1) as store:\n"
        "    @store.effect('numberFact.fetch')\n"
        "    def fetch(count: int) -> str:\n"
        "        return str(count)\n"
        "    unsubscribe = store.subscribe(lambda version: None)\n"
        "    store.send('incrementButtonTapped')\n"
        "    store.send({'setCount': 3})\n"
        "    count: int = store.get('/count')\n"
        "    deadline: int | None = store.next_deadline()\n"
        "    unsubscribe()\n"
    )
    cache = PACKAGE.parents[1] / "build" / "mypy-cache"
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(program)],
        capture_output=True,
        text=True,
        # NB: mypy cannot follow setuptools' editable-install finder; point it at the source.
        env=dict(os.environ, MYPYPATH=str(PACKAGE)),
    )
    assert result.returncode == 0, result.stdout + result.stderr
