#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads JSON text into a ``Document`` in one pass, checking every rule of RFC 8259 on the way.
///
/// It rejects what the wire format rejects (docs/wire-format.md): invalid UTF-8, lone surrogates,
/// control characters in strings, leading zeros, trailing bytes, a byte order mark, a repeated
/// member name in one object and nesting deeper than ``JSONParser/maxDepth``. Nothing it reads
/// can make it trap; every failure is a syntax error with the byte offset, but for a repeated
/// member name: valid JSON of a shape the wire format refuses, a shape error at its object.
///
///     let value = try Scanner.withDocument(buffer) { $0.pointee.value(at: 0) }
///
/// NB: the loop is iterative, not recursive, so a deep document costs nothing of the host
/// thread's stack.
struct Scanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let raw: UnsafeRawPointer?
  private let end: Int
  private var tokens: UnsafeMutablePointer<UInt32>
  private var count = 0
  private var capacity: Int
  /// Whether `tokens` is ours to free (not the caller's stack).
  private var ownsTokens: Bool
  /// The innermost open container, or -1.
  ///
  /// NB: the stack of open containers is threaded through the tape itself: while a container
  /// is open, its word holds the index of the one around it, plus one. No other memory.
  private var open = -1
  private var depth = 0
  /// What to throw instead of growing the tape, when scanning only to check (``check(_:or:)``).
  private var overBudget: JSONError?

  private init(
    _ bytes: UnsafeBufferPointer<UInt8>, tokens: UnsafeMutableBufferPointer<UInt32>?,
    capacity: Int? = nil
  ) {
    self.bytes = bytes
    self.raw = UnsafeRawPointer(bytes.baseAddress)
    self.end = bytes.count
    if let tokens, let base = tokens.baseAddress, tokens.count > 0 {
      self.tokens = base
      self.capacity = tokens.count
      self.ownsTokens = false
    } else {
      // NB: a value takes at least 2 bytes with its separator (`0,`), so this tape never grows,
      // and only the pages the values reach are touched: at most twice the text.
      self.capacity = capacity ?? bytes.count / 2 + 2
      self.tokens = Scanner.allocateTape(self.capacity)
      self.ownsTokens = true
    }
  }

  /// Scans `bytes` and gives `body` the document, which refers to them and lives only as long
  /// as the call.
  ///
  ///     try Scanner.withDocument(buffer) { document in document.pointee.value(at: 0) }
  static func withDocument<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, userInfo: [CodingUserInfoKey: Any] = [:],
    _ body: (UnsafePointer<Document>) throws(JSONError) -> R
  ) throws(JSONError) -> R {
    guard bytes.count < Token.maxDocument else {
      throw JSONError(.syntax, offset: 0, "document of 1 GiB or more")
    }
    // NB: a document has at most one token per byte (each takes a byte of its own), so a small
    // one fits a tape on the stack and costs no allocation at all.
    return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Document.hintSlots) {
      (hints) throws(JSONError) -> R in
      guard let hints = hints.baseAddress else { throw JSONError(.syntax, offset: 0, "no memory") }
      hints.initialize(repeating: 0, count: Document.hintSlots)
      if bytes.count <= 256 {
        return try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(1, bytes.count)) {
          (tokens) throws(JSONError) -> R in
          try scan(Scanner(bytes, tokens: tokens), hints: hints, userInfo: userInfo, body)
        }
      }
      return try scan(Scanner(bytes, tokens: nil), hints: hints, userInfo: userInfo, body)
    }
  }

  /// Checks `bytes` with a tape of at most half a byte a byte of text: the first syntax error (or repeated member name) found within that, else
  /// `mismatch`.
  ///
  ///     Scanner.check(bigArray, or: mismatch)  // a syntax error first, else the mismatch
  ///
  /// NB: for ``RootProbe``: a big document whose root cannot be the expected type still gets
  /// the syntax error a full decode would give first (`[[[[…` nested too deep), but the scan
  /// stops where the tape would grow, so memory stays bounded and the error comes early.
  static func check(_ bytes: UnsafeBufferPointer<UInt8>, or mismatch: JSONError) -> JSONError {
    guard bytes.count < Token.maxDocument else { return mismatch }
    var scanner = Scanner(bytes, tokens: nil, capacity: max(8, bytes.count / 8))
    defer { if scanner.ownsTokens { free(scanner.tokens) } }
    scanner.overBudget = mismatch
    do throws(JSONError) {
      try scanner.run()
    } catch {
      return error
    }
    return mismatch
  }

  private static func scan<R>(
    _ scanner: consuming Scanner, hints: UnsafeMutablePointer<UInt64>,
    userInfo: [CodingUserInfoKey: Any],
    _ body: (UnsafePointer<Document>) throws(JSONError) -> R
  ) throws(JSONError) -> R {
    var scanner = scanner
    defer { if scanner.ownsTokens { free(scanner.tokens) } }
    try scanner.run()
    return try withUnsafePointer(to: userInfo) { (info) throws(JSONError) -> R in
      let document = Document(
        bytes: scanner.bytes, tokens: scanner.tokens, count: scanner.count,
        userInfoPointer: info, hints: hints)
      return try withUnsafePointer(to: document) { (pointer) throws(JSONError) -> R in
        try body(pointer)
      }
    }
  }

  // MARK: - Structure

  /// How deep the objects are whose member names get a summary (see ``run(names:)``).
  private static let summarizedDepth = 64

  private mutating func run() throws(JSONError) {
    // NB: a small document (an action) has few names to compare: summaries cost it more.
    guard end > 256 else { return try run(names: nil) }
    try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Scanner.summarizedDepth) {
      (names) throws(JSONError) in try run(names: names.baseAddress)
    }
  }

  /// Scans the text, with `names` (``summarizedDepth`` words, or nil) for the summaries of the
  /// member names of the objects open at each depth.
  ///
  /// NB: a summary is a word with one bit for each name's hash (its first and last bytes and its
  /// length), all bits set once two names of the object share a bit (or a name has escapes).
  /// Only then does closing the object compare its names (``MemberNames``): the usual object,
  /// whose names are distinct, costs a few operations a name.
  @inline(__always)
  private mutating func run(names: UnsafeMutablePointer<UInt64>?) throws(JSONError) {
    if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      throw JSONError(.syntax, offset: 0, "byte order mark before the JSON value")
    }
    // NB: the loop keeps the tape and the chain of open containers in locals, so that they
    // stay in registers: the scanner's own fields are written only around the rare calls that
    // read them (``grown(_:count:)``, a repeated name's error) and at the end. Index
    // arithmetic is wrapping where the bounds are checked (`i < end`, a document under 1 GiB).
    var tokens = self.tokens
    var count = self.count
    var capacity = self.capacity
    var open = self.open
    var depth = self.depth
    let text = Text(bytes: bytes, raw: raw, end: end)
    var i = text.skipWhitespace(from: 0)
    value: while true {
      guard i < end else { throw text.fail(.endExpectingValue, at: i) }
      let byte = bytes[i]
      switch byte {
      case ASCII.openBrace, ASCII.openBracket:
        let isObject = byte == ASCII.openBrace
        guard depth < JSONParser.maxDepth else {
          throw text.fail(.tooDeep, at: i)
        }
        if count == capacity { (tokens, capacity) = try grown(tokens, count: count) }
        tokens[count] =
          Token.container | (isObject ? Token.object : 0) | UInt32(truncatingIfNeeded: open &+ 1)
        open = count
        count &+= 1
        depth &+= 1
        if isObject, depth <= Scanner.summarizedDepth, let names { names[depth &- 1] = 0 }
        i = text.skipWhitespace(from: i &+ 1)
        if i < end, bytes[i] == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
          i &+= 1
          // NB: an empty container: closed at once, no names to check.
          _ = Scanner.closeInnermost(tokens, open: &open, depth: &depth, count: count)
        } else {
          if isObject {
            // NB: `"name":`, as after a comma below.
            try scanName(
              at: &i, text: text, tokens: &tokens, count: &count, capacity: &capacity,
              depth: depth, names: names)
          }
          continue value
        }
      case ASCII.quote:
        let (quote, escaped) = try text.stringEnd(from: i)
        if count == capacity { (tokens, capacity) = try grown(tokens, count: count) }
        tokens[count] = UInt32(truncatingIfNeeded: i) | (escaped ? Token.flag : 0)
        count &+= 1
        i = quote &+ 1
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        let length = try text.literalLength(at: i)
        if count == capacity { (tokens, capacity) = try grown(tokens, count: count) }
        tokens[count] = UInt32(truncatingIfNeeded: i)
        count &+= 1
        i &+= length
      case ASCII.minus, ASCII.zero...ASCII.nine:
        let (numberEnd, isInteger) = try text.numberEnd(from: i)
        if count == capacity { (tokens, capacity) = try grown(tokens, count: count) }
        tokens[count] = UInt32(truncatingIfNeeded: i) | (isInteger ? Token.flag : 0)
        count &+= 1
        i = numberEnd
      default:
        throw text.fail(.expectedValue, at: i)
      }
      // A value just ended before `i`.
      while true {
        guard open >= 0 else {
          i = text.skipWhitespace(from: i)
          guard i == end else {
            throw text.fail(.trailing, at: i)
          }
          self.count = count
          self.open = open
          self.depth = depth
          return
        }
        let isObject = tokens[open] & Token.object != 0
        i = text.skipWhitespace(from: i)
        guard i < end else {
          throw text.fail(isObject ? .endInObject : .endInArray, at: i)
        }
        let byte = bytes[i]
        if byte == ASCII.comma {
          i = text.skipWhitespace(from: i &+ 1)
          if isObject {
            try scanName(
              at: &i, text: text, tokens: &tokens, count: &count, capacity: &capacity,
              depth: depth, names: names)
          }
          continue value
        }
        guard byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) else {
          throw text.fail(isObject ? .expectedCommaOrBrace : .expectedCommaOrBracket, at: i)
        }
        i &+= 1
        let (container, opened) = Scanner.closeInnermost(
          tokens, open: &open, depth: &depth, count: count)
        // NB: `depth` is now the closed object's index in `names`; without a summary (too deep,
        // or a small document), the names are compared.
        if opened & Token.object != 0, count > container &+ 3,
          (depth < Scanner.summarizedDepth ? names?[depth] ?? .max : .max) == .max,
          let duplicate = MemberNames(tokens: tokens, bytes: bytes).firstDuplicate(in: container)
        {
          self.tokens = tokens
          self.open = open
          throw duplicateError(duplicate, in: container)
        }
      }
    }
  }

  /// The shape error of a member name given twice in the object at `object` (just closed): at
  /// the object's pointer, naming the key.
  ///
  ///     {"a":1,"a":2}  →  at /: duplicate member name "a"
  ///
  /// NB: a repeated name is valid JSON (RFC 8259) that the wire format refuses (I-JSON does
  /// too), so it is a shape error, not a syntax one. The objects and arrays around it are still
  /// open: their chain (see ``open``) gives the path; in an array, the elements before the open
  /// one are closed, so counting them gives its index.
  @inline(never)
  private func duplicateError(_ key: Int, in object: Int) -> JSONError {
    var chain = [object]
    var ancestor = open
    while ancestor >= 0 {
      chain.append(ancestor)
      ancestor = Int(tokens[ancestor] & Token.payload) - 1
    }
    var path: [any CodingKey] = []
    var level = chain.count - 1
    while level > 0 {
      let parent = chain[level]
      let child = chain[level - 1]
      if tokens[parent] & Token.object != 0 {
        path.append(AnyCodingKey(keyString(child - 1)))
      } else {
        var index = 0
        var element = parent + 1
        while element < child {
          element = MemberNames(tokens: tokens, bytes: bytes).nextToken(after: element)
          index += 1
        }
        path.append(AnyCodingKey(index: index))
      }
      level -= 1
    }
    return JSONError(
      .shape, path: JSON.pointer(path), "duplicate member name \(quoted(keyString(key)))")
  }

  /// The name at key token `key`, unescaped.
  private func keyString(_ key: Int) -> String {
    let text = MemberNames(tokens: tokens, bytes: bytes).keyText(key)
    if tokens[key] & Token.flag == 0 { return String(decoding: text, as: UTF8.self) }
    return String(decoding: unescaped(text), as: UTF8.self)
  }

  // MARK: - The text

  /// The bytes being scanned, and the checks of its scalars.
  ///
  /// NB: apart from the scanner, so that the scanning loop (a `mutating` method) calls these
  /// on a local value: called on the scanner itself, each call copied all of it first. Not
  /// private: ``DirectCursor`` checks text with it too.
  struct Text {
    let bytes: UnsafeBufferPointer<UInt8>
    let raw: UnsafeRawPointer?
    let end: Int


    /// Checks the string whose opening quote is at `start`; returns the offset of its closing
    /// quote, and whether it has escapes.
    @inline(__always)
    func stringEnd(from start: Int) throws(JSONError) -> (Int, escaped: Bool) {
      var i = start &+ 1
      var escaped = false
      while true {
        if let raw {
          while i &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let special = ASCII.specialBytes(word)
            if special != 0 {
              // NB: the lowest marked byte is always a real one: step right to it.
              i &+= special.trailingZeroBitCount >> 3
              break
            }
            i &+= 8
          }
        }
        guard i < end else { throw fail(.unterminatedString, at: i) }
        let byte = bytes[i]
        if byte == ASCII.quote { return (i, escaped) }
        if byte == ASCII.backslash {
          i = try scanEscape(at: i)
          escaped = true
        } else if byte < 0x20 {
          throw fail(.controlCharacter, at: i)
        } else if byte < 0x80 {
          i &+= 1
        } else {
          i = try scanUTF8(at: i)
        }
      }
    }

    /// One of 64 bits, picked by the first and last bytes and the length of the name whose
    /// quotes are at `start` and `end` (the scanner checked them): equal names pick the same bit.
    @inline(__always)
    func nameBit(from start: Int, to end: Int) -> UInt64 {
      // NB: for `""` the two bytes are the quotes themselves: still inside the text.
      let mix = UInt64(bytes[start &+ 1]) &+ UInt64(bytes[end &- 1]) << 2 &+ UInt64(
        truncatingIfNeeded: end &- start) << 4
      return 1 << (mix & 63)
    }

    /// Checks the escape at `start` (a backslash); returns the offset past it.
    func scanEscape(at start: Int) throws(JSONError) -> Int {
      guard start + 1 < end else { throw fail(.unterminatedString, at: start + 1) }
      switch bytes[start + 1] {
      case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        return start + 2
      case UInt8(ascii: "u"):
        let unit = try hex4(at: start + 2)
        if unit >= 0xDC00 && unit < 0xE000 {
          throw fail(.loneSurrogate, at: start)
        }
        guard unit >= 0xD800 && unit < 0xDC00 else { return start + 6 }
        guard start + 7 < end, bytes[start + 6] == ASCII.backslash,
          bytes[start + 7] == UInt8(ascii: "u")
        else { throw fail(.loneSurrogate, at: start) }
        let low = try hex4(at: start + 8)
        guard low >= 0xDC00 && low < 0xE000 else {
          throw fail(.loneSurrogate, at: start)
        }
        return start + 12
      default:
        throw fail(.invalidEscape, at: start)
      }
    }

    func hex4(at start: Int) throws(JSONError) -> UInt32 {
      guard start + 4 <= end else { throw fail(.invalidUnicodeEscape, at: start) }
      var value: UInt32 = 0
      for i in start..<(start + 4) {
        guard let digit = ASCII.hexValue(bytes[i]) else {
          throw fail(.invalidUnicodeEscape, at: i)
        }
        value = value << 4 | digit
      }
      return value
    }

    /// Checks the UTF-8 sequence whose lead byte (not ASCII) is at `start`; returns the offset
    /// past it. Overlong forms, surrogates and code points past U+10FFFF are errors.
    func scanUTF8(at start: Int) throws(JSONError) -> Int {
      let lead = bytes[start]
      let trailing: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: trailing = 1
      case 0xE0: trailing = 2; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
      case 0xED: trailing = 2; high = 0x9F
      case 0xF0: trailing = 3; low = 0x90
      case 0xF1...0xF3: trailing = 3
      case 0xF4: trailing = 3; high = 0x8F
      default: throw fail(.invalidUTF8, at: start)
      }
      guard start + trailing < end else { throw fail(.invalidUTF8, at: start) }
      let second = bytes[start + 1]
      guard second >= low && second <= high else {
        throw fail(.invalidUTF8, at: start)
      }
      var k = 2
      while k <= trailing {
        guard bytes[start + k] & 0xC0 == 0x80 else {
          throw fail(.invalidUTF8, at: start)
        }
        k += 1
      }
      return start + trailing + 1
    }

    /// Checks the number that starts at `start`; returns the offset past it, and whether it has
    /// neither fraction nor exponent.
    @inline(__always)
    func numberEnd(from start: Int) throws(JSONError) -> (Int, isInteger: Bool) {
      var i = start
      var isInteger = true
      if bytes[i] == ASCII.minus { i &+= 1 }
      guard i < end, ASCII.isDigit(bytes[i]) else { throw fail(.invalidNumber, at: i) }
      if bytes[i] == ASCII.zero {
        i &+= 1
        if i < end, ASCII.isDigit(bytes[i]) { throw fail(.leadingZero, at: i) }
      } else {
        while i < end, ASCII.isDigit(bytes[i]) { i &+= 1 }
      }
      if i < end, bytes[i] == ASCII.dot {
        isInteger = false
        i &+= 1
        guard i < end, ASCII.isDigit(bytes[i]) else { throw fail(.invalidFraction, at: i) }
        while i < end, ASCII.isDigit(bytes[i]) { i &+= 1 }
      }
      if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
        isInteger = false
        i &+= 1
        if i < end, bytes[i] == ASCII.plus || bytes[i] == ASCII.minus { i &+= 1 }
        guard i < end, ASCII.isDigit(bytes[i]) else { throw fail(.invalidExponent, at: i) }
        while i < end, ASCII.isDigit(bytes[i]) { i &+= 1 }
      }
      return (i, isInteger)
    }

    /// Checks the literal (`true`, `false`, `null`) whose first byte is at `start`; returns its
    /// length.
    @inline(__always)
    func literalLength(at start: Int) throws(JSONError) -> Int {
      let literal: StaticString =
        switch bytes[start] {
        case UInt8(ascii: "t"): "true"
        case UInt8(ascii: "f"): "false"
        default: "null"
        }
      let length = literal.utf8CodeUnitCount
      guard end - start >= length, let raw else { throw fail(.invalidLiteral, at: start) }
      // NB: the last four bytes of `true`, `null` and `false` (`alse`) in one comparison.
      let expected = UnsafeRawPointer(literal.utf8Start).loadUnaligned(
        fromByteOffset: length - 4, as: UInt32.self)
      let found = raw.loadUnaligned(fromByteOffset: start + length - 4, as: UInt32.self)
      guard expected == found else { throw fail(.invalidLiteral, at: start) }
      return length
    }


    @inline(__always)
    func skipWhitespace(from start: Int) -> Int {
      var i = start
      while i < end, bytes[i] <= ASCII.space, ASCII.isWhitespace(bytes[i]) { i += 1 }
      return i
    }

    /// What can be wrong with the text.
    enum Problem {
      case endExpectingValue, expectedValue, tooDeep, trailing, endInObject, endInArray
      case expectedName, expectedColon, expectedCommaOrBrace, expectedCommaOrBracket
      case unterminatedString, controlCharacter, loneSurrogate, invalidEscape
      case invalidUnicodeEscape, invalidUTF8
      case invalidNumber, leadingZero, invalidFraction, invalidExponent, invalidLiteral
    }

    /// The syntax error for `problem` at `offset`.
    ///
    /// NB: out of line, so that building messages costs the scanning loops nothing.
    @inline(never)
    func fail(_ problem: Problem, at offset: Int) -> JSONError {
      let found = describeByte(bytes, at: offset)
      let message: String
      switch problem {
      case .endExpectingValue: message = "unexpected end of input, expected a value"
      case .expectedValue: message = "unexpected \(found), expected a value"
      case .tooDeep: message = "nesting deeper than \(JSONParser.maxDepth)"
      case .trailing: message = "unexpected \(found) after the JSON value"
      case .endInObject: message = "unexpected end of input in an object"
      case .endInArray: message = "unexpected end of input in an array"
      case .expectedName: message = "unexpected \(found), expected a member name"
      case .expectedColon: message = "unexpected \(found), expected ':'"
      case .expectedCommaOrBrace: message = "unexpected \(found), expected ',' or '}'"
      case .expectedCommaOrBracket: message = "unexpected \(found), expected ',' or ']'"
      case .unterminatedString: message = "unterminated string"
      case .controlCharacter: message = "control character in a string"
      case .loneSurrogate: message = "lone surrogate in a string"
      case .invalidEscape: message = "invalid escape \\\(describeByte(bytes, at: offset + 1))"
      case .invalidUnicodeEscape: message = "invalid \\u escape"
      case .invalidUTF8: message = "invalid UTF-8 in a string"
      case .invalidNumber: message = "invalid number"
      case .leadingZero: message = "leading zero in a number"
      case .invalidFraction: message = "invalid fraction"
      case .invalidExponent: message = "invalid exponent"
      case .invalidLiteral: message = "invalid literal"
      }
      return JSONError(.syntax, offset: offset, message)
    }
  }

  /// Closes the innermost open container: its word gets the index past its contents. Returns
  /// the container's index and its word as it was (its kind).
  @inline(__always)
  private static func closeInnermost(
    _ tokens: UnsafeMutablePointer<UInt32>, open: inout Int, depth: inout Int, count: Int
  ) -> (container: Int, opened: UInt32) {
    let container = open
    let opened = tokens[container]
    open = Int(opened & Token.payload) &- 1
    depth &-= 1
    tokens[container] = opened & ~Token.payload | UInt32(truncatingIfNeeded: count)
    return (container, opened)
  }

  /// Scans a member's `"name":` at `i` (and the whitespace after the colon) into the tape, and
  /// adds the name to the summary of its object (see ``run(names:)``).
  ///
  /// NB: on the loop's locals, passed in place: inlined, they stay in registers.
  @inline(__always)
  private mutating func scanName(
    at i: inout Int, text: Text, tokens: inout UnsafeMutablePointer<UInt32>, count: inout Int,
    capacity: inout Int, depth: Int, names: UnsafeMutablePointer<UInt64>?
  ) throws(JSONError) {
    guard i < end, bytes[i] == ASCII.quote else {
      throw text.fail(.expectedName, at: i)
    }
    let (quote, escaped) = try text.stringEnd(from: i)
    if count == capacity { (tokens, capacity) = try grown(tokens, count: count) }
    tokens[count] = UInt32(truncatingIfNeeded: i) | (escaped ? Token.flag : 0)
    count &+= 1
    if depth <= Scanner.summarizedDepth, let names {
      let bit = text.nameBit(from: i, to: quote)
      let summary = names[depth &- 1]
      names[depth &- 1] = summary & bit != 0 || escaped ? .max : summary | bit
    }
    i = text.skipWhitespace(from: quote &+ 1)
    guard i < end, bytes[i] == ASCII.colon else {
      throw text.fail(.expectedColon, at: i)
    }
    i = text.skipWhitespace(from: i &+ 1)
  }

  // MARK: - Helpers
  /// The tape `tokens` (holding `count` tokens, full) grown to twice its capacity: only a
  /// checking scan's (``check(_:or:)``), which throws instead, or a caller's tape on the stack.
  ///
  /// NB: with `realloc`: for a big tape the C library moves the pages rather than copying them,
  /// so growing never holds the old and the new tape at once (peak memory stays the tape's).
  /// The scanner's fields follow (`tokens`, `capacity`, `ownsTokens`), for whoever frees it.
  @inline(never)
  private mutating func grown(
    _ tokens: UnsafeMutablePointer<UInt32>, count: Int
  ) throws(JSONError) -> (UnsafeMutablePointer<UInt32>, capacity: Int) {
    if let overBudget { throw overBudget }
    let larger = capacity * 2
    let size = larger * MemoryLayout<UInt32>.stride
    if ownsTokens, let moved = realloc(tokens, size) {
      self.tokens = moved.bindMemory(to: UInt32.self, capacity: larger)
    } else {
      let fresh = Scanner.allocateTape(larger)
      fresh.moveInitialize(from: tokens, count: count)
      if ownsTokens { free(tokens) }
      self.tokens = fresh
    }
    capacity = larger
    ownsTokens = true
    return (self.tokens, larger)
  }

  /// A tape of `capacity` tokens from `malloc` (freed with `free`, grown with `realloc`).
  private static func allocateTape(_ capacity: Int) -> UnsafeMutablePointer<UInt32> {
    let size = capacity * MemoryLayout<UInt32>.stride
    guard let raw = malloc(size) else {
      // NB: as Swift's own allocations do when memory runs out.
      fatalError("out of memory for a JSON tape of \(capacity) values")
    }
    return raw.bindMemory(to: UInt32.self, capacity: capacity)
  }

}

