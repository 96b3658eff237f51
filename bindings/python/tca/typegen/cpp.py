"""C++ host types: structs with to/from JSON, for `tca.hpp` (C++17).

    #include "counter.hpp"  // python -m tca types counter --lang cpp -o counter.hpp

    tca::Store store(counter::FEATURE);
    counter::send(store, counter::Action::incrementButtonTapped());
    counter::State state = counter::state(store);

Each struct is a struct (members named as the JSON names them; one the library may leave out,
or a nullable one, is a `std::optional`), a string enum an `enum class`, an enum of cases a
struct holding a `std::variant` of one struct per case (`Action::SetCount{5}`) with a factory
named as the case (`Action::setCount(5)`). Every struct has `from_json`, `to_json` and
`write_json`, built on `tca::members`, `tca::items`, `tca::quote` and `tca::unquote`; bad JSON
throws `tca::Error` (`TCA_ERR_JSON_SHAPE`). Types that hold each other by value go through
`Indirect<T>`.
"""

from __future__ import annotations

import json
import re
from typing import AbstractSet, List, Optional as Opt, Set

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
)
from .text import cpp_string, header_lines

__all__ = ["generate"]

_KEYWORDS = set(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t "
    "char32_t class compl concept const consteval constexpr constinit const_cast continue "
    "co_await co_return co_yield decltype default delete do double dynamic_cast else enum "
    "explicit export extern false float for friend goto if inline int long mutable namespace new "
    "noexcept not not_eq nullptr operator or or_eq private protected public register "
    "reinterpret_cast requires return short signed sizeof static static_assert static_cast "
    "struct switch template this thread_local throw true try typedef typeid typename union "
    "unsigned using virtual void volatile wchar_t while xor xor_eq final override import module "
    "NULL errno assert".split()
)
_MEMBER_FUNCTIONS = {"from_json", "to_json", "write_json"}


def generate(feature: Feature, command: str) -> str:
    return _Writer(feature).module(command)


