#!/usr/bin/env python3
"""check-doc-snippets.py [FILE.md ...] — every code block of README.md and docs/*.md runs as
written.

Each fenced block is run by its language (the first word of its info string):

  c         compiled with cc (C99) against include/tca.h and build/lib, then run
  cpp       compiled with c++ (C++17) against include/tca.hpp, then run
  rust      a cargo package depending on bindings/rust (offline), run
  python    run with build/venv's python; a block of ">>>" lines is a doctest
  sh        run with bash -e in the scratch folder (below)
  lua       run with luajit
  csharp    compiled with mcs against Tca.dll (bindings/dotnet), run with mono
  js        run with node (the addon of `make node-addon` in build/node)
  json      parsed

A block of C, C++, Rust or C# without a main function is a function body: it is wrapped in one
(its #include / using-directive lines go above it), as rustdoc does. Every block runs in a scratch
folder of its Markdown file (build/doc-snippets/NAME) that links to each entry of the repository,
so relative paths (include, build/lib, bindings) work and what a block writes stays there; with
TCA_LIBRARY set to build/lib/libtca.so.0.

Words after the language mark a block (```c fragment):
  fragment  incomplete code (names defined elsewhere in the text): not run
  output    what a program prints: not run
  norun     complete but not run here (it installs, opens a window, runs `make test` itself, …)
  file=NAME the block is also written to NAME in the scratch folder, for the blocks after it (a
            sh block that builds it)

Blocks in other languages (swift, js, text, none) are not run; the summary counts them. A failing
block is reported as FILE:LINE with its output; the exit status is 1 if any failed. A language
whose tool is missing is skipped with a line saying so (a failure when CI=true).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / "build" / "doc-snippets"
LIBRARY = ROOT / "build" / "lib" / "libtca.so.0"
TIMEOUT = 300

LANGUAGES = {
    "c": "c", "cpp": "cpp", "c++": "cpp", "rust": "rust", "rs": "rust", "python": "python",
    "py": "python", "pycon": "python", "sh": "sh", "bash": "sh", "shell": "sh", "lua": "lua",
    "csharp": "cs", "cs": "cs", "c#": "cs", "js": "js", "javascript": "js", "json": "json",
}
MARKS = {"fragment", "output", "norun"}
# NB: commands a sh block is never run with (make would build or recurse into make test itself):
# such a block fails until it is marked norun.
UNSAFE = re.compile(r"(^|[;&|(]|\$\()\s*(sudo|make|apt-get|apt|pip3?|python3? -m pip|curl|wget)\b")


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    language: str  # as written
    marks: set
    file: Optional[str]
    text: str

    @property
    def where(self) -> str:
        return f"{shown(self.path)}:{self.line}"


@dataclass
class Tally:
    ran: Dict[str, int] = field(default_factory=dict)
    marked: Dict[str, int] = field(default_factory=dict)
    unrun: Dict[str, int] = field(default_factory=dict)
    skipped: Dict[str, str] = field(default_factory=dict)
    failed: List[str] = field(default_factory=list)


def shown(path: Path) -> str:
    """`path` relative to the repository when it is inside it."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")


def blocks_of(path: Path) -> List[Block]:
    lines = path.read_text(encoding="utf-8").split("\n")
    found: List[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match.groups()
        closing = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                for line in lines[i + 1:j]]
        words = info.split()
        language = words[0] if words else ""
        marks = {w for w in words[1:] if w in MARKS}
        unknown = [w for w in words[1:] if w not in MARKS and not w.startswith("file=")]
        if unknown:
            raise SystemExit(f"{shown(path)}:{i + 1}: unknown mark(s) {unknown} "
                             f"(known: {sorted(MARKS)}, file=NAME)")
        file = next((w[5:] for w in words[1:] if w.startswith("file=")), None)
        found.append(Block(path, i + 1, language, marks, file, "\n".join(body) + "\n"))
        i = j + 1
    return found


def run(command: List[str], cwd: Path, env: Dict[str, str], stdin: Optional[str] = None,
        timeout: int = TIMEOUT) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, cwd=cwd, env=env, input=stdin, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        output = error.output if isinstance(error.output, str) else ""
        return subprocess.CompletedProcess(command, 124,
                                           output + f"\n(timed out after {timeout} s)")


def split_prelude(text: str, prelude: re.Pattern) -> tuple:
    """The lines of `text` that must go above a wrapping main (#include, using directives) and
    the rest."""
    head: List[str] = []
    body: List[str] = []
    for line in text.splitlines():
        (head if prelude.match(line) else body).append(line)
    return "\n".join(head), "\n".join(body)


