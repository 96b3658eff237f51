/// JSON Pointer (RFC 6901) lookups in JSON text, for reading one part of a state.
///
///     let text = Array(#"{"todos":[{"title":"milk"}]}"#.utf8)
///     try JSONPointer.lookup("/todos/0/title", in: text)  // "milk", as JSON text: `"milk"`
///     try JSONPointer.lookup("", in: text)                // the whole document
///
/// The lookup scans the text and steps over what it does not need, without decoding it; the
/// value it returns is checked as strictly as ``JSONParser`` checks a document, so it is always
/// valid JSON. A pointer is given in its JSON string form (`/a~1b` for the member `a/b`), not as
/// a URI fragment.
///
/// Errors: a malformed pointer is a syntax error (with the offset in the pointer); a member or
/// element that is not there is a shape error naming the place (`at /todos: no element 7, the
/// array has 3`); text that is not JSON is a syntax error with the offset in the text.
public enum JSONPointer {
  public static func lookup(_ pointer: String, in bytes: [UInt8]) throws(JSONError) -> [UInt8] {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> [UInt8] in
      try lookup(pointer, in: buffer)
    }
  }

  public static func lookup(
    _ pointer: String, in buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> [UInt8] {
    let tokens = try referenceTokens(pointer)
    var start = skipWhitespace(in: buffer, from: 0)
    var place = ""
    for token in tokens {
      guard start < buffer.count else { throw unexpectedEnd(at: start) }
      switch buffer[start] {
      case ASCII.openBrace:
        start = try member(named: token, inObjectAt: start, of: buffer, place: place)
      case ASCII.openBracket:
        start = try element(token, inArrayAt: start, of: buffer, place: place)
      default:
        let found = brief(at: start, of: buffer)
        throw JSONError(
          .shape, path: place, "expected an object or an array, found \(found)")
      }
      place += "/" + escape(String(decoding: token, as: UTF8.self))
    }
    guard let end = skipValue(in: buffer, from: start) else { throw unexpectedEnd(at: start) }
    let value = UnsafeBufferPointer(rebasing: buffer[start..<end])
    do {
      try JSONParser.validate(value)
    } catch {
      throw JSONError(.syntax, offset: start + (error.offset ?? 0), error.message)
    }
    return Array(value)
  }

  /// A member name as a reference token: `a/b~c` → `a~1b~0c`.
  ///
  ///     "/todos/" + JSONPointer.escape(key)
  public static func escape(_ name: String) -> String { escapePointerToken(name) }

  /// The unescaped reference tokens of `pointer` ("/a~1b/0" → ["a/b", "0"]), nil if it is
  /// malformed: for a caller that follows a pointer through its own values first.
  public static func tokens(_ pointer: String) -> [String]? {
    guard let tokens = try? referenceTokens(pointer) else { return nil }
    return tokens.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The array index `token` names (`0`, or digits without a leading zero), nil if none.
  public static func arrayIndex(_ token: String) -> Int? {
    try? index(Array(token.utf8), place: "")
  }

  /// The pointer of `tokens` (escaped): the inverse of ``tokens(_:)``.
  public static func pointer(_ tokens: some Sequence<String>) -> String {
    var text = ""
    for token in tokens { text += "/" + escape(token) }
    return text
  }

  /// The unescaped reference tokens of `pointer`, as UTF-8.
  static func referenceTokens(_ pointer: String) throws(JSONError) -> [[UInt8]] {
    var tokens: [[UInt8]] = []
    var offset = 0
    var iterator = pointer.utf8.makeIterator()
    guard let first = iterator.next() else { return [] }
    guard first == ASCII.slash else {
      throw JSONError(
        .syntax, offset: 0, "invalid JSON Pointer \(quoted(pointer)): it must start with '/'")
    }
    var token: [UInt8] = []
    while let byte = iterator.next() {
      offset += 1
      switch byte {
      case ASCII.slash:
        tokens.append(token)
        token = []
      case UInt8(ascii: "~"):
        let next = iterator.next()
        offset += 1
        switch next {
        case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): token.append(ASCII.slash)
        default:
          throw JSONError(
            .syntax, offset: offset - 1,
            "invalid JSON Pointer \(quoted(pointer)): '~' must be followed by 0 or 1")
        }
      default:
        token.append(byte)
      }
    }
    tokens.append(token)
    return tokens
  }

  /// The offset of the value of the member `name` of the object whose `{` is at `start`.
  private static func member(
    named name: [UInt8], inObjectAt start: Int, of buffer: UnsafeBufferPointer<UInt8>,
    place: String
  ) throws(JSONError) -> Int {
    var i = skipWhitespace(in: buffer, from: start + 1)
    if i < buffer.count, buffer[i] == ASCII.closeBrace {
      throw noMember(name, place: place)
    }
    while true {
      guard i < buffer.count, buffer[i] == ASCII.quote,
        let close = skipString(in: buffer, from: i)
      else { throw unexpected(at: i, in: buffer, expecting: "a member name") }
      let key = UnsafeBufferPointer(rebasing: buffer[(i + 1)..<close])
      let matches = name.withUnsafeBufferPointer { name in
        key.contains(ASCII.backslash)
          ? unescaped(key).withUnsafeBufferPointer { bytesEqual($0, name) }
          : bytesEqual(key, name)
      }
      i = skipWhitespace(in: buffer, from: close + 1)
      guard i < buffer.count, buffer[i] == ASCII.colon else {
        throw unexpected(at: i, in: buffer, expecting: "':'")
      }
      i = skipWhitespace(in: buffer, from: i + 1)
      if matches { return i }
      guard let end = skipValue(in: buffer, from: i) else { throw unexpectedEnd(at: i) }
      i = skipWhitespace(in: buffer, from: end)
      guard i < buffer.count else { throw unexpectedEnd(at: i) }
      if buffer[i] == ASCII.closeBrace { throw noMember(name, place: place) }
      guard buffer[i] == ASCII.comma else {
        throw unexpected(at: i, in: buffer, expecting: "',' or '}'")
      }
      i = skipWhitespace(in: buffer, from: i + 1)
    }
  }

  /// The offset of the element `token` (an index) of the array whose `[` is at `start`.
  private static func element(
    _ token: [UInt8], inArrayAt start: Int, of buffer: UnsafeBufferPointer<UInt8>,
    place: String
  ) throws(JSONError) -> Int {
    let wanted = try index(token, place: place)
    var i = skipWhitespace(in: buffer, from: start + 1)
    var count = 0
    if i < buffer.count, buffer[i] == ASCII.closeBracket {
      throw noElement(wanted, count: 0, place: place)
    }
    while true {
      if count == wanted { return i }
      guard let end = skipValue(in: buffer, from: i) else { throw unexpectedEnd(at: i) }
      count += 1
      i = skipWhitespace(in: buffer, from: end)
      guard i < buffer.count else { throw unexpectedEnd(at: i) }
      if buffer[i] == ASCII.closeBracket { throw noElement(wanted, count: count, place: place) }
      guard buffer[i] == ASCII.comma else {
        throw unexpected(at: i, in: buffer, expecting: "',' or ']'")
      }
      i = skipWhitespace(in: buffer, from: i + 1)
    }
  }

  /// The array index a reference token names: `0` or digits without a leading zero.
  private static func index(_ token: [UInt8], place: String) throws(JSONError) -> Int {
    let text = String(decoding: token, as: UTF8.self)
    if token == [ASCII.minus] {
      throw JSONError(
        .shape, path: place, "\"-\" names the element after the last one, which is never there")
    }
    guard !token.isEmpty, token.count <= 18, token.allSatisfy(ASCII.isDigit),
      token.count == 1 || token[0] != ASCII.zero, let value = Int(text)
    else {
      throw JSONError(.shape, path: place, "expected an array index, found \(quoted(text))")
    }
    return value
  }

  // MARK: - Errors

  private static func noMember(_ name: [UInt8], place: String) -> JSONError {
    JSONError(.shape, path: place, "no member \(quoted(String(decoding: name, as: UTF8.self)))")
  }

  private static func noElement(_ index: Int, count: Int, place: String) -> JSONError {
    JSONError(
      .shape, path: place,
      "no element \(index), the array has \(count) element\(count == 1 ? "" : "s")")
  }

  private static func unexpectedEnd(at offset: Int) -> JSONError {
    JSONError(.syntax, offset: offset, "unexpected end of input")
  }

  private static func unexpected(
    at offset: Int, in buffer: UnsafeBufferPointer<UInt8>, expecting expected: String
  ) -> JSONError {
    JSONError(
      .syntax, offset: offset,
      "unexpected \(describeByte(buffer, at: offset)), expected \(expected)")
  }

  /// The scalar at `start` for an error message: its text, cut after 20 bytes.
  private static func brief(at start: Int, of buffer: UnsafeBufferPointer<UInt8>) -> String {
    let end = skipValue(in: buffer, from: start) ?? buffer.count
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: buffer[start..<min(end, start + 20)]), as: UTF8.self)
    return end - start > 20 ? text + "…" : text
  }
}
