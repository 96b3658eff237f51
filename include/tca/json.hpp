// tca/json.hpp — part of tca.hpp: the little JSON a host needs without a JSON library. Strings
// in and out (quote, unquote), the items of an array and the members of an object as JSON texts
// (items, members), JSON Pointers (pointer_tokens) and JSON Patches (parse_patch). Everything
// returned is the caller's: std::strings, copied out of the text read.
#ifndef TCA_JSON_HPP
#define TCA_JSON_HPP

#include "error.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tca {

/// `text` as a JSON string, quoted and escaped: quote("a\"b") is "\"a\\\"b\"".
inline std::string quote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", c);
          out += escape;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace detail {

/// Reads JSON text strictly (RFC 8259; nesting up to 512, as the library), handing out the text
/// of each value it checked. Throws tca::Error: TCA_ERR_JSON_SYNTAX for text that is not JSON,
/// TCA_ERR_JSON_SHAPE for JSON of another type than expected; the message names `who`, the byte
/// and the start of the text.
class JsonReader {
 public:
  JsonReader(std::string_view json, const char *who) noexcept : json_(json), who_(who) {}

  /// Skips whitespace; the next byte, or '\0' at the end.
  char peek() noexcept {
    while (at_ < json_.size() && (json_[at_] == ' ' || json_[at_] == '\n' || json_[at_] == '\t' ||
                                  json_[at_] == '\r'))
      at_++;
    return at_ < json_.size() ? json_[at_] : '\0';
  }
  bool next_is(char c) noexcept {
    if (peek() != c) return false;
    at_++;
    return true;
  }
  void expect(char c) {
    if (!next_is(c)) fail(TCA_ERR_JSON_SYNTAX, std::string("'") + c + "'");
  }
  /// Nothing but whitespace is left.
  void end() {
    peek();
    if (at_ != json_.size()) fail(TCA_ERR_JSON_SYNTAX, "the end of the text");
  }

  /// One value, checked; its text (a view into the text read).
  std::string_view value(int depth = 0) {
    if (depth > 512) fail(TCA_ERR_JSON_SYNTAX, "nesting at most 512 deep");
    char first = peek();
    size_t start = at_;
    switch (first) {
      case '{': object([&](const std::string &) { value(depth + 1); }); break;
      case '[': array([&] { value(depth + 1); }); break;
      case '"': string(); break;
      case 't': literal("true"); break;
      case 'f': literal("false"); break;
      case 'n': literal("null"); break;
      default: number();
    }
    return json_.substr(start, at_ - start);
  }

  /// An array: `each()` is called with the reader at each item, which it must read.
  template <typename Each>
  void array(Each &&each) {
    if (peek() != '[') wrong("an array");
    at_++;
    if (next_is(']')) return;
    do {
      each();
    } while (next_is(','));
    expect(']');
  }

  /// An object: `each(name)` is called with each member's name (decoded) and the reader at its
  /// value, which it must read.
  template <typename Each>
  void object(Each &&each) {
    if (peek() != '{') wrong("an object");
    at_++;
    if (next_is('}')) return;
    do {
      if (peek() != '"') fail(TCA_ERR_JSON_SYNTAX, "a member's name");
      std::string name = text();
      expect(':');
      each(name);
    } while (next_is(','));
    expect('}');
  }

  /// A string, checked; its text with the quotes.
  std::string_view string() {
    if (peek() != '"') wrong("a string");
    size_t start = at_++;
    while (at_ < json_.size() && json_[at_] != '"') {
      unsigned char c = static_cast<unsigned char>(json_[at_]);
      if (c < 0x20) fail(TCA_ERR_JSON_SYNTAX, "no control character in a string");
      if (c == '\\') {
        if (++at_ >= json_.size()) break;
        char escape = json_[at_];
        if (escape == 'u') {
          for (int k = 0; k < 4; k++)
            if (++at_ >= json_.size() || hex(json_[at_]) < 0)
              fail(TCA_ERR_JSON_SYNTAX, "4 hex digits");
        } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
          fail(TCA_ERR_JSON_SYNTAX, "an escape");
        }
      }
      at_++;
    }
    if (at_ >= json_.size()) fail(TCA_ERR_JSON_SYNTAX, "the end of a string");
    at_++;
    return json_.substr(start, at_ - start);
  }

  /// A non-negative integer that fits 64 bits (request ids).
  uint64_t u64() {
    peek();
    size_t start = at_;
    uint64_t number = 0;
    while (at_ < json_.size() && json_[at_] >= '0' && json_[at_] <= '9') {
      uint64_t digit = uint64_t(json_[at_] - '0');
      if (number > (UINT64_MAX - digit) / 10) fail(TCA_ERR_JSON_SHAPE, "an integer of 64 bits");
      number = number * 10 + digit;
      at_++;
    }
    if (at_ == start) wrong("an integer");
    return number;
  }

  /// A string, decoded: its UTF-8 text.
  std::string text() { return decode(string()); }

  static int hex(char h) noexcept {
    return h >= '0' && h <= '9'   ? h - '0'
           : h >= 'a' && h <= 'f' ? h - 'a' + 10
           : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                  : -1;
  }

  [[noreturn]] void shape(const char *expected) const { fail(TCA_ERR_JSON_SHAPE, expected); }

  /// Not what was `expected` here: a syntax error if it is not JSON either, else a shape error.
  [[noreturn]] void wrong(const char *expected) {
    size_t start = at_;
    value();
    at_ = start;
    shape(expected);
  }

  [[noreturn]] void fail(tca_status status, const std::string &expected) const {
    // NB: the start of the text, cut after 20 bytes at a character's first byte, as the
    // library's own messages show input.
    size_t cut = json_.size() <= 20 ? json_.size() : 20;
    auto continuation = [&](size_t at) {
      return (static_cast<unsigned char>(json_[at]) & 0xC0) == 0x80;
    };
    while (cut > 0 && cut < json_.size() && continuation(cut)) cut--;
    std::string shown = quote(json_.substr(0, cut));
    if (cut < json_.size()) shown.insert(shown.size() - 1, "\xE2\x80\xA6");  // "…"
    throw Error(status, std::string(who_) + ": expected " + expected + " at byte " +
                            std::to_string(at_) + " of " + shown);
  }

 private:
  /// The text of a string this reader checked (`quoted`, with its quotes).
  std::string decode(std::string_view quoted) const {
    std::string out;
    for (size_t i = 1; i + 1 < quoted.size(); i++) {
      char c = quoted[i];
      if (c != '\\') {
        out += c;
        continue;
      }
      switch (quoted[++i]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          auto four = [&](size_t at) {
            unsigned value = 0;
            for (size_t k = at; k < at + 4; k++) value = value * 16 + unsigned(hex(quoted[k]));
            return value;
          };
          unsigned code = four(i + 1);
          i += 4;
          if (code >= 0xDC00 && code < 0xE000) fail(TCA_ERR_JSON_SYNTAX, "no lone surrogate");
          if (code >= 0xD800 && code < 0xDC00) {
            // NB: the reader checked that "\\u" is followed by 4 hex digits.
            unsigned low = i + 2 < quoted.size() && quoted[i + 1] == '\\' && quoted[i + 2] == 'u'
                               ? four(i + 3)
                               : 0;
            if (low < 0xDC00 || low >= 0xE000) fail(TCA_ERR_JSON_SYNTAX, "no lone surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          }
          append_utf8(out, code);
          break;
        }
        default: out += quoted[i];  // '"', '\\', '/'
      }
    }
    return out;
  }

  static void append_utf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  void literal(std::string_view word) {
    if (json_.substr(at_, word.size()) != word) fail(TCA_ERR_JSON_SYNTAX, "a value");
    at_ += word.size();
  }

  void number() {
    auto digits = [&] {
      size_t start = at_;
      while (at_ < json_.size() && json_[at_] >= '0' && json_[at_] <= '9') at_++;
      if (at_ == start) fail(TCA_ERR_JSON_SYNTAX, "a value");
      return at_ - start;
    };
    if (at_ < json_.size() && json_[at_] == '-') at_++;
    size_t integer = at_;
    if (digits() > 1 && json_[integer] == '0') fail(TCA_ERR_JSON_SYNTAX, "no leading zero");
    if (at_ < json_.size() && json_[at_] == '.') {
      at_++;
      digits();
    }
    if (at_ < json_.size() && (json_[at_] == 'e' || json_[at_] == 'E')) {
      at_++;
      if (at_ < json_.size() && (json_[at_] == '+' || json_[at_] == '-')) at_++;
      digits();
    }
  }

  std::string_view json_;
  const char *who_;
  size_t at_ = 0;
};

}  // namespace detail

