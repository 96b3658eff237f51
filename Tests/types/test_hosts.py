"""make test-types: the host types of the built-in counter, todos and dice (and matchscores'),
written by `python -m tca types FEATURE --lang LANGUAGE` from the library's schemas, compiled
against each binding and driving stores; the types of the exotic fixture schema (every name a
language cannot take as it is, recursion, maps with integer keys) compiled in every language; and
each example of docs/schema.md's Host types run as written.

Each language's driver (drive.py, drive.ts, Drive.cs, drive.rs, drive.cpp) sends typed actions
and reads typed state, and prints the same lines (EXPECTED). Compilers' output goes to logs under
build/types/<language>/; a failure shows the log's end.

Needs TCA_LIBRARY (the libtca to drive), and: mypy (the venv), tsc and node (Debian's
node-typescript, nodejs), mcs and mono (mono-mcs, mono-devel), cargo, c++. A missing tool skips
its language, or fails it when TCA_REQUIRE_TOOLS=1 (make test-types installs them as root).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = REPO / "build" / "types"
FIXTURES = REPO / "bindings" / "python" / "tests" / "fixtures" / "schemas"
LIBRARY = Path(os.environ.get("TCA_LIBRARY", REPO / "build" / "lib" / "libtca.so.0.1.0"))
FEATURES = ["counter", "todos", "dice"]
EXTRA = ["matchscores"]

EXPECTED = [
    'counter: 1 "1 is a number." false | snapshot 41 "x"',
    "todos: eggs* milk | milk eggs* | eggs* milk | milk eggs* | active milk",
    'dice: 4 [4,5] | history 2 rolls, 2 entries | closed | alert "All 2 rolls are forgotten." '
    "Reset:destructive:confirmReset Cancel:cancel:- | reset 0 rolls, alert none",
]

CXXFLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"]


def file_name(language: str, feature: str) -> str:
    return {
        "python": f"{feature}_types.py",
        "typescript": f"{feature}.ts",
        "csharp": feature[0].upper() + feature[1:] + ".cs",
        "rust": f"src/{feature}.rs",
        "cpp": f"{feature}.hpp",
    }[language]


def need(*tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        message = f"missing {', '.join(missing)} (make test-types installs them as root)"
        if os.environ.get("TCA_REQUIRE_TOOLS") or os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def run(
    command: Sequence[str], log: Path, cwd: Optional[Path] = None,
    env: Optional[Dict[str, str]] = None,
) -> str:
    """Runs `command`, its output appended to `log`; returns its standard output. A failure
    fails the test with the log's end."""
    result = subprocess.run(
        list(map(str, command)), cwd=cwd, capture_output=True, text=True,
        env=dict(os.environ, **(env or {})),
    )
    with open(log, "a", encoding="utf-8") as file:
        file.write(f"$ {' '.join(map(str, command))}\n{result.stdout}{result.stderr}\n")
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-30:]
        pytest.fail(f"{command[0]} failed ({log}):\n" + "\n".join(tail))
    return result.stdout


def generate(language: str, features: List[str], folder: Path, log: Path) -> None:
    """Writes the types of `features` from the library's schemas, and of the exotic fixture."""
    for feature in features:
        out = folder / file_name(language, feature)
        out.parent.mkdir(parents=True, exist_ok=True)
        run([sys.executable, "-m", "tca", "types", feature, "--lang", language,
             "--library", LIBRARY, "-o", out], log)
    out = folder / file_name(language, "exotic")
    run([sys.executable, "-m", "tca", "types", "exotic", "--lang", language,
         "--schema", FIXTURES / "exotic.json", "-o", out], log)


@pytest.fixture
def folder(request: pytest.FixtureRequest) -> Path:
    path = BUILD / request.node.name[len("test_"):]
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def lines(output: str) -> List[str]:
    return [line for line in output.splitlines() if line]


def test_python(folder: Path) -> None:
    log = folder / "log.txt"
    generate("python", FEATURES + EXTRA, folder, log)
    shutil.copy(HERE / "drive.py", folder)
    env = {"PYTHONPATH": str(folder), "TCA_LIBRARY": str(LIBRARY)}
    assert lines(run([sys.executable, folder / "drive.py"], log, env=env)) == EXPECTED
    pytest.importorskip("mypy", reason="mypy is installed by make venv (tca[test])")
    run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", BUILD / "mypy-cache",
         *sorted(folder.glob("*.py"))], log, cwd=folder,
        env={"MYPYPATH": str(REPO / "bindings" / "python")})