def identifier(name: str, taken: AbstractSet[str] = frozenset()) -> str:
    """A C++ identifier for `name`: other characters as `_`, keywords and `taken` names with a
    trailing `_`; never `_` then an uppercase letter nor two underscores (reserved)."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", name) or "_"
    text = re.sub(r"__+", "_", text)
    if text[0].isdigit() or re.match(r"_[A-Z]", text):
        text = "v" + text
    while text in _KEYWORDS or text in taken:
        text += "_"
    return text


def _unique(names: List[str]) -> List[str]:
    seen: Set[str] = set()
    out = []
    for name in names:
        while name in seen:
            name += "_"
        seen.add(name)
        out.append(name)
    return out


def _member_literal(name: str) -> str:
    return cpp_string(json.dumps(name, ensure_ascii=False) + ":")


_SUPPORT = '''
/// A JSON text kept as it is: a value the schema says nothing more of.
struct RawJson {
  std::string text = "null";
};

/// A value held through a pointer, copied as a value: for types that hold each other.
template <typename T>
class Indirect {
 public:
  Indirect() = default;
  Indirect(T value) : value_(std::make_unique<T>(std::move(value))) {}
  Indirect(const Indirect &other)
      : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Indirect(Indirect &&) noexcept = default;
  Indirect &operator=(const Indirect &other) {
    value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Indirect &operator=(Indirect &&) noexcept = default;
  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return value_.get(); }
  const T *operator->() const { return value_.get(); }

 private:
  std::unique_ptr<T> value_;
};

namespace detail {

[[noreturn]] inline void shape(std::string_view expected, std::string_view json) {
  size_t cut = json.size() <= 20 ? json.size() : 20;
  while (cut > 0 && cut < json.size() && (static_cast<unsigned char>(json[cut]) & 0xC0) == 0x80)
    cut--;
  std::string shown = tca::quote(json.substr(0, cut));
  if (cut < json.size()) shown.insert(shown.size() - 1, "\\xE2\\x80\\xA6");
  throw tca::Error(TCA_ERR_JSON_SHAPE,
                   "expected " + std::string(expected) + ", found " + shown);
}

[[noreturn]] inline void missing(std::string_view owner, std::string_view member) {
  throw tca::Error(TCA_ERR_JSON_SHAPE,
                   std::string(owner) + ": missing member " + tca::quote(member));
}

inline void member(std::string &out, bool &first, std::string_view name) {
  if (!first) out += ',';
  first = false;
  out += name;
}

/// The case an enum's JSON names, and its payload's text (none: a bare name).
inline std::pair<std::string, std::optional<std::string>> case_of(std::string_view json) {
  size_t start = json.find_first_not_of(" \\t\\r\\n");
  if (start != std::string_view::npos && json[start] == '"') return {tca::unquote(json), {}};
  auto members = tca::members(json);
  if (members.size() != 1) shape("a case: a name, or an object of one member", json);
  return {std::move(members[0].first), std::move(members[0].second)};
}

/// A case's one unlabeled value: `_0` of the synthesized form, or the bare value; none for `{}`
/// (an optional's nil) or a bare name.
inline std::optional<std::string> single(const std::optional<std::string> &payload) {
  if (!payload || payload->empty() || (*payload)[0] != '{') return payload;
  auto members = tca::members(*payload);
  if (members.empty()) return std::nullopt;
  if (members.size() == 1 && members[0].first == "_0") return std::move(members[0].second);
  return payload;
}

/// The members of a case's labeled payload (none for a bare name).
inline std::vector<std::pair<std::string, std::string>> labeled(
    const std::optional<std::string> &payload) {
  if (!payload) return {};
  return tca::members(*payload);
}

/// Reads and writes a type's JSON text: a struct of this file through its from_json and
/// write_json, the others below.
template <typename T>
struct Codec {
  static T read(std::string_view json) { return T::from_json(json); }
  static void write(std::string &out, const T &value) { value.write_json(out); }
};

template <>
struct Codec<bool> {
  static bool read(std::string_view json) {
    if (json == "true") return true;
    if (json == "false") return false;
    shape("a boolean", json);
  }
  static void write(std::string &out, bool value) { out += value ? "true" : "false"; }
};

template <typename Integer>
struct IntegerCodec {
  static Integer read(std::string_view json) {
    Integer value = 0;
    auto [end, error] = std::from_chars(json.data(), json.data() + json.size(), value);
    if (error != std::errc() || end != json.data() + json.size()) shape("an integer", json);
    return value;
  }
  static void write(std::string &out, Integer value) { out += std::to_string(value); }
};

template <>
struct Codec<int64_t> : IntegerCodec<int64_t> {};
template <>
struct Codec<uint64_t> : IntegerCodec<uint64_t> {};

template <>
struct Codec<double> {
  static double read(std::string_view json) {
    double value = 0;
    auto [end, error] = std::from_chars(json.data(), json.data() + json.size(), value);
    if (error != std::errc() || end != json.data() + json.size() || !std::isfinite(value))
      shape("a number", json);
    return value;
  }
  static void write(std::string &out, double value) {
    if (!std::isfinite(value))
      throw tca::Error(TCA_ERR_UNENCODABLE, "a number that is not finite cannot be JSON");
    char text[32];
    auto result = std::to_chars(text, text + sizeof text, value);
    out.append(text, result.ptr);
  }
};

template <>
struct Codec<std::string> {
  static std::string read(std::string_view json) { return tca::unquote(json); }
  static void write(std::string &out, const std::string &value) { out += tca::quote(value); }
};

template <>
struct Codec<RawJson> {
  static RawJson read(std::string_view json) { return RawJson{std::string(json)}; }
  static void write(std::string &out, const RawJson &value) { out += value.text; }
};

template <typename T>
struct Codec<std::optional<T>> {
  static std::optional<T> read(std::string_view json) {
    if (json == "null") return std::nullopt;
    return Codec<T>::read(json);
  }
  static void write(std::string &out, const std::optional<T> &value) {
    if (value)
      Codec<T>::write(out, *value);
    else
      out += "null";
  }
};

template <typename T>
struct Codec<Indirect<T>> {
  static Indirect<T> read(std::string_view json) { return Indirect<T>(Codec<T>::read(json)); }
  static void write(std::string &out, const Indirect<T> &value) { Codec<T>::write(out, *value); }
};

template <typename T>
struct Codec<std::vector<T>> {
  static std::vector<T> read(std::string_view json) {
    std::vector<T> values;
    for (const std::string &item : tca::items(json)) values.push_back(Codec<T>::read(item));
    return values;
  }
  static void write(std::string &out, const std::vector<T> &values) {
    out += '[';
    for (size_t i = 0; i < values.size(); i++) {
      if (i > 0) out += ',';
      Codec<T>::write(out, values[i]);
    }
    out += ']';
  }
};

template <typename T>
struct Codec<std::map<std::string, T>> {
  static std::map<std::string, T> read(std::string_view json) {
    std::map<std::string, T> values;
    for (const auto &[key, value] : tca::members(json)) values[key] = Codec<T>::read(value);
    return values;
  }
  static void write(std::string &out, const std::map<std::string, T> &values) {
    bool first = true;
    out += '{';
    for (const auto &[key, value] : values) {
      member(out, first, tca::quote(key) + ":");
      Codec<T>::write(out, value);
    }
    out += '}';
  }
};

template <typename T>
struct Codec<std::map<int64_t, T>> {
  static std::map<int64_t, T> read(std::string_view json) {
    std::map<int64_t, T> values;
    for (const auto &[key, value] : tca::members(json))
      values[Codec<int64_t>::read(key)] = Codec<T>::read(value);
    return values;
  }
  static void write(std::string &out, const std::map<int64_t, T> &values) {
    bool first = true;
    out += '{';
    for (const auto &[key, value] : values) {
      member(out, first, "\\"" + std::to_string(key) + "\\":");
      Codec<T>::write(out, value);
    }
    out += '}';
  }
};

}  // namespace detail
'''


class _Writer:
    def __init__(self, feature: Feature) -> None:
        self.feature = feature
        self.boxed = feature.recursive()
        self.namespace = identifier(feature.name, {"tca", "std", "detail"})

    def type(self, t: Type, holder: Opt[str] = None) -> str:
        if isinstance(t, Scalar):
            if t.kind == "integer":
                return "uint64_t" if t.unsigned else "int64_t"
            return {"boolean": "bool", "number": "double"}.get(t.kind, "std::string")
        if isinstance(t, AnyJSON):
            return "RawJson"
        if isinstance(t, Optional):
            return f"std::optional<{self.type(t.inner, holder)}>"
        if isinstance(t, Array):
            return f"std::vector<{self.type(t.item)}>"
        if isinstance(t, Map):
            key = "int64_t" if t.int_keys else "std::string"
            return f"std::map<{key}, {self.type(t.value)}>"
        if isinstance(t, Named):
            if holder is not None and (holder, t.name) in self.boxed:
                return f"Indirect<{t.name}>"
            return t.name
        raise SchemaError(f"no C++ type for {t!r}")

    def field_type(self, t: Type, required: bool, holder: str) -> str:
        if required or isinstance(t, Optional):
            return self.type(t, holder)
        return f"std::optional<{self.type(t, holder)}>"

    @staticmethod
    def initializer(cpp_type: str) -> str:
        if cpp_type in ("int64_t", "uint64_t", "double"):
            return " = 0"
        if cpp_type == "bool":
            return " = false"
        return ""

    def module(self, command: str) -> str:
        f = self.feature
        guard = "TCA_TYPES_" + re.sub(r"[^A-Za-z0-9]", "_", f.name).upper() + "_HPP"
        lines = [f"// Host types of the libtca feature {json.dumps(f.name)}.", "//"]
        lines += ["// " + line for line in header_lines(f, command)]
        lines += [
            "//",
            f"//     {self.namespace}::send(store, {self.namespace}::Action::<case>(payload));",
            f"//     {self.namespace}::State state = {self.namespace}::state(store);",
            f"#ifndef {guard}",
            f"#define {guard}",
            "",
            '#include "tca.hpp"',
            "",
            "#include <charconv>",
            "#include <cmath>",
            "#include <cstdint>",
            "#include <map>",
            "#include <memory>",
            "#include <optional>",
            "#include <string>",
            "#include <string_view>",
            "#include <utility>",
            "#include <variant>",
            "#include <vector>",
            "",
            f"namespace {self.namespace} {{",
            "",
            "/// The feature's name: `tca::Store store(FEATURE)`.",
            f"inline constexpr std::string_view FEATURE = {cpp_string(f.name)};",
        ]
        lines += _SUPPORT.split("\n")
        structs = [
            name for name, d in f.definitions.items() if not isinstance(d, StringEnum)
        ]
        if structs:
            lines += [f"struct {name};" for name in structs] + [""]
        boxed_pairs = self.boxed
        for name in f.ordered(boxed_pairs):
            definition = f.definitions[name]
            if isinstance(definition, StringEnum):
                lines += self.string_enum(definition)
            elif isinstance(definition, Struct):
                lines += self.struct_declaration(definition)
            else:
                lines += self.action_declaration(definition)
            lines.append("")
        for root, member in (("State", f.state), ("Action", f.action)):
            if not (isinstance(member, Named) and member.name == root):
                lines += [f"using {root} = {self.type(member)};", ""]
        for name, definition in f.definitions.items():
            if isinstance(definition, Struct):
                lines += self.struct_functions(definition)
            elif isinstance(definition, ActionEnum):
                lines += self.action_functions(definition)
            else:
                continue
            lines.append("")
        lines += [
            "/// Sends `action` to `store`, a store of this feature.",
            "inline void send(tca::Store &store, const Action &action) {",
            "  store.send(action.to_json());",
            "}",
            "",
            "/// The state of `store`, a store of this feature.",
            "inline State state(const tca::Store &store) {",
            "  return detail::Codec<State>::read(store.state());",
            "}",
            "",
            f"}}  // namespace {self.namespace}",
            "",
            f"#endif  // {guard}",
        ]
        return "\n".join(lines) + "\n"

    # ---- string enums ----

    def string_enum(self, e: StringEnum) -> List[str]:
        names = _unique([identifier(v) for v in e.values])
        lines = [f"/// `{e.title}`.", f"enum class {e.name} {{ {', '.join(names)} }};", ""]
        lines += [
            "namespace detail {",
            "template <>",
            f"struct Codec<{e.name}> {{",
            f"  static {e.name} read(std::string_view json) {{",
            "    std::string text = tca::unquote(json);",
        ]
        for value, name in zip(e.values, names):
            lines.append(f"    if (text == {cpp_string(value)}) return {e.name}::{name};")
        expected = "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in e.values)
        lines += [
            f"    shape({cpp_string(expected)}, json);",
            "  }",
            f"  static void write(std::string &out, {e.name} value) {{",
            "    switch (value) {",
        ]
        for value, name in zip(e.values, names):
            lines.append(
                f"      case {e.name}::{name}: out += "
                f"{cpp_string(json.dumps(value, ensure_ascii=False))}; return;"
            )
        lines += ["    }", "  }", "};", "}  // namespace detail"]
        return lines

    # ---- structs ----

    def member_names(self, s: Struct) -> List[str]:
        return _unique([identifier(f.json_name, _MEMBER_FUNCTIONS | {s.name}) for f in s.fields])

    def struct_declaration(self, s: Struct) -> List[str]:
        lines = [f"/// `{s.title}`.", f"struct {s.name} {{"]
        for field, name in zip(s.fields, self.member_names(s)):
            cpp_type = self.field_type(field.type, field.required, s.name)
            lines.append(f"  {cpp_type} {name}{self.initializer(cpp_type)};")
        lines += [
            "",
            "  /// The value of a JSON text; tca::Error (TCA_ERR_JSON_SHAPE) if it is not one.",
            f"  static {s.name} from_json(std::string_view json);",
            "  /// The value's JSON text.",
            "  std::string to_json() const;",
            "  void write_json(std::string &out) const;",
            "};",
        ]
        return lines

    def read_members(
        self, target: str, source: str, fields: List[Field], names: List[str], types: List[str],
        owner: str,
    ) -> List[str]:
        lines = []
        required = [(f, n) for f, n in zip(fields, names) if f.required]
        for _, name in required:
            lines.append(f"  bool has_{name} = false;")
        if fields:
            lines.append(f"  for (const auto &[name, value] : {source}) {{")
            keyword = "if"
            for field, name, cpp_type in zip(fields, names, types):
                read = f"{target}{name} = detail::Codec<{cpp_type}>::read(value);"
                if field.required:
                    read += f" has_{name} = true;"
                lines.append(f"    {keyword} (name == {cpp_string(field.json_name)}) {{ {read} }}")
                keyword = "else if"
            lines.append("  }")
        else:
            lines.append(f"  (void){source};")
        for field, name in required:
            lines.append(
                f"  if (!has_{name}) detail::missing({cpp_string(owner)}, "
                f"{cpp_string(field.json_name)});"
            )
        return lines

    @staticmethod
    def write_members(
        fields: List[Field], names: List[str], types: List[str], prefix: str, indent: str
    ) -> List[str]:
        if not fields:
            return []
        lines = [f"{indent}bool first = true;"]
        for field, name, cpp_type in zip(fields, names, types):
            key = _member_literal(field.json_name)
            if field.required:
                lines.append(f"{indent}detail::member(out, first, {key});")
                lines.append(f"{indent}detail::Codec<{cpp_type}>::write(out, {prefix}{name});")
            else:
                inner = cpp_type[len("std::optional<"):-1]
                lines.append(f"{indent}if ({prefix}{name}) {{")
                lines.append(f"{indent}  detail::member(out, first, {key});")
                lines.append(f"{indent}  detail::Codec<{inner}>::write(out, *{prefix}{name});")
                lines.append(f"{indent}}}")
        return lines

    def struct_functions(self, s: Struct) -> List[str]:
        names = self.member_names(s)
        types = [self.field_type(f.type, f.required, s.name) for f in s.fields]
        lines = [f"inline {s.name} {s.name}::from_json(std::string_view json) {{"]
        lines.append(f"  {s.name} result;")
        lines += self.read_members("result.", "tca::members(json)", s.fields, names, types,
                                   s.title)
        lines += ["  return result;", "}", ""]
        lines += [f"inline void {s.name}::write_json(std::string &out) const {{", "  out += '{';"]
        lines += self.write_members(s.fields, names, types, "", "  ")
        lines += ["  out += '}';", "}", ""]
        lines += self.to_json(s.name)
        return lines

    @staticmethod
    def to_json(name: str) -> List[str]:
        return [
            f"inline std::string {name}::to_json() const {{",
            "  std::string out;",
            "  write_json(out);",
            "  return out;",
            "}",
        ]

    # ---- enums of cases ----

    def case_names(self, a: ActionEnum) -> List[str]:
        """The structs of the cases: `SetCount` for `setCount`."""
        factories = {identifier(c.name) for c in a.cases}
        names = []
        for case in a.cases:
            name = identifier(pascal(case.name), _MEMBER_FUNCTIONS | {a.name, "value"})
            while name in factories or name in names:
                name += "Case"
            names.append(name)
        return names

    def factory(self, case: Case, taken: Set[str]) -> str:
        return identifier(case.name, _MEMBER_FUNCTIONS | taken)

    @staticmethod
    def param_names(case: Case, struct: str) -> List[str]:
        return _unique(
            [
                identifier(p.label, {struct}) if p.label is not None else f"_{i}"
                for i, p in enumerate(case.params)
            ]
        )

    def action_declaration(self, a: ActionEnum) -> List[str]:
        structs = self.case_names(a)
        taken = set(structs) | {a.name, "value"}
        lines = [f"/// `{a.title}`: one of its cases, `value`.", f"struct {a.name} {{"]
        for case, struct in zip(a.cases, structs):
            members = []
            for name, param in zip(self.param_names(case, struct), case.params):
                cpp_type = self.type(param.type, a.name)
                members.append(f"{cpp_type} {name}{self.initializer(cpp_type)};")
            lines.append(f"  /// {json.dumps(case.name, ensure_ascii=False)}")
            body = " " + " ".join(members) + " " if members else ""
            lines.append(f"  struct {struct} {{{body}}};")
        if a.cases:
            lines.append(f"  std::variant<{', '.join(structs)}> value;")
        lines.append("")
        for case, struct in zip(a.cases, structs):
            params = ", ".join(
                f"{self.type(p.type, a.name)} {n}"
                for n, p in zip(self.param_names(case, struct), case.params)
            )
            lines.append(f"  static {a.name} {self.factory(case, taken)}({params});")
        lines += [
            "  /// The value of a JSON text (any form the library reads); tca::Error",
            "  /// (TCA_ERR_JSON_SHAPE) if it is not one.",
            f"  static {a.name} from_json(std::string_view json);",
            "  /// The value's JSON text: the synthesized form (`{\"setCount\":{\"_0\":5}}`).",
            "  std::string to_json() const;",
            "  void write_json(std::string &out) const;",
            "};",
        ]
        return lines

    def action_functions(self, a: ActionEnum) -> List[str]:
        structs = self.case_names(a)
        taken = set(structs) | {a.name, "value"}
        lines: List[str] = []
        for case, struct in zip(a.cases, structs):
            names = self.param_names(case, struct)
            params = ", ".join(
                f"{self.type(p.type, a.name)} {n}" for n, p in zip(names, case.params)
            )
            moved = ", ".join(f"std::move({n})" for n in names)
            lines += [
                f"inline {a.name} {a.name}::{self.factory(case, taken)}({params}) {{",
                f"  return {a.name}{{{struct}{{{moved}}}}};",
                "}",
                "",
            ]
        lines.append(f"inline {a.name} {a.name}::from_json(std::string_view json) {{")
        if a.cases:
            uses_payload = any(case.params for case in a.cases)
            lines.append(
                "  auto [name, payload] = detail::case_of(json);"
                if uses_payload
                else "  std::string name = detail::case_of(json).first;"
            )
        else:
            lines.append("  detail::case_of(json);")
        for case, struct in zip(a.cases, structs):
            names = self.param_names(case, struct)
            label = cpp_string(case.name)
            if not case.params:
                lines.append(f"  if (name == {label}) return {a.name}{{{struct}{{}}}};")
            elif case.single:
                param = case.params[0]
                cpp_type = self.type(param.type, a.name)
                lines.append(f"  if (name == {label}) {{")
                lines.append("    std::optional<std::string> text = detail::single(payload);")
                if isinstance(param.type, Optional):
                    read = f"text ? detail::Codec<{cpp_type}>::read(*text) : std::nullopt"
                else:
                    read = f'detail::Codec<{cpp_type}>::read(text ? *text : "{{}}")'
                lines.append(f"    return {a.name}{{{struct}{{{read}}}}};")
                lines.append("  }")
            else:
                fields = [
                    Field(p.key(i), p.type, not isinstance(p.type, Optional))
                    for i, p in enumerate(case.params)
                ]
                types = [self.type(p.type, a.name) for p in case.params]
                lines.append(f"  if (name == {label}) {{")
                lines.append(f"    {a.name}::{struct} result;")
                body = self.read_members(
                    "result.", "detail::labeled(payload)", fields, names, types,
                    f"{a.title}.{case.name}",
                )
                lines += ["  " + line for line in body]
                lines.append(f"    return {a.name}{{std::move(result)}};")
                lines.append("  }")
        lines += [f"  detail::shape({cpp_string('a case of ' + a.title)}, json);", "}", ""]
        lines.append(f"inline void {a.name}::write_json(std::string &out) const {{")
        for case, struct in zip(a.cases, structs):
            opening = cpp_string("{" + json.dumps(case.name, ensure_ascii=False) + ":{")
            if not case.params:
                lines.append(f"  if (std::holds_alternative<{struct}>(value)) {{")
                lines.append(f"    out += {opening[:-1]}}}}}\";")
                lines.append("    return;")
                lines.append("  }")
                continue
            names = self.param_names(case, struct)
            # NB: an optional single value that is nil is written `{}`, as the library does.
            fields = [
                Field(p.key(i), p.type, not (case.single and isinstance(p.type, Optional)))
                for i, p in enumerate(case.params)
            ]
            types = [self.type(p.type, a.name) for p in case.params]
            lines.append(f"  if (const auto *c = std::get_if<{struct}>(&value)) {{")
            lines.append(f"    out += {opening};")
            lines += self.write_members(fields, names, types, "c->", "    ")
            lines += ['    out += "}}";', "    return;", "  }"]
        if not a.cases:
            lines.append("  (void)out;")
        lines += ["}", ""]
        lines += self.to_json(a.name)
        return lines
