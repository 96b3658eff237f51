"""Feature schemas (docs/schema.md): `tca.schema(feature)` reads one; `random_value` makes JSON
values a schema allows, for property tests that drive a store with them (`tca.testing`)."""

from __future__ import annotations

import ctypes
import json
import random
import uuid
from typing import Any, Dict, List, Optional

from . import _native
from ._validate import c_string
from .errors import check

Schema = Dict[str, Any]


def schema(feature: str) -> Schema:
    """The schema of `feature` (`tca_feature_schema`): the JSON Schemas (2020-12) of its
    `state`, its `action` and each of its `requests`' payload and response, their named types in
    `$defs`. A new dict on every call, yours to keep or change:

        >>> tca.schema("counter")["requests"]["numberFact.fetch"]["kind"]
        'oneShot'

    Raises `UnknownFeatureError` (listing the library's features) for an unknown name."""
    name = c_string(feature, "schema: feature")
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    check(
        _native.lib.tca_feature_schema_n(name, len(name), ctypes.byref(out), ctypes.byref(length))
    )
    document: Schema = json.loads(_native.take_string(out.value, length.value))
    return document


# The deepest a made value nests before it takes the shortest way out (no payload, null, empty).
_DEPTH = 8
_TEXTS = ["", "a", "milk", "Boston", "é ü", "line\nbreak", 'say "hi"', "x" * 30, "🎲"]


def random_value(
    document: Schema,
    subschema: Any,
    rng: random.Random,
    *,
    seen: Optional[Any] = None,
) -> Any:
    """A JSON value `subschema` (of `document`, whose `$defs` its `$ref`s name) allows, made at
    random with `rng`. Integers and strings are often taken from `seen` (any JSON value: a
    store's state), so that actions name ids the state has. Integers stay within ±2^53; an
    identified array's ids differ."""
    return _Maker(document, rng, seen).value(subschema, 0)


def random_action(document: Schema, rng: random.Random, *, seen: Optional[Any] = None) -> Any:
    """An action of the feature `document` describes, at random (see `random_value`)."""
    return random_value(document, document["action"], rng, seen=seen)


class _Maker:
    def __init__(self, document: Schema, rng: random.Random, seen: Optional[Any]) -> None:
        self.defs: Schema = document.get("$defs", {})
        self.rng = rng
        self.integers: List[int] = []
        self.strings: List[str] = []
        if seen is not None:
            self._gather(seen)

    def _gather(self, value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            self.integers.append(value)
        elif isinstance(value, str):
            self.strings.append(value)
        elif isinstance(value, list):
            for element in value:
                self._gather(element)
        elif isinstance(value, dict):
            for element in value.values():
                self._gather(element)

    def value(self, schema: Any, depth: int) -> Any:
        if schema is True or schema == {}:
            return self.rng.choice([None, 0, "x", [], {}])
        if not isinstance(schema, dict):
            raise ValueError(f"no value fits the schema {schema!r}")
        if "$ref" in schema:
            return self.value(self.defs[schema["$ref"].split("/")[-1]], depth + 1)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                return self.value(self._choose(schema[keyword], depth), depth + 1)
        if "allOf" in schema:
            return self.value(schema["allOf"][0], depth + 1)
        kind = schema.get("type")
        if kind == "null":
            return None
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "integer":
            return self._integer(schema)
        if kind == "number":
            return self.rng.choice([0, 1.5, -2.25, 1e10, round(self.rng.uniform(-1e6, 1e6), 3)])
        if kind == "string":
            return self._string(schema)
        if kind == "array":
            return self._array(schema, depth)
        if kind == "object":
            return self._object(schema, depth)
        raise ValueError(f"no value fits the schema {schema!r}")

    def _choose(self, alternatives: List[Any], depth: int) -> Any:
        if depth < _DEPTH:
            return self.rng.choice(alternatives)
        # NB: deep down, the way out: a case without payload, null, a constant.
        for alternative in alternatives:
            if isinstance(alternative, dict) and (
                alternative.get("type") == "null" or "const" in alternative
                or ("anyOf" in alternative and "x-tca-case" in alternative)
            ):
                return alternative
        return alternatives[0]

    def _integer(self, schema: Schema) -> int:
        low = int(schema.get("minimum", -(2**53)))
        high = int(schema.get("maximum", 2**53))
        candidates = [n for n in self.integers if low <= n <= high]
        if candidates and self.rng.random() < 0.6:
            return int(self.rng.choice(candidates))
        if self.rng.random() < 0.8:
            return max(low, min(high, self.rng.randint(-2, 10)))
        return self.rng.randint(max(low, -(2**53)), min(high, 2**53))

    def _string(self, schema: Schema) -> str:
        if schema.get("format") == "uuid":
            known = [s for s in self.strings if _is_uuid(s)]
            if known and self.rng.random() < 0.7:
                return str(self.rng.choice(known))
            return str(uuid.UUID(int=self.rng.getrandbits(128))).upper()
        if self.strings and self.rng.random() < 0.3:
            return str(self.rng.choice(self.strings))[:40]
        return self.rng.choice(_TEXTS)

    def _array(self, schema: Schema, depth: int) -> List[Any]:
        items: List[Any] = [self.value(item, depth + 1) for item in schema.get("prefixItems", [])]
        count = 0 if depth >= _DEPTH else self.rng.randint(0, 3)
        if "items" in schema and schema["items"] is not False:
            items += [self.value(schema["items"], depth + 1) for _ in range(count)]
        if schema.get("x-tca-identified"):
            ids = set()
            unique = []
            for item in items:
                key = json.dumps(item.get("id") if isinstance(item, dict) else item)
                if key not in ids:
                    ids.add(key)
                    unique.append(item)
            items = unique
        return items

    def _object(self, schema: Schema, depth: int) -> Dict[str, Any]:
        properties: Schema = schema.get("properties", {})
        required = set(schema.get("required", []))
        made: Dict[str, Any] = {}
        for name, member in properties.items():
            if name in required or (depth < _DEPTH and self.rng.random() < 0.5):
                made[name] = self.value(member, depth + 1)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and depth < _DEPTH:
            numeric = "propertyNames" in schema
            for _ in range(self.rng.randint(0, 2)):
                key = str(self.rng.randint(-5, 50)) if numeric else self.rng.choice(_TEXTS)
                if key not in properties:
                    made[key] = self.value(extra, depth + 1)
        return made


def _is_uuid(text: str) -> bool:
    try:
        return len(text) == 36 and uuid.UUID(text) is not None
    except ValueError:
        return False