/// The text of a JSON string ("\"a\\nb\"" gives "a\nb"). Throws tca::Error: TCA_ERR_JSON_SHAPE
/// if `json` is JSON but not a string, TCA_ERR_JSON_SYNTAX if it is not JSON.
inline std::string unquote(std::string_view json) {
  detail::JsonReader reader(json, "tca::unquote");
  if (reader.peek() != '"') reader.wrong("a JSON string");
  std::string text = reader.text();
  reader.end();
  return text;
}

/// The items of a JSON array, each as JSON text: items("[1,\"a\",[2]]") is {"1", "\"a\"", "[2]"}.
/// Throws tca::Error (TCA_ERR_JSON_SHAPE: not an array; TCA_ERR_JSON_SYNTAX: not JSON).
inline std::vector<std::string> items(std::string_view array_json) {
  detail::JsonReader reader(array_json, "tca::items");
  std::vector<std::string> out;
  reader.array([&] { out.emplace_back(reader.value()); });
  reader.end();
  return out;
}

/// The members of a JSON object, in order: each name (decoded) and its value as JSON text.
/// members(R"({"count":1,"fact":null})") is {{"count", "1"}, {"fact", "null"}}.
/// Throws tca::Error (TCA_ERR_JSON_SHAPE: not an object; TCA_ERR_JSON_SYNTAX: not JSON).
inline std::vector<std::pair<std::string, std::string>> members(std::string_view object_json) {
  detail::JsonReader reader(object_json, "tca::members");
  std::vector<std::pair<std::string, std::string>> out;
  reader.object([&](const std::string &name) { out.emplace_back(name, reader.value()); });
  reader.end();
  return out;
}

