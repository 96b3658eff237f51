/// A scanned JSON document: its bytes and the tape of its values (see ``Token``), which the
/// decoder reads from without building a tree.
///
///     try Scanner.withDocument(buffer) { document in document.pointee.string(at: 1) }
///
/// NB: it refers to the caller's bytes and to a tape it does not own, and decoders refer to it
/// by pointer (no reference counting, no allocation): it lives only as long as one call of
/// `JSONDecoder.decode` or `JSONParser.parse`. A `Decoder` kept by a `Decodable` type after its
/// `init(from:)` returns breaks Codable's contract, and would read freed memory.
struct Document {
  let bytes: UnsafeBufferPointer<UInt8>
  let tokens: UnsafeMutablePointer<Token>
  let count: Int
  let userInfo: [CodingUserInfoKey: Any]

  @inline(__always)
  subscript(index: Int) -> Token { tokens[index] }

  /// The index of the token after the value at `index` and its contents.
  @inline(__always)
  func next(after index: Int) -> Int {
    let token = tokens[index]
    return token.isContainer ? Int(token.end) : index + 1
  }

  /// The text of a string (between its quotes) or of a number or literal.
  @inline(__always)
  func text(at index: Int) -> UnsafeBufferPointer<UInt8> {
    let token = tokens[index]
    return UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
  }

  func string(at index: Int) -> String {
    makeString(text(at: index), escaped: tokens[index].flags & Token.escaped != 0)
  }

  /// Whether the string at `index` is `name`.
  @inline(__always)
  func string(at index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
    if tokens[index].flags & Token.escaped == 0 { return bytesEqual(text(at: index), name) }
    return unescaped(text(at: index)).withUnsafeBufferPointer { bytesEqual($0, name) }
  }

  /// The value token of the member of `object` named `name`, or nil.
  ///
  /// NB: Codable asks for members mostly in the order they were written (a struct's properties,
  /// a dictionary's `allKeys`), so the search starts after the last member found, kept in the
  /// object token's `start`: a whole object is read in linear time.
  func member(named name: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    let first = object + 1
    let end = Int(tokens[object].end)
    var hint = Int(tokens[object].start)
    if hint < first || hint >= end { hint = first }
    var key = hint
    while key < end {
      let value = key + 1
      let following = next(after: value)
      if string(at: key, equals: name) {
        tokens[object].start = UInt32(truncatingIfNeeded: following)
        return value
      }
      key = following
    }
    key = first
    while key < hint {
      let value = key + 1
      let following = next(after: value)
      if string(at: key, equals: name) {
        tokens[object].start = UInt32(truncatingIfNeeded: following)
        return value
      }
      key = following
    }
    return nil
  }

