"""TypeScript host types: a `State` interface and an `Action` union, with a constructor of each
case under the same name.

    import { Action, State } from "./counter";

    store.send(Action.incrementButtonTapped());
    const state = store.state<State>();

Each struct is an interface (members the library may leave out are optional); a string enum is
a union of string literals; an enum of cases is a union of every form the library reads of each
case (`"name"`, `{name: {}}`, `{name: payload}`, `{name: {_0: payload}}`, `{name: {label: …}}`),
and a constant of the same name holds one function per case that makes its synthesized form.
"""

from __future__ import annotations

import re
from typing import List

from .model import (
    ActionEnum,
    AnyJSON,
    Array,
    Case,
    Feature,
    Map,
    Named,
    Optional,
    Scalar,
    SchemaError,
    StringEnum,
    Struct,
    Type,
)
from .text import header_lines, python_string

__all__ = ["generate"]

_RESERVED = set(
    "break case catch class const continue debugger default delete do else enum export extends "
    "false finally for function if import in instanceof new null return super switch this throw "
    "true try typeof var void while with yield let static implements interface package private "
    "protected public await arguments eval".split()
)


def generate(feature: Feature, command: str) -> str:
    return _Writer(feature).module(command)


def _key(name: str) -> str:
    """A member name as an object type or literal writes it."""
    return name if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) else python_string(name)


def _variable(name: str) -> str:
    text = re.sub(r"[^A-Za-z0-9_$]", "_", name) or "_"
    if text[0].isdigit():
        text = "_" + text
    return text + "_" if text in _RESERVED else text


class _Writer:
    def __init__(self, feature: Feature) -> None:
        self.feature = feature

    def type(self, t: Type) -> str:
        if isinstance(t, Scalar):
            if t.values:
                return " | ".join(python_string(v) for v in t.values)
            return {"boolean": "boolean", "string": "string"}.get(t.kind, "number")
        if isinstance(t, AnyJSON):
            return "unknown"
        if isinstance(t, Optional):
            return f"{self.type(t.inner)} | null"
        if isinstance(t, Array):
            item = self.type(t.item)
            return f"({item})[]" if "|" in item else f"{item}[]"
        if isinstance(t, Map):
            return f"{{ [key: string]: {self.type(t.value)} }}"
        if isinstance(t, Named):
            return t.name
        raise SchemaError(f"no TypeScript type for {t!r}")

    def module(self, command: str) -> str:
        f = self.feature
        lines = [f"// Host types of the libtca feature {python_string(f.name)}.", "//"]
        lines += ["// " + line for line in header_lines(f, command)]
        lines += [
            "//",
            "//     store.send(Action.<case>(payload));",
            "//     const state = store.state<State>();",
            "",
            "/** The feature's name: `new Store(FEATURE)`. */",
            f"export const FEATURE = {python_string(f.name)};",
        ]
        for definition in f.definitions.values():
            lines.append("")
            if isinstance(definition, Struct):
                lines += self.struct(definition)
            elif isinstance(definition, StringEnum):
                lines.append(f"/** `{definition.title}`. */")
                lines.append(
                    f"export type {definition.name} = "
                    + " | ".join(python_string(v) for v in definition.values)
                    + ";"
                )
            else:
                lines += self.action(definition)
        for root, member in (("State", f.state), ("Action", f.action)):
            if not (isinstance(member, Named) and member.name == root):
                lines += ["", f"export type {root} = {self.type(member)};"]
        return "\n".join(lines) + "\n"

    def struct(self, s: Struct) -> List[str]:
        lines = [f"/** `{s.title}`. */", f"export interface {s.name} {{"]
        for field in s.fields:
            mark = "" if field.required else "?"
            lines.append(f"  {_key(field.json_name)}{mark}: {self.type(field.type)};")
        lines.append("}")
        return lines

    def forms(self, case: Case) -> List[str]:
        """The forms of a case the library reads, as TypeScript types."""
        key = _key(case.name)
        if not case.params:
            return [python_string(case.name), f"{{ {key}: Record<string, never> }}"]
        members = "; ".join(
            f"{_key(p.key(i))}{'?' if isinstance(p.type, Optional) and case.single else ''}: "
            f"{self.type(p.type)}"
            for i, p in enumerate(case.params)
        )
        if case.single:
            return [f"{{ {key}: {self.type(case.params[0].type)} | {{ {members} }} }}"]
        return [f"{{ {key}: {{ {members} }} }}"]

    def action(self, a: ActionEnum) -> List[str]:
        lines = [f"/** A case of `{a.title}`, in any form the library reads. */"]
        forms = [form for case in a.cases for form in self.forms(case)]
        if not forms:
            lines.append(f"export type {a.name} = never;")
        else:
            lines.append(f"export type {a.name} =")
            lines += [f"  | {form}" for form in forms[:-1]]
            lines.append(f"  | {forms[-1]};")
        lines += [
            "",
            f"/** The cases of `{a.title}`: each function makes one (its synthesized form). */",
            f"export const {a.name} = {{",
        ]
        for case in a.cases:
            names: List[str] = []
            for index, param in enumerate(case.params):
                name = _variable(param.label if param.label is not None else f"_{index}")
                while name in names:
                    name += "_"
                names.append(name)
            parameters = ", ".join(
                f"{name}: {self.type(param.type)}" for name, param in zip(names, case.params)
            )
            body = ", ".join(
                f"{_key(param.key(index))}: {names[index]}"
                for index, param in enumerate(case.params)
            )
            payload = f"{{{' ' + body + ' ' if body else ''}}}"
            if case.single and isinstance(case.params[0].type, Optional):
                # NB: null is written `{}`, as the library does.
                payload = f"{names[0]} === null ? {{}} : {payload}"
            lines.append(
                f"  {_key(case.name)}: ({parameters}): {a.name} => "
                f"({{ {_key(case.name)}: {payload} }}),"
            )
        lines.append("};")
        return lines
