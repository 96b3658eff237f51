"""Rust host types: structs and enums with their own JSON conversion, for the `tca` crate.

    mod counter;  // python -m tca types counter --lang rust -o src/counter.rs
    use counter::{Action, State};

    counter::send(&store, &Action::IncrementButtonTapped)?;
    let state: State = counter::state(&store)?;

Each struct is a struct (members in snake_case; a member the library may leave out is an
`Option`), a string enum an enum of unit variants, an enum of cases an enum (one unlabeled value:
a tuple variant; labeled values: a struct variant). Every type implements the file's `Json`
trait (`from_json`, `to_json`), built on the crate's `tca::members`, `tca::items`, `tca::quote`
and `tca::unquote`: no dependency. Types that hold each other by value are boxed.
"""

from __future__ import annotations

import json
import re
from typing import List, Optional as Opt, Set

from .model import (
    ActionEnum,
    AnyJSON,
    Array,
    Case,
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
    pascal,
    snake,
)
from .text import header_lines, rust_string

__all__ = ["generate"]

_KEYWORDS = set(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod "
    "move mut pub ref return self Self static struct super trait true type unsafe use where while "
    "async await dyn abstract become box do final macro override priv typeof unsized virtual "
    "yield try union".split()
)
_NOT_RAW = {"self", "Self", "super", "crate", "_"}


def generate(feature: Feature, command: str) -> str:
    return _Writer(feature).module(command)


def _field(name: str) -> str:
    text = snake(name)
    text = re.sub(r"[^a-z0-9_]", "_", text)
    if text[0].isdigit():
        text = "value_" + text
    if text in _NOT_RAW:
        return text + "_"
    return "r#" + text if text in _KEYWORDS else text


def _variant(name: str) -> str:
    text = pascal(name)
    return text + "_" if text in _NOT_RAW else text


def _local(prefix: str, field: str) -> str:
    """A local variable for a member: `read_count`, never a keyword nor another local."""
    return f"{prefix}_{field[2:] if field.startswith('r#') else field}"


def _unique(names: List[str]) -> List[str]:
    seen: Set[str] = set()
    out = []
    for name in names:
        candidate = name
        number = 2
        while candidate in seen:
            candidate = f"{name}{number}" if not name.startswith("r#") else f"{name[2:]}{number}"
            number += 1
        seen.add(candidate)
        out.append(candidate)
    return out


def _member_text(name: str) -> str:
    """The Rust literal of `"name":` as JSON writes it."""
    return rust_string(json.dumps(name, ensure_ascii=False) + ":")


