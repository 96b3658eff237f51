/// A coding key of any name or index, for coding paths rebuilt from a document.
///
///     pointer([AnyCodingKey("todos"), AnyCodingKey(index: 3)])  // "/todos/3"
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  init(index: Int) {
    stringValue = String(index)
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init(index: intValue) }
}

/// The JSON Pointer (RFC 6901) of a coding path: `/todos/3/title`.
///
/// An array index is written as a number whether the key is ours or the standard library's
/// (`Index 3`); a name has `~` and `/` escaped as `~0` and `~1`.
func pointer(_ path: [any CodingKey]) -> String {
  var out = ""
  for key in path {
    out += "/"
    if let index = key.intValue,
      key.stringValue == String(index) || key.stringValue.hasPrefix("Index")
    {
      out += String(index)
    } else {
      out += escapePointerToken(key.stringValue)
    }
  }
  return out
}

/// A reference token of a JSON Pointer: `a/b~c` → `a~1b~0c`.
func escapePointerToken(_ name: String) -> String {
  guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
    return name
  }
  var out = ""
  for character in name {
    switch character {
    case "~": out += "~0"
    case "/": out += "~1"
    default: out.append(character)
    }
  }
  return out
}
