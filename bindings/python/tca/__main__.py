"""Tools for libtca: `python -m tca replay` (a recorded session, step by step) and
`python -m tca types` (host types from a feature's schema).

`python -m tca replay session.jsonl`: a recorded session, step by step.

    $ python -m tca replay session.jsonl
    counter, manual clock, seed 7: {"count":0,"isNumberFactLoading":false}
    [1] send {"incrementButtonTapped":{}}  (version 1)
          count: 0 -> 1
    [2] send {"numberFactButtonTapped":{}}  (version 2)
          isNumberFactLoading: false -> true
          request #1 numberFact.fetch (oneShot) 1
    [3] respond #1 "1 is a number."  (version 3)
          ...

Each input of the journal (`Store(..., record=True)`, `store.journal()`) is printed with the
state change it made, as the Composable Architecture's `_printChanges` does, and the requests the
store made and their answers. `--to N` prints instead the state at version N as JSON (time
travel: `Store.replay(journal, to_version=N)`).

`python -m tca devtools [FILE.jsonl]` is the inspector: a page showing stores live or from a
journal (`tca.devtools`, docs/devtools.md).
`python -m tca types FEATURE --lang python|typescript|csharp|rust|cpp [--library PATH]
[-o FILE]`: the feature's State and Action types in that language, from its schema
(`tca.schema(feature)`; `--library` reads it from another libtca, `--schema FILE` from a saved
document). docs/schema.md, "Host types".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any, Dict, Iterator, List, Optional, TextIO, Tuple

from . import JSONShapeError, TCAError, _native
from ._codec import dumps
from .journal import header
from .store import Store

_ABSENT = object()

LANGUAGES = ("python", "typescript", "csharp", "rust", "cpp")


def changes(before: Any, after: Any, path: str = "") -> Iterator[str]:
    """The changes from `before` to `after`, one line per changed leaf: `count: 0 -> 1`.

    >>> list(changes({"count": 0, "a": [1]}, {"count": 1, "a": [1]}))
    ['count: 0 -> 1']
    """
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [k for k in after if k not in before]:
            yield from changes(
                before.get(key, _ABSENT), after.get(key, _ABSENT), f"{path}.{key}" if path else key
            )
        return
    if (
        isinstance(before, list)
        and isinstance(after, list)
        and len(before) == len(after)
        and before != after
    ):
        for index, (old, new) in enumerate(zip(before, after)):
            yield from changes(old, new, f"{path}[{index}]")
        return
    if before is _ABSENT and after is _ABSENT or before == after:
        return
    shown = [
        "(absent)" if value is _ABSENT else dumps(value) for value in (before, after)
    ]
    yield f"{path or '(state)'}: {shown[0]} -> {shown[1]}"


def describe(line: Dict[str, Any]) -> str:
    """An input line as one phrase: `send {...}`, `respond #1 "..."`, `advance 500 ms`."""
    if "send" in line:
        return f"send {dumps(line['send'])}"
    if "respond" in line:
        return f"respond #{line['respond']} {dumps(line.get('value'))}"
    if "fail" in line:
        return f"fail #{line['fail']} {dumps(line.get('message'))}"
    if "complete" in line:
        return f"complete #{line['complete']}"
    if "advance" in line:
        return f"advance {line['advance']} ms"
    if "clock" in line:
        return f"clock to {line['clock'] / 1e6:g} ms"
    if "poll" in line:
        return "poll"
    if "cancelEffects" in line:
        return "cancel every effect"
    return dumps(line)


def _lines(text: str) -> List[Tuple[str, Dict[str, Any]]]:
    parsed = []
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            parsed.append((raw, json.loads(raw)))
        except ValueError as error:
            raise ValueError(f"line {number} is not JSON: {error}") from None
    return parsed


def _is_input(line: Dict[str, Any]) -> bool:
    return "request" not in line and "cancelled" not in line and "date" not in line


def _replay_prefix(lines: List[Tuple[str, Dict[str, Any]]], end: int) -> Store:
    """The store replayed from `lines[:end]` (the header first): the state after the input
    `lines[end - 1]`.

    NB: inputs given together inside a callback share a version, and a replay checks that the
    lines of a version make the changes it claims (docs/wire-format.md, "Versions"): a prefix
    that ends inside such a run is cut short of them. Its last lines then take the version
    before the run (or, after version 0, 1 if the state has changed since the header), as if
    the journal had been taken there.
    """
    following = next((line for _, line in lines[end:] if _is_input(line)), None)
    inputs = [index for index in range(1, end) if _is_input(lines[index][1])]
    cut = following is not None and bool(inputs) and (
        lines[inputs[-1]][1].get("version") == following.get("version")
    )
    if not cut:
        return Store.replay("\n".join(raw for raw, _ in lines[:end]) + "\n", requests="queued")
    run = lines[inputs[-1]][1].get("version")
    partial = [index for index in inputs if lines[index][1].get("version") == run]
    before = [lines[index][1].get("version") for index in inputs if index not in partial]
    base = before[-1] if before else 0
    for version in [base] if base else [0, 1]:
        text = [
            json.dumps({**line, "version": version}, separators=(",", ":"))
            if index in partial
            else raw
            for index, (raw, line) in enumerate(lines[:end])
        ]
        try:
            return Store.replay("\n".join(text) + "\n", requests="queued")
        except JSONShapeError:
            if version == 1 or base:
                raise
    raise AssertionError("unreachable")


def print_steps(text: str, out: TextIO) -> None:
    """Prints every step of the journal `text` (see the module's documentation)."""
    head = header(text)
    lines = _lines(text)
    state = head.get("state")
    print(
        f"{head.get('feature')}, {head.get('clock')} clock, seed {head.get('seed')}: "
        f"{dumps(state)}",
        file=out,
    )
    step = 0
    for end, (_, line) in enumerate(lines[1:], 2):
        if "request" in line:
            request = line["request"]
            print(
                f"      request #{request.get('id')} {request.get('name')} "
                f"({request.get('kind')}) {dumps(request.get('payload'))}",
                file=out,
            )
            continue
        if "cancelled" in line:
            print(f"      cancelled #{line['cancelled']}", file=out)
            continue
        if "date" in line:
            print(f"      date {line['date']} ms since 1970", file=out)
            continue
        step += 1
        at = f", at {line['at'] / 1e6:g} ms" if "at" in line else ""
        print(f"[{step}] {describe(line)}  (version {line.get('version')}{at})", file=out)
        # NB: the state after this input: the journal up to it, replayed whole.
        with _replay_prefix(lines, end) as replayed:
            after = replayed.state
        for change in changes(state, after):
            print(f"      {change}", file=out)
        state = after


def schema_document(feature: str, library: Optional[str] = None) -> Dict[str, Any]:
    """The schema document of `feature`, from the loaded libtca or from the one at `library`
    (read by a child Python: a process loads one libtca)."""
    if library is None or (
        os.path.exists(library) and os.path.samefile(library, _native.path)
    ):
        import tca

        read = getattr(tca, "schema", None)
        if read is None:
            raise ValueError("this tca package has no schema(): update it")
        document: Dict[str, Any] = read(feature)
        return document
    if not os.path.exists(library):
        raise ValueError(f"--library {library}: no such file")
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys, tca\n"
            "try:\n"
            "    sys.stdout.write(json.dumps(tca.schema(sys.argv[1])))\n"
            "except tca.TCAError as error:\n"
            "    sys.exit(str(error))\n",
            feature,
        ],
        capture_output=True,
        text=True,
        env=dict(
            os.environ,
            TCA_LIBRARY=os.path.abspath(library),
            PYTHONPATH=os.pathsep.join(
                [package, *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
        ),
    )
    if child.returncode != 0:
        lines = child.stderr.strip().splitlines() or [f"exit status {child.returncode}"]
        raise ValueError(f"--library {library}: {lines[-1]}")
    loaded: Dict[str, Any] = json.loads(child.stdout)
    return loaded


def write_types(arguments: argparse.Namespace) -> None:
    """`python -m tca types`: the host types of a feature, to a file or standard output."""
    from . import typegen

    if arguments.schema is not None:
        with open(arguments.schema, encoding="utf-8") as file:
            document = json.load(file)
        name = document.get("feature") if isinstance(document, dict) else None
        if name != arguments.feature:
            raise ValueError(
                f"--schema {arguments.schema} is the schema of {name!r}, "
                f"not of {arguments.feature!r}"
            )
    else:
        document = schema_document(arguments.feature, arguments.library)
    text = typegen.generate(
        document,
        arguments.lang,
        f"python -m tca types {arguments.feature} --lang {arguments.lang}",
    )
    if arguments.output in (None, "-"):
        sys.stdout.write(text)
        return
    # NB: written whole or not at all: a build that depends on the file never sees half of it.
    partial = arguments.output + ".partial"
    with open(partial, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(partial, arguments.output)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tca", description="Tools for libtca sessions."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay",
        help="print a recorded session step by step",
        description="Prints each step of a journal (Store(..., record=True).journal()): the "
        "input, the state change, the requests made and their answers.",
    )
    replay.add_argument("journal", help="a journal file (JSON Lines); - for standard input")
    replay.add_argument(
        "--to", type=int, metavar="N", help="print the state at version N as JSON instead"
    )
    types = commands.add_parser(
        "types",
        help="write a feature's State and Action types for a host language",
        description="Writes the host types of a feature (docs/schema.md, \"Host types\"), "
        "from its schema: a State type and an Action type with a constructor for each case.",
    )
    types.add_argument("feature", help="a feature's name, as tca.features() lists it")
    types.add_argument("--lang", required=True, choices=LANGUAGES, help="the host language")
    types.add_argument(
        "--library",
        metavar="PATH",
        help="the libtca to read the schema from (default: the one tca loads)",
    )
    types.add_argument(
        "--schema", metavar="FILE", help="read the schema from a saved document instead"
    )
    types.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )
    commands.add_parser(
        "devtools",
        help="the inspector: a page showing stores live or from a journal",
        add_help=False,
    )
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["devtools"]:
        # NB: imported here: the inspector's modules load only when asked for.
        from .devtools.server import main as devtools

        return devtools(argv[1:])
    arguments = parser.parse_args(argv)
    if arguments.command == "types":
        try:
            write_types(arguments)
        except (OSError, ValueError, TCAError) as error:
            print(f"python -m tca types: {error}", file=sys.stderr)
            return 1
        return 0
    try:
        if arguments.journal == "-":
            text = sys.stdin.read()
        else:
            with open(arguments.journal, encoding="utf-8") as file:
                text = file.read()
        if arguments.to is not None:
            if arguments.to < 0:
                raise ValueError(f"--to {arguments.to}: a version is 0 or more")
            with Store.replay(text, to_version=arguments.to, requests="queued") as store:
                sys.stdout.write(store.state_json().decode() + "\n")
        else:
            print_steps(text, sys.stdout)
    except (OSError, ValueError, TCAError) as error:
        print(f"python -m tca replay: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
