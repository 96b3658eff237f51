"""A feature's schema document (docs/schema.md) read into the types a generator writes.

The document's JSON Schemas are read into a few shapes, the same for every language:

- `Scalar`: a boolean, an integer, a number or a string (a string enum inline: `values`);
- `Optional` (a schema that also takes `null`), `Array`, `Map` (an object of any member names);
- `Named`: a `$defs` entry that is a `Struct` (an object of known members), a `StringEnum` or an
  `ActionEnum` (a Swift enum with cases: an action, or an enum in the state);
- `AnyJSON`: anything the reader cannot say more of (`true`, a union it does not know).

A `$defs` entry that only wraps another schema (`presentation`: the child's state or `null`,
`identifiedArray`, `dictionary`) is read inline. Names are the language-neutral names of the
types: `Counter.State` is `CounterState`, the feature's state and action are `State` and `Action`.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional as Opt, Set, Tuple, Union

__all__ = [
    "ActionEnum",
    "AnyJSON",
    "Array",
    "Case",
    "Definition",
    "Feature",
    "Field",
    "Map",
    "Named",
    "Optional",
    "Param",
    "Scalar",
    "SchemaError",
    "StringEnum",
    "Struct",
    "Type",
    "read_feature",
]


class SchemaError(ValueError):
    """A schema document the generator cannot read: the place and why."""


# ---- types ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scalar:
    """`kind`: "boolean", "integer", "number" or "string"; `unsigned`: an integer that is never
    negative (`minimum` 0) with no upper bound below 2^63 given; `values`: a string enum's cases;
    `format`: the schema's `format` ("uuid")."""

    kind: str
    unsigned: bool = False
    values: Tuple[str, ...] = ()
    format: Opt[str] = None


@dataclass(frozen=True)
class AnyJSON:
    """Any JSON value."""


@dataclass(frozen=True)
class Optional:
    """A value or `null`."""

    inner: "Type"


@dataclass(frozen=True)
class Array:
    item: "Type"


@dataclass(frozen=True)
class Map:
    """An object whose member names are keys (`int_keys`: integers in decimal)."""

    value: "Type"
    int_keys: bool = False


@dataclass(frozen=True)
class Named:
    """A definition of the feature, by its name (`Feature.definitions`)."""

    name: str


Type = Union[Scalar, AnyJSON, Optional, Array, Map, Named]


# ---- definitions ------------------------------------------------------------------------------


@dataclass
class Field:
    """A member of a struct: its JSON name, type, and whether the library always writes it."""

    json_name: str
    type: Type
    required: bool


@dataclass
class Param:
    """A payload value of a case: its label (None: unlabeled, `_0`, `_1`… on the wire)."""

    label: Opt[str]
    type: Type

    def key(self, index: int) -> str:
        """The member that holds it in the synthesized form."""
        return self.label if self.label is not None else f"_{index}"


@dataclass
class Case:
    """A case of an enum: its name and payload (empty: none)."""

    name: str
    params: List[Param] = field(default_factory=list)

    @property
    def single(self) -> bool:
        """One unlabeled payload: the wire takes it bare (`{"setCount":5}`)."""
        return len(self.params) == 1 and self.params[0].label is None


@dataclass
class Struct:
    name: str
    title: str
    fields: List[Field]
    kind: str = "struct"


@dataclass
class StringEnum:
    name: str
    title: str
    values: List[str]


@dataclass
class ActionEnum:
    name: str
    title: str
    cases: List[Case]


Definition = Union[Struct, StringEnum, ActionEnum]


@dataclass
class Request:
    """A host request: its name, kind, and the types of its payload and answer (None: none)."""

    name: str
    kind: str
    payload: Type
    response: Opt[Type]
    declared: bool


