/// Writes a ``JSONValue`` as compact JSON text (no insignificant whitespace).
///
///     JSONWriter.write(.object([("count", .number("1"))]))  // {"count":1}
public enum JSONWriter {
  public static func write(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    write(value, into: &out)
    return out
  }

  public static func write(_ value: JSONValue, into out: inout [UInt8]) {
    switch value {
    case .null: out.append(contentsOf: "null".utf8)
    case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case let .number(n): out.append(contentsOf: n.utf8)
    case let .string(s): writeString(s, into: &out)
    case let .array(elements):
      out.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { out.append(UInt8(ascii: ",")) }
        write(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case let .object(members):
      out.append(UInt8(ascii: "{"))
      for (offset, member) in members.enumerated() {
        if offset > 0 { out.append(UInt8(ascii: ",")) }
        writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(member.value, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  static func writeString(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
      case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
      case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
      case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
      case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
      case 0..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        let hex = Array("0123456789abcdef".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
