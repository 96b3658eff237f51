/// A parsed JSON document.
///
/// Objects keep their members in document order; numbers keep their source text so that integers
/// of any width and doubles both decode exactly.
///
///     let value = try JSONParser.parse(Array(#"{"count":1}"#.utf8))
///     value["count"]  // .number("1")
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.number(a), .number(b)): return a == b
    case let (.string(a), .string(b)): return a == b
    case let (.array(a), .array(b)): return a == b
    case let (.object(a), .object(b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case let .object(members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }
}