@dataclass
class Feature:
    """A feature's schema, read: `state` and `action` are `Named("State")` and
    `Named("Action")` unless the document gives them inline as a scalar or an array."""

    name: str
    state: Type
    action: Type
    definitions: Dict[str, Definition]
    requests: List[Request]

    def definition(self, named: Named) -> Definition:
        return self.definitions[named.name]

    def references(self, type_: Type) -> Iterator[str]:
        """The names of the definitions `type_` refers to, directly."""
        if isinstance(type_, Named):
            yield type_.name
        elif isinstance(type_, Optional):
            yield from self.references(type_.inner)
        elif isinstance(type_, Array):
            yield from self.references(type_.item)
        elif isinstance(type_, Map):
            yield from self.references(type_.value)

    def contained(self, name: str) -> List[Type]:
        """The types a definition holds: its fields' or its cases' payloads."""
        definition = self.definitions[name]
        if isinstance(definition, Struct):
            return [f.type for f in definition.fields]
        if isinstance(definition, ActionEnum):
            return [p.type for case in definition.cases for p in case.params]
        return []

    def held_by_value(self, type_: Type) -> Iterator[str]:
        """The definitions a value of `type_` holds in itself (not through an array or map)."""
        if isinstance(type_, Named):
            yield type_.name
        elif isinstance(type_, Optional):
            yield from self.held_by_value(type_.inner)

    def recursive(self) -> Set[Tuple[str, str]]:
        """The edges (holder, held) of definitions that hold each other by value, in a circle:
        a language with values of fixed size boxes these (a `Box`, a pointer)."""
        edges = {
            name: {held for t in self.contained(name) for held in self.held_by_value(t)}
            for name in self.definitions
        }
        reach: Dict[str, Set[str]] = {}
        for start in edges:
            seen: Set[str] = set()
            pending = list(edges[start])
            while pending:
                node = pending.pop()
                if node in seen:
                    continue
                seen.add(node)
                pending.extend(edges.get(node, ()))
            reach[start] = seen
        return {(a, b) for a in edges for b in edges[a] if a in reach.get(b, set())}

    def ordered(self, boxed: Set[Tuple[str, str]]) -> List[str]:
        """The definitions, each after those it holds by value (through optionals, arrays and
        maps too) except through the `boxed` edges: the order a language that needs a type
        complete before it is held (C++) declares them."""
        done: List[str] = []
        state: Dict[str, int] = {}

        def visit(name: str) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                return  # a circle not boxed: through an array (allowed incomplete), left as is
            state[name] = 1
            for t in self.contained(name):
                for held in self.references(t):
                    if (name, held) not in boxed and held in self.definitions:
                        visit(held)
            state[name] = 2
            done.append(name)

        for name in self.definitions:
            visit(name)
        return done


# ---- names ------------------------------------------------------------------------------------


def type_name(key: str) -> str:
    """A type's name from its `$defs` key: `Counter.State` is `CounterState`,
    `PresentationState_Dice.Destination.State_` is `PresentationStateDiceDestinationState`."""
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", key) if p]
    name = "".join(p[0].upper() + p[1:] for p in parts) or "Type"
    return name if not name[0].isdigit() else "T" + name


