extension String {
  /// Decodes a document that is one string: read straight from the bytes when it is plain (ASCII
  /// with no escapes and no control characters, whitespace around it at most), else scanned
  /// like any other document, which also says what is wrong with it.
  ///
  ///     let fact = try JSONDecoder().decode(String.self, from: Array(#""7 is lucky""#.utf8))
  ///
  /// NB: a host's answer to a request is often one string (the counter's number fact): the
  /// scanner's tape and document cost ~1,000 instructions for it, this ~150 (issue 17: the
  /// effect round trip). It accepts only what the scanner accepts, as the same value.
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
  for byte in text
  where byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 {
    return nil
  }
  return String(decoding: text, as: UTF8.self)
}
