import JSON
import Testing

// Checks of a type's direct JSON path (`JSONDecodable`, `JSONEncodable`) against its Codable
// conformance: the same value or the same error for every input, the same bytes for every
// value, and the direct path really taken where it should be. Used by TodosJSONTests and
// DiceJSONTests.

/// What an input should give.
enum Expected<T: Equatable & Sendable>: Equatable, Sendable {
  /// This value, read by `init(json:)`.
  case direct(T)
  /// This value, read by `init(from:)` after `init(json:)` declined (forms the direct path
  /// leaves to Codable, such as an action object with members that are not case names).
  case fallback(T)
  /// An error, the same on both paths (`init(json:)` must decline).
  case error
}

struct Example<T: Equatable & Sendable>: Sendable, CustomTestStringConvertible {
  let text: String
  let expected: Expected<T>

  init(_ text: String, _ expected: Expected<T>) {
    self.text = text
    self.expected = expected
  }

  var testDescription: String { text }
}

struct NotDirect: Error {}

/// `T` read by `init(json:)` alone: `init(from:)` of the wrapper fails, so a decline shows.
struct DirectlyDecoded<T: JSONDecodable>: JSONDecodable {
  let value: T
  init(json: JSONValueReader) throws(JSONDeclined) { value = try T(json: json) }
  init(from decoder: any Decoder) throws { throw NotDirect() }
}

/// `T` written by `encode(json:)` alone: `encode(to:)` of the wrapper fails.
struct DirectlyEncoded<T: JSONEncodable>: JSONEncodable {
  let value: T
  func encode(json: JSONValueWriter) throws(JSONDeclined) { try value.encode(json: json) }
  func encode(to encoder: any Encoder) throws { throw NotDirect() }
}

enum Outcome<T: Equatable>: Equatable {
  case value(T)
  case error(JSONError)
}

/// Decoded as a store decodes: the direct path first, `init(from:)` if it declines.
func decodedPreferringDirect<T: JSONDecodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8]
) -> Outcome<T> {
  do throws(JSONError) {
    return .value(try JSONDecoder().decode(T.self, from: bytes))
  } catch {
    return .error(error)
  }
}

/// Decoded by `init(from:)` alone.
func decodedThroughCodable<T: Decodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8]
) -> Outcome<T> {
  do throws(JSONError) {
    return .value(
      try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
        try JSONDecoder().decodeThroughCodable(T.self, from: buffer)
      })
  } catch {
    return .error(error)
  }
}

/// The value `init(json:)` reads, or nil if it declines.
func decodedDirectly<T: JSONDecodable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
  (try? JSONDecoder().decode(DirectlyDecoded<T>.self, from: bytes))?.value
}

/// Checks both paths agree on `example` (the whole error when they fail: kind, path, offset,
/// message) and that the direct path accepts exactly what `example` says it does.
func check<T: JSONDecodable & Equatable & Sendable>(
  _ example: Example<T>, sourceLocation: SourceLocation = #_sourceLocation
) {
  let bytes = Array(example.text.utf8)
  let preferred = decodedPreferringDirect(T.self, bytes)
  let codable = decodedThroughCodable(T.self, bytes)
  #expect(preferred == codable, "\(example.text)", sourceLocation: sourceLocation)
  let direct = decodedDirectly(T.self, bytes)
  switch example.expected {
  case let .direct(value):
    #expect(codable == .value(value), "\(example.text)", sourceLocation: sourceLocation)
    #expect(direct == value, "not read directly: \(example.text)", sourceLocation: sourceLocation)
  case let .fallback(value):
    #expect(codable == .value(value), "\(example.text)", sourceLocation: sourceLocation)
    #expect(direct == nil, "read directly: \(example.text)", sourceLocation: sourceLocation)
  case .error:
    guard case .error = codable else {
      Issue.record("decoded: \(example.text)", sourceLocation: sourceLocation)
      return
    }
    #expect(direct == nil, "read directly: \(example.text)", sourceLocation: sourceLocation)
  }
}

/// Checks both paths write the same bytes for `value`, the direct one without declining, and
/// that both read them back as `value`. Returns the text.
@discardableResult
func checkEncoding<T: JSONCodable & Equatable>(
  _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
  let preferred = try JSONEncoder().encode(value)
  let codable = try JSONEncoder().encodeThroughCodable(value)
  let text = String(decoding: codable, as: UTF8.self)
  #expect(
    String(decoding: preferred, as: UTF8.self) == text, sourceLocation: sourceLocation)
  let direct = (try? JSONEncoder().encode(DirectlyEncoded(value: value)))
    .map { String(decoding: $0, as: UTF8.self) }
  #expect(direct == text, "not written directly", sourceLocation: sourceLocation)
  let decoded = decodedPreferringDirect(T.self, codable)
  #expect(decoded == .value(value), sourceLocation: sourceLocation)
  #expect(decodedThroughCodable(T.self, codable) == .value(value), sourceLocation: sourceLocation)
  #expect(decodedDirectly(T.self, codable) == value, sourceLocation: sourceLocation)
  return text
}
