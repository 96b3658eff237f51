"""`python -m tca types`: the host-type generator, on the fixture schemas of tests/fixtures/schemas
(written by hand, so that these tests need no schema from a library), and mypy --strict on the
Python types: it takes the right use, and rejects a misspelled case, a payload of the wrong type
and a key State does not have.

Every language compiled against its binding and driving a store: Tests/types (make test-types).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

import tca
from tca import __main__ as cli
from tca.typegen import LANGUAGES, SchemaError, generate, read_feature
from tca.typegen.model import ActionEnum, Named, Optional, Scalar, StringEnum, Struct

PACKAGE = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "schemas"
FEATURES = ["counter", "todos", "dice", "exotic"]
MYPY_CACHE = PACKAGE.parents[1] / "build" / "mypy-cache"


def fixture(feature: str) -> Dict[str, object]:
    document: Dict[str, object] = json.loads((FIXTURES / f"{feature}.json").read_text())
    return document


# ---- reading a schema document ---------------------------------------------------------------


def test_reads_the_counter():
    feature = read_feature(fixture("counter"))
    assert feature.name == "counter"
    assert feature.state == Named("State") and feature.action == Named("Action")
    state = feature.definitions["State"]
    assert isinstance(state, Struct)
    assert [(f.json_name, f.required) for f in state.fields] == [
        ("count", True),
        ("numberFact", False),
        ("numberFactError", False),
        ("isNumberFactLoading", True),
    ]
    assert state.fields[1].type == Optional(Scalar("string"))
    action = feature.definitions["Action"]
    assert isinstance(action, ActionEnum)
    assert [c.name for c in action.cases][:3] == [
        "decrementButtonTapped",
        "incrementButtonTapped",
        "numberFactButtonTapped",
    ]
    assert action.cases[3].single and action.cases[3].params[0].type == Scalar("string")
    assert [r.name for r in feature.requests] == ["numberFact.fetch"]


def test_reads_wrappers_inline_and_names_types_from_their_keys():
    feature = read_feature(fixture("dice"))
    state = feature.definitions["State"]
    assert isinstance(state, Struct)
    members = {f.json_name: f.type for f in state.fields}
    # NB: PresentationState<…> is the child's state or null, read inline.
    assert members["destination"] == Optional(Named("DiceDestinationState"))
    assert isinstance(feature.definitions["ButtonStateRole"], StringEnum)
    assert "PresentationActionDiceDestinationAction" in feature.definitions
    assert "PresentationStateDiceDestinationState" not in feature.definitions


def test_finds_the_types_that_hold_each_other():
    feature = read_feature(fixture("exotic"))
    # NB: Node holds Node (parent) and Link, which holds Node: a circle of values to box; the
    # children are in an array, which needs no box.
    assert ("ExoticNode", "ExoticNode") in feature.recursive()
    assert ("ExoticLink", "ExoticNode") in feature.recursive()
    assert ("State", "ExoticNode") not in feature.recursive()


@pytest.mark.parametrize(
    "document, message",
    [
        ([], "a schema document is a JSON object"),
        ({"state": {}}, 'no "feature" name'),
        ({"feature": "x", "action": {}}, "the document has no 'state'"),
        (
            {"feature": "x", "state": {"$ref": "#/$defs/Gone"}, "action": {}, "$defs": {}},
            "#/state: $ref '#/$defs/Gone' names no entry of $defs",
        ),
        (
            {"feature": "x", "state": {"$ref": "elsewhere.json"}, "action": {}},
            "#/state: a $ref into #/$defs/ expected",
        ),
    ],
)
def test_refuses_a_document_it_cannot_read(document, message):
    with pytest.raises(SchemaError) as raised:
        read_feature(document)
    assert message in str(raised.value)


# ---- every language --------------------------------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("feature", FEATURES)
def test_every_language_writes_every_fixture(feature, language):
    text = generate(fixture(feature), language)
    assert f'"{feature}"' in text
    assert f"python -m tca types {feature} --lang {language}" in text
    assert generate(fixture(feature), language) == text  # the same document, the same file


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no generator for 'java': one of python, typescript"):
        generate(fixture("counter"), "java")


def test_the_command_writes_a_file_whole(tmp_path, capsys):
    out = tmp_path / "counter_types.py"
    status = cli.main(
        ["types", "counter", "--lang", "rust", "--schema", str(FIXTURES / "counter.json"),
         "-o", str(out)]
    )
    assert status == 0
    assert out.read_text() == generate(fixture("counter"), "rust")
    assert not list(tmp_path.glob("*.partial"))
    assert capsys.readouterr().out == ""


def test_the_command_writes_to_standard_output(capsys):
    status = cli.main(
        ["types", "todos", "--lang", "typescript", "--schema", str(FIXTURES / "todos.json")]
    )
    assert status == 0
    assert capsys.readouterr().out == generate(fixture("todos"), "typescript")


def test_the_command_says_what_is_wrong(capsys):
    status = cli.main(
        ["types", "dice", "--lang", "cpp", "--schema", str(FIXTURES / "counter.json")]
    )
    assert status == 1
    assert "is the schema of 'counter', not of 'dice'" in capsys.readouterr().err
    status = cli.main(["types", "counter", "--lang", "cpp", "--library", "/nonexistent/libtca.so"])
    assert status == 1
    assert "--library /nonexistent/libtca.so: no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["types", "counter", "--lang", "java"])
    assert "invalid choice: 'java'" in capsys.readouterr().err


# ---- Python: values and mypy -----------------------------------------------------------------


def load(tmp_path: Path, feature: str):
    path = tmp_path / f"{feature}_types.py"
    path.write_text(generate(fixture(feature), "python"))
    spec = importlib.util.spec_from_file_location(f"{feature}_types", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_actions_are_the_synthesized_form(tmp_path):
    counter = load(tmp_path, "counter")
    todos = load(tmp_path, "todos")
    exotic = load(tmp_path, "exotic")
    assert counter.Action.incrementButtonTapped() == {"incrementButtonTapped": {}}
    assert counter.Action.numberFactResponse("x") == {"numberFactResponse": {"_0": "x"}}
    assert todos.Action.move([1], 0) == {"move": {"from": [1], "to": 0}}
    assert exotic.Action.setName(None) == {"setName": {}}
    assert exotic.Action.pair(1, "b") == {"pair": {"_0": 1, "_1": "b"}}
    assert exotic.Action.mixed(1, label="l") == {"mixed": {"_0": 1, "label": "l"}}
    assert getattr(exotic.Action, "return_")() == {"return": {}}
    assert exotic.FEATURE == "exotic"


def test_python_actions_drive_a_store(tmp_path):
    counter = load(tmp_path, "counter")
    with tca.Store(counter.FEATURE) as store:
        store.send(counter.Action.incrementButtonTapped())
        store.send(counter.Action.incrementButtonTapped())
        store.send(counter.Action.numberFactResponse("a fact"))
        assert store.state["count"] == 2 and store.state["numberFact"] == "a fact"


def mypy(*files: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE),
         "--no-error-summary", *map(str, files)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ, MYPYPATH=str(PACKAGE), MYPY_FORCE_COLOR="0"),
    )


GOOD = """\
import tca
from counter_types import Action, State
from todos_types import Action as TodosAction, TodoAction, State as TodosState

