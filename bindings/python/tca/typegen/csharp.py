"""C# host types: classes with their JSON, and an `Action` of factories, for the C# binding.

    // python -m tca types counter --lang csharp -o Counter.cs; mcs -r:Tca.dll … Counter.cs
    using (var store = new Tca.Store(Counter.Feature.Name))
    {
        store.Send(Counter.Action.IncrementButtonTapped());
        Counter.State state = Counter.State.Read(store);
    }

Everything is in a namespace named after the feature (`counter` is `Counter`). Each struct is a
sealed class of properties (PascalCase; a nullable or omitted member is `null`, `long?` for a
number), a string enum an `enum`, an enum of cases an abstract class with one nested sealed class
per case (`Action.SetCountCase`, its values as properties) and a static factory named as the case
in PascalCase (`Action.SetCount(5)`). Every class has `FromJson` and `ToJson`; bad JSON throws
`Tca.TcaException` (`Status.JsonShape`). `Feature.Send(store, action)` is an extension method:
`store.Send(action)`. Written for Mono's `mcs` (C# 6): no records, no nullable references.
"""

from __future__ import annotations

import json
import re
from typing import AbstractSet, Dict, List, Set

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
    camel,
    pascal,
)
from .text import csharp_string, header_lines

__all__ = ["generate"]

_KEYWORDS = set(
    "abstract as base bool break byte case catch char checked class const continue decimal "
    "default delegate do double else enum event explicit extern false finally fixed float for "
    "foreach goto if implicit in int interface internal is lock long namespace new null object "
    "operator out override params private protected public readonly ref return sbyte sealed "
    "short sizeof stackalloc static string struct switch this throw true try typeof uint ulong "
    "unchecked unsafe ushort using virtual void volatile while".split()
)
_MEMBERS = {"FromJson", "ToJson", "Write", "Read", "CaseName", "Equals", "GetHashCode",
            "ToString", "GetType", "MemberwiseClone", "Finalize"}


def generate(feature: Feature, command: str) -> str:
    return _Writer(feature).module(command)


def _pascal(name: str, taken: AbstractSet[str] = frozenset()) -> str:
    text = re.sub(r"[^A-Za-z0-9_]", "_", pascal(name))
    while text in taken or text in _KEYWORDS:
        text += "_"
    return text


def _local(name: str) -> str:
    text = re.sub(r"[^A-Za-z0-9_]", "_", camel(name))
    if text in ("o", "json", "first", "member", "name", "payload", "text", "result"):
        text += "_"
    return "@" + text if text in _KEYWORDS else text


def _unique(names: List[str]) -> List[str]:
    seen: Set[str] = set()
    out = []
    for name in names:
        while name in seen:
            name += "_"
        seen.add(name)
        out.append(name)
    return out


