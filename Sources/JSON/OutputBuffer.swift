/// A growable byte buffer that JSON text is written into: strings escaped, numbers formatted.
///
///     var out = OutputBuffer()
///     out.appendString("a\"b")  // "a\"b"
///     out.appendInteger(-42)    // -42
///     let bytes = out.bytes()
///
/// NB: it owns raw memory rather than an `[UInt8]`: appending a byte is a bounds-free store
/// after one capacity check, with no uniqueness check or exclusivity bookkeeping.
struct OutputBuffer: ~Copyable {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int
  /// Whether `base` is ours to free (not memory lent by the caller).
  private var ownsMemory = true
  /// The layout of a lent text being written (``JSONLayout``), nil for any other text.
  var layout: JSONLayout?
  /// The `userInfo` of the ``JSONEncoder`` writing, when it has one, for as long as it writes:
  /// for the values a direct path writes through their `encode(to:)` (see
  /// ``JSONObjectWriter/encodeMember(_:forKey:)``).
  var userInfo: UserInfoPointer?

  init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    self.base = .allocate(capacity: self.capacity)
  }

  /// A buffer that starts in `memory` (the caller's, say on its stack) and moves to memory of
  /// its own if it outgrows it.
  init(startingIn memory: UnsafeMutableBufferPointer<UInt8>) {
    if let start = memory.baseAddress, memory.count >= 16 {
      base = start
      capacity = memory.count
      ownsMemory = false
    } else {
      capacity = 256
      base = .allocate(capacity: capacity)
    }
  }

  deinit { if ownsMemory { base.deallocate() } }

  /// A copy of the bytes written.
  func bytes() -> [UInt8] {
    [UInt8](UnsafeBufferPointer(start: base, count: count))
  }

  /// The bytes written so far.
  var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if extra > capacity - count { grow(extra) }
  }

  private mutating func grow(_ extra: Int) {
    var larger = capacity * 2
    while larger - count < extra { larger *= 2 }
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    memory.moveInitialize(from: base, count: count)
    if ownsMemory { base.deallocate() }
    base = memory
    capacity = larger
    ownsMemory = true
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends a byte after a `reserve` that made room for it.
  @inline(__always)
  mutating func appendReserved(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append(_ literal: StaticString) {
    append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Forgets the bytes written after `offset`.
  mutating func truncate(to offset: Int) {
    if offset >= 0 && offset < count { count = offset }
  }

  // MARK: - Strings

  /// Appends `string` quoted and escaped.
  mutating func appendString(_ string: String) {
    // NB: a native string's bytes are read where they are, without a copy of the string (whose
    // retain and release were a tenth of writing a todo); a bridged one is made native first.
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { text in
      appendString(utf8: text)
    }
    if done != nil { return }
    var string = string
    string.withUTF8 { text in appendString(utf8: text) }
  }

  /// Appends a member's name as `,"name":` (the comma only when `comma`).
  ///
  ///     out.appendKey("isComplete", comma: true)  // ,"isComplete":
  ///
  /// NB: names are constants of the source, short and almost never escaped: they are copied
  /// a word (or a byte) at a time after one capacity check, and only a name that has a byte to
  /// escape takes the general path.
  @inline(__always)
  mutating func appendKey(_ name: StaticString, comma: Bool) {
    name.withUTF8Buffer { text in
      let start = count
      reserve(text.count + 12)
      if comma { appendReserved(ASCII.comma) }
      appendReserved(ASCII.quote)
      if let source = UnsafeRawPointer(text.baseAddress), copyUnescaped(source, text.count) {
        appendReserved(ASCII.quote)
      } else {
        count = start + (comma ? 1 : 0)
        appendString(utf8: text)
      }
      append(ASCII.colon)
    }
  }

  /// Copies `length` bytes at `source` (room reserved) unless one must be escaped; returns
  /// whether it did.
  @inline(__always)
  private mutating func copyUnescaped(_ source: UnsafeRawPointer, _ length: Int) -> Bool {
    let target = UnsafeMutableRawPointer(base + count)
    if length < 8 {
      var word: UInt64 = 0x2020_2020_2020_2020
      for i in 0..<length {
        word ^= UInt64(source.load(fromByteOffset: i, as: UInt8.self) ^ ASCII.space) << (8 * i)
      }
      guard !ASCII.needsEscape(word) else { return false }
      target.storeBytes(of: word, as: UInt64.self)
    } else {
      var i = 0
      while i + 8 <= length {
        let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        guard !ASCII.needsEscape(word) else { return false }
        target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
        i += 8
      }
      if i < length {
        // NB: the last 8 bytes overlap what was copied; written again, they are the same.
        let word = source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        guard !ASCII.needsEscape(word) else { return false }
        target.storeBytes(of: word, toByteOffset: length - 8, as: UInt64.self)
      }
    }
    count += length
    return true
  }

  /// Appends UTF-8 text quoted and escaped: `"`, `\` and control characters, nothing else.
  mutating func appendString(utf8 text: UnsafeBufferPointer<UInt8>) {
    // NB: room for whole 8-byte stores past the text, so that short strings and tails are
    // copied a word at a time too.
    reserve(text.count + 10)
    appendReserved(ASCII.quote)
    guard let source = UnsafeRawPointer(text.baseAddress), !text.isEmpty else {
      appendReserved(ASCII.quote)
      return
    }
    if text.count < 8 {
      var word: UInt64 = 0x2020_2020_2020_2020
      withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(text)) }
      if !ASCII.needsEscape(word) {
        UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
        count += text.count
        appendReserved(ASCII.quote)
        return
      }
    } else {
      var i = 0
      while i + 8 <= text.count {
        let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if ASCII.needsEscape(word) { break }
        UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
        count += 8
        i += 8
      }
      if i == text.count {
        appendReserved(ASCII.quote)
        return
      }
      // NB: the last 8 bytes overlap what was copied; written again, they are the same.
      let last = text.count - 8
      let word = source.loadUnaligned(fromByteOffset: last, as: UInt64.self)
      if i > last, !ASCII.needsEscape(word) {
        UnsafeMutableRawPointer(base + count - (i - last)).storeBytes(of: word, as: UInt64.self)
        count += text.count - i
        appendReserved(ASCII.quote)
        return
      }
      count -= i
    }
    appendEscaping(text)
    appendReserved(ASCII.quote)
  }

  /// Appends text that has bytes to escape (without quotes).
  private mutating func appendEscaping(_ text: UnsafeBufferPointer<UInt8>) {
    var i = 0
    let source = UnsafeRawPointer(text.baseAddress)
    while true {
      if let source {
        while i + 8 <= text.count {
          let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          if ASCII.needsEscape(word) { break }
          reserve(8)
          UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
          count += 8
          i += 8
        }
      }
      guard i < text.count else { break }
      let byte = text[i]
      if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 {
        appendEscape(byte)
      } else {
        append(byte)
      }
      i += 1
    }
    reserve(1)
  }

  private mutating func appendEscape(_ byte: UInt8) {
    reserve(6)
    appendReserved(ASCII.backslash)
    switch byte {
    case ASCII.quote, ASCII.backslash: appendReserved(byte)
    case 0x0A: appendReserved(UInt8(ascii: "n"))
    case 0x0D: appendReserved(UInt8(ascii: "r"))
    case 0x09: appendReserved(UInt8(ascii: "t"))
    case 0x08: appendReserved(UInt8(ascii: "b"))
    case 0x0C: appendReserved(UInt8(ascii: "f"))
    default:
      let hex: StaticString = "0123456789abcdef"
      appendReserved(UInt8(ascii: "u"))
      appendReserved(ASCII.zero)
      appendReserved(ASCII.zero)
      appendReserved(hex.utf8Start[Int(byte >> 4)])
      appendReserved(hex.utf8Start[Int(byte & 0xF)])
    }
  }

  // MARK: - Numbers

  /// Appends an integer of any width in decimal.
  @inline(__always)
  mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
    guard T.bitWidth <= 64 else {
      appendRaw(String(value))
      return
    }
    reserve(20)
    if value < 0 { appendReserved(ASCII.minus) }
    appendDigits(UInt64(truncatingIfNeeded: value.magnitude))
  }

  /// Appends the decimal digits of `value`; 20 bytes must be reserved.
  private mutating func appendDigits(_ value: UInt64) {
    var length = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      length += 1
    }
    // NB: two digits a step, from the right (a division by a constant is a multiplication).
    var position = count + length
    rest = value
    while rest >= 100 {
      let pair = UInt8(truncatingIfNeeded: rest % 100)
      rest /= 100
      position -= 2
      base[position] = ASCII.zero &+ pair / 10
      base[position + 1] = ASCII.zero &+ pair % 10
    }
    if rest >= 10 {
      let pair = UInt8(truncatingIfNeeded: rest)
      position -= 2
      base[position] = ASCII.zero &+ pair / 10
      base[position + 1] = ASCII.zero &+ pair % 10
    } else {
      position -= 1
      base[position] = ASCII.zero &+ UInt8(truncatingIfNeeded: rest)
    }
    count += length
  }

  /// Appends a finite `Double` in its shortest form that reads back to the same value; whole
  /// numbers below 10^15 without a fraction (`3`, not `3.0`), as Foundation writes them.
  mutating func appendDouble(_ value: Double) {
    // NB: `Int64(value)` truncates; no `rounded()`, which would need libm.
    if value.magnitude < 1e15, Double(Int64(value)) == value {
      if value == 0 && value.sign == .minus {
        append("-0")
      } else {
        appendInteger(Int64(value))
      }
      return
    }
    appendShortest(value.description)
  }

  /// Appends a finite `Float` in its shortest form that reads back to the same value.
  mutating func appendFloat(_ value: Float) {
    if value.magnitude < 1e7, Float(Int32(value)) == value {
      if value == 0 && value.sign == .minus {
        append("-0")
      } else {
        appendInteger(Int32(value))
      }
      return
    }
    appendShortest(value.description)
  }

  /// Appends Swift's shortest round-trip text of a float (`1e-07`, `0.1`, `1e+16`, all valid
  /// JSON), without a trailing `.0`.
  private mutating func appendShortest(_ description: String) {
    var text = description
    text.withUTF8 { bytes in
      var length = bytes.count
      if length > 2, bytes[length - 2] == ASCII.dot, bytes[length - 1] == ASCII.zero {
        length -= 2
      }
      append(UnsafeBufferPointer(rebasing: bytes[0..<length]))
    }
  }

  /// Appends the UTF-8 of `text` as it is (no quotes, no escapes).
  mutating func appendRaw(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }
}

/// A ``JSONEncoder``'s `userInfo`, lent for the length of an encode.
typealias UserInfoPointer = UnsafePointer<[CodingUserInfoKey: any Sendable]>
