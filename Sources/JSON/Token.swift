/// One value of a parsed document, as it sits on a ``Document``'s tape.
///
/// The tape lists a document's values in order, each container followed by its contents, an
/// object's members as a key token and a value token each:
///
///     {"id":3,"tags":["a"]}  →  object · "id" · 3 · "tags" · array · "a"
///
/// NB: 16 bytes a value and no pointers: one allocation holds the whole tape, and skipping a
/// container is a single jump to its `end`.
struct Token {
  /// Strings: the offset of the first byte after the opening quote. Numbers and literals: the
  /// offset of their first byte. Arrays: the offset of the `[`. Objects: while decoding, the
  /// index of the member key to try first (see ``Document/member(named:in:)``).
  var start: UInt32
  /// Strings: the offset of the closing quote. Numbers and literals: the offset past their
  /// last byte. Arrays and objects: the index of the first token after their contents.
  var end: UInt32
  /// Arrays: the number of elements. Objects: the number of members. Otherwise zero.
  var count: UInt32
  var kind: Kind
  var flags: UInt8

  enum Kind: UInt8 {
    case null, `false`, `true`, number, string, array, object
  }

  /// `flags` of a string whose text has backslash escapes.
  static let escaped: UInt8 = 1
  /// `flags` of a number without fraction or exponent.
  static let integer: UInt8 = 2
  /// `flags` of a number with a minus sign.
  static let negative: UInt8 = 4

  var isContainer: Bool { kind.rawValue >= Kind.array.rawValue }
}

/// Byte constants of the JSON grammar.
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
}
