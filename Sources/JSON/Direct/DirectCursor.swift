/// A read of a document in one pass from its bytes, with no tape: what ``JSONValueReader``
/// reads from when ``JSONDecodable/decodeJSON(from:with:)`` first tries a big document.
///
/// It checks the text as it goes, with the ``Scanner``'s own checks (``Scanner/Text``), and
/// hands out each value once, where it stands: the value a reader may read next is the
/// *pending* one. It only ever takes the common way through a document: every object read
/// member by member in the order written, every member asked for by its name, every array read
/// to its end. Anything else (a member asked for out of order or not asked for, a container
/// left unread, an escaped name, a decline that escapes the root's `init(json:)`, a syntax
/// error, nesting deeper than ``maxDepth``) *fails* the read: every later read declines, the
/// value made is dropped, and the caller decodes the document again through the scanner,
/// which gives the same value or the same error as if this had never run.
///
///     {"id":3,"done":true}   read as  object() · decode(forKey: "id") · decode(forKey: "done")
///
/// NB: why it exists: a tape costs a pass over the text and a second look at every value
/// (its member lookup, its string's end, its number's digits), ~0.9k instructions a todo of
/// the bench's 1,000 (docs/benchmarks.md). Read here, a value costs its one check.
///
/// NB: why a failed read gives the same result as the scanner: it accepts a document only when
/// the scanner would (all of it checked: every value read or skipped is checked as the scanner
/// checks it, the names of each object are the distinct names asked for, no container is left
/// open, nothing but whitespace follows), and each value read is made by the same code from the
/// same text as from a tape (``makeString(_:escaped:)``, ``NumberParsing``).
@usableFromInline
struct DirectCursor {
  /// The text, with the scanner's checks.
  let text: Scanner.Text
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let end: Int
  /// The offset of the first byte not read yet.
  @usableFromInline var position: Int
  /// The offset of the value a reader may read next, or -1 (none, or the read failed).
  @usableFromInline var pending: Int
  /// How many containers are open (``frames``).
  @usableFromInline var depth = 0
  /// The open containers, innermost last.
  @usableFromInline let frames: UnsafeMutablePointer<Frame>
  /// Whether the read failed (see above).
  @usableFromInline var failed = false
  /// The addresses of member names known to need no escaping (``plainName(_:)``).
  @usableFromInline let keys: UnsafeMutablePointer<UInt>

  /// How many names ``keys`` remembers; a power of two.
  @inlinable
  static var keySlots: Int { 16 }

  /// How deep containers may be open; deeper documents are left to the scanner.
  ///
  /// NB: a small stack of frames (768 bytes) stays on the thread's stack; the scanner's
  /// limit (``JSONParser/maxDepth``) is much deeper, and a deeper document is only slower.
  @inlinable
  static var maxDepth: Int { 32 }

  /// An open container.
  @usableFromInline
  struct Frame {
    /// The offset of its opening bracket.
    @usableFromInline var start: Int
    /// How many members or elements were reached.
    @usableFromInline var count: Int
    /// One bit for each member name read (``nameBit(_:)``): two names with the same bit fail
    /// the read, so the names of an object it accepts are distinct.
    @usableFromInline var names: UInt64

    @inlinable
    init(start: Int, count: Int, names: UInt64) {
      self.start = start
      self.count = count
      self.names = names
    }
  }

  /// Runs `body` with a cursor at the root value of `buffer`; returns whether the read got
  /// through the whole document without failing (`body` returned, nothing left unread).
  static func read(
    _ buffer: UnsafeBufferPointer<UInt8>,
    _ body: (UnsafeMutablePointer<DirectCursor>) throws(JSONDeclined) -> Void
  ) -> Bool {
    guard let base = buffer.baseAddress, buffer.count < Token.maxDocument else { return false }
    return withUnsafeTemporaryAllocation(of: Frame.self, capacity: maxDepth) { frames in
      withUnsafeTemporaryAllocation(of: UInt.self, capacity: keySlots) { keys in
        guard let frames = frames.baseAddress, let keys = keys.baseAddress else { return false }
        keys.initialize(repeating: 0, count: keySlots)
        let text = Scanner.Text(bytes: buffer, raw: UnsafeRawPointer(base), end: buffer.count)
        let root = text.skipWhitespace(from: 0)
        guard root < buffer.count else { return false }
        var cursor = DirectCursor(
          text: text, base: base, end: buffer.count, position: root, pending: root,
          frames: frames, keys: keys)
        return withUnsafeMutablePointer(to: &cursor) { cursor in
          do throws(JSONDeclined) {
            try body(cursor)
          } catch {
            return false
          }
          return cursor.pointee.finish()
        }
      }
    }
  }