_SUPPORT = '''
/// Reading and writing JSON text: every type of this file, and the standard types it uses.
pub trait Json: Sized {
    /// The value of a JSON text; `tca::Error` (`TCA_ERR_JSON_SHAPE`, `TCA_ERR_JSON_SYNTAX`) for
    /// text that is not JSON of this type.
    fn from_json(json: &str) -> Result<Self, Error>;
    /// Appends the value's JSON text to `out`.
    fn write_json(&self, out: &mut String);
    /// The value's JSON text.
    fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }
}

/// A JSON text kept as it is: a value the schema says nothing more of.
#[derive(Clone, Debug, PartialEq)]
pub struct RawJson(pub String);

impl Default for RawJson {
    fn default() -> RawJson {
        RawJson("null".to_string())
    }
}

fn shape(expected: &str, json: &str) -> Error {
    let mut cut = json.len().min(20);
    while !json.is_char_boundary(cut) {
        cut -= 1;
    }
    let more = if cut < json.len() { "\\u{2026}" } else { "" };
    Error::new(
        tca::sys::TCA_ERR_JSON_SHAPE,
        format!("expected {}, found {}{}", expected, tca::quote(&json[..cut]), more),
    )
}

fn missing(owner: &str, member: &str) -> Error {
    Error::new(
        tca::sys::TCA_ERR_JSON_SHAPE,
        format!("{}: missing member {}", owner, tca::quote(member)),
    )
}

/// The case an enum's JSON names, and its payload's text (None: a bare name).
fn case_of(json: &str) -> Result<(String, Option<&str>), Error> {
    let json = json.trim();
    if json.starts_with('"') {
        return Ok((tca::unquote(json)?, None));
    }
    let mut members = tca::members(json)?;
    if members.len() != 1 {
        return Err(shape("a case: a name, or an object of one member", json));
    }
    let (name, payload) = members.remove(0);
    Ok((name, Some(payload)))
}

/// A case's one unlabeled value: `_0` of the synthesized form, or the bare value; None for `{}`
/// (an optional's nil) or a bare name.
fn single(payload: Option<&str>) -> Result<Option<&str>, Error> {
    let payload = match payload {
        Some(payload) => payload,
        None => return Ok(None),
    };
    if !payload.starts_with('{') {
        return Ok(Some(payload));
    }
    let members = tca::members(payload)?;
    if members.is_empty() {
        return Ok(None);
    }
    if members.len() == 1 && members[0].0 == "_0" {
        return Ok(Some(members[0].1));
    }
    Ok(Some(payload))
}

/// The members of a case's labeled payload (none for a bare name).
fn labeled(payload: Option<&str>) -> Result<Vec<(String, &str)>, Error> {
    match payload {
        Some(payload) => tca::members(payload),
        None => Ok(Vec::new()),
    }
}

fn member(out: &mut String, first: &mut bool, name: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    out.push_str(name);
}

impl Json for bool {
    fn from_json(json: &str) -> Result<bool, Error> {
        match json.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(shape("a boolean", json)),
        }
    }
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl Json for i64 {
    fn from_json(json: &str) -> Result<i64, Error> {
        json.trim().parse().map_err(|_| shape("an integer", json))
    }
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl Json for u64 {
    fn from_json(json: &str) -> Result<u64, Error> {
        json.trim().parse().map_err(|_| shape("an integer from 0", json))
    }
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl Json for f64 {
    fn from_json(json: &str) -> Result<f64, Error> {
        let text = json.trim();
        match text.parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(number),
            _ => Err(shape("a number", json)),
        }
    }
    fn write_json(&self, out: &mut String) {
        // NB: Display writes the shortest text that reads back to the same number, with no
        // exponent: JSON. NaN and the infinities are not JSON: the library refuses them.
        out.push_str(&self.to_string());
    }
}

impl Json for String {
    fn from_json(json: &str) -> Result<String, Error> {
        tca::unquote(json.trim())
    }
    fn write_json(&self, out: &mut String) {
        out.push_str(&tca::quote(self));
    }
}

impl Json for RawJson {
    fn from_json(json: &str) -> Result<RawJson, Error> {
        Ok(RawJson(json.trim().to_string()))
    }
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.0);
    }
}

impl<T: Json> Json for Option<T> {
    fn from_json(json: &str) -> Result<Option<T>, Error> {
        if json.trim() == "null" {
            Ok(None)
        } else {
            T::from_json(json).map(Some)
        }
    }
    fn write_json(&self, out: &mut String) {
        match self {
            Some(value) => value.write_json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: Json> Json for Box<T> {
    fn from_json(json: &str) -> Result<Box<T>, Error> {
        T::from_json(json).map(Box::new)
    }
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}

impl<T: Json> Json for Vec<T> {
    fn from_json(json: &str) -> Result<Vec<T>, Error> {
        tca::items(json.trim())?.into_iter().map(T::from_json).collect()
    }
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (index, item) in self.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            item.write_json(out);
        }
        out.push(']');
    }
}

impl<T: Json> Json for BTreeMap<String, T> {
    fn from_json(json: &str) -> Result<BTreeMap<String, T>, Error> {
        let mut map = BTreeMap::new();
        for (key, value) in tca::members(json.trim())? {
            map.insert(key, T::from_json(value)?);
        }
        Ok(map)
    }
    fn write_json(&self, out: &mut String) {
        out.push('{');
        for (index, (key, value)) in self.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(&tca::quote(key));
            out.push(':');
            value.write_json(out);
        }
        out.push('}');
    }
}

impl<T: Json> Json for BTreeMap<i64, T> {
    fn from_json(json: &str) -> Result<BTreeMap<i64, T>, Error> {
        let mut map = BTreeMap::new();
        for (key, value) in tca::members(json.trim())? {
            let number = key.parse().map_err(|_| shape("an integer key", &key))?;
            map.insert(number, T::from_json(value)?);
        }
        Ok(map)
    }
    fn write_json(&self, out: &mut String) {
        out.push('{');
        for (index, (key, value)) in self.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(&format!("\\"{}\\":", key));
            value.write_json(out);
        }
        out.push('}');
    }
}
'''


