/// The tape of a scanned document: one 4-byte word a value, in order, each container followed
/// by its contents, an object's members as a key word and a value word each:
///
///     {"id":3,"tags":["a"]}  →  object · "id" · 3 · "tags" · array · "a"
///
/// A scalar's word is the offset of its first byte in the text (a string's opening quote), and
/// its kind is that byte; a container's word is the index of the first word after its contents.
///
/// NB: 4 bytes a value and no pointers: one allocation holds the whole tape, skipping a
/// container is a single jump, and a tape is at most twice its text (a value takes at least 2
/// bytes with its separator: `0,`), so peak memory stays bounded for any input
/// (docs/wire-format.md, "Errors"). What a word does not hold (a scalar's end, an array's
/// length) is found again in the text when a decoder asks, which it does once per value.
enum Token {
  enum Kind: UInt8 {
    case null, `false`, `true`, number, string, array, object
  }

  /// Set in a container's word.
  static let container: UInt32 = 1 << 31
  /// Set in an object's word (with ``container``).
  static let object: UInt32 = 1 << 30
  /// Set in a string's word whose text has backslash escapes, and in a number's word without
  /// fraction or exponent.
  static let flag: UInt32 = 1 << 30
  /// The offset or index in a word.
  static let payload: UInt32 = (1 << 30) - 1
  /// Documents must be shorter than this, so that offsets and indexes fit in ``payload``.
  static let maxDocument = 1 << 30

  /// `flags` of a string whose text has backslash escapes.
  static let escaped: UInt8 = 1
  /// `flags` of a number without fraction or exponent.
  static let integer: UInt8 = 2
  /// `flags` of a number with a minus sign.
  static let negative: UInt8 = 4
}
