import JSON

// What the JSON tests share (JSONTests, GeneratedJSONTests): decoding and encoding text, the
// error a body throws, documents with raw bytes, and a seeded random source.

/// Decodes `text` (UTF-8) as a `T`.
public func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(JSONError) -> T {
  try JSONDecoder().decode(type, from: Array(text.utf8))
}

/// Encodes `value` as text.
public func encode<T: Encodable>(_ value: T) throws(JSONError) -> String {
  String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

/// The error `body` throws, or nil.
public func error<T>(_ body: () throws(JSONError) -> T) -> JSONError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

/// One piece of a test document: text, or a raw byte (for bytes a Swift string cannot hold).
public enum Piece: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case text(String)
  case byte(UInt8)

  public init(stringLiteral value: String) { self = .text(value) }
  public init(integerLiteral value: UInt8) { self = .byte(value) }
}

/// The bytes of a document made of pieces: `bytes("[a", 0xE5, "]")`.
public func bytes(_ pieces: Piece...) -> [UInt8] {
  var out: [UInt8] = []
  for piece in pieces {
    switch piece {
    case let .text(text): out += Array(text.utf8)
    case let .byte(byte): out.append(byte)
    }
  }
  return out
}

/// A small seeded random number generator (SplitMix64), so that property tests repeat exactly.
public struct SeededRandom: RandomNumberGenerator {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