class _Writer:
    def __init__(self, feature: Feature) -> None:
        self.feature = feature
        self.boxed = feature.recursive()

    def type(self, t: Type, holder: Opt[str] = None) -> str:
        if isinstance(t, Scalar):
            if t.kind == "integer":
                return "u64" if t.unsigned else "i64"
            return {"boolean": "bool", "number": "f64"}.get(t.kind, "String")
        if isinstance(t, AnyJSON):
            return "RawJson"
        if isinstance(t, Optional):
            return f"Option<{self.type(t.inner, holder)}>"
        if isinstance(t, Array):
            return f"Vec<{self.type(t.item)}>"
        if isinstance(t, Map):
            key = "i64" if t.int_keys else "String"
            return f"BTreeMap<{key}, {self.type(t.value)}>"
        if isinstance(t, Named):
            if holder is not None and (holder, t.name) in self.boxed:
                return f"Box<{t.name}>"
            return t.name
        raise SchemaError(f"no Rust type for {t!r}")

    def module(self, command: str) -> str:
        f = self.feature
        lines = [f"//! Host types of the libtca feature {json.dumps(f.name)}.", "//!"]
        lines += ["//! " + line for line in header_lines(f, command)]
        lines += [
            "//!",
            "//!     send(&store, &Action::…)?;",
            "//!     let state = state(&store)?;",
            "",
            "// NB: a program uses some of a feature's types, never all.",
            "#![allow(dead_code)]",
            "",
            "use std::collections::BTreeMap;",
            "",
            "use tca::Error;",
            "",
            "/// The feature's name: `tca::Store::new(FEATURE)`.",
            f"pub const FEATURE: &str = {rust_string(f.name)};",
        ]
        for definition in f.definitions.values():
            lines.append("")
            if isinstance(definition, Struct):
                lines += self.struct(definition)
            elif isinstance(definition, StringEnum):
                lines += self.string_enum(definition)
            else:
                lines += self.action(definition)
        for root, member in (("State", f.state), ("Action", f.action)):
            if not (isinstance(member, Named) and member.name == root):
                lines += ["", f"pub type {root} = {self.type(member)};"]
        lines += [
            "",
            "/// Sends `action` to `store`, a store of this feature.",
            "pub fn send(store: &tca::Store, action: &Action) -> Result<(), Error> {",
            "    store.send(&action.to_json())",
            "}",
            "",
            "/// The state of `store`, a store of this feature.",
            "pub fn state(store: &tca::Store) -> Result<State, Error> {",
            "    <State as Json>::from_json(&store.state()?)",
            "}",
        ]
        lines += _SUPPORT.split("\n")
        return "\n".join(lines).rstrip("\n") + "\n"

    # ---- structs ----

    def field_type(self, field_type: Type, required: bool, holder: str) -> str:
        if required or isinstance(field_type, Optional):
            return self.type(field_type, holder)
        return f"Option<{self.type(field_type, holder)}>"

    def struct(self, s: Struct) -> List[str]:
        names = _unique([_field(field.json_name) for field in s.fields])
        types = [self.field_type(f.type, f.required, s.name) for f in s.fields]
        lines = [f"/// `{s.title}`.", "#[derive(Clone, Debug, PartialEq)]"]
        if not s.fields:
            lines.append(f"pub struct {s.name} {{}}")
        else:
            lines.append(f"pub struct {s.name} {{")
            for field, name, rust_type in zip(s.fields, names, types):
                lines.append(f"    /// `{field.json_name}`.")
                lines.append(f"    pub {name}: {rust_type},")
            lines.append("}")
        lines += ["", f"impl Json for {s.name} {{"]
        lines.append(f"    fn from_json(json: &str) -> Result<{s.name}, Error> {{")
        locals_ = [_local("read", name) for name in names]
        for local in locals_:
            lines.append(f"        let mut {local} = None;")
        lines += self.read_members("json", s.fields, locals_, types, "        ")
        lines.append(f"        Ok({s.name} {{")
        lines += self.take_members(s.title, s.fields, names, locals_, "            ")
        lines += ["        })", "    }", ""]
        lines += self.write_struct(
            s.fields, names, "self.", "    fn write_json(&self, out: &mut String) {"
        )
        lines += ["}", ""]
        lines += self.inherent(s.name)
        return lines

    def read_members(
        self, source: str, fields: List[Field], names: List[str], types: List[str], indent: str
    ) -> List[str]:
        """Reads the members of `source` into the locals `names` (each an Option)."""
        if not fields:
            return [f"{indent}tca::members({source}.trim())?;"]
        lines = [f"{indent}for (name, value) in tca::members({source}.trim())? {{"]
        if len(fields) == 1:
            # NB: one member: an `if` (clippy's single_match).
            lines.append(f"{indent}    if name == {rust_string(self.json_name(fields[0]))} {{")
            lines.append(
                f"{indent}        {names[0]} = Some(<{types[0]} as Json>::from_json(value)?);"
            )
            lines += [f"{indent}    }}", f"{indent}}}"]
            return lines
        lines.append(f"{indent}    match name.as_str() {{")
        for field, name, rust_type in zip(fields, names, types):
            lines.append(
                f"{indent}        {rust_string(self.json_name(field))} => "
                f"{name} = Some(<{rust_type} as Json>::from_json(value)?),"
            )
        lines += [f"{indent}        _ => {{}}", f"{indent}    }}", f"{indent}}}"]
        return lines

    @staticmethod
    def json_name(field: Field) -> str:
        return field.json_name

    @staticmethod
    def take_members(
        owner: str, fields: List[Field], names: List[str], locals_: List[str], indent: str
    ) -> List[str]:
        lines = []
        for field, name, local in zip(fields, names, locals_):
            if field.required:
                lines.append(
                    f"{indent}{name}: {local}.ok_or_else(|| missing("
                    f"{rust_string(owner)}, {rust_string(field.json_name)}))?,"
                )
            else:
                lines.append(f"{indent}{name}: {local}.unwrap_or(None),")
        return lines

    @staticmethod
    def write_struct(
        fields: List[Field], names: List[str], prefix: str, signature: str
    ) -> List[str]:
        lines = [signature]
        if not fields:
            lines += ['        out.push_str("{}");', "    }"]
            return lines
        lines += ["        let mut first = true;", "        out.push('{');"]
        for field, name in zip(fields, names):
            key = _member_text(field.json_name)
            value = f"{prefix}{name}" if prefix else name
            if field.required:
                lines.append(f"        member(out, &mut first, {key});")
                lines.append(f"        {value}.write_json(out);")
            else:
                reference = f"&{value}" if prefix else value
                lines.append(f"        if let Some(value) = {reference} {{")
                lines.append(f"            member(out, &mut first, {key});")
                lines.append("            value.write_json(out);")
                lines.append("        }")
        lines += ["        out.push('}');", "    }"]
        return lines

    @staticmethod
    def inherent(name: str, copy: bool = False) -> List[str]:
        return [
            f"impl {name} {{",
            "    /// The value of a JSON text (`Json::from_json`).",
            f"    pub fn from_json(json: &str) -> Result<{name}, Error> {{",
            f"        <{name} as Json>::from_json(json)",
            "    }",
            "    /// The value's JSON text (`Json::to_json`).",
            f"    pub fn to_json({'self' if copy else '&self'}) -> String {{",
            f"        Json::to_json({'&self' if copy else 'self'})",
            "    }",
            "}",
        ]

    # ---- enums ----

    def string_enum(self, e: StringEnum) -> List[str]:
        variants = _unique([_variant(v) for v in e.values])
        lines = [f"/// `{e.title}`.", "#[derive(Clone, Copy, Debug, PartialEq, Eq)]"]
        lines.append(f"pub enum {e.name} {{")
        for value, variant in zip(e.values, variants):
            lines += [f"    /// {json.dumps(value, ensure_ascii=False)}", f"    {variant},"]
        lines += ["}", "", f"impl Json for {e.name} {{"]
        lines.append(f"    fn from_json(json: &str) -> Result<{e.name}, Error> {{")
        lines.append("        match tca::unquote(json.trim())?.as_str() {")
        for value, variant in zip(e.values, variants):
            lines.append(f"            {rust_string(value)} => Ok({e.name}::{variant}),")
        expected = "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in e.values)
        lines += [
            f"            _ => Err(shape({rust_string(expected)}, json)),",
            "        }",
            "    }",
            "    fn write_json(&self, out: &mut String) {",
            "        out.push_str(match self {",
        ]
        for value, variant in zip(e.values, variants):
            lines.append(
                f"            {e.name}::{variant} => "
                f"{rust_string(json.dumps(value, ensure_ascii=False))},"
            )
        lines += ["        });", "    }", "}", ""]
        lines += self.inherent(e.name, copy=True)
        return lines

    def case_fields(self, case: Case) -> List[str]:
        return _unique(
            [
                _field(p.label) if p.label is not None else f"value_{i}"
                for i, p in enumerate(case.params)
            ]
        )

    def action(self, a: ActionEnum) -> List[str]:
        variants = _unique([_variant(case.name) for case in a.cases])
        lines = [f"/// `{a.title}`.", "#[derive(Clone, Debug, PartialEq)]"]
        lines.append(f"pub enum {a.name} {{")
        for case, variant in zip(a.cases, variants):
            lines.append(f"    /// {json.dumps(case.name, ensure_ascii=False)}")
            if not case.params:
                lines.append(f"    {variant},")
            elif all(p.label is None for p in case.params):
                types = ", ".join(self.type(p.type, a.name) for p in case.params)
                lines.append(f"    {variant}({types}),")
            else:
                lines.append(f"    {variant} {{")
                for name, param in zip(self.case_fields(case), case.params):
                    lines.append(f"        {name}: {self.type(param.type, a.name)},")
                lines.append("    },")
        lines += ["}", "", f"impl Json for {a.name} {{"]
        lines += self.read_action(a, variants)
        lines.append("")
        lines += self.write_action(a, variants)
        lines += ["}", ""]
        lines += self.inherent(a.name)
        return lines

    def read_action(self, a: ActionEnum, variants: List[str]) -> List[str]:
        lines = [
            f"    fn from_json(json: &str) -> Result<{a.name}, Error> {{",
            "        let (name, payload) = case_of(json)?;"
            if any(case.params for case in a.cases)
            else "        let (name, _payload) = case_of(json)?;",
            "        match name.as_str() {",
        ]
        for case, variant in zip(a.cases, variants):
            label = rust_string(case.name)
            if not case.params:
                lines.append(f"            {label} => Ok({a.name}::{variant}),")
            elif case.single:
                param = case.params[0]
                rust_type = self.type(param.type, a.name)
                if isinstance(param.type, Optional):
                    read = (
                        f"match single(payload)? {{ Some(value) => "
                        f"<{rust_type} as Json>::from_json(value)?, None => None }}"
                    )
                else:
                    read = (
                        f"<{rust_type} as Json>::from_json(single(payload)?.unwrap_or(\"{{}}\"))?"
                    )
                lines.append(f"            {label} => Ok({a.name}::{variant}({read})),")
            else:
                names = self.case_fields(case)
                types = [self.type(p.type, a.name) for p in case.params]
                fields = [
                    Field(p.key(i), p.type, not isinstance(p.type, Optional))
                    for i, p in enumerate(case.params)
                ]
                lines.append(f"            {label} => {{")
                locals_ = [_local("read", name) for name in names]
                for local in locals_:
                    lines.append(f"                let mut {local} = None;")
                lines += [
                    line.replace("tca::members(payload.trim())?", "labeled(payload)?")
                    for line in self.read_members(
                        "payload", fields, locals_, types, "                "
                    )
                ]
                owner = f"{a.title}.{case.name}"
                taken = self.take_members(owner, fields, names, locals_, "                    ")
                if all(p.label is None for p in case.params):
                    lines.append(f"                Ok({a.name}::{variant}(")
                    lines += [line.split(": ", 1)[1] for line in taken]
                    lines.append("                ))")
                else:
                    lines.append(f"                Ok({a.name}::{variant} {{")
                    lines += taken
                    lines.append("                })")
                lines.append("            }")
        lines += [
            f"            _ => Err(shape({rust_string('a case of ' + a.title)}, json)),",
            "        }",
            "    }",
        ]
        if not a.cases:
            lines = lines[:1] + [
                "        case_of(json)?;",
                f"        Err(shape({rust_string('a case of ' + a.title)}, json))",
                "    }",
            ]
        return lines

    def write_action(self, a: ActionEnum, variants: List[str]) -> List[str]:
        lines = ["    fn write_json(&self, out: &mut String) {"]
        if not a.cases:
            return [
                "    fn write_json(&self, _out: &mut String) {",
                "        match *self {}",
                "    }",
            ]
        lines.append("        match self {")
        for case, variant in zip(a.cases, variants):
            opening = rust_string("{" + json.dumps(case.name, ensure_ascii=False) + ":")
            if not case.params:
                whole = rust_string("{" + json.dumps(case.name, ensure_ascii=False) + ":{}}")
                lines.append(f"            {a.name}::{variant} => out.push_str({whole}),")
                continue
            fields_ = self.case_fields(case)
            names = [_local("p", name) for name in fields_]
            if all(p.label is None for p in case.params):
                pattern = f"{a.name}::{variant}({', '.join(names)})"
            else:
                bound = ", ".join(f"{field}: {name}" for field, name in zip(fields_, names))
                pattern = f"{a.name}::{variant} {{ {bound} }}"
            # NB: an optional single value that is nil is written `{}`, as the library does.
            fields = [
                Field(p.key(i), p.type, not (case.single and isinstance(p.type, Optional)))
                for i, p in enumerate(case.params)
            ]
            lines.append(f"            {pattern} => {{")
            lines.append(f"                out.push_str({opening});")
            body = self.write_struct(fields, names, "", "")[1:-1]
            lines += ["        " + line for line in body]
            lines += ["                out.push('}');", "            }"]
        lines += ["        }", "    }"]
        return lines