with tca.Store("counter") as store:
    store.send(Action.incrementButtonTapped())
    store.send(Action.numberFactResponse("a fact"))
    state: State = store.state
    count: int = state["count"]
    fact = state.get("numberFact")
todos_state: TodosState = {"filter": "active", "todos": [], "filteredTodos": []}
move = TodosAction.move([1, 2], to=0)
"""

# Each bad file: its lines, and what mypy --strict must say of them.
BAD = {
    "misspelled_case": (
        "from counter_types import Action\nAction.incrementButtonTaped()\n",
        'has no attribute "incrementButtonTaped"',
    ),
    "wrong_payload": (
        "from counter_types import Action\nAction.numberFactResponse(5)\n",
        'Argument 1 to "numberFactResponse" of "Action" has incompatible type "int"; '
        'expected "str"',
    ),
    "wrong_key": (
        "import tca\nfrom counter_types import State\n"
        "with tca.Store('counter') as store:\n"
        "    state: State = store.state\n"
        "    print(state['cont'])\n",
        'TypedDict "State" has no key "cont"',
    ),
    "wrong_member_type": (
        "from counter_types import State\n"
        "state: State = {'count': 'one', 'isNumberFactLoading': False}\n",
        'Incompatible types (expression has type "str", TypedDict item "count" has type "int")',
    ),
    "not_a_filter": (
        "from todos_types import Action\nAction.filterPicked('done')\n",
        'Argument 1 to "filterPicked" of "Action" has incompatible type "Literal[\'done\']"',
    ),
    "another_enums_case": (
        "from todos_types import Action, TodoAction\nAction.todos(TodoAction.checkBoxToggled())\n",
        'Argument 1 to "todos" of "Action" has incompatible type "TodoActionValue"',
    ),
    "missing_payload": (
        "from todos_types import Action\nAction.move([1])\n",
        'Missing positional argument "to" in call to "move" of "Action"',
    ),
}


@pytest.fixture(scope="module")
def mypy_results(tmp_path_factory):
    """mypy --strict run once over the generated modules, the good use and each bad file."""
    pytest.importorskip("mypy", reason="mypy is installed by `make test-python` (tca[test])")
    folder = tmp_path_factory.mktemp("typed")
    for feature in FEATURES:
        (folder / f"{feature}_types.py").write_text(generate(fixture(feature), "python"))
    (folder / "good.py").write_text(GOOD)
    for name, (text, _) in BAD.items():
        (folder / f"bad_{name}.py").write_text(text)
    result = mypy(*sorted(folder.glob("*.py")), cwd=folder)
    return result.returncode, result.stdout + result.stderr


def test_mypy_takes_the_types_and_their_use(mypy_results):
    _, output = mypy_results
    lines = [line for line in output.splitlines() if not line.startswith("bad_")]
    assert lines == [], output


@pytest.mark.parametrize("name", list(BAD))
def test_mypy_rejects(mypy_results, name):
    status, output = mypy_results
    assert status == 1
    errors = [line for line in output.splitlines() if line.startswith(f"bad_{name}.py:")]
    assert errors, f"mypy took bad_{name}.py:\n{output}"
    assert any(BAD[name][1] in line for line in errors), "\n".join(errors)


# ---- from the library ------------------------------------------------------------------------


def test_the_command_reads_the_loaded_librarys_schema(capsys):
    assert cli.main(["types", "dice", "--lang", "cpp"]) == 0
    assert capsys.readouterr().out == generate(tca.schema("dice"), "cpp")
    assert cli.main(["types", "nosuchfeature", "--lang", "cpp"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("python -m tca types: ") and "nosuchfeature" in error


def test_the_command_reads_another_librarys_schema(tmp_path, capsys):
    # NB: a copy is another file: its schema is read by a child Python that loads it.
    other = tmp_path / "libother.so"
    other.write_bytes(Path(tca.library_path()).read_bytes())
    assert cli.main(["types", "counter", "--lang", "typescript", "--library", str(other)]) == 0
    assert capsys.readouterr().out == generate(tca.schema("counter"), "typescript")
    assert cli.main(["types", "nosuchfeature", "--lang", "rust", "--library", str(other)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"python -m tca types: --library {other}: ")
    assert "nosuchfeature" in error