class Runner:
    """Runs blocks of one Markdown file in its scratch folder."""

    def __init__(self, scratch: Path, tally: Tally) -> None:
        self.scratch = scratch
        self.tally = tally
        self.env = dict(os.environ, TCA_LIBRARY=str(LIBRARY))
        self.env["PATH"] = os.pathsep.join([self.env.get("PATH", ""),
                                            str(Path.home() / ".cargo" / "bin")])
        self.count = 0

    def tool(self, language: str, *commands: str) -> bool:
        missing = [c for c in commands if shutil.which(c, path=self.env["PATH"]) is None]
        if missing:
            self.tally.skipped[language] = " ".join(missing)
            return False
        return True

    def source(self, block: Block, suffix: str) -> Path:
        self.count += 1
        path = self.scratch / f"snippet{self.count}_line{block.line}{suffix}"
        return path

    def check(self, block: Block, result: subprocess.CompletedProcess, what: str) -> bool:
        if result.returncode == 0:
            return True
        tail = "\n".join(result.stdout.strip().splitlines()[-25:])
        self.tally.failed.append(f"{block.where}: the {block.language} block failed ({what}, "
                                 f"exit {result.returncode}):\n{tail}")
        return False

    # ---- languages ----

    def c(self, block: Block) -> None:
        if not self.tool("c", "cc"):
            return
        text = block.text
        if not re.search(r"\bint\s+main\s*\(", text):
            head, body = split_prelude(text, re.compile(r"^\s*#\s*include\b"))
            text = ("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                    "#include <string.h>\n#include <tca.h>\n" + head +
                    "\nint main(void) {\n" + body + "\n  return 0;\n}\n")
        self.native(block, text, ".c", ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror",
                                        "-pedantic", "-D_POSIX_C_SOURCE=200809L"])

    def cpp(self, block: Block) -> None:
        if not self.tool("cpp", "c++"):
            return
        text = block.text
        if not re.search(r"\bint\s+main\s*\(", text):
            head, body = split_prelude(text, re.compile(r"^\s*#\s*include\b"))
            text = ("#include <cstdio>\n#include <exception>\n#include <iostream>\n"
                    "#include <string>\n#include <tca.hpp>\n" + head +
                    "\nint main() try {\n" + body + "\n  return 0;\n"
                    "} catch (const std::exception &e) {\n"
                    "  std::fprintf(stderr, \"%s\\n\", e.what());\n  return 1;\n}\n")
        self.native(block, text, ".cpp", ["c++", "-std=c++17", "-Wall", "-Wextra"])

    def native(self, block: Block, text: str, suffix: str, compiler: List[str]) -> None:
        source = self.source(block, suffix)
        source.write_text(text)
        program = source.with_suffix("")
        result = run(compiler + [str(source), "-o", str(program), f"-I{ROOT / 'include'}",
                                 f"-L{LIBRARY.parent}", "-ltca", f"-Wl,-rpath,{LIBRARY.parent}",
                                 "-lpthread"], self.scratch, self.env)
        if self.check(block, result, "compiling " + source.name):
            self.check(block, run([str(program)], self.scratch, self.env), "running it")

    def rust(self, block: Block) -> None:
        if not self.tool("rust", "cargo"):
            return
        text = block.text
        if not re.search(r"\bfn\s+main\s*\(", text):
            text = ("fn main() -> Result<(), Box<dyn std::error::Error>> {\n" + text +
                    "\n    Ok(())\n}\n")
        package = self.source(block, "_rust")
        (package / "src").mkdir(parents=True, exist_ok=True)
        (package / "Cargo.toml").write_text(
            f'[package]\nname = "snippet"\nversion = "0.0.0"\nedition = "2021"\n\n'
            f'[dependencies]\ntca = {{ path = "{ROOT / "bindings" / "rust"}" }}\n\n[workspace]\n')
        (package / "src" / "main.rs").write_text(text)
        env = dict(self.env, CARGO_TARGET_DIR=str(SCRATCH / "rust-target"),
                   TCA_LIB_DIR=str(LIBRARY.parent), LD_LIBRARY_PATH=str(LIBRARY.parent))
        self.check(block, run(["cargo", "run", "--offline", "-q"], package, env),
                   "cargo run in " + package.name)

    def python(self, block: Block) -> None:
        python = ROOT / "build" / "venv" / "bin" / "python"
        if not python.exists():
            self.tally.skipped["python"] = "build/venv (make venv)"
            return
        if block.text.lstrip().startswith(">>>"):
            source = self.source(block, ".txt")
            source.write_text(block.text)
            script = ("import doctest, sys\n"
                      "failed, _ = doctest.testfile(sys.argv[1], module_relative=False,\n"
                      "    optionflags=doctest.ELLIPSIS)\n"
                      "sys.exit(1 if failed else 0)\n")
            result = run([str(python), "-c", script, str(source)], self.scratch, self.env)
            self.check(block, result, "the doctest " + source.name)
            return
        source = self.source(block, ".py")
        source.write_text(block.text)
        self.check(block, run([str(python), str(source)], self.scratch, self.env), "running it")

    def sh(self, block: Block) -> None:
        if not self.tool("sh", "bash"):
            return
        risky = [line for line in block.text.splitlines() if UNSAFE.search(line.split("#")[0])]
        if risky:
            self.tally.failed.append(f"{block.where}: the sh block runs {risky[0].strip()!r}: "
                                     "not run here (it would build, install or recurse); mark it "
                                     "```sh norun")
            return
        source = self.source(block, ".sh")
        source.write_text(block.text)
        self.check(block, run(["bash", "-e", "-o", "pipefail", str(source)], self.scratch,
                              self.env), "running it")

    def lua(self, block: Block) -> None:
        if not self.tool("lua", "luajit"):
            return
        source = self.source(block, ".lua")
        source.write_text(block.text)
        self.check(block, run(["luajit", str(source)], self.scratch, self.env), "running it")

    def cs(self, block: Block) -> None:
        if not self.tool("cs", "mcs", "mono"):
            return
        library = SCRATCH / "Tca.dll"
        if not library.exists():
            sources = sorted(str(p) for p in (ROOT / "bindings" / "dotnet" / "Tca").glob("*.cs"))
            result = run(["mcs", "-nologo", "-unsafe", "-target:library", f"-out:{library}"] +
                         sources, self.scratch, self.env)
            if not self.check(block, result, "building Tca.dll"):
                return
        shutil.copy(library, self.scratch / "Tca.dll")
        text = block.text
        if not re.search(r"\bstatic\s+(void|int)\s+Main\s*\(", text):
            head, body = split_prelude(text, re.compile(r"^\s*using\s+[\w.]+(\s*=\s*[\w.]+)?\s*;"))
            text = ("using System;\nusing System.Collections.Generic;\n" + head +
                    "\nstatic class Snippet\n{\n    static void Main()\n    {\n" + body +
                    "\n    }\n}\n")
        source = self.source(block, ".cs")
        source.write_text(text)
        program = source.with_suffix(".exe")
        result = run(["mcs", "-nologo", "-r:Tca.dll", f"-out:{program.name}", source.name],
                     self.scratch, self.env)
        if self.check(block, result, "compiling " + source.name):
            self.check(block, run(["mono", program.name], self.scratch, self.env), "running it")

    def js(self, block: Block) -> None:
        if not self.tool("js", "node"):
            return
        if not (ROOT / "build" / "node" / "tca.node").exists():
            self.tally.skipped["js"] = "build/node/tca.node (make node-addon)"
            return
        source = self.source(block, ".js")
        source.write_text(block.text)
        self.check(block, run(["node", str(source)], self.scratch, self.env), "running it")

    def json(self, block: Block) -> None:
        try:
            json.loads(block.text)
        except ValueError as error:
            self.tally.failed.append(f"{block.where}: the json block is not JSON: {error}")


