"""Python host types: a `State` TypedDict and an `Action` class of static methods.

    from counter_types import Action, State

    with tca.Store("counter") as store:
        store.send(Action.incrementButtonTapped())
        state: State = store.state
        print(state["count"])

Each struct is a TypedDict (members the library may leave out are not required); a string enum
is a `Literal`; an enum of cases is a class with one static method per case, named as the case
and typed with its payload, returning a `NewType` of dict (`ActionValue`): the case in its
synthesized form (`{"setCount":{"_0":5}}`), which `Store.send` takes as it is.
"""

from __future__ import annotations

from typing import List

from .model import (
    ActionEnum,
    AnyJSON,
    Array,
    Feature,
    Field,
    Map,
    Named,
    Optional,
    Scalar,
    SchemaError,
    StringEnum,
    Struct,
    Type,
    python_safe,
)
from .text import header_lines, python_string

__all__ = ["generate"]


def generate(feature: Feature, command: str) -> str:
    """The module's text."""
    return _Writer(feature).module(command)


class _Writer:
    def __init__(self, feature: Feature) -> None:
        self.feature = feature
        used = set(feature.definitions)
        self.values = {}
        for name, definition in feature.definitions.items():
            if isinstance(definition, ActionEnum):
                value = name + "Value"
                while value in used:
                    value += "_"
                used.add(value)
                self.values[name] = value

    # ---- type expressions ----

    def type(self, t: Type, param: bool = False) -> str:
        if isinstance(t, Scalar):
            if t.values:
                return "Literal[" + ", ".join(python_string(v) for v in t.values) + "]"
            return {"boolean": "bool", "integer": "int", "number": "float"}.get(t.kind, "str")
        if isinstance(t, AnyJSON):
            return "Any"
        if isinstance(t, Optional):
            return f"Optional[{self.type(t.inner, param)}]"
        if isinstance(t, Array):
            return f"{'Sequence' if param else 'List'}[{self.type(t.item, param)}]"
        if isinstance(t, Map):
            return f"{'Mapping' if param else 'Dict'}[str, {self.type(t.value, param)}]"
        if isinstance(t, Named):
            return self.values.get(t.name, t.name)
        raise SchemaError(f"no Python type for {t!r}")

    # ---- the module ----

    def module(self, command: str) -> str:
        f = self.feature
        lines = ['"""' + f"Host types of the libtca feature {python_string(f.name)}."]
        lines += [""] + header_lines(f, command)
        lines += [
            "",
            "    store.send(Action.<case>(payload))",
            "    state: State = store.state",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Any, Dict, List, Literal, Mapping, NewType, Optional, Sequence",
            "from typing import TypedDict",
            "",
            "__all__ = [",
            *(f"    {python_string(n)}," for n in ["FEATURE", *self.exported()]),
            "]",
            "",
            f"FEATURE = {python_string(f.name)}",
            '"""The feature\'s name: `tca.Store(FEATURE)`."""',
        ]
        for name, definition in f.definitions.items():
            lines += ["", ""]
            if isinstance(definition, Struct):
                lines += self.struct(definition)
            elif isinstance(definition, StringEnum):
                lines += [
                    f"{name} = Literal[" + ", ".join(python_string(v) for v in definition.values)
                    + "]",
                    f'"""`{definition.title}`."""',
                ]
            else:
                lines += self.action(definition)
        for root, member in (("State", f.state), ("Action", f.action)):
            if not (isinstance(member, Named) and member.name == root):
                lines += ["", "", f"{root} = {self.type(member)}"]
        return "\n".join(lines) + "\n"

    def exported(self) -> List[str]:
        names: List[str] = []
        for name in self.feature.definitions:
            names.append(name)
            if name in self.values:
                names.append(self.values[name])
        for root in ("State", "Action"):
            if root not in names:
                names.append(root)
        return names

    def struct(self, s: Struct) -> List[str]:
        required = [field for field in s.fields if field.required]
        optional = [field for field in s.fields if not field.required]

        def typed_dict(name: str, fields: List[Field], total: bool) -> List[str]:
            out = [f"{name} = TypedDict("]
            out.append(f"    {python_string(name)},")
            out.append("    {")
            for field in fields:
                out.append(
                    f"        {python_string(field.json_name)}: "
                    f"{python_string(self.type(field.type))},"
                )
            out.append("    }," if total else "    },\n    total=False,")
            out.append(")")
            return out

        # NB: the functional form takes any member name (`from`, `a-b`); the two halves give the
        # members the library always writes and those it may leave out (total=False), without
        # NotRequired (Python 3.11).
        lines: List[str] = []
        bases = []
        if required or not optional:
            bases.append(f"_{s.name}Written")
            lines += typed_dict(bases[-1], required, True)
        if optional:
            bases.append(f"_{s.name}Optional")
            lines += typed_dict(bases[-1], optional, False)
        lines += ["", ""]
        lines.append(f"class {s.name}({', '.join(bases)}):")
        lines.append(f'    """`{s.title}`."""')
        return lines

    def action(self, a: ActionEnum) -> List[str]:
        value = self.values[a.name]
        lines = [
            f"{value} = NewType({python_string(value)}, Dict[str, Any])",
            f'"""A case of `{a.title}`, as the methods of `{a.name}` make it."""',
            "",
            "",
            f"class {a.name}:",
            f'    """The cases of `{a.title}`: each method makes one, ready to send."""',
        ]
        for case in a.cases:
            method = python_safe(case.name)
            names = []
            parameters = []
            for index, param in enumerate(case.params):
                name = python_safe(param.label) if param.label is not None else f"_{index}"
                while name in names or name == method:
                    name += "_"
                names.append(name)
                parameters.append(f"{name}: {self.type(param.type, param=True)}")
            # NB: the unlabeled values that come first are positional only (`_0` is no name).
            leading = 0
            while leading < len(case.params) and case.params[leading].label is None:
                leading += 1
            if leading:
                parameters.insert(leading, "/")
            body = ", ".join(
                f"{python_string(param.key(index))}: {names[index]}"
                for index, param in enumerate(case.params)
            )
            payload = f"{{{body}}}"
            if case.single and isinstance(case.params[0].type, Optional):
                # NB: nil is written `{}`, as the library does.
                payload = f"{{}} if {names[0]} is None else {payload}"
            lines += [
                "",
                "    @staticmethod",
                f"    def {method}({', '.join(parameters)}) -> {value}:",
                f"        return {value}({{{python_string(case.name)}: {payload}}})",
            ]
        if not a.cases:
            lines.append("    pass")
        return lines