def node_binding(folder: Path, log: Path) -> Dict[str, str]:
    """Makes `tca` (bindings/node, its addon built by `make node-addon`) importable from
    `folder`; returns the environment that runs it against LIBRARY."""
    run(["make", "-C", REPO, "--no-print-directory", "node-addon"], log)
    modules = folder / "node_modules"
    modules.mkdir(exist_ok=True)
    (modules / "tca").symlink_to(REPO / "bindings" / "node")
    return {"TCA_LIBRARY": str(LIBRARY), "TCA_NODE_ADDON": str(REPO / "build" / "node" / "tca.node")}


def test_typescript(folder: Path) -> None:
    need("tsc", "node", "cc")
    log = folder / "log.txt"
    generate("typescript", FEATURES + EXTRA, folder, log)
    shutil.copy(HERE / "drive.ts", folder)
    env = node_binding(folder, log)
    sources = ["drive.ts", *(file_name("typescript", f) for f in FEATURES + EXTRA)]
    run(["tsc", "--strict", "--target", "es2020", "--module", "commonjs", "--lib", "es2020",
         "--outDir", "out", *sources], log, cwd=folder)
    run(["tsc", "--strict", "--noEmit", file_name("typescript", "exotic")], log, cwd=folder)
    (folder / "out" / "node_modules").symlink_to(folder / "node_modules")
    output = run(["node", folder / "out" / "drive.js"], log, env=env)
    assert lines(output) == EXPECTED


def test_csharp(folder: Path) -> None:
    need("mcs", "mono")
    log = folder / "log.txt"
    generate("csharp", FEATURES + EXTRA, folder, log)
    mcs = ["mcs", "-nologo", "-warnaserror"]
    run([*mcs, "-unsafe", "-target:library", "-out:" + str(folder / "Tca.dll"),
         *sorted((REPO / "bindings" / "dotnet" / "Tca").glob("*.cs"))], log)
    generated = [folder / file_name("csharp", f) for f in FEATURES + EXTRA]
    run([*mcs, "-r:" + str(folder / "Tca.dll"), "-r:System.Core",
         "-out:" + str(folder / "Drive.exe"), HERE / "Drive.cs", *generated], log)
    run([*mcs, "-r:" + str(folder / "Tca.dll"), "-target:library",
         "-out:" + str(folder / "Exotic.dll"), folder / file_name("csharp", "exotic")], log)
    output = run(["mono", folder / "Drive.exe"], log, cwd=folder,
                 env={"LD_LIBRARY_PATH": str(LIBRARY.parent)})
    assert lines(output) == EXPECTED


def test_rust(folder: Path) -> None:
    cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    if not Path(cargo).exists():
        need("cargo")
    log = folder / "log.txt"
    generate("rust", FEATURES + EXTRA, folder, log)
    (folder / "src" / "main.rs").write_text(
        (HERE / "drive.rs").read_text() + "\n// The other types compile too.\n"
        "#[allow(unused)]\nmod matchscores;\n#[allow(unused)]\nmod exotic;\n"
    )
    # NB: the crate's Rust (Debian 12's 1.63): clippy says where the types use anything newer.
    (folder / "Cargo.toml").write_text(
        '[package]\nname = "drive"\nversion = "0.1.0"\nedition = "2021"\n'
        'rust-version = "1.63"\n\n'
        f"[dependencies]\ntca = {{ path = {json.dumps(str(REPO / 'bindings' / 'rust'))} }}\n"
    )
    env = {"TCA_LIB_DIR": str(LIBRARY.parent), "CARGO_TARGET_DIR": str(BUILD / "rust-target")}
    if subprocess.run([cargo, "clippy", "--version"], capture_output=True).returncode == 0:
        run([cargo, "clippy", "--offline", "-q", "--", "-D", "warnings",
             "-D", "clippy::incompatible_msrv"], log, cwd=folder, env=env)
    run([cargo, "build", "--offline", "-q"], log, cwd=folder, env=env)
    warnings = [line for line in log.read_text().splitlines() if line.startswith("warning")]
    assert warnings == [], f"the generated Rust warns ({log})"
    output = run([BUILD / "rust-target" / "debug" / "drive"], log,
                 env={"LD_LIBRARY_PATH": str(LIBRARY.parent)})
    assert lines(output) == EXPECTED