def scratch_for(path: Path) -> Path:
    """A fresh scratch folder for one Markdown file, linking to every entry of the repository."""
    folder = SCRATCH / shown(path).strip("/").replace("/", "_").replace(".md", "")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (folder / entry.name).symlink_to(entry)
    return folder


def check_file(path: Path, tally: Tally) -> None:
    blocks = blocks_of(path)
    if not any(LANGUAGES.get(b.language) for b in blocks):
        for block in blocks:
            name = block.language or "(none)"
            tally.unrun[name] = tally.unrun.get(name, 0) + 1
        return
    scratch = scratch_for(path)
    runner = Runner(scratch, tally)
    for block in blocks:
        if block.file:
            (scratch / block.file).write_text(block.text)
    for block in blocks:
        kind = LANGUAGES.get(block.language)
        if kind is None:
            name = block.language or "(none)"
            tally.unrun[name] = tally.unrun.get(name, 0) + 1
            continue
        if block.marks:
            for mark in block.marks:
                tally.marked[mark] = tally.marked.get(mark, 0) + 1
            continue
        before = len(tally.failed)
        getattr(runner, kind)(block)
        if kind not in tally.skipped:
            tally.ran[kind] = tally.ran.get(kind, 0) + 1
            print(f"{'FAILED' if len(tally.failed) > before else 'ok':6} {block.where} "
                  f"({block.language})", flush=True)


def main(argv: List[str]) -> int:
    if argv:
        files = [Path(a).resolve() for a in argv]
    else:
        files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    if not LIBRARY.exists():
        print(f"check-doc-snippets: {LIBRARY} is missing: run `make lib` first", file=sys.stderr)
        return 1
    tally = Tally()
    SCRATCH.mkdir(parents=True, exist_ok=True)
    (SCRATCH / "Tca.dll").unlink(missing_ok=True)  # built afresh by the first C# block
    for path in files:
        check_file(path, tally)

    def listed(counts: Dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"

    print(f"== doc snippets: ran {sum(tally.ran.values())} ({listed(tally.ran)}); marked not to "
          f"run {sum(tally.marked.values())} ({listed(tally.marked)}); no runner for "
          f"{sum(tally.unrun.values())} ({listed(tally.unrun)})")
    for language, missing in sorted(tally.skipped.items()):
        print(f"== SKIPPED the {language} blocks: missing {missing}")
    for failure in tally.failed:
        print(f"\nFAILED {failure}", file=sys.stderr)
    if tally.failed:
        print(f"\n== {len(tally.failed)} doc snippet(s) failed: fix the snippet, or mark a block "
              "that is not meant to run (```c fragment, output, norun)", file=sys.stderr)
        return 1
    if tally.skipped and os.environ.get("CI") == "true":
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
