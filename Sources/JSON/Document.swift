/// A scanned JSON document: its bytes and the tape of its values (see ``Token``), which the
/// decoder reads from without building a tree.
///
///     try Scanner.withDocument(buffer) { document in document.pointee.string(at: 1) }
///
/// NB: it refers to the caller's bytes and to a tape it does not own, and decoders refer to it
/// by pointer (no reference counting, no allocation): it lives only as long as one call of
/// `JSONDecoder.decode` or `JSONParser.parse`. A `Decoder` kept by a `Decodable` type after its
/// `init(from:)` returns breaks Codable's contract, and would read freed memory.
@usableFromInline
struct Document {
  let bytes: UnsafeBufferPointer<UInt8>
  let tokens: UnsafeMutablePointer<UInt32>
  let count: Int
  /// `decoder.userInfo`, kept by the caller of ``Scanner/withDocument(_:userInfo:_:)``.
  ///
  /// NB: by pointer, so that a `Document` holds no reference: every call of a method of
  /// `document.pointee` that is not inlined copies it, and a dictionary in it made each copy a
  /// retain and a release (about 90 instructions a member lookup).
  let userInfoPointer: UnsafePointer<[CodingUserInfoKey: Any]>
  /// Where ``member(named:in:)`` starts its next search in an object, for a few objects at a
  /// time: `(object + 1) << 32 | key index` in the slot `object % hintSlots`, 0 when empty.
  let hints: UnsafeMutablePointer<UInt64>

  /// How many objects keep a search hint at once (objects being decoded inside one another); a
  /// power of two.
  static let hintSlots = 32

  var userInfo: [CodingUserInfoKey: Any] { userInfoPointer.pointee }

  // MARK: - Values

  @inline(__always)
  func kind(at index: Int) -> Token.Kind {
    let word = tokens[index]
    if word & Token.container != 0 { return word & Token.object != 0 ? .object : .array }
    switch bytes[Int(word & Token.payload)] {
    case ASCII.quote: return .string
    case UInt8(ascii: "t"): return .true
    case UInt8(ascii: "f"): return .false
    case UInt8(ascii: "n"): return .null
    default: return .number
    }
  }

  @inline(__always)
  func isContainer(at index: Int) -> Bool { tokens[index] & Token.container != 0 }

  /// The index of the token after the value at `index` and its contents.
  @inline(__always)
  func next(after index: Int) -> Int {
    let word = tokens[index]
    return word & Token.container != 0 ? Int(word & Token.payload) : index + 1
  }

  /// The number of elements of an array, or of members of an object, at `index`; 0 otherwise.
  ///
  /// NB: counted on the tape (one jump a child), not kept: a word has no room for it.
  func count(at index: Int) -> Int {
    guard isContainer(at: index) else { return 0 }
    let end = next(after: index)
    let step = kind(at: index) == .object ? 1 : 0
    var child = index + 1
    var count = 0
    while child < end {
      child = next(after: child + step)
      count += 1
    }
    return count
  }

  /// Whether the object at `index` has exactly one member.
  @inline(__always)
  func hasOneMember(at index: Int) -> Bool {
    !isEmptyContainer(at: index) && next(after: index + 2) == next(after: index)
  }

  /// Whether the container at `index` has no contents.
  @inline(__always)
  func isEmptyContainer(at index: Int) -> Bool { next(after: index) == index + 1 }

  /// `Token.escaped` for a string with escapes; `Token.integer` and `Token.negative` for a
  /// number; 0 otherwise.
  @inline(__always)
  func flags(at index: Int) -> UInt8 {
    let word = tokens[index]
    guard word & Token.container == 0 else { return 0 }
    let first = bytes[Int(word & Token.payload)]
    let flagged = word & Token.flag != 0
    if first == ASCII.quote { return flagged ? Token.escaped : 0 }
    guard first == ASCII.minus || ASCII.isDigit(first) else { return 0 }
    return (flagged ? Token.integer : 0) | (first == ASCII.minus ? Token.negative : 0)
  }