def test_cpp(folder: Path) -> None:
    need("c++")
    log = folder / "log.txt"
    generate("cpp", FEATURES + EXTRA, folder, log)
    shutil.copy(HERE / "drive.cpp", folder)
    (folder / "others.cpp").write_text(
        '// The other types compile too.\n#include "matchscores.hpp"\n#include "exotic.hpp"\n'
    )
    include = [f"-I{REPO / 'include'}", f"-I{folder}"]
    run(["c++", *CXXFLAGS, *include, "-c", folder / "others.cpp", "-o", folder / "others.o"], log)
    run(["c++", *CXXFLAGS, *include, folder / "drive.cpp", "-o", folder / "drive",
         f"-L{LIBRARY.parent}", "-ltca", f"-Wl,-rpath,{LIBRARY.parent}"], log)
    assert lines(run([folder / "drive"], log)) == EXPECTED


# ---- docs/schema.md, "Host types": every example runs as written ------------------------------

DOC = REPO / "docs" / "schema.md"
TAGS = ["python", "typescript", "csharp", "rust", "cpp"]


def doc_examples() -> Dict[str, tuple]:
    """Each language's example of the Host types section: its code and what it prints."""
    text = DOC.read_text()
    section = text[text.index("## Host types"):]
    examples = {}
    for match in re.finditer(r"```(\w+)[^\n]*\n(.*?)```\n\nprints `([^`]*)`", section, re.S):
        examples[match.group(1)] = (match.group(2), match.group(3))
    return examples


def commands(code: str) -> List[List[str]]:
    """The commands the example's comment lines give (`python -m tca types …`, `mcs …`)."""
    found = []
    for line in code.splitlines():
        match = re.match(r"\s*(?:#|//)\s*((?:python -m tca|mcs) .*)$", line)
        if match:
            found.append(match.group(1).split())
    return found


@pytest.mark.parametrize("language", TAGS)
def test_doc_example(language: str) -> None:
    examples = doc_examples()
    assert language in examples, f"docs/schema.md has no {language} example that prints"
    code, printed = examples[language]
    folder = BUILD / "doc" / language
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "src").mkdir(parents=True)
    log = folder / "log.txt"
    steps = commands(code)
    assert steps and steps[0][:4] == ["python", "-m", "tca", "types"], code
    run([sys.executable, *steps[0][1:]], log, cwd=folder, env={"TCA_LIBRARY": str(LIBRARY)})
    library_folder = str(LIBRARY.parent)
    if language == "python":
        (folder / "example.py").write_text(code)
        output = run([sys.executable, "example.py"], log, cwd=folder,
                     env={"TCA_LIBRARY": str(LIBRARY)})
    elif language == "typescript":
        need("tsc", "node", "cc")
        env = node_binding(folder, log)
        (folder / "example.ts").write_text(code)
        run(["tsc", "--strict", "--target", "es2019", "--module", "commonjs", "example.ts",
             "counter.ts"], log, cwd=folder)
        output = run(["node", "example.js"], log, cwd=folder, env=env)
    elif language == "csharp":
        need("mcs", "mono")
        run(["mcs", "-nologo", "-unsafe", "-target:library", "-out:" + str(folder / "Tca.dll"),
             *sorted((REPO / "bindings" / "dotnet" / "Tca").glob("*.cs"))], log)
        (folder / "Program.cs").write_text(code)
        assert len(steps) == 2 and steps[1][0] == "mcs", code
        run(steps[1], log, cwd=folder)
        output = run(["mono", "Program.exe"], log, cwd=folder,
                     env={"LD_LIBRARY_PATH": library_folder})
    elif language == "rust":
        cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
        if not Path(cargo).exists():
            need("cargo")
        (folder / "src" / "main.rs").write_text(code)
        (folder / "Cargo.toml").write_text(
            '[package]\nname = "example"\nversion = "0.1.0"\nedition = "2021"\n\n'
            f"[dependencies]\ntca = {{ path = {json.dumps(str(REPO / 'bindings' / 'rust'))} }}\n"
        )
        env = {"TCA_LIB_DIR": library_folder, "CARGO_TARGET_DIR": str(BUILD / "rust-target")}
        run([cargo, "build", "--offline", "-q"], log, cwd=folder, env=env)
        output = run([BUILD / "rust-target" / "debug" / "example"], log,
                     env={"LD_LIBRARY_PATH": library_folder})
    else:
        need("c++")
        (folder / "example.cpp").write_text(code)
        run(["c++", *CXXFLAGS, f"-I{REPO / 'include'}", "example.cpp", "-o", "example",
             f"-L{library_folder}", "-ltca", f"-Wl,-rpath,{library_folder}"], log, cwd=folder)
        output = run([folder / "example"], log)
    assert output.strip() == printed
