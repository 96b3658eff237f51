/// Byte constants of the JSON grammar, and tests on bytes and 8-byte words of text.
///
///     ASCII.isDigit(UInt8(ascii: "7"))  // true
enum ASCII {
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let slash = UInt8(ascii: "/")
  static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let dot = UInt8(ascii: ".")
  static let zero = UInt8(ascii: "0")
  static let nine = UInt8(ascii: "9")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == space || byte == newline || byte == carriageReturn || byte == tab
  }

  /// The value of a hexadecimal digit, or nil.
  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte &- UInt8(ascii: "a") &+ 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte &- UInt8(ascii: "A") &+ 10)
    default: return nil
    }
  }

  /// The high bits of the bytes of a little-endian word that a string scan must stop at: a quote,
  /// a backslash, a control character or a byte that is not ASCII.
  ///
  /// NB: the classic "has a zero byte" bit trick, three times over. It never misses a byte, and
  /// the lowest byte it marks is always a real one (a false mark only follows a real one).
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* UInt64(quote))
    let backslashes = word ^ (ones &* UInt64(backslash))
    let control = (word &- ones &* 0x20) & ~word
    let quoteHit = (quotes &- ones) & ~quotes
    let backslashHit = (backslashes &- ones) & ~backslashes
    return (control | quoteHit | backslashHit | word) & highs
  }

  /// Whether any of 8 bytes must be escaped in a JSON string: a quote, a backslash or a
  /// control character.
  @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* UInt64(quote))
    let backslashes = word ^ (ones &* UInt64(backslash))
    let control = (word &- ones &* 0x20) & ~word
    let quoteHit = (quotes &- ones) & ~quotes
    let backslashHit = (backslashes &- ones) & ~backslashes
    return (control | quoteHit | backslashHit) & 0x8080_8080_8080_8080 != 0
  }

  /// Whether any of 8 bytes is a quote or a backslash.
  @inline(__always)
  static func hasQuoteOrBackslash(_ word: UInt64) -> Bool { quoteOrBackslash(word) != 0 }

  /// The high bits of the bytes of a little-endian word that are a quote or a backslash (the
  /// lowest mark is always a real one, as in ``specialBytes(_:)``).
  @inline(__always)
  static func quoteOrBackslash(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let backslashes = word ^ (ones &* UInt64(backslash))
    let backslashHit = (backslashes &- ones) & ~backslashes
    return quotes(word) | backslashHit & 0x8080_8080_8080_8080
  }

  /// The high bits of the bytes of a little-endian word that are a backslash (the lowest mark
  /// is always a real one).
  @inline(__always)
  static func backslashes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let backslashes = word ^ (ones &* UInt64(backslash))
    return (backslashes &- ones) & ~backslashes & 0x8080_8080_8080_8080
  }

  /// The high bits of the bytes of a little-endian word that are a quote (the lowest mark is
  /// always a real one).
  @inline(__always)
  static func quotes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* UInt64(quote))
    return (quotes &- ones) & ~quotes & 0x8080_8080_8080_8080
  }
}