/// The check that an object's member names are unique, for the ``Scanner``.
///
/// NB: apart from the scanner so that calling it copies two pointers, not the scanner.
private struct MemberNames {
  let tokens: UnsafeMutablePointer<UInt32>
  let bytes: UnsafeBufferPointer<UInt8>

  /// The key token of the first member of the object at `object` (just closed) whose name an
  /// earlier member has, or nil if the names are unique.
  func firstDuplicate(in object: Int) -> Int? {
    let end = Int(tokens[object] & Token.payload)
    // NB: one member, whatever its value (an enum case's `{"name":{…}}`): nothing to compare.
    guard object + 2 < end, nextToken(after: object + 2) < end else { return nil }
    // NB: the usual small object in one pass: each name against the ones before it, whose keys
    // are kept on the stack (distinct names mostly differ at their first byte). A seventeenth
    // member sends the object to the table below.
    let small = withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { seen -> Int?? in
      var count = 0
      var key = object + 1
      while key < end {
        guard count < seen.count else { return .none }
        for earlier in 0..<count where sameKey(seen[earlier], key) { return .some(key) }
        seen[count] = key
        count += 1
        key = nextToken(after: key + 1)
      }
      return .some(nil)
    }
    if let small { return small }
    var members = 0
    var key = object + 1
    while key < end {
      key = nextToken(after: key + 1)
      members += 1
    }
    // NB: a big object (a dictionary) gets an open-addressing table, so the check stays linear.
    var size = 32
    while size < members * 2 { size <<= 1 }
    var table = [Int](repeating: -1, count: size)
    let mask = size - 1
    key = object + 1
    for _ in 0..<members {
      var slot = Int(truncatingIfNeeded: keyHash(key)) & mask
      while table[slot] >= 0 {
        if sameKey(table[slot], key) { return key }
        slot = (slot + 1) & mask
      }
      table[slot] = key
      key = nextToken(after: key + 1)
    }
    return nil
  }