_SUPPORT = r'''
    /// <summary>A JSON text kept as it is: a value the schema says nothing more of.</summary>
    public sealed class RawJson
    {
        public RawJson(string text) { Text = text; }
        public string Text { get; private set; }
    }

    /// <summary>The JSON reading and writing of this file's types.</summary>
    internal static class JsonText
    {
        public static Tca.TcaException Shape(string expected, string json)
        {
            string shown = json.Length > 20 ? json.Substring(0, 20) + "\u2026" : json;
            return new Tca.TcaException(Tca.Status.JsonShape,
                "expected " + expected + ", found " + Tca.Json.Quote(shown));
        }

        public static Tca.TcaException Missing(string owner, string member)
        {
            return new Tca.TcaException(Tca.Status.JsonShape,
                owner + ": missing member " + Tca.Json.Quote(member));
        }

        public static List<KeyValuePair<string, string>> Members(string json)
        {
            var reader = new Reader(json);
            var members = new List<KeyValuePair<string, string>>();
            reader.Object(members);
            reader.End();
            return members;
        }

        public static List<string> Items(string json)
        {
            var reader = new Reader(json);
            var items = new List<string>();
            reader.Array(items);
            reader.End();
            return items;
        }

        public static string String(string json)
        {
            var reader = new Reader(json);
            string text = reader.String();
            reader.End();
            return text;
        }

        public static bool IsNull(string json) { return json.Trim() == "null"; }

        public static bool Bool(string json)
        {
            string text = json.Trim();
            if (text == "true") return true;
            if (text == "false") return false;
            throw Shape("a boolean", json);
        }

        public static long Long(string json)
        {
            long value;
            if (!long.TryParse(json.Trim(), NumberStyles.AllowLeadingSign,
                    CultureInfo.InvariantCulture, out value))
                throw Shape("an integer", json);
            return value;
        }

        public static ulong ULong(string json)
        {
            ulong value;
            if (!ulong.TryParse(json.Trim(), NumberStyles.None, CultureInfo.InvariantCulture,
                    out value))
                throw Shape("an integer from 0", json);
            return value;
        }

        public static double Double(string json)
        {
            double value;
            if (!double.TryParse(json.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture,
                    out value) || double.IsNaN(value) || double.IsInfinity(value))
                throw Shape("a number", json);
            return value;
        }

        public static Dictionary<string, T> Map<T>(string json, System.Func<string, T> read)
        {
            var map = new Dictionary<string, T>();
            foreach (var member in Members(json)) map[member.Key] = read(member.Value);
            return map;
        }

        public static Dictionary<long, T> IntMap<T>(string json, System.Func<string, T> read)
        {
            var map = new Dictionary<long, T>();
            foreach (var member in Members(json)) map[Long(member.Key)] = read(member.Value);
            return map;
        }

        /// <summary>The case an enum's JSON names, and its payload (null: a bare name).
        /// </summary>
        public static void CaseOf(string json, out string name, out string payload)
        {
            if (json.TrimStart().StartsWith("\""))
            {
                name = String(json);
                payload = null;
                return;
            }
            var members = Members(json);
            if (members.Count != 1)
                throw Shape("a case: a name, or an object of one member", json);
            name = members[0].Key;
            payload = members[0].Value;
        }

        /// <summary>A case's one unlabeled value: _0 of the synthesized form, or the bare
        /// value; null for {} (an optional's nil) or a bare name.</summary>
        public static string Single(string payload)
        {
            if (payload == null || !payload.StartsWith("{")) return payload;
            var members = Members(payload);
            if (members.Count == 0) return null;
            if (members.Count == 1 && members[0].Key == "_0") return members[0].Value;
            return payload;
        }

        /// <summary>The members of a case's labeled payload (none for a bare name).</summary>
        public static List<KeyValuePair<string, string>> Labeled(string payload)
        {
            return payload == null ? new List<KeyValuePair<string, string>>() : Members(payload);
        }

        public static void Member(StringBuilder o, ref bool first, string name)
        {
            if (!first) o.Append(',');
            first = false;
            o.Append(name);
        }

        public static void WriteString(StringBuilder o, string value)
        {
            o.Append(value == null ? "null" : Tca.Json.Quote(value));
        }

        public static void WriteDouble(StringBuilder o, double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
                throw new Tca.TcaException(Tca.Status.Unencodable,
                    "a number that is not finite cannot be JSON");
            o.Append(value.ToString("R", CultureInfo.InvariantCulture));
        }

        public static void WriteList<T>(StringBuilder o, List<T> values,
            System.Action<StringBuilder, T> write)
        {
            if (values == null) { o.Append("null"); return; }
            o.Append('[');
            for (int i = 0; i < values.Count; i++)
            {
                if (i > 0) o.Append(',');
                write(o, values[i]);
            }
            o.Append(']');
        }

        public static void WriteMap<K, T>(StringBuilder o, Dictionary<K, T> values,
            System.Action<StringBuilder, T> write)
        {
            if (values == null) { o.Append("null"); return; }
            bool first = true;
            o.Append('{');
            foreach (var member in values)
            {
                Member(o, ref first, Tca.Json.Quote(
                    System.Convert.ToString(member.Key, CultureInfo.InvariantCulture)) + ":");
                write(o, member.Value);
            }
            o.Append('}');
        }

        /// <summary>Reads JSON text strictly, handing out the text of each value.</summary>
        sealed class Reader
        {
            readonly string json;
            int at;

            public Reader(string json) { this.json = json ?? ""; }

            Tca.TcaException Fail(string expected)
            {
                return new Tca.TcaException(Tca.Status.JsonSyntax,
                    "expected " + expected + " at character " + at);
            }

            char Peek()
            {
                while (at < json.Length && (json[at] == ' ' || json[at] == '\n' ||
                    json[at] == '\t' || json[at] == '\r')) at++;
                return at < json.Length ? json[at] : '\0';
            }

            bool NextIs(char c)
            {
                if (Peek() != c) return false;
                at++;
                return true;
            }

            void Expect(char c) { if (!NextIs(c)) throw Fail("'" + c + "'"); }

            public void End() { if (Peek() != '\0' || at != json.Length) throw Fail("the end"); }

            public void Object(List<KeyValuePair<string, string>> members)
            {
                if (Peek() != '{') throw Shape("an object", json.Substring(at));
                at++;
                if (NextIs('}')) return;
                do
                {
                    string name = String();
                    Expect(':');
                    members.Add(new KeyValuePair<string, string>(name, Value(0)));
                } while (NextIs(','));
                Expect('}');
            }

            public void Array(List<string> items)
            {
                if (Peek() != '[') throw Shape("an array", json.Substring(at));
                at++;
                if (NextIs(']')) return;
                do { items.Add(Value(0)); } while (NextIs(','));
                Expect(']');
            }

            string Value(int depth)
            {
                if (depth > 512) throw Fail("nesting at most 512 deep");
                char c = Peek();
                int start = at;
                if (c == '{')
                {
                    at++;
                    if (!NextIs('}'))
                    {
                        do { String(); Expect(':'); Value(depth + 1); } while (NextIs(','));
                        Expect('}');
                    }
                }
                else if (c == '[')
                {
                    at++;
                    if (!NextIs(']'))
                    {
                        do { Value(depth + 1); } while (NextIs(','));
                        Expect(']');
                    }
                }
                else if (c == '"') String();
                else if (Word("true") || Word("false") || Word("null")) { }
                else Number();
                return json.Substring(start, at - start);
            }

            bool Word(string word)
            {
                if (string.CompareOrdinal(json, at, word, 0, word.Length) != 0) return false;
                at += word.Length;
                return true;
            }

            void Number()
            {
                int start = at;
                if (at < json.Length && json[at] == '-') at++;
                int digits = at;
                while (at < json.Length && char.IsDigit(json[at])) at++;
                if (at == digits) throw Fail("a value");
                if (at - digits > 1 && json[digits] == '0') throw Fail("no leading zero");
                if (at < json.Length && json[at] == '.')
                {
                    at++;
                    int fraction = at;
                    while (at < json.Length && char.IsDigit(json[at])) at++;
                    if (at == fraction) throw Fail("a digit");
                }
                if (at < json.Length && (json[at] == 'e' || json[at] == 'E'))
                {
                    at++;
                    if (at < json.Length && (json[at] == '+' || json[at] == '-')) at++;
                    int exponent = at;
                    while (at < json.Length && char.IsDigit(json[at])) at++;
                    if (at == exponent) throw Fail("a digit");
                }
                if (at == start) throw Fail("a value");
            }

            public string String()
            {
                if (Peek() != '"') throw Shape("a string", json.Substring(at));
                at++;
                var text = new StringBuilder();
                while (true)
                {
                    if (at >= json.Length) throw Fail("the end of a string");
                    char c = json[at++];
                    if (c == '"') return text.ToString();
                    if (c < ' ') throw Fail("no control character in a string");
                    if (c != '\\') { text.Append(c); continue; }
                    if (at >= json.Length) throw Fail("an escape");
                    char e = json[at++];
                    switch (e)
                    {
                        case 'n': text.Append('\n'); break;
                        case 't': text.Append('\t'); break;
                        case 'r': text.Append('\r'); break;
                        case 'b': text.Append('\b'); break;
                        case 'f': text.Append('\f'); break;
                        case '"': case '\\': case '/': text.Append(e); break;
                        case 'u':
                            int code;
                            if (at + 4 > json.Length || !int.TryParse(json.Substring(at, 4),
                                    NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture,
                                    out code))
                                throw Fail("4 hex digits");
                            text.Append((char)code);
                            at += 4;
                            break;
                        default: throw Fail("an escape");
                    }
                }
            }
        }
    }
'''


