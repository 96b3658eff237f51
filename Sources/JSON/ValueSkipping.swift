/// Finds where JSON values end in text, without reading them: for a scan that only needs to
/// step over values (``JSONPointer``, the encoder's duplicate check).
///
///     skipValue(in: bytes, from: 0)  // for `[1,[2]],3`: 7, the offset of the ','
///
/// It never reads out of bounds and never traps; on text that is not JSON it returns nil or
/// stops somewhere, so what it finds must be checked by the ``Scanner`` if it matters.
func skipValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
  var i = skipWhitespace(in: bytes, from: start)
  guard i < bytes.count else { return nil }
  switch bytes[i] {
  case ASCII.quote:
    return skipString(in: bytes, from: i).map { $0 + 1 }
  case ASCII.openBrace, ASCII.openBracket:
    // NB: brackets are counted, not matched: a scan, not a check.
    var depth = 0
    while i < bytes.count {
      switch bytes[i] {
      case ASCII.quote:
        guard let end = skipString(in: bytes, from: i) else { return nil }
        i = end
      case ASCII.openBrace, ASCII.openBracket:
        depth += 1
      case ASCII.closeBrace, ASCII.closeBracket:
        depth -= 1
        if depth == 0 { return i + 1 }
      default:
        break
      }
      i += 1
    }
    return nil
  default:
    let first = i
    while i < bytes.count {
      switch bytes[i] {
      case ASCII.comma, ASCII.closeBrace, ASCII.closeBracket, ASCII.colon, ASCII.space,
        ASCII.tab, ASCII.newline, ASCII.carriageReturn:
        return i > first ? i : nil
      default:
        i += 1
      }
    }
    return i > first ? i : nil
  }
}

/// The offset of the closing quote of the string whose opening quote is at `start`.
func skipString(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
  var i = start + 1
  let raw = UnsafeRawPointer(bytes.baseAddress)
  while true {
    if let raw {
      while i + 8 <= bytes.count,
        !ASCII.hasQuoteOrBackslash(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      {
        i += 8
      }
    }
    guard i < bytes.count else { return nil }
    switch bytes[i] {
    case ASCII.quote: return i
    case ASCII.backslash: i += 2
    default: i += 1
    }
  }
}

func skipWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
  var i = start
  while i < bytes.count, ASCII.isWhitespace(bytes[i]) { i += 1 }
  return i
}