  /// A short description of the value at `index` for error messages: `12`, `"abc"`, `an object`.
  func brief(at index: Int) -> String {
    guard index >= 0 && index < count else { return "nothing" }
    switch tokens[index].kind {
    case .null: return "null"
    case .true: return "true"
    case .false: return "false"
    case .number: return shortened(text(at: index))
    case .string: return quotedPrefix(at: index)
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The string at `index` as ``quoted(_:)`` shows it, made from the first bytes of its text
  /// only: a 100 MB string costs its first few hundred bytes.
  func quotedPrefix(at index: Int) -> String {
    let text = text(at: index)
    let escaped = tokens[index].flags & Token.escaped != 0
    // NB: a scalar takes at most 12 bytes of text (an escaped surrogate pair), so this many
    // bytes hold more scalars than a message shows, and `quoted` adds its "…".
    let budget = (quotedScalars + 1) * 12
    guard text.count > budget else { return quoted(makeString(text, escaped: escaped)) }
    var cut = 0
    while cut < text.count {
      let byte = text[cut]
      var step: Int
      if escaped && byte == ASCII.backslash {
        step = cut + 1 < text.count && text[cut + 1] == UInt8(ascii: "u") ? 6 : 2
        // NB: a high surrogate is always followed by its low one (the scanner checked).
        if step == 6, cut + 2 < text.count, text[cut + 2] | 0x20 == UInt8(ascii: "d"),
          cut + 3 < text.count, let digit = ASCII.hexValue(text[cut + 3]), digit >= 8,
          digit < 0xC
        {
          step = 12
        }
      } else {
        step = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
      }
      if cut + step > budget || cut + step > text.count { break }
      cut += step
    }
    return quoted(makeString(UnsafeBufferPointer(rebasing: text[0..<cut]), escaped: escaped))
  }

  // MARK: - Paths

  /// The path from the root to the value at `target`, as coding keys.
  func codingPath(to target: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var current = 0
    while current < target && current < count {
      let token = tokens[current]
      guard token.isContainer, target < Int(token.end) else { break }
      var child = current + 1
      var index = 0
      while child < Int(token.end) {
        let value = token.kind == .object ? child + 1 : child
        let following = next(after: value)
        if target < following {
          if token.kind == .object {
            if target == child { return path }  // a member name: its object's path
            path.append(AnyCodingKey(string(at: child)))
          } else {
            path.append(AnyCodingKey(index: index))
          }
          current = value
          break
        }
        child = following
        index += 1
      }
      if child >= Int(token.end) { break }
    }
    return path
  }

  /// The JSON Pointer of the value at `index`.
  func pointer(to index: Int) -> String { JSON.pointer(codingPath(to: index)) }

  /// The value at `path` (a decoding error's coding path), or nil.
  func index(at path: [any CodingKey]) -> Int? {
    var current = 0
    for key in path {
      guard current < count else { return nil }
      let token = tokens[current]
      switch token.kind {
      case .object:
        var name = key.stringValue
        guard let value = name.withUTF8({ member(named: $0, in: current) }) else { return nil }
        current = value
      case .array:
        guard let wanted = key.intValue, wanted >= 0, wanted < Int(token.count) else { return nil }
        var element = current + 1
        for _ in 0..<wanted { element = next(after: element) }
        current = element
      default:
        return nil
      }
    }
    return current
  }

  /// The member names of the object at `index`, for error messages: `"a", "b"`.
  func memberNames(at index: Int) -> String {
    guard index >= 0 && index < count, tokens[index].kind == .object else {
      return brief(at: index)
    }
    var names: [String] = []
    var key = index + 1
    while key < Int(tokens[index].end) {
      // NB: a message names a few members, not all of a big object's.
      if names.count == 8 {
        names.append("…")
        break
      }
      names.append(quotedPrefix(at: key))
      key = next(after: key + 1)
    }
    return names.isEmpty ? "no members" : names.joined(separator: ", ")
  }

  // MARK: - Trees

  /// The value at `index` as a ``JSONValue`` tree.
  func value(at index: Int) -> JSONValue {
    let token = tokens[index]
    switch token.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .number: return .number(String(decoding: text(at: index), as: UTF8.self))
    case .string: return .string(string(at: index))
    case .array:
      var elements: [JSONValue] = []
      elements.reserveCapacity(Int(token.count))
      var element = index + 1
      while element < Int(token.end) {
        elements.append(value(at: element))
        element = next(after: element)
      }
      return .array(elements)
    case .object:
      var members: [(key: String, value: JSONValue)] = []
      members.reserveCapacity(Int(token.count))
      var key = index + 1
      while key < Int(token.end) {
        members.append((string(at: key), value(at: key + 1)))
        key = next(after: key + 1)
      }
      return .object(members)
    }
  }
}

/// How many Unicode scalars of a value a message shows (``quoted(_:)``, ``shortened(_:)``).
let quotedScalars = 20

/// `"text"` for error messages: escaped as JSON escapes it (so a quote, a newline or a NUL in
/// the input cannot end the value, forge a line or cut a C string short), cut after 20 Unicode
/// scalars with "…".
///
///     quoted("a\"b\n")  // "a\"b\n" with the quote and newline escaped
func quoted(_ text: String) -> String {
  var shown = ""
  var scalars = 0
  for scalar in text.unicodeScalars {
    if scalars == quotedScalars {
      shown += "…"
      break
    }
    shown.unicodeScalars.append(scalar)
    scalars += 1
  }
  var out = OutputBuffer(capacity: shown.utf8.count + 8)
  out.appendString(shown)
  return String(decoding: out.written, as: UTF8.self)
}

/// A number's text (ASCII) for error messages, cut after 20 characters with "…".
func shortened(_ text: UnsafeBufferPointer<UInt8>) -> String {
  guard text.count > quotedScalars else { return String(decoding: text, as: UTF8.self) }
  return String(decoding: UnsafeBufferPointer(rebasing: text[0..<quotedScalars]), as: UTF8.self)
    + "…"
}