  // MARK: - Failing

  /// Fails the read; returns the error for the reader to throw.
  @inlinable @inline(__always)
  mutating func fail() -> JSONDeclined {
    failed = true
    pending = -1
    return JSONDeclined()
  }

  /// Takes the pending value at `offset` for reading: false (and the read failed) if it is not
  /// the pending one.
  @inlinable @inline(__always)
  mutating func take(_ offset: Int) -> Bool {
    // NB: a failed read has no pending value, and offsets are never negative.
    guard offset == pending else {
      _ = fail()
      return false
    }
    pending = -1
    return true
  }

  // MARK: - Scalars

  /// Whether the pending value at `offset` is `null` (left pending: a reader may still read it,
  /// or it is skipped).
  mutating func isNull(at offset: Int) -> Bool {
    guard offset == pending else {
      _ = fail()
      return false
    }
    return base[offset] == UInt8(ascii: "n")
  }

  /// NB: `true` and `alse` each in one 4-byte comparison, as ``Scanner/Text/literalLength(at:)``
  /// checks them.
  ///
  /// NB: inlinable, so that ``JSONObjectReader``'s `decode(Bool.self, forKey:)` reads it in
  /// the conformance, without a call.
  @inlinable @inline(__always)
  mutating func bool(at offset: Int) throws(JSONDeclined) -> Bool {
    guard take(offset) else { throw JSONDeclined() }
    let raw = UnsafeRawPointer(base)
    if offset &+ 4 <= end,
      UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        == 0x6575_7274
    {
      position = offset &+ 4
      return true
    }
    if offset &+ 5 <= end, base[offset] == UInt8(ascii: "f"),
      UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset &+ 1, as: UInt32.self))
        == 0x6573_6C61
    {
      position = offset &+ 5
      return false
    }
    throw fail()
  }

  /// The number at `offset` as a `T`, as a tape reads it (``Document/integer(_:at:)``); fails
  /// when it is not a whole number in `T`'s range.
  ///
  /// NB: the usual whole number's digits are checked and summed in one loop. One with a
  /// fraction or an exponent, too many digits, or a minus sign for an unsigned type is read
  /// from its text, as a tape reads it.
  @inline(__always)
  mutating func integer<T: FixedWidthInteger>(
    _ type: T.Type, at offset: Int
  ) throws(JSONDeclined) -> T {
    guard take(offset) else { throw JSONDeclined() }
    var i = offset
    let negative = base[i] == ASCII.minus
    if negative { i &+= 1 }
    if !negative || T.isSigned, i < end, base[i] &- ASCII.zero < 10 {
      var value: T = 0
      var overflow = false
      if base[i] == ASCII.zero {
        i &+= 1
      } else {
        while i < end {
          let digit = base[i] &- ASCII.zero
          guard digit < 10 else { break }
          guard let next = NumberParsing.appending(digit, to: value, negative: negative) else {
            overflow = true
            break
          }
          value = next
          i &+= 1
        }
      }
      // NB: a digit after a leading zero is the scanner's error: the text path fails on it.
      if !overflow, i >= end || base[i] != ASCII.dot && base[i] | 0x20 != UInt8(ascii: "e")
        && base[i] &- ASCII.zero >= 10
      {
        position = i
        return value
      }
    }
    pending = offset
    let (text, flags) = try numberText(at: offset)
    let value =
      flags & Token.integer != 0
      ? NumberParsing.integer(type, in: self.text.bytes, at: offset)
      : NumberParsing.integer(type, from: text, flags: flags)
    guard let value else { throw fail() }
    return value
  }

  /// ``integer(_:at:)`` for an `Int`, the usual number (no sign, 1 to 18 digits, no leading
  /// zero, no fraction or exponent) read in the caller: anything else calls
  /// ``integer(_:at:)``.
  ///
  /// NB: inlinable, so that ``JSONObjectReader``'s `decode(Int.self, forKey:)` reads it in the
  /// conformance, without a call. 18 digits never overflow an `Int`; the 19th leaves the
  /// number to the general read, which checks.
  @inlinable @inline(__always)
  mutating func int(at offset: Int) throws(JSONDeclined) -> Int {
    if offset == pending {
      var i = offset
      var value = 0
      while i < end && i &- offset < 18 {
        let digit = base[i] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        value = value &* 10 &+ Int(truncatingIfNeeded: digit)
        i &+= 1
      }
      let count = i &- offset
      if count > 0, count < 18, count == 1 || base[offset] != UInt8(ascii: "0"),
        i >= end || base[i] != UInt8(ascii: ".") && base[i] | 0x20 != UInt8(ascii: "e")
      {
        pending = -1
        position = i
        return value
      }
    }
    return try integerOutOfLine(at: offset)
  }

  /// ``integer(_:at:)`` for an `Int`, out of line: for ``int(at:)``.
  @usableFromInline
  mutating func integerOutOfLine(at offset: Int) throws(JSONDeclined) -> Int {
    try integer(Int.self, at: offset)
  }

  /// The text of the string at `offset` (between its quotes), and whether it has escapes.
  @inline(__always)
  mutating func stringText(
    at offset: Int
  ) throws(JSONDeclined) -> (UnsafeBufferPointer<UInt8>, escaped: Bool) {
    guard take(offset) else { throw JSONDeclined() }
    guard base[offset] == ASCII.quote else { throw fail() }
    do throws(JSONError) {
      let (quote, escaped) = try text.stringEnd(from: offset)
      position = quote &+ 1
      let text = UnsafeBufferPointer(start: base + (offset &+ 1), count: quote &- offset &- 1)
      return (text, escaped)
    } catch {
      throw fail()
    }
  }

  /// The text of the number at `offset`, with its flags as a tape gives them
  /// (``Document/flags(at:)``).
  @inline(__always)
  mutating func numberText(
    at offset: Int
  ) throws(JSONDeclined) -> (UnsafeBufferPointer<UInt8>, flags: UInt8) {
    guard take(offset) else { throw JSONDeclined() }
    let first = base[offset]
    guard first == ASCII.minus || ASCII.isDigit(first) else { throw fail() }
    do throws(JSONError) {
      let (numberEnd, isInteger) = try text.numberEnd(from: offset)
      position = numberEnd
      let flags = (isInteger ? Token.integer : 0) | (first == ASCII.minus ? Token.negative : 0)
      return (UnsafeBufferPointer(start: base + offset, count: numberEnd &- offset), flags)
    } catch {
      throw fail()
    }
  }

  /// Checks and passes the pending value, if any, unread: a scalar or an empty container
  /// (anything else fails the read). Returns false if the read failed.
  mutating func skipPending() -> Bool {
    guard pending >= 0 else { return !failed }
    let i = pending
    pending = -1
    do throws(JSONError) {
      switch base[i] {
      case ASCII.quote:
        position = try text.stringEnd(from: i).0 &+ 1
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        position = i &+ (try text.literalLength(at: i))
      case ASCII.minus, ASCII.zero...ASCII.nine:
        position = try text.numberEnd(from: i).0
      case ASCII.openBrace, ASCII.openBracket:
        let closing = base[i] == ASCII.openBrace ? ASCII.closeBrace : ASCII.closeBracket
        let after = text.skipWhitespace(from: i &+ 1)
        guard after < end, base[after] == closing else {
          _ = fail()
          return false
        }
        position = after &+ 1
      default:
        _ = fail()
        return false
      }
    } catch {
      _ = fail()
      return false
    }
    return true
  }

  // MARK: - Containers

  /// Opens the pending container at `offset`, whose first byte must be `opening`.
  @inlinable @inline(__always)
  mutating func open(_ offset: Int, _ opening: UInt8) throws(JSONDeclined) {
    guard take(offset) else { throw JSONDeclined() }
    guard base[offset] == opening, depth < DirectCursor.maxDepth else { throw fail() }
    frames[depth] = Frame(start: offset, count: 0, names: 0)
    depth &+= 1
    position = offset &+ 1
  }

  /// Closes the innermost container: passes its pending value, then its closing bracket must
  /// follow. Returns false if the read failed.
  private mutating func close() -> Bool {
    guard depth > 0, skipPending() else { return false }
    let closing =
      base[frames[depth &- 1].start] == ASCII.openBrace ? ASCII.closeBrace : ASCII.closeBracket
    let i = text.skipWhitespace(from: position)
    guard i < end, base[i] == closing else {
      _ = fail()
      return false
    }
    position = i &+ 1
    depth &-= 1
    return true
  }

  /// Makes the container opened at `container` the innermost one again, closing the ones
  /// opened inside it, and passes its pending value. Returns false if the read failed (or the
  /// container is not open: a reader kept past its container's end).
  @inline(__always)
  private mutating func settle(_ container: Int) -> Bool {
    while depth > 0 {
      let innermost = frames[depth &- 1].start
      if innermost == container { return skipPending() }
      guard innermost > container, close() else { break }
    }
    _ = fail()
    return false
  }

  /// Moves to the next member of the object opened at `object`, which must be named `name`,
  /// and returns the offset of its value (pending). Returns nil if the object has no more
  /// members and `required` is false, or if the read failed (then `failed` is set).
  ///
  /// NB: the usual member, `,"name":value` with no whitespace right after the last value read,
  /// is matched in place, inlined in the reader: its name's bytes are the name asked for, and
  /// a name that needs no escaping (``plainName(_:)``) makes them a valid string without
  /// escapes. Anything else takes ``nextMember(_:of:required:)``, which checks as the scanner.
  ///
  /// NB: inlinable, so that in a conformance (``JSONObjectReader``'s scalar readers are
  /// inlined there) the name is a constant: its bit, its length and its comparison folded.
  @inlinable @inline(__always)
  mutating func member(_ literal: StaticString, of object: Int, required: Bool) -> Int? {
    // NB: a one-character literal may be held as a scalar, its bytes in a buffer of the
    // moment: not an address ``plainName(_:)`` may remember.
    guard literal.hasPointerRepresentation else {
      return literal.withUTF8Buffer { name in
        nextMember(name, bit: DirectCursor.nameBit(name), of: object, required: required)
      }
    }
    let name = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    let bit = DirectCursor.nameBit(name)
    if depth > 0, pending < 0 {
      let frame = frames + (depth &- 1)
      var i = position
      if frame.pointee.start == object, i < end {
        if frame.pointee.count != 0 && base[i] == UInt8(ascii: ",") { i &+= 1 }
        // NB: `"`, the name, `"`, `:` and the value's first byte, in bounds.
        let quote = i &+ name.count &+ 1
        if i > position || frame.pointee.count == 0, quote &+ 2 < end,
          base[i] == UInt8(ascii: "\""), base[quote] == UInt8(ascii: "\""),
          base[quote &+ 1] == UInt8(ascii: ":"), base[quote &+ 2] > UInt8(ascii: " "),
          bytesEqual(UnsafeBufferPointer(start: base + (i &+ 1), count: name.count), name),
          frame.pointee.names & bit == 0, plainName(name)
        {
          frame.pointee.names |= bit
          frame.pointee.count &+= 1
          position = quote &+ 2
          pending = position
          return position
        }
      }
    }
    return nextMember(name, bit: bit, of: object, required: required)
  }

  /// The bit of ``Frame/names`` for a member `name`, from its first and last bytes and its
  /// length (as the scanner's name summaries: distinct names mostly differ in one of them).
  ///
  /// NB: from the name asked for, not the one found: a name asked for twice in one object
  /// (`decodeIfPresent` after `decode`, say) fails the read even where the object has no more
  /// members, as a tape would find the first one again.
  @inlinable @inline(__always)
  static func nameBit(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard let first = name.first, let last = name.last else { return 1 }
    let mix = UInt64(first) &+ UInt64(last) << 2 &+ UInt64(truncatingIfNeeded: name.count) << 4
    return 1 << (mix & 63)
  }

  /// Whether `name` needs no escaping in JSON (no quote, backslash or control character), so
  /// that bytes equal to it between quotes are a valid string without escapes.
  ///
  /// NB: remembered by address for the names asked for most (a type's few member names are
  /// string literals, at the same address at every call).
  @inlinable @inline(__always)
  mutating func plainName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let address = UInt(bitPattern: name.baseAddress)
    let slot = keys + Int(truncatingIfNeeded: (address >> 3) & UInt(DirectCursor.keySlots &- 1))
    if slot.pointee == address { return true }
    for byte in name
    where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
      return false
    }
    slot.pointee = address
    return true
  }

  /// ``member(_:of:required:)`` in general: whitespace anywhere, containers to close first.
  @usableFromInline @inline(never)
  mutating func nextMember(
    _ name: UnsafeBufferPointer<UInt8>, bit: UInt64, of object: Int, required: Bool
  ) -> Int? {
    guard settle(object) else { return nil }
    let frame = frames + (depth &- 1)
    guard frame.pointee.names & bit == 0 else {
      _ = fail()
      return nil
    }
    var i = text.skipWhitespace(from: position)
    guard i < end else {
      _ = fail()
      return nil
    }
    if base[i] == ASCII.closeBrace && !required { return nil }
    if frame.pointee.count != 0 {
      guard base[i] == ASCII.comma else {
        _ = fail()
        return nil
      }
      i = text.skipWhitespace(from: i &+ 1)
    }
    guard i < end, base[i] == ASCII.quote else {
      _ = fail()
      return nil
    }
    do throws(JSONError) {
      let (quote, escaped) = try text.stringEnd(from: i)
      guard !escaped, quote &- i &- 1 == name.count,
        bytesEqual(UnsafeBufferPointer(start: base + (i &+ 1), count: name.count), name)
      else {
        _ = fail()
        return nil
      }
      frame.pointee.names |= bit
      frame.pointee.count &+= 1
      i = text.skipWhitespace(from: quote &+ 1)
      guard i < end, base[i] == ASCII.colon else {
        _ = fail()
        return nil
      }
      i = text.skipWhitespace(from: i &+ 1)
      guard i < end else {
        _ = fail()
        return nil
      }
    } catch {
      _ = fail()
      return nil
    }
    position = i
    pending = i
    return i
  }

  /// Moves to the next element of the array opened at `array` and returns its offset
  /// (pending), or nil at the array's end (then the array is closed).
  ///
  /// NB: the usual step, an object element read to its last member then `},` and the next
  /// element's first byte, is taken here without ``settle(_:)``.
  ///
  /// NB: inlinable, so that ``Array``'s `init(json:)` takes that step where it is specialized.
  @inlinable @inline(__always)
  mutating func element(of array: Int) throws(JSONDeclined) -> Int? {
    let i = position
    if depth > 1, pending < 0, frames[depth &- 2].start == array, i &+ 2 < end,
      base[i] == UInt8(ascii: "}"), base[i &+ 1] == UInt8(ascii: ","),
      base[i &+ 2] > UInt8(ascii: " "), base[frames[depth &- 1].start] == UInt8(ascii: "{")
    {
      depth &-= 1
      frames[depth &- 1].count &+= 1
      position = i &+ 2
      pending = position
      return position
    }
    return try nextElement(of: array)
  }

  /// ``element(of:)`` in general.
  @usableFromInline @inline(never)
  mutating func nextElement(of array: Int) throws(JSONDeclined) -> Int? {
    guard settle(array) else { throw JSONDeclined() }
    let frame = frames + (depth &- 1)
    var i = text.skipWhitespace(from: position)
    guard i < end else { throw fail() }
    if base[i] == ASCII.closeBracket {
      position = i &+ 1
      depth &-= 1
      return nil
    }
    if frame.pointee.count != 0 {
      guard base[i] == ASCII.comma else { throw fail() }
      i = text.skipWhitespace(from: i &+ 1)
      guard i < end else { throw fail() }
    }
    frame.pointee.count &+= 1
    position = i
    pending = i
    return i
  }

  /// After the root's reader returned: closes what is open, passes what is pending; only
  /// whitespace may follow. Whether the read got through.
  mutating func finish() -> Bool {
    while depth > 0 {
      guard close() else { return false }
    }
    guard skipPending() else { return false }
    return text.skipWhitespace(from: position) == end
  }
}

extension JSONValueReader {
  /// Runs `body` with a reader of the root value of `buffer` in a direct read
  /// (``DirectCursor``); returns whether the read got through (else anything `body` made is to
  /// be dropped, and the document decoded from a tape).
  @usableFromInline
  static func readDirectly(
    _ buffer: UnsafeBufferPointer<UInt8>, _ body: (JSONValueReader) throws(JSONDeclined) -> Void
  ) -> Bool {
    // NB: the reader's `document` is a stand-in with an empty tape: a direct reader never
    // reads it (every read goes to the cursor first).
    var token: UInt32 = 0
    var hint: UInt64 = 0
    let info: [CodingUserInfoKey: Any] = [:]
    return withUnsafeMutablePointer(to: &token) { token in
      withUnsafeMutablePointer(to: &hint) { hint in
        withUnsafePointer(to: info) { info in
          let standIn = Document(
            bytes: buffer, tokens: token, count: 0, userInfoPointer: info, hints: hint)
          return withUnsafePointer(to: standIn) { document in
            DirectCursor.read(buffer) { (cursor) throws(JSONDeclined) in
              try body(
                JSONValueReader(document, at: cursor.pointee.pending, cursor: cursor))
            }
          }
        }
      }
    }
  }
}
