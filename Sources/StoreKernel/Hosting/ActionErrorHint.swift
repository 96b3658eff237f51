import JSON

/// Errors in an action a host sent, rewritten to say what to send instead where the mistake is a
/// common one:
///
///     "queryChanged"          at /: case "queryChanged" needs a value: send {"queryChanged": …}
///     incrementButtonTapped   at byte 0: unexpected 'i', expected a value (a case name is a
///                             JSON string: "\"incrementButtonTapped\"")
///
/// NB: the hint is added where actions are decoded for hosts (``hosting(_:coding:)``), not in the
/// decoder: the same `missing member` is right for a state snapshot, and a decoder does not
/// know that its input was meant to be an action.
@usableFromInline
enum ActionErrorHint {
  /// The longest case name quoted back in a hint; longer input gets the error as it is.
  static let maxNameLength = 64

  @usableFromInline
  static func guided(_ error: JSONError, action: UnsafeBufferPointer<UInt8>) -> JSONError {
    let text = trimmed(action)
    guard !text.isEmpty, text.count <= maxNameLength + 2 else { return error }
    var guided = error
    switch error.kind {
    case .shape:
      // A payload case sent as a bare name: its payload (`_0`, or labeled members) is missing.
      guard error.message.hasPrefix("missing member"), text.first == UInt8(ascii: "\""),
        text.last == UInt8(ascii: "\""), text.count >= 3,
        let name = identifier(text.dropFirst().dropLast())
      else { return error }
      guided.message = "case \"\(name)\" needs a value: send {\"\(name)\": …}"
    case .syntax:
      // A case name without its JSON quotes, as C code passing "incrementButtonTapped" sends it.
      guard let name = identifier(text[...]) else { return error }
      guided.message += " (a case name is a JSON string: \"\\\"\(name)\\\"\")"
    case .unencodable:
      return error
    }
    return guided
  }

  /// The bytes without the JSON whitespace around them.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
    let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    var slice = ArraySlice(bytes)
    while let first = slice.first, whitespace.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, whitespace.contains(last) { slice = slice.dropLast() }
    return slice
  }

  /// `bytes` as a Swift identifier (ASCII letters, digits and `_`, not starting with a digit),
  /// or nil: nothing that would need escaping is ever quoted back.
  private static func identifier(_ bytes: ArraySlice<UInt8>) -> String? {
    guard let first = bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return nil }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
        continue
      default:
        return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