/// The reference tokens of a JSON Pointer (RFC 6901), unescaped: "/todos/0/a~1b" gives
/// {"todos", "0", "a/b"}; "" (the whole document) gives {}. Throws tca::Error
/// (TCA_ERR_INVALID_ARGUMENT) for a pointer that does not start with '/' or has a bad '~'.
inline std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  auto bad = [&](const char *why) {
    return Error(TCA_ERR_INVALID_ARGUMENT,
                 std::string("tca::pointer_tokens: ") + why + " in " + quote(pointer));
  };
  if (pointer.front() != '/') throw bad("no leading '/'");
  for (size_t i = 1;; i++) {
    std::string token;
    for (; i < pointer.size() && pointer[i] != '/'; i++) {
      if (pointer[i] != '~') {
        token += pointer[i];
      } else if (i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[++i] == '0' ? '~' : '/';
      } else {
        throw bad("a '~' not followed by 0 or 1");
      }
    }
    tokens.push_back(std::move(token));
    if (i >= pointer.size()) return tokens;
  }
}

/// One operation of a JSON Patch (RFC 6902), as Store::patch's text holds it.
struct PatchOp {
  enum Kind { add, remove, replace, move, copy, test };
  Kind op = add;
  std::string path;   // a JSON Pointer: "/todos/3/isComplete"
  std::string from;   // move and copy: the pointer moved or copied from; else empty
  std::string value;  // add, replace, test: the value as JSON text; else empty
  /// The tokens of `path` (pointer_tokens): {"todos", "3", "isComplete"}.
  std::vector<std::string> tokens() const { return pointer_tokens(path); }
};

/// The operations of a JSON Patch (Store::patch's text), in order. Throws tca::Error
/// (TCA_ERR_JSON_SYNTAX, TCA_ERR_JSON_SHAPE: not a patch: an unknown op, no path).
inline std::vector<PatchOp> parse_patch(std::string_view patch_json) {
  detail::JsonReader reader(patch_json, "tca::parse_patch");
  std::vector<PatchOp> ops;
  reader.array([&] {
    PatchOp op;
    bool named = false, placed = false;
    reader.object([&](const std::string &name) {
      if (name == "op") {
        static const char *const kinds[] = {"add", "remove", "replace", "move", "copy", "test"};
        std::string kind = reader.text();
        named = false;
        for (int k = 0; k < 6; k++)
          if (kind == kinds[k]) {
            op.op = static_cast<PatchOp::Kind>(k);
            named = true;
          }
        if (!named) reader.shape("an op of RFC 6902");
      } else if (name == "path") {
        op.path = reader.text();
        placed = true;
      } else if (name == "from") {
        op.from = reader.text();
      } else if (name == "value") {
        op.value = std::string(reader.value());
      } else {
        reader.value();
      }
    });
    if (!named || !placed) reader.shape("an operation with an op and a path");
    ops.push_back(std::move(op));
  });
  reader.end();
  return ops;
}

}  // namespace tca

#endif  // TCA_JSON_HPP