  @inline(__always)
  func nextToken(after index: Int) -> Int {
    let word = tokens[index]
    return word & Token.container != 0 ? Int(word & Token.payload) : index + 1
  }

  /// The text of the key (a string) at `token`, between its quotes.
  func keyText(_ token: Int) -> UnsafeBufferPointer<UInt8> {
    let word = tokens[token]
    let start = Int(word & Token.payload) + 1
    let end = closingQuote(in: bytes, from: start, escaped: word & Token.flag != 0)
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  @inline(__always)
  private func sameKey(_ a: Int, _ b: Int) -> Bool {
    let escaped = (tokens[a] | tokens[b]) & Token.flag != 0
    guard !escaped else { return unescaped(keyText(a)) == unescaped(keyText(b)) }
    // NB: side by side up to the first difference or the closing quote they share: without
    // escapes a quote ends a name, and each name has one (the scanner checked).
    var i = Int(tokens[a] & Token.payload) + 1
    var j = Int(tokens[b] & Token.payload) + 1
    while i < bytes.count && j < bytes.count {
      let byte = bytes[i]
      guard byte == bytes[j] else { return false }
      if byte == ASCII.quote { return true }
      i += 1
      j += 1
    }
    return false
  }

  private func keyHash(_ token: Int) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ bytes: some Sequence<UInt8>) {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    if tokens[token] & Token.flag != 0 {
      mix(unescaped(keyText(token)))
    } else {
      mix(keyText(token))
    }
    return hash
  }
}