  /// The text of a string (between its quotes) or of a number or literal.
  @inline(__always)
  func text(at index: Int) -> UnsafeBufferPointer<UInt8> {
    let word = tokens[index]
    let start = Int(word & Token.payload)
    let end: Int
    switch bytes[start] {
    case ASCII.quote:
      return UnsafeBufferPointer(
        rebasing: bytes[(start + 1)..<stringEnd(at: index, from: start + 1, word: word)])
    case UInt8(ascii: "t"), UInt8(ascii: "n"): end = start + 4
    case UInt8(ascii: "f"): end = start + 5
    default: end = numberEnd(from: start)
    }
    return UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)])
  }

  /// The offset of the closing quote of the string at `index`, whose text starts at `start`.
  ///
  /// NB: found backwards from the next value when that is a scalar: only whitespace, `,`, `:`,
  /// `]` and `}` can stand between (a container opened there would be a token in between), so
  /// the closing quote is the first quote before it, a step or two back however long the
  /// string. Otherwise (a container next, or anything unexpected) searched forwards.
  @inline(__always)
  private func stringEnd(at index: Int, from start: Int, word: UInt32) -> Int {
    var i = bytes.count
    if index &+ 1 < count {
      let following = tokens[index &+ 1]
      i = following & Token.container == 0 ? Int(following & Token.payload) : start
    }
    i -= 1
    while i >= start && i < bytes.count {
      let byte = bytes[i]
      if byte == ASCII.quote { return i }
      guard byte <= ASCII.space || byte == ASCII.comma || byte == ASCII.colon
        || byte == ASCII.closeBrace || byte == ASCII.closeBracket
      else { break }
      i -= 1
    }
    return closingQuote(in: bytes, from: start, escaped: word & Token.flag != 0)
  }

  /// The value of the number at `index` as a `T`, or nil when it is not a whole number in
  /// `T`'s range: ``NumberParsing/integer(_:from:flags:)`` of its text.
  ///
  /// NB: a number without fraction or exponent is read where it is, its end found on the way.
  @inline(__always)
  func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) -> T? {
    let word = tokens[index]
    guard word & Token.flag != 0 else {
      return NumberParsing.integer(type, from: text(at: index), flags: flags(at: index))
    }
    return NumberParsing.integer(type, in: bytes, at: Int(word & Token.payload))
  }

  /// The offset past the number that starts at `start` (the scanner checked its grammar).
  @inline(__always)
  private func numberEnd(from start: Int) -> Int {
    var i = start
    while i < bytes.count {
      let byte = bytes[i]
      guard ASCII.isDigit(byte) || byte == ASCII.minus || byte == ASCII.plus
        || byte == ASCII.dot || byte | 0x20 == UInt8(ascii: "e")
      else { break }
      i += 1
    }
    return i
  }

  func string(at index: Int) -> String {
    makeString(text(at: index), escaped: tokens[index] & Token.flag != 0)
  }

  /// Whether the string at `index` is `name`.
  @inline(__always)
  func string(at index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
    let word = tokens[index]
    if word & Token.flag == 0 {
      // NB: without escapes the text is the name followed by the closing quote; no need to
      // find the string's end first.
      // NB: wrapping arithmetic and no slice: an offset is under 1 GiB, and the text is in
      // bounds once its closing quote is (no checks to trap on in the hot lookups).
      let start = Int(word & Token.payload) &+ 1
      let end = start &+ name.count
      guard end < bytes.count, bytes[end] == ASCII.quote, let base = bytes.baseAddress else {
        return false
      }
      return bytesEqual(UnsafeBufferPointer(start: base + start, count: name.count), name)
    }
    return unescaped(text(at: index)).withUnsafeBufferPointer { bytesEqual($0, name) }
  }

  /// The value token of the member of `object` named `name`, or nil.
  ///
  /// NB: Codable asks for members mostly in the order they were written (a struct's properties,
  /// a dictionary's `allKeys`), so the search starts after the last member found (``hints``):
  /// a whole object is read in linear time. The usual case, the member after the last one
  /// found, is tried here, inlined in the caller; anything else is ``searchMember(named:in:)``.
  @inline(__always)
  func member(named name: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    let slot = object & (Document.hintSlots - 1)
    let hint = hints[slot]
    // NB: with no hint for this object, its first member: the first one asked for.
    let key =
      hint >> 32 == UInt64(object &+ 1)
      ? Int(truncatingIfNeeded: hint & 0xFFFF_FFFF) : object &+ 1
    if key > object, key < next(after: object), string(at: key, equals: name) {
      hints[slot] = UInt64(object &+ 1) << 32 | UInt64(truncatingIfNeeded: next(after: key &+ 1))
      return key &+ 1
    }
    return searchMember(named: name, in: object)
  }

  /// ``member(named:in:)`` for the document at `document`, reading only the words it needs.
  ///
  /// NB: called as `document.pointee.member(…)`, the whole document was copied to the stack
  /// first (the hint it stores could alias it, for all the compiler knows). A name with escapes
  /// is left to ``searchMember(named:in:)``.
  @inline(__always)
  static func member(
    named name: UnsafeBufferPointer<UInt8>, in object: Int, of document: UnsafePointer<Document>
  ) -> Int? {
    let hints = document.pointee.hints
    let tokens = document.pointee.tokens
    let slot = object & (Document.hintSlots - 1)
    let hint = hints[slot]
    let key =
      hint >> 32 == UInt64(object &+ 1)
      ? Int(truncatingIfNeeded: hint & 0xFFFF_FFFF) : object &+ 1
    let objectWord = tokens[object]
    let end = objectWord & Token.container != 0 ? Int(objectWord & Token.payload) : object &+ 1
    if key > object, key < end {
      let word = tokens[key]
      let bytes = document.pointee.bytes
      // NB: without escapes the text is the name followed by the closing quote.
      let start = Int(word & Token.payload) &+ 1
      let stop = start &+ name.count
      if word & Token.flag == 0, stop < bytes.count, bytes[stop] == ASCII.quote,
        let base = bytes.baseAddress,
        bytesEqual(UnsafeBufferPointer(start: base + start, count: name.count), name)
      {
        let valueWord = tokens[key &+ 1]
        let following =
          valueWord & Token.container != 0 ? Int(valueWord & Token.payload) : key &+ 2
        hints[slot] = UInt64(object &+ 1) << 32 | UInt64(truncatingIfNeeded: following)
        return key &+ 1
      }
    }
    return document.pointee.searchMember(named: name, in: object)
  }

  /// ``member(named:in:)`` past its first guess: the members from the hint on, then from the
  /// first one up to the hint.
  @inline(never)
  func searchMember(named name: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    let first = object + 1
    let end = next(after: object)
    let slot = object & (Document.hintSlots - 1)
    let hint = hints[slot]
    var start = first
    if hint >> 32 == UInt64(object + 1) {
      start = Int(truncatingIfNeeded: hint & 0xFFFF_FFFF)
      if start < first || start >= end { start = first }
    }
    var key = start
    var wrapped = false
    while true {
      if key >= end {
        guard !wrapped, start > first else { return nil }
        wrapped = true
        key = first
      }
      if wrapped && key >= start { return nil }
      let value = key + 1
      let following = next(after: value)
      if string(at: key, equals: name) {
        hints[slot] = UInt64(object + 1) << 32 | UInt64(truncatingIfNeeded: following)
        return value
      }
      key = following
    }
  }

  /// A short description of the value at `index` for error messages: `12`, `"abc"`, `an object`.
  func brief(at index: Int) -> String {
    guard index >= 0 && index < count else { return "nothing" }
    switch kind(at: index) {
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
  func quotedPrefix(at index: Int, limit: Int = quotedScalars) -> String {
    let text = text(at: index)
    let escaped = tokens[index] & Token.flag != 0
    // NB: a scalar takes at most 12 bytes of text (an escaped surrogate pair), so this many
    // bytes hold more scalars than a message shows, and `quoted` adds its "…".
    let budget = (limit + 1) * 12
    guard text.count > budget else {
      return quoted(makeString(text, escaped: escaped), limit: limit)
    }
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
    return quoted(
      makeString(UnsafeBufferPointer(rebasing: text[0..<cut]), escaped: escaped), limit: limit)
  }

  // MARK: - Paths

  /// The path from the root to the value at `target`, as coding keys.
  func codingPath(to target: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var current = 0
    while current < target && current < count {
      let end = next(after: current)
      guard isContainer(at: current), target < end else { break }
      let isObject = kind(at: current) == .object
      var child = current + 1
      var index = 0
      while child < end {
        let value = isObject ? child + 1 : child
        let following = next(after: value)
        if target < following {
          if isObject {
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
      if child >= end { break }
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
      switch kind(at: current) {
      case .object:
        var name = key.stringValue
        guard let value = name.withUTF8({ member(named: $0, in: current) }) else { return nil }
        current = value
      case .array:
        guard let wanted = key.intValue, wanted >= 0 else { return nil }
        let end = next(after: current)
        var element = current + 1
        for _ in 0..<wanted where element < end { element = next(after: element) }
        guard element < end else { return nil }
        current = element
      default:
        return nil
      }
    }
    return current
  }

  /// The member names of the object at `index`, for error messages: `"a", "b"` (each whole up to
  /// ``CaseHint/nameScalars`` scalars: they are case names).
  func memberNames(at index: Int) -> String {
    guard index >= 0 && index < count, kind(at: index) == .object else {
      return brief(at: index)
    }
    var names: [String] = []
    var key = index + 1
    while key < next(after: index) {
      // NB: a message names a few members, not all of a big object's.
      if names.count == 8 {
        names.append("…")
        break
      }
      names.append(quotedPrefix(at: key, limit: CaseHint.nameScalars))
      key = next(after: key + 1)
    }
    return names.isEmpty ? "no members" : names.joined(separator: ", ")
  }

  // MARK: - Trees

  /// The value at `index` as a ``JSONValue`` tree.
  func value(at index: Int) -> JSONValue {
    switch kind(at: index) {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .number: return .number(String(decoding: text(at: index), as: UTF8.self))
    case .string: return .string(string(at: index))
    case .array:
      var elements: [JSONValue] = []
      let end = next(after: index)
      var element = index + 1
      while element < end {
        elements.append(value(at: element))
        element = next(after: element)
      }
      return .array(elements)
    case .object:
      var members: [(key: String, value: JSONValue)] = []
      let end = next(after: index)
      var key = index + 1
      while key < end {
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
/// scalars (or `limit`) with "…".
///
///     quoted("a\"b\n")  // "a\"b\n" with the quote and newline escaped
func quoted(_ text: String, limit: Int = quotedScalars) -> String {
  var shown = ""
  var scalars = 0
  for scalar in text.unicodeScalars {
    if scalars == limit {
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

/// The offset of the closing quote of the scanned string whose text starts at `start` in
/// `bytes`; `escaped` if the scanner saw a backslash in it.
@inline(__always)
func closingQuote(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, escaped: Bool) -> Int {
  var i = start
  let end = bytes.count
  if let raw = UnsafeRawPointer(bytes.baseAddress) {
    while i + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      let hits = escaped ? ASCII.quoteOrBackslash(word) : ASCII.quotes(word)
      if hits != 0 {
        i += hits.trailingZeroBitCount >> 3
        if bytes[i] == ASCII.quote { return i }
        i += 2  // NB: a backslash and the byte it escapes (never a quote that ends).
      } else {
        i += 8
      }
    }
  }
  while i < end {
    let byte = bytes[i]
    if byte == ASCII.quote { return i }
    i += byte == ASCII.backslash ? 2 : 1
  }
  return end
}
