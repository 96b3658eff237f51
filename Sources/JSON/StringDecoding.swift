/// The text of a JSON string (the bytes between its quotes) as a Swift string.
///
///     makeString(text, escaped: true)  // #"a\nb"# → "a\nb"
///
/// NB: the scanner has already checked the text (UTF-8, escapes, surrogate pairs); this still
/// never reads out of bounds on bad text, it just skips what it cannot read.
func makeString(_ text: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String {
  guard escaped else { return String(decoding: text, as: UTF8.self) }
  // NB: unescaping never lengthens: `\n` is 2 bytes for 1, `\u00e9` 6 for 2, a pair 12 for 4.
  return String(unsafeUninitializedCapacity: text.count) { out in unescape(text, into: out) }
}

/// The unescaped bytes of a JSON string's text.
func unescaped(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
  [UInt8](unsafeUninitializedCapacity: text.count) { out, count in
    count = unescape(text, into: out)
  }
}

/// Unescapes `text` into `out` (at least `text.count` long); returns the bytes written.
private func unescape(
  _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
) -> Int {
  var i = 0
  var o = 0
  let end = min(text.count, out.count)
  while i < end {
    // NB: the bytes up to the next backslash in one copy, the backslash found a word at a time
    // (escapes are rare: byte by byte, this loop cost ten times the copy).
    var run = i
    if let raw = UnsafeRawPointer(text.baseAddress) {
      while run + 8 <= end {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: run, as: UInt64.self))
        let hits = ASCII.backslashes(word)
        if hits != 0 {
          run += hits.trailingZeroBitCount >> 3
          break
        }
        run += 8
      }
    }
    while run < end, text[run] != ASCII.backslash { run += 1 }
    if run > i, let source = text.baseAddress, let target = out.baseAddress {
      // NB: `o <= i` (unescaping never lengthens), so the run fits: `o + (run - i) <= end`.
      (target + o).update(from: source + i, count: run - i)
      o += run - i
      i = run
    }
    guard i + 1 < end else {
      if i < end {
        out[o] = text[i]
        o += 1
        i += 1
      }
      continue
    }
    let escape = text[i + 1]
    i += 2
    var scalar: UInt32
    switch escape {
    case UInt8(ascii: "b"): scalar = 0x08
    case UInt8(ascii: "f"): scalar = 0x0C
    case UInt8(ascii: "n"): scalar = 0x0A
    case UInt8(ascii: "r"): scalar = 0x0D
    case UInt8(ascii: "t"): scalar = 0x09
    case UInt8(ascii: "u"):
      guard let unit = hex4(text, at: i) else { continue }
      i += 4
      scalar = unit
      if unit >= 0xD800 && unit < 0xDC00, i + 6 <= end, text[i] == ASCII.backslash,
        text[i + 1] == UInt8(ascii: "u"), let low = hex4(text, at: i + 2),
        low >= 0xDC00 && low < 0xE000
      {
        scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        i += 6
      }
    default: scalar = UInt32(escape)
    }
    o = appendUTF8(scalar, to: out, at: o)
  }
  return o
}

private func hex4(_ text: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
  guard start + 4 <= text.count else { return nil }
  var value: UInt32 = 0
  for i in start..<(start + 4) {
    guard let digit = ASCII.hexValue(text[i]) else { return nil }
    value = value << 4 | digit
  }
  return value
}

/// Writes `scalar` as UTF-8 at `offset` (a lone surrogate becomes U+FFFD); returns the new offset.
private func appendUTF8(
  _ scalar: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at offset: Int
) -> Int {
  let value = Unicode.Scalar(scalar)?.value ?? 0xFFFD
  let length = value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
  guard offset + length <= out.count else { return offset }
  switch length {
  case 1:
    out[offset] = UInt8(truncatingIfNeeded: value)
  case 2:
    out[offset] = UInt8(truncatingIfNeeded: 0xC0 | value >> 6)
    out[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
  case 3:
    out[offset] = UInt8(truncatingIfNeeded: 0xE0 | value >> 12)
    out[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F)
    out[offset + 2] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
  default:
    out[offset] = UInt8(truncatingIfNeeded: 0xF0 | value >> 18)
    out[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F)
    out[offset + 2] = UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F)
    out[offset + 3] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
  }
  return offset + length
}
