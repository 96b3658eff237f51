"""The package's modules depend on one another in one direction: no import cycle, counting every
import (at the top, in a function, or for type checking only); and each module imports on its own
in a fresh interpreter.

The layers, from the bottom: the C library and helpers (`_native`, `_codec`, `_validate`,
`errors`, `_lifetime`, `_options`, `_fastsend`, `request`); `_core` and the store's parts on it
(`patch`, then `subscriptions`; `effects`, `journal`; `aio`, then `clock`); `store`; then what uses
a `Store` (`testing`, `tk`, `__main__`, the package's `__init__`).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest

TCA = Path(__file__).resolve().parent.parent / "tca"
# Modules of the package: its Python files, and its C extension's source (tca._speedups).
MODULES = sorted({path.stem for pattern in ("*.py", "*.c") for path in TCA.glob(pattern)})
PACKAGE = "__init__"


def imports_of(module: str, source: Optional[str] = None) -> Set[str]:
    """The package's modules that `module` imports (from its file, or from `source`), wherever
    the import is written."""
    path = TCA / f"{module}.py"
    text = path.read_text() if source is None else source
    found: Set[str] = set()
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "tca":
                    found.add(parts[1] if len(parts) > 1 else PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            absolute = node.level == 0 and (node.module or "").split(".")[0] == "tca"
            if node.level == 0 and not absolute:
                continue
            assert node.level <= 1, f"{module}: an import from outside the package"
            parts = (node.module or "").split(".")
            if absolute:
                parts = parts[1:]
            if parts and parts[0]:
                found.add(parts[0])
            else:  # `from . import name`: a module of the package, or a name of its __init__
                for alias in node.names:
                    found.add(alias.name if alias.name in MODULES else PACKAGE)
    found.discard(module)
    return found


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle of `graph` as a list of modules (the first again at the end), or None."""
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    path: List[str] = []

    def visit(module: str) -> Optional[List[str]]:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state:
                cycle = visit(imported)
                if cycle:
                    return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def graph() -> Dict[str, Set[str]]:
    return {module: imports_of(module) for module in MODULES if (TCA / f"{module}.py").exists()}


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_import_walk_sees_every_kind_of_import():
    source = (
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "from . import _native, TCAError\n"
        "from .errors import error_for\n"
        "import tca.clock\n"
        "from tca import journal\n"
        "from tca.patch import apply_patch\n"
        "if TYPE_CHECKING:\n"
        "    from .store import Store\n"
        "def attach():\n"
        "    from .aio import Attachment\n"
    )
    assert imports_of("example", source) == {
        "_native", PACKAGE, "errors", "clock", "journal", "patch", "store", "aio"
    }


def test_the_package_imports_have_no_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])


def test_no_module_below_store_imports_it():
    imports = graph()
    below: Set[str] = set()
    pending = list(imports["store"])
    while pending:
        module = pending.pop()
        if module not in below:
            below.add(module)
            pending.extend(imports.get(module, ()))
    assert "store" not in below
    assert {"_core", "aio", "clock", "_fastsend", "patch", "subscriptions"} <= below


def test_each_module_imports_alone_in_a_fresh_interpreter():
    names = ["tca" if module == PACKAGE else f"tca.{module}" for module in MODULES]
    if "tca.tk" in names:
        try:
            import tkinter  # noqa: F401
        except ImportError:
            names.remove("tca.tk")
    running = {
        name: subprocess.Popen(
            [sys.executable, "-c", f"import {name}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
        )
        for name in names
    }
    failed = {}
    for name, process in running.items():
        output, _ = process.communicate(timeout=120)
        if process.returncode != 0:
            failed[name] = output[-2000:]
    assert failed == {}

