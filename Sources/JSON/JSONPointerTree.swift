/// JSON Pointer (RFC 6901) lookups in a parsed document: in proportion to the pointer's depth
/// (and an object's member count at each step), not to the document's size.
///
///     let value = try JSONParser.parse(Array(#"{"todos":[{"title":"milk"}]}"#.utf8))
///     JSONPointer.value(at: "/todos/0/title", in: value)  // .string("milk")
///
/// NB: nil for anything that is not there or not well formed, without saying why: callers fall
/// back to ``JSONPointer/lookup(_:in:)-(_,[UInt8])`` on the text for the error's message.
extension JSONPointer {
  public static func value(at pointer: String, in document: JSONValue) -> JSONValue? {
    guard let tokens = try? referenceTokens(pointer) else { return nil }
    var node = document
    for token in tokens {
      switch node {
      case .object(let members):
        guard let member = members.first(where: { bytesEqual($0.key.utf8, token) }) else {
          return nil
        }
        node = member.value
      case .array(let elements):
        guard let index = arrayIndex(token), index < elements.count else { return nil }
        node = elements[index]
      default:
        return nil
      }
    }
    return node
  }

  /// A token's array index: digits, no leading zero (but "0"), nil otherwise.
  private static func arrayIndex(_ token: [UInt8]) -> Int? {
    guard let first = token.first, token.count <= 18 else { return nil }
    if first == UInt8(ascii: "0") { return token.count == 1 ? 0 : nil }
    var value = 0
    for byte in token {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  private static func bytesEqual(_ key: String.UTF8View, _ token: [UInt8]) -> Bool {
    key.count == token.count && key.elementsEqual(token)
  }
}
