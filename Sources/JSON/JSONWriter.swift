/// Writes a ``JSONValue`` as compact JSON text (no insignificant whitespace).
///
///     JSONWriter.write(.object([("count", .number("1"))]))  // {"count":1}
///
/// NB: `.number` text is written as it is; it comes from a parse or from the encoder, which
/// only make valid JSON numbers.
public enum JSONWriter {
  public static func write(_ value: JSONValue) -> [UInt8] {
    var out = OutputBuffer()
    write(value, into: &out)
    return out.bytes()
  }

  public static func write(_ value: JSONValue, into bytes: inout [UInt8]) {
    var out = OutputBuffer()
    write(value, into: &out)
    bytes.append(contentsOf: out.written)
  }

  static func write(_ value: JSONValue, into out: inout OutputBuffer) {
    switch value {
    case .null: out.append("null")
    case let .bool(b): out.append(b ? "true" : "false")
    case let .number(n): out.appendRaw(n)
    case let .string(s): out.appendString(s)
    case let .array(elements):
      out.append(ASCII.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 { out.append(ASCII.comma) }
        write(element, into: &out)
      }
      out.append(ASCII.closeBracket)
    case let .object(members):
      out.append(ASCII.openBrace)
      for (offset, member) in members.enumerated() {
        if offset > 0 { out.append(ASCII.comma) }
        out.appendString(member.key)
        out.append(ASCII.colon)
        write(member.value, into: &out)
      }
      out.append(ASCII.closeBrace)
    }
  }
}
