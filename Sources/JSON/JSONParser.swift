/// A strict RFC 8259 parser.
///
/// Rejects invalid UTF-8, lone surrogates, control characters in strings, leading zeros,
/// trailing garbage, duplicate object keys and nesting deeper than ``maxDepth``.
///
///     let value = try JSONParser.parse(Array("[1, 2]".utf8))
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maxDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
      try parse(buffer)
    }
  }

  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
    var parser = JSONParser(buffer)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == buffer.count else {
      throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
    }
    return value
  }

  private func error(_ message: String) -> JSONError {
    JSONError(.syntax, offset: index, message)
  }

  private func describeCurrent() -> String {
    guard index < bytes.count else { return "end of input" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue() throws(JSONError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected \(describeCurrent()), expected a value")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw error("invalid literal") }
    let start = literal.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] {
      throw error("invalid literal")
    }
    index += count
  }

  private mutating func enter() throws(JSONError) {
    depth += 1
    if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth)") }
  }

  private mutating func parseObject() throws(JSONError) -> JSONValue {
    try enter()
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    var seen = Set<String>()
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("unexpected \(describeCurrent()), expected a member name")
      }
      let keyOffset = index
      let key = try parseString()
      guard seen.insert(key).inserted else {
        throw JSONError(.syntax, offset: keyOffset, "duplicate member name \"\(key)\"")
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("unexpected \(describeCurrent()), expected ':'")
      }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue()))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input in an object") }
      if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
      if bytes[index] == UInt8(ascii: "}") { index += 1; break }
      throw error("unexpected \(describeCurrent()), expected ',' or '}'")
    }
    depth -= 1
    return .object(members)
  }

  private mutating func parseArray() throws(JSONError) -> JSONValue {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input in an array") }
      if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
      if bytes[index] == UInt8(ascii: "]") { index += 1; break }
      throw error("unexpected \(describeCurrent()), expected ',' or ']'")
    }
    depth -= 1
    return .array(elements)
  }

  private mutating func parseNumber() throws(JSONError) -> String {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in a number") }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid fraction") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private mutating func parseString() throws(JSONError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    while true {
      guard index < bytes.count else { throw error("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        try appendRun(from: runStart, to: index, into: &scalars)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string") }
      if byte == UInt8(ascii: "\\") {
        try appendRun(from: runStart, to: index, into: &scalars)
        scalars.append(try parseEscape())
        runStart = index
        continue
      }
      index += 1
    }
  }

  /// Validates the raw bytes of a string run as UTF-8 and appends them.
  private func appendRun(
    from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView
  ) throws(JSONError) {
    guard start < end else { return }
    var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case let .scalarValue(scalar): scalars.append(scalar)
      case .emptyInput: return
      case .error: throw JSONError(.syntax, offset: start, "invalid UTF-8 in a string")
      }
    }
  }

  private mutating func parseEscape() throws(JSONError) -> Unicode.Scalar {
    index += 1
    guard index < bytes.count else { throw error("unterminated escape") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try parseHex4()
      if first >= 0xD800 && first < 0xDC00 {
        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw error("lone surrogate in a string") }
        index += 2
        let second = try parseHex4()
        guard second >= 0xDC00 && second < 0xE000 else { throw error("lone surrogate in a string") }
        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw error("invalid escape") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(first) else { throw error("lone surrogate in a string") }
      return scalar
    default:
      index -= 1
      throw error("invalid escape \(describeCurrent())")
    }
  }

  private mutating func parseHex4() throws(JSONError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw error("invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