def words(name: str) -> List[str]:
    """The words of a camelCase or snake_case name: `numberFactResponse` is
    ["number", "Fact", "Response"]; `URLRequest` is ["URL", "Request"]."""
    return re.findall(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|[0-9]+", name)


def snake(name: str) -> str:
    """`numberFactResponse` → `number_fact_response`."""
    parts = words(name)
    return "_".join(p.lower() for p in parts) if parts else "value"


def pascal(name: str) -> str:
    """`numberFactResponse` → `NumberFactResponse`; `_0` → `Value0`."""
    parts = words(name)
    if not parts:
        return "Value"
    text = "".join(p[0].upper() + p[1:] for p in parts)
    return "Value" + text if text[0].isdigit() else text


def camel(name: str) -> str:
    text = pascal(name)
    return text[0].lower() + text[1:]


def python_safe(name: str) -> str:
    """A Python identifier for `name`: keywords get a trailing `_` (`from` is `from_`)."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", name) or "_"
    if text[0].isdigit():
        text = "_" + text
    return text + "_" if keyword.iskeyword(text) or keyword.issoftkeyword(text) else text


# ---- reading ----------------------------------------------------------------------------------

_WRAPPERS = {"presentation", "identifiedArray", "dictionary"}


class _Reader:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        defs = document.get("$defs", {})
        if not isinstance(defs, Mapping):
            raise SchemaError("$defs: expected an object")
        self.defs: Mapping[str, Any] = defs
        self.names: Dict[str, str] = {}  # $defs key → type name
        self.used: Set[str] = set()
        self.definitions: Dict[str, Definition] = {}
        self.pending: List[str] = []

    def claim(self, base: str) -> str:
        name = base
        number = 2
        while name in self.used:
            name = f"{base}{number}"
            number += 1
        self.used.add(name)
        return name

    def key_of(self, ref: Any, where: str) -> str:
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            raise SchemaError(f"{where}: a $ref into #/$defs/ expected, found {ref!r}")
        key = ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
        if key not in self.defs:
            raise SchemaError(f"{where}: $ref {ref!r} names no entry of $defs")
        return key

    def is_wrapper(self, key: str) -> bool:
        entry = self.defs[key]
        if not isinstance(entry, Mapping):
            return False
        if entry.get("x-tca-kind") in _WRAPPERS:
            return True
        # NB: an entry that is not an object of members nor an enum is read inline (a wrapper
        # of a single value, `allOf` of one schema).
        return not (self.is_struct(entry) or self.is_enum(entry) or self.is_action(entry))

    @staticmethod
    def is_struct(entry: Mapping[str, Any]) -> bool:
        return entry.get("type") == "object" and isinstance(entry.get("properties"), Mapping)

    @staticmethod
    def is_enum(entry: Mapping[str, Any]) -> bool:
        values = entry.get("enum")
        return isinstance(values, list) and bool(values) and all(
            isinstance(v, str) for v in values
        )

    @staticmethod
    def is_action(entry: Mapping[str, Any]) -> bool:
        cases = entry.get("oneOf")
        return isinstance(cases, list) and all(
            isinstance(c, Mapping) and isinstance(c.get("x-tca-case"), str) for c in cases
        )

    def name_of(self, key: str, base: Opt[str] = None) -> str:
        if key not in self.names:
            self.names[key] = self.claim(base or type_name(key))
            self.pending.append(key)
        return self.names[key]

    def read(self, schema: Any, where: str, hint: str, seen: Tuple[str, ...] = ()) -> Type:
        """The type of `schema`; `hint` names an inline object made a struct of its own."""
        if schema is True or schema == {}:
            return AnyJSON()
        if not isinstance(schema, Mapping):
            raise SchemaError(f"{where}: expected a schema, found {schema!r}")
        if "$ref" in schema:
            key = self.key_of(schema["$ref"], where)
            if self.is_wrapper(key):
                if key in seen:
                    raise SchemaError(f"{where}: $defs entry {key!r} is only itself")
                wrapped = {k: v for k, v in self.defs[key].items() if k not in ("title",)}
                return self.read(wrapped, f"#/$defs/{key}", hint, seen + (key,))
            return Named(self.name_of(key))
        for union in ("anyOf", "oneOf"):
            alternatives = schema.get(union)
            if isinstance(alternatives, list):
                rest = [a for a in alternatives if not _is_null(a)]
                if len(rest) == 1:
                    inner = self.read(rest[0], f"{where}/{union}", hint, seen)
                    return Optional(inner) if len(rest) < len(alternatives) else inner
                if len(rest) < len(alternatives):
                    return Optional(AnyJSON())
                return AnyJSON()
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1:
            return self.read(all_of[0], f"{where}/allOf/0", hint, seen)
        kind = schema.get("type")
        if isinstance(kind, list):
            rest = [k for k in kind if k != "null"]
            if len(rest) == 1:
                inner = self.read({**schema, "type": rest[0]}, where, hint, seen)
                return Optional(inner) if len(rest) < len(kind) else inner
            return AnyJSON()
        if "const" in schema and kind is None:
            constant = schema["const"]
            if isinstance(constant, str):
                return Scalar("string", values=(constant,))
            return AnyJSON()
        if self.is_enum(schema) and kind in (None, "string"):
            return Scalar("string", values=tuple(schema["enum"]))
        if kind in ("boolean", "number", "string"):
            fmt = schema.get("format")
            return Scalar(kind, format=fmt if isinstance(fmt, str) else None)
        if kind == "integer":
            minimum = schema.get("minimum")
            maximum = schema.get("maximum")
            unsigned = (
                isinstance(minimum, (int, float))
                and minimum >= 0
                and (maximum is None or maximum >= 2**63)
            )
            return Scalar("integer", unsigned=bool(unsigned))
        if kind == "array":
            items = schema.get("items", True)
            return Array(self.read(items, f"{where}/items", hint + "Item", seen))
        if kind == "object":
            if isinstance(schema.get("properties"), Mapping) and schema["properties"]:
                return Named(self.inline_struct(schema, where, hint))
            extra = schema.get("additionalProperties", True)
            if extra is False:
                return Named(self.inline_struct(schema, where, hint))
            names = schema.get("propertyNames")
            int_keys = isinstance(names, Mapping) and names.get("pattern") == "^-?[0-9]+$"
            return Map(self.read(extra, f"{where}/additionalProperties", hint + "Value", seen),
                       int_keys)
        return AnyJSON()

    def inline_struct(self, schema: Mapping[str, Any], where: str, hint: str) -> str:
        name = self.claim(hint)
        self.definitions[name] = self.struct(name, hint, schema, where)
        return name

    def struct(self, name: str, title: str, entry: Mapping[str, Any], where: str) -> Struct:
        properties = entry.get("properties", {})
        required = entry.get("required", [])
        if not isinstance(properties, Mapping) or not isinstance(required, list):
            raise SchemaError(f"{where}: properties and required expected")
        fields = [
            Field(
                member,
                self.read(schema, f"{where}/properties/{member}", name + pascal(member)),
                member in required,
            )
            for member, schema in properties.items()
        ]
        return Struct(name, title, fields, str(entry.get("x-tca-kind", "struct")))

    def action(self, name: str, title: str, entry: Mapping[str, Any], where: str) -> ActionEnum:
        cases: List[Case] = []
        seen: Set[str] = set()
        for number, case in enumerate(entry["oneOf"]):
            case_name = case["x-tca-case"]
            if case_name in seen:
                continue  # NB: a name two grouped enums share: the first is the one decoded
            seen.add(case_name)
            payload = case.get("x-tca-payload", [])
            if not isinstance(payload, list):
                raise SchemaError(f"{where}/oneOf/{number}: x-tca-payload: expected an array")
            params = []
            for index, param in enumerate(payload):
                label = param.get("label") if isinstance(param, Mapping) else None
                if label is not None and not isinstance(label, str):
                    raise SchemaError(f"{where}/oneOf/{number}: a payload's label: a string")
                params.append(
                    Param(
                        label,
                        self.read(
                            param.get("schema", True) if isinstance(param, Mapping) else True,
                            f"{where}/oneOf/{number}/x-tca-payload/{index}",
                            name + pascal(case_name) + (pascal(label) if label else ""),
                        ),
                    )
                )
            cases.append(Case(case_name, params))
        return ActionEnum(name, title, cases)

    def define(self, key: str) -> None:
        name = self.names[key]
        entry = self.defs[key]
        where = f"#/$defs/{key}"
        title = str(entry.get("title", key))
        if self.is_action(entry):
            self.definitions[name] = self.action(name, title, entry, where)
        elif self.is_enum(entry):
            self.definitions[name] = StringEnum(name, title, list(entry["enum"]))
        else:
            self.definitions[name] = self.struct(name, title, entry, where)

    def root(self, member: str, name: str) -> Type:
        schema = self.document.get(member)
        if schema is None:
            raise SchemaError(f"the document has no {member!r}")
        if isinstance(schema, Mapping) and "$ref" in schema:
            key = self.key_of(schema["$ref"], f"#/{member}")
            if not self.is_wrapper(key):
                return Named(self.name_of(key, name))
        if isinstance(schema, Mapping) and (
            self.is_struct(schema) or self.is_action(schema)
        ):
            self.used.add(name)
            entry = dict(schema, title=name)
            self.definitions[name] = (
                self.action(name, name, entry, f"#/{member}")
                if self.is_action(schema)
                else self.struct(name, name, entry, f"#/{member}")
            )
            return Named(name)
        return self.read(schema, f"#/{member}", name)


def _is_null(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") == "null" and len(schema) == 1


def read_feature(document: Mapping[str, Any]) -> Feature:
    """The feature a schema document describes (docs/schema.md). Raises `SchemaError`."""
    if not isinstance(document, Mapping):
        raise SchemaError("a schema document is a JSON object")
    feature = document.get("feature")
    if not isinstance(feature, str):
        raise SchemaError('the document has no "feature" name')
    reader = _Reader(document)
    state = reader.root("state", "State")
    action = reader.root("action", "Action")
    requests: List[Request] = []
    listed = document.get("requests", {})
    if not isinstance(listed, Mapping):
        raise SchemaError("requests: expected an object")
    for name, request in listed.items():
        if not isinstance(request, Mapping):
            raise SchemaError(f"requests/{name}: expected an object")
        hint = pascal(name.replace(".", " "))
        kind = str(request.get("kind", "oneShot"))
        response = request.get("response")
        requests.append(
            Request(
                name,
                kind,
                reader.read(request.get("payload", True), f"#/requests/{name}/payload",
                            hint + "Payload"),
                None
                if kind == "fireAndForget" or response is None
                else reader.read(response, f"#/requests/{name}/response", hint + "Response"),
                not request.get("x-tca-undeclared", False),
            )
        )
    while reader.pending:
        reader.define(reader.pending.pop(0))
    # NB: in the order of $defs, then the inline structs: a stable order for the output.
    order = {
        reader.names[key]: number for number, key in enumerate(reader.defs) if key in reader.names
    }
    definitions = dict(
        sorted(reader.definitions.items(), key=lambda item: order.get(item[0], len(order)))
    )
    return Feature(feature, state, action, definitions, requests)