/// `'x'` for a printable byte, `byte 0xNN` for another, `end of input` past the end.
func describeByte(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
  guard offset >= 0 && offset < bytes.count else { return "end of input" }
  let byte = bytes[offset]
  if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
  return "byte 0x" + String(byte, radix: 16, uppercase: true)
}

/// Whether two byte runs are equal.
///
/// NB: in at most a few loads for a member name: whole words, then the last word (or half,
/// quarter word) again, overlapping what was compared; never a byte outside either run.
@inlinable @inline(__always)
func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
  let count = a.count
  guard count == b.count else { return false }
  guard let pa = UnsafeRawPointer(a.baseAddress), let pb = UnsafeRawPointer(b.baseAddress) else {
    return count == 0
  }
  if count >= 8 {
    var i = 0
    while i &+ 8 < count {
      guard
        pa.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          == pb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      else { return false }
      i &+= 8
    }
    return pa.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      == pb.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  }
  if count >= 4 {
    return pa.loadUnaligned(as: UInt32.self) == pb.loadUnaligned(as: UInt32.self)
      && pa.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        == pb.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
  }
  if count >= 2 {
    return pa.loadUnaligned(as: UInt16.self) == pb.loadUnaligned(as: UInt16.self)
      && pa.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
        == pb.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
  }
  return count == 0 || pa.load(as: UInt8.self) == pb.load(as: UInt8.self)
}
