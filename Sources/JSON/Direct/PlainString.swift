extension String {
  /// Decodes a document that is one string: read straight from the bytes when it is plain (ASCII
  /// with no escapes and no control characters, whitespace around it at most), else scanned
  /// like any other document, which also says what is wrong with it.
  ///
  ///     let fact = try JSONDecoder().decode(String.self, from: Array(#""7 is lucky""#.utf8))
  ///
  /// NB: a host's answer to a request is often one string (the counter's number fact): the
  /// scanner's tape and document cost ~1,000 instructions for it, this ~150 (docs/benchmarks.md:
  /// the effect round trip). It accepts only what the scanner accepts, as the same value.
  public static func decodeJSON(
    from buffer: UnsafeBufferPointer<UInt8>, with decoder: JSONDecoder
  ) throws(JSONError) -> String {
    if let plain = plainJSONString(buffer) { return plain }
    return try decodeScanning(from: buffer, with: decoder)
  }
}

/// The text of `buffer` when it is one plain JSON string (see `String.decodeJSON`), else nil.
func plainJSONString(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
  guard let base = buffer.baseAddress, buffer.count < Token.maxDocument else { return nil }
  var start = 0
  var end = buffer.count
  while start < end && ASCII.isWhitespace(base[start]) { start += 1 }
  while end > start && ASCII.isWhitespace(base[end - 1]) { end -= 1 }
  guard end - start >= 2, base[start] == ASCII.quote, base[end - 1] == ASCII.quote else {
    return nil
  }
  let text = UnsafeBufferPointer(start: base + start + 1, count: end - start - 2)
  // NB: ASCII only: its bytes are valid UTF-8 as they are. Other text goes to the scanner,
  // which validates it (`String(validating:as:)` is generic and unspecialized here: it cost
  // more than the scan it would save).
  guard isPlain(text) else { return nil }
  return String(decoding: text, as: UTF8.self)
}

/// Whether `text` has no quote, no backslash, no control character and no byte of 0x80 or more.
///
/// NB: eight bytes at a time (each test below is exact for "any byte of the word"): a byte at a
/// time, a host's answer of 20 characters cost ~180 instructions more than one of 4
/// (docs/benchmarks.md: the effect round trip).
@inline(__always)
func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = text.baseAddress else { return true }
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  /// Whether any byte of `word` is below `limit` (at most 0x80).
  func anyBelow(_ word: UInt64, _ limit: UInt64) -> Bool {
    (word &- ones &* limit) & ~word & highs != 0
  }
  var offset = 0
  while offset + 8 <= text.count {
    let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    if word & highs != 0 || anyBelow(word, 0x20) || anyBelow(word ^ (ones &* 0x22), 1)
      || anyBelow(word ^ (ones &* 0x5C), 1)
    {
      return false
    }
    offset += 8
  }
  while offset < text.count {
    let byte = base[offset]
    if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 {
      return false
    }
    offset += 1
  }
  return true
}
