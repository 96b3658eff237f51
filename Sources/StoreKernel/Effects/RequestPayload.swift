import JSON

/// A host request's payload as JSON text: up to 16 bytes kept in the value itself, longer text in
/// an array.
///
///     let payload = RequestPayload(Array("7".utf8))   // inline: no allocation
///     payload.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }   // "7"
///
/// NB: most payloads are a number, an id or `{}`: as an array each cost an allocation when the
/// effect was made and a free when it ended, and a retain and a release at each hand-over
/// (docs/benchmarks.md: the effect round trip, ~450 instructions a request).
@usableFromInline
struct RequestPayload: Sendable {
  private enum Storage: Sendable {
    /// The text's bytes in two words (little-endian order in memory), and how many are used.
    case inline(UInt64, UInt64, count: UInt8)
    case array([UInt8])
  }

  private let storage: Storage

  /// How many bytes fit inline.
  static let inlineCapacity = 16

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count <= Self.inlineCapacity else {
      storage = .array(Array(bytes))
      return
    }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      raw.copyMemory(from: UnsafeRawBufferPointer(bytes))
    }
    storage = .inline(words.0, words.1, count: UInt8(truncatingIfNeeded: bytes.count))
  }

  init(_ bytes: [UInt8]) {
    storage = .array(bytes)
  }

  /// The encoded JSON of `value`.
  ///
  /// NB: a value that writes itself (``JSONEncodable``) is written into the encoder's own
  /// buffer and copied from there: a short text never becomes an array.
  static func encoding(_ value: some Encodable) throws(JSONError) -> RequestPayload {
    try JSONEncoder().withEncoded(value) { RequestPayload($0) }
  }

  var count: Int {
    switch storage {
    case let .inline(_, _, count): return Int(count)
    case let .array(bytes): return bytes.count
    }
  }

  /// Copies the bytes to `destination`, which has room for at least
  /// ``RequestPayload/inlineCapacity`` bytes (more may be written than ``count``).
  ///
  /// NB: no closure: a host's answer, given inside its callback, is decoded ~35 calls deep, and
  /// each closure level on the way was a call frame more (see `JSONDecoder.decode(_:from:)`;
  /// docs/benchmarks.md: the effect round trip).
  func copyBytes(to destination: UnsafeMutableRawPointer) {
    switch storage {
    case let .inline(first, second, _):
      destination.storeBytes(of: first, as: UInt64.self)
      destination.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
    case let .array(bytes):
      bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress { destination.copyMemory(from: base, byteCount: raw.count) }
      }
    }
  }

  /// Calls `body` with the bytes (valid only inside it).
  func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch storage {
    case let .inline(first, second, count):
      let words = (first, second)
      return Swift.withUnsafeBytes(of: words) { raw in
        let all = raw.assumingMemoryBound(to: UInt8.self)
        return body(UnsafeBufferPointer(rebasing: all[..<Int(count)]))
      }
    case let .array(bytes):
      return bytes.withUnsafeBufferPointer(body)
    }
  }

  /// The bytes, as an array.
  var bytes: [UInt8] {
    switch storage {
    case .inline: return withUnsafeBytes { Array($0) }
    case let .array(bytes): return bytes
    }
  }
}

extension RequestPayload: Equatable {
  /// The same text, however it is kept.
  @usableFromInline
  static func == (lhs: RequestPayload, rhs: RequestPayload) -> Bool {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
  }
}
