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