class _Writer:
    def __init__(self, feature: Feature) -> None:
        self.feature = feature
        self.namespace = _pascal(feature.name)
        taken = set(feature.definitions)
        self.feature_class = "Feature" if "Feature" not in taken else "FeatureInfo"
        self.codecs: Dict[str, str] = {}
        for name, definition in feature.definitions.items():
            if isinstance(definition, StringEnum):
                codec = name + "Json"
                while codec in taken:
                    codec += "_"
                taken.add(codec)
                self.codecs[name] = codec
        self.depth = 0

    # ---- types ----

    def is_value(self, t: Type) -> bool:
        if isinstance(t, Scalar):
            return not (t.kind == "string")
        return isinstance(t, Named) and isinstance(
            self.feature.definitions.get(t.name), StringEnum
        )

    def type(self, t: Type) -> str:
        if isinstance(t, Scalar):
            if t.kind == "integer":
                return "ulong" if t.unsigned else "long"
            return {"boolean": "bool", "number": "double"}.get(t.kind, "string")
        if isinstance(t, AnyJSON):
            return "RawJson"
        if isinstance(t, Optional):
            inner = self.type(t.inner)
            return inner + "?" if self.is_value(t.inner) else inner
        if isinstance(t, Array):
            return f"List<{self.type(t.item)}>"
        if isinstance(t, Map):
            return f"Dictionary<{'long' if t.int_keys else 'string'}, {self.type(t.value)}>"
        if isinstance(t, Named):
            return t.name
        raise SchemaError(f"no C# type for {t!r}")

    def field_type(self, t: Type, required: bool) -> Type:
        """The type a member is kept as: an omitted member is optional."""
        return t if required or isinstance(t, Optional) else Optional(t)

    def initializer(self, t: Type) -> str:
        if isinstance(t, Scalar) and t.kind == "string" and not t.values:
            return ' = "";'
        if isinstance(t, (Array, Map)):
            return f" = new {self.type(t)}();"
        return ""

    def lambda_name(self) -> str:
        self.depth += 1
        return f"x{self.depth}"

    def read(self, t: Type, source: str) -> str:
        """An expression: the value of type `t` from the JSON text `source` (a variable)."""
        if isinstance(t, Scalar):
            if t.kind == "integer":
                return f"JsonText.{'ULong' if t.unsigned else 'Long'}({source})"
            if t.kind == "boolean":
                return f"JsonText.Bool({source})"
            if t.kind == "number":
                return f"JsonText.Double({source})"
            return f"JsonText.String({source})"
        if isinstance(t, AnyJSON):
            return f"new RawJson({source}.Trim())"
        if isinstance(t, Optional):
            cast = f"({self.type(t)})" if self.is_value(t.inner) else f"({self.type(t)})"
            return f"(JsonText.IsNull({source}) ? {cast}null : {self.read(t.inner, source)})"
        if isinstance(t, Array):
            x = self.lambda_name()
            return f"JsonText.Items({source}).ConvertAll({x} => {self.read(t.item, x)})"
        if isinstance(t, Map):
            x = self.lambda_name()
            helper = "IntMap" if t.int_keys else "Map"
            return f"JsonText.{helper}({source}, {x} => {self.read(t.value, x)})"
        if isinstance(t, Named):
            if t.name in self.codecs:
                return f"{self.codecs[t.name]}.Read({source})"
            return f"{t.name}.FromJson({source})"
        raise SchemaError(f"no C# type for {t!r}")

    def write(self, t: Type, out: str, value: str) -> str:
        """A statement: appends the JSON of `value` (a variable or property) to `out`."""
        if isinstance(t, Scalar):
            if t.kind == "integer":
                return f"{out}.Append({value}.ToString(CultureInfo.InvariantCulture));"
            if t.kind == "boolean":
                return f'{out}.Append({value} ? "true" : "false");'
            if t.kind == "number":
                return f"JsonText.WriteDouble({out}, {value});"
            return f"JsonText.WriteString({out}, {value});"
        if isinstance(t, AnyJSON):
            return f'{out}.Append({value} == null ? "null" : {value}.Text);'
        if isinstance(t, Optional):
            if self.is_value(t.inner):
                inner = self.write(t.inner, out, value + ".Value")
                return f'if ({value}.HasValue) {{ {inner} }} else {out}.Append("null");'
            inner = self.write(t.inner, out, value)
            return f'if ({value} == null) {out}.Append("null"); else {{ {inner} }}'
        if isinstance(t, (Array, Map)):
            inner_type = t.item if isinstance(t, Array) else t.value
            x = self.lambda_name()
            o = "o" + x[1:]
            helper = "WriteList" if isinstance(t, Array) else "WriteMap"
            return (
                f"JsonText.{helper}({out}, {value}, ({o}, {x}) => {{ "
                f"{self.write(inner_type, o, x)} }});"
            )
        if isinstance(t, Named):
            if t.name in self.codecs:
                return f"{self.codecs[t.name]}.Write({out}, {value});"
            return f'if ({value} == null) {out}.Append("null"); else {value}.Write({out});'
        raise SchemaError(f"no C# type for {t!r}")

    # ---- the file ----

    def module(self, command: str) -> str:
        f = self.feature
        lines = [f"// Host types of the libtca feature {json.dumps(f.name)}.", "//"]
        lines += ["// " + line for line in header_lines(f, command)]
        lines += [
            "//",
            f"//     store.Send({self.namespace}.Action.<Case>(payload));",
            f"//     {self.namespace}.State state = {self.namespace}.State.Read(store);",
            "// NB: no `using System;`: its Action would hide the feature's.",
            "using System.Collections.Generic;",
            "using System.Globalization;",
            "using System.Text;",
            "",
            f"namespace {self.namespace}",
            "{",
            "    /// <summary>The feature, and sending its actions to a store.</summary>",
            f"    public static class {self.feature_class}",
            "    {",
            "        /// <summary>The feature's name: new Tca.Store(Feature.Name).</summary>",
            f"        public const string Name = {csharp_string(f.name)};",
            "",
            "        /// <summary>Sends an action to a store of this feature.</summary>",
            "        public static void Send(this Tca.Store store, Action action)",
            "        {",
            "            store.Send(action.ToJson());",
            "        }",
            "    }",
        ]
        for definition in f.definitions.values():
            lines.append("")
            if isinstance(definition, Struct):
                lines += self.indent(self.struct(definition))
            elif isinstance(definition, StringEnum):
                lines += self.indent(self.string_enum(definition))
            else:
                lines += self.indent(self.action(definition))
        for root, member in (("State", f.state), ("Action", f.action)):
            if not (isinstance(member, Named) and member.name == root):
                raise SchemaError(f"the feature's {root.lower()} is not a named type")
        lines += _SUPPORT.rstrip("\n").split("\n")
        lines.append("}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def indent(lines: List[str]) -> List[str]:
        return ["    " + line if line else "" for line in lines]

    # ---- string enums ----

    def string_enum(self, e: StringEnum) -> List[str]:
        names = _unique([_pascal(v) for v in e.values])
        codec = self.codecs[e.name]
        lines = [f"/// <summary>{_doc(e.title)}.</summary>", f"public enum {e.name}", "{"]
        lines += [f"    {name}," for name in names]
        lines += ["}", "", f"internal static class {codec}", "{"]
        lines.append(f"    public static {e.name} Read(string json)")
        lines += ["    {", "        switch (JsonText.String(json))", "        {"]
        for value, name in zip(e.values, names):
            lines.append(f"            case {csharp_string(value)}: return {e.name}.{name};")
        expected = "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in e.values)
        lines += [
            f"            default: throw JsonText.Shape({csharp_string(expected)}, json);",
            "        }",
            "    }",
            "",
            f"    public static void Write(StringBuilder o, {e.name} value)",
            "    {",
            "        switch (value)",
            "        {",
        ]
        for value, name in zip(e.values, names):
            text = csharp_string(json.dumps(value, ensure_ascii=False))
            lines.append(f"            case {e.name}.{name}: o.Append({text}); break;")
        lines += ["        }", "    }", "}"]
        return lines

    # ---- classes ----

    def properties(
        self, names: List[str], owner: str, taken: AbstractSet[str] = frozenset()
    ) -> List[str]:
        return _unique([_pascal(n, _MEMBERS | {owner} | taken) for n in names])

    def struct(self, s: Struct) -> List[str]:
        names = self.properties([f.json_name for f in s.fields], s.name)
        types = [self.field_type(f.type, f.required) for f in s.fields]
        lines = [f"/// <summary>{_doc(s.title)}.</summary>", f"public sealed class {s.name}", "{"]
        for field, name, t in zip(s.fields, names, types):
            lines.append(f"    /// <summary>{_doc(field.json_name)}.</summary>")
            lines.append(f"    public {self.type(t)} {name} {{ get; set; }}{self.initializer(t)}")
        lines += [
            "",
            "    /// <summary>The value of a JSON text; Tca.TcaException (JsonShape) if it is not",
            "    /// one.</summary>",
            f"    public static {s.name} FromJson(string json)",
            "    {",
            f"        var result = new {s.name}();",
        ]
        lines += self.read_members("result.", "JsonText.Members(json)", s.fields, names, types,
                                   s.title, "        ")
        lines += ["        return result;", "    }", ""]
        if s.name == "State" and isinstance(self.feature.state, Named) and (
            self.feature.state.name == "State"
        ):
            lines += [
                "    /// <summary>The state of a store of this feature.</summary>",
                "    public static State Read(Tca.Store store)",
                "    {",
                "        return FromJson(store.State());",
                "    }",
                "",
            ]
        lines += self.to_json()
        lines += ["", "    internal void Write(StringBuilder o)", "    {"]
        lines += self.write_members(s.fields, names, types, "", "        ")
        lines += ["    }", "}"]
        return lines

    def read_members(
        self, target: str, source: str, fields: List[Field], names: List[str], types: List[Type],
        owner: str, indent: str,
    ) -> List[str]:
        lines = []
        flags = {name: "has_" + name.lstrip("@") for f, name in zip(fields, names) if f.required}
        for flag in flags.values():
            lines.append(f"{indent}bool {flag} = false;")
        if fields:
            lines.append(f"{indent}foreach (var member in {source})")
            lines.append(f"{indent}{{")
            lines.append(f"{indent}    switch (member.Key)")
            lines.append(f"{indent}    {{")
            for field, name, t in zip(fields, names, types):
                self.depth = 0
                read = self.read(t, "member.Value")
                mark = f" {flags[name]} = true;" if name in flags else ""
                lines.append(
                    f"{indent}        case {csharp_string(field.json_name)}: "
                    f"{target}{name} = {read};{mark} break;"
                )
            lines += [f"{indent}    }}", f"{indent}}}"]
        for field, name in zip(fields, names):
            if name in flags:
                lines.append(
                    f"{indent}if (!{flags[name]}) throw JsonText.Missing({csharp_string(owner)}, "
                    f"{csharp_string(field.json_name)});"
                )
        return lines

    def write_members(
        self, fields: List[Field], names: List[str], types: List[Type], prefix: str, indent: str,
        opening: str = "'{'", closing: str = "'}'",
    ) -> List[str]:
        lines = []
        if fields:
            lines.append(f"{indent}bool first = true;")
        lines.append(f"{indent}o.Append({opening});")
        for field, name, t in zip(fields, names, types):
            self.depth = 0
            key = csharp_string(json.dumps(field.json_name, ensure_ascii=False) + ":")
            value = prefix + name
            if field.required:
                lines.append(f"{indent}JsonText.Member(o, ref first, {key});")
                lines.append(f"{indent}{self.write(t, 'o', value)}")
            else:
                assert isinstance(t, Optional)
                test = f"{value}.HasValue" if self.is_value(t.inner) else f"{value} != null"
                inner = value + ".Value" if self.is_value(t.inner) else value
                lines.append(f"{indent}if ({test})")
                lines.append(f"{indent}{{")
                lines.append(f"{indent}    JsonText.Member(o, ref first, {key});")
                lines.append(f"{indent}    {self.write(t.inner, 'o', inner)}")
                lines.append(f"{indent}}}")
        lines.append(f"{indent}o.Append({closing});")
        return lines

    @staticmethod
    def to_json() -> List[str]:
        return [
            "    /// <summary>The value's JSON text.</summary>",
            "    public string ToJson()",
            "    {",
            "        var o = new StringBuilder();",
            "        Write(o);",
            "        return o.ToString();",
            "    }",
        ]

    # ---- enums of cases ----

    def case_classes(self, a: ActionEnum) -> List[str]:
        factories = self.factories(a)
        names = []
        for case in a.cases:
            name = _pascal(case.name, _MEMBERS | {a.name}) + "Case"
            while name in factories or name in names:
                name += "_"
            names.append(name)
        return names

    def factories(self, a: ActionEnum) -> List[str]:
        return _unique([_pascal(case.name, _MEMBERS | {a.name}) for case in a.cases])

    def case_properties(self, a: ActionEnum, case: Case, owner: str) -> List[str]:
        """The properties of a case's class: none may hide a factory of the enum's class."""
        raw = []
        for index, param in enumerate(case.params):
            if param.label is not None:
                raw.append(param.label)
            else:
                raw.append("value" if case.single else f"value{index}")
        taken = set(self.factories(a)) | set(self.case_classes(a)) | {a.name}
        return self.properties(raw, owner, taken)

    def action(self, a: ActionEnum) -> List[str]:
        classes = self.case_classes(a)
        factories = self.factories(a)
        lines = [
            f"/// <summary>{_doc(a.title)}: one of its cases, made by its factories.</summary>",
            f"public abstract class {a.name}",
            "{",
            f"    {a.name}() {{ }}",
            "",
            "    /// <summary>The case's name.</summary>",
            "    public abstract string CaseName { get; }",
            "",
        ]
        lines += self.to_json()
        lines += [
            "",
            "    internal abstract void Write(StringBuilder o);",
            "",
            "    /// <summary>The value of a JSON text (any form the library reads);",
            "    /// Tca.TcaException (JsonShape) if it is not one.</summary>",
            f"    public static {a.name} FromJson(string json)",
            "    {",
            "        string name, payload;",
            "        JsonText.CaseOf(json, out name, out payload);",
        ]
        if a.cases:
            lines += ["        switch (name)", "        {"]
            for case, cls in zip(a.cases, classes):
                lines += self.read_case(a, case, cls)
            lines.append("        }")
        lines += [
            f"        throw JsonText.Shape({csharp_string('a case of ' + a.title)}, json);",
            "    }",
        ]
        for case, cls, factory in zip(a.cases, classes, factories):
            props = self.case_properties(a, case, cls)
            params = [_local(p) for p in props]
            types = [self.type(p.type) for p in case.params]
            signature = ", ".join(f"{t} {n}" for t, n in zip(types, params))
            lines += [
                "",
                f"    /// <summary>{_doc(json.dumps(case.name, ensure_ascii=False))}.</summary>",
                f"    public static {a.name} {factory}({signature})",
                "    {",
                f"        return new {cls}({', '.join(params)});",
                "    }",
            ]
        for case, cls in zip(a.cases, classes):
            lines.append("")
            lines += self.indent(self.case_class(a, case, cls))
        lines.append("}")
        return lines

    def read_case(self, a: ActionEnum, case: Case, cls: str) -> List[str]:
        label = csharp_string(case.name)
        if not case.params:
            return [f"            case {label}: return new {cls}();"]
        lines = [f"            case {label}:", "            {"]
        if case.single:
            param = case.params[0]
            self.depth = 0
            lines.append("                string text = JsonText.Single(payload);")
            if isinstance(param.type, Optional):
                read = f"text == null ? null : {self.read(param.type, 'text')}"
                if self.is_value(param.type.inner):
                    read = f"text == null ? ({self.type(param.type)})null : " + self.read(
                        param.type, "text"
                    )
            else:
                lines.append('                if (text == null) text = "{}";')
                read = self.read(param.type, "text")
            lines.append(f"                return new {cls}({read});")
        else:
            props = self.case_properties(a, case, cls)
            fields = [
                Field(p.key(i), p.type, not isinstance(p.type, Optional))
                for i, p in enumerate(case.params)
            ]
            locals_ = [_local(p) for p in props]
            for local, param in zip(locals_, case.params):
                cs_type = self.type(param.type)
                lines.append(f"                {cs_type} {local} = default({cs_type});")
            body = self.read_members(
                "", "JsonText.Labeled(payload)", fields, locals_, [p.type for p in case.params],
                f"{a.title}.{case.name}", "                ",
            )
            lines += body
            lines.append(f"                return new {cls}({', '.join(locals_)});")
        lines.append("            }")
        return lines

    def case_class(self, a: ActionEnum, case: Case, cls: str) -> List[str]:
        props = self.case_properties(a, case, cls)
        params = [_local(p) for p in props]
        types = [self.type(p.type) for p in case.params]
        lines = [
            f"/// <summary>{_doc(json.dumps(case.name, ensure_ascii=False))}.</summary>",
            f"public sealed class {cls} : {a.name}",
            "{",
        ]
        if case.params:
            signature = ", ".join(f"{t} {n}" for t, n in zip(types, params))
            lines.append(f"    public {cls}({signature})")
            lines.append("    {")
            lines += [f"        {p} = {n};" for p, n in zip(props, params)]
            lines += ["    }", ""]
            for prop, t in zip(props, types):
                lines.append(f"    public {t} {prop} {{ get; private set; }}")
            lines.append("")
        lines.append(
            "    public override string CaseName { get { return "
            f"{csharp_string(case.name)}; }} }}"
        )
        lines += ["", "    internal override void Write(StringBuilder o)", "    {"]
        opening = csharp_string("{" + json.dumps(case.name, ensure_ascii=False) + ":{")
        if not case.params:
            lines.append(f"        o.Append({opening[:-1]}}}}}\");")
        else:
            # NB: an optional single value that is nil is written `{}`, as the library does.
            fields = [
                Field(p.key(i), p.type, not (case.single and isinstance(p.type, Optional)))
                for i, p in enumerate(case.params)
            ]
            lines += self.write_members(
                fields, props, [p.type for p in case.params], "", "        ", opening, '"}}"'
            )
        lines += ["    }", "}"]
        return lines


def _doc(text: str) -> str:
    """Text for an XML doc comment."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
