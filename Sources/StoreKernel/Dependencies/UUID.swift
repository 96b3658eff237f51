import Synchronization
import JSON

/// A 128-bit universally unique identifier, written `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
///
/// Codable as that string (upper-case, as Foundation writes it; either case is read).
public struct UUID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  CustomReflectable
{
  /// The high and low 64 bits, big-endian order.
  public var high: UInt64
  public var low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Parses the canonical 36-character form; nil if it is not one.
  public init?(uuidString: String) {
    // NB: through the contiguous UTF-8 of a native string (no per-byte iterator); a bridged
    // or otherwise non-contiguous one is copied first.
    let parsed = uuidString.utf8.withContiguousStorageIfAvailable { UUID(utf8: $0) }
    if let parsed {
      guard let parsed else { return nil }
      self = parsed
    } else {
      guard let uuid = Array(uuidString.utf8).withUnsafeBufferPointer({ UUID(utf8: $0) }) else {
        return nil
      }
      self = uuid
    }
  }

  /// Parses the canonical 36-character form from its UTF-8; nil if it is not one.
  public init?(utf8 text: UnsafeBufferPointer<UInt8>) {
    let hyphen = UInt8(ascii: "-")
    guard text.count == 36, let base = text.baseAddress, base[8] == hyphen, base[13] == hyphen,
      base[18] == hyphen, base[23] == hyphen
    else { return nil }
    // NB: read through the base address: every offset below is under 36, the length checked
    // above (no bounds check per digit: a UUID is parsed on every todo action a host sends).
    var invalid: UInt8 = 0
    let high = UUID.hex(base, 0, 8, &invalid) << 32 | UUID.hex(base, 9, 4, &invalid) << 16
      | UUID.hex(base, 14, 4, &invalid)
    let low = UUID.hex(base, 19, 4, &invalid) << 48 | UUID.hex(base, 24, 12, &invalid)
    guard invalid & 0x10 == 0 else { return nil }
    self.init(high: high, low: low)
  }

  /// The value of the `count` hex digits at `offset` (at most 16); `invalid` gets 0x10 for a
  /// byte that is not one.
  @inline(__always)
  private static func hex(
    _ base: UnsafePointer<UInt8>, _ offset: Int, _ count: Int, _ invalid: inout UInt8
  ) -> UInt64 {
    var word: UInt64 = 0
    for position in offset..<(offset + count) {
      let nibble = UUID.nibble(base[position])
      invalid |= nibble
      word = word << 4 | UInt64(nibble & 0xF)
    }
    return word
  }

  /// A hex digit's value, or 0x10 for any other byte.
  @inline(__always)
  private static func nibble(_ byte: UInt8) -> UInt8 {
    let digit = byte &- UInt8(ascii: "0")
    if digit < 10 { return digit }
    let letter = (byte | 0x20) &- UInt8(ascii: "a")
    return letter < 6 ? letter &+ 10 : 0x10
  }

  /// The canonical upper-case form.
  public var uuidString: String { withText { String(decoding: $0, as: UTF8.self) } }

  /// Calls `body` with the canonical upper-case form as UTF-8, written on the stack.
  public func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    // NB: 36 bytes in a tuple rather than an array: writing a UUID allocates nothing.
    var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    return try withUnsafeMutableBytes(of: &text) { (raw) throws -> R in
      // NB: each half as four 4-digit groups written a word at a time (``hexWord(_:)``), then
      // the hyphens: 8-4-4-4-12.
      let groups = (
        UUID.hexWord(UInt16(truncatingIfNeeded: high >> 48)),
        UUID.hexWord(UInt16(truncatingIfNeeded: high >> 32)),
        UUID.hexWord(UInt16(truncatingIfNeeded: high >> 16)),
        UUID.hexWord(UInt16(truncatingIfNeeded: high)),
        UUID.hexWord(UInt16(truncatingIfNeeded: low >> 48)),
        UUID.hexWord(UInt16(truncatingIfNeeded: low >> 32)),
        UUID.hexWord(UInt16(truncatingIfNeeded: low >> 16)),
        UUID.hexWord(UInt16(truncatingIfNeeded: low)))
      let hyphen = UInt8(ascii: "-")
      raw.storeBytes(of: groups.0, toByteOffset: 0, as: UInt32.self)
      raw.storeBytes(of: groups.1, toByteOffset: 4, as: UInt32.self)
      raw.storeBytes(of: hyphen, toByteOffset: 8, as: UInt8.self)
      raw.storeBytes(of: groups.2, toByteOffset: 9, as: UInt32.self)
      raw.storeBytes(of: hyphen, toByteOffset: 13, as: UInt8.self)
      raw.storeBytes(of: groups.3, toByteOffset: 14, as: UInt32.self)
      raw.storeBytes(of: hyphen, toByteOffset: 18, as: UInt8.self)
      raw.storeBytes(of: groups.4, toByteOffset: 19, as: UInt32.self)
      raw.storeBytes(of: hyphen, toByteOffset: 23, as: UInt8.self)
      raw.storeBytes(of: groups.5, toByteOffset: 24, as: UInt32.self)
      raw.storeBytes(of: groups.6, toByteOffset: 28, as: UInt32.self)
      raw.storeBytes(of: groups.7, toByteOffset: 32, as: UInt32.self)
      let out = raw.bindMemory(to: UInt8.self)
      return try body(UnsafeBufferPointer(rebasing: out[0..<36]))
    }
  }

  /// The four upper-case hex digits of `value`, as the bytes of a little-endian word.
  ///
  /// NB: all four nibbles at once: each spread to a byte, then `'0' + n`, plus 7 where n > 9.
  @inline(__always)
  private static func hexWord(_ value: UInt16) -> UInt32 {
    let v = UInt32(value)
    // Nibbles in memory order: the most significant first (byte 0).
    let spread = (v >> 12) | (v >> 8 & 0xF) << 8 | (v >> 4 & 0xF) << 16 | (v & 0xF) << 24
    let letters = ((spread &+ 0x0606_0606) >> 4) & 0x0101_0101
    return spread &+ 0x3030_3030 &+ letters &* 7
  }

  public var description: String { uuidString }

  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: nil) }

  public static func < (lhs: UUID, rhs: UUID) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let string = try container.decode(String.self)
    guard let uuid = UUID(uuidString: string) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "expected a UUID string, found \(JSONError.quoted(string))")
    }
    self = uuid
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(uuidString)
  }
}

/// Makes UUIDs for reducers: `@Dependency(\.uuid) var uuid` then `uuid()`.
///
/// Stores use ``random(_:)`` over their seeded ``RandomSource`` (so a seed replays the same
/// UUIDs); test stores use ``incrementing``: `00000000-0000-0000-0000-000000000000`, then `…01`.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  public func callAsFunction() -> UUID { generate() }

  /// Version 4 UUIDs from `source`.
  public static func random(_ source: RandomSource) -> UUIDGenerator {
    UUIDGenerator {
      let high = source.next() & ~0xF000 | 0x4000
      let low = source.next() & ~(0xC << 60) | (0x8 << 60)
      return UUID(high: high, low: low)
    }
  }

  /// 0, 1, 2, … as UUIDs (a fresh counter per generator).
  public static var incrementing: UUIDGenerator {
    let counter = Atomic<UInt64>(0)
    return UUIDGenerator { UUID(high: 0, low: counter.add(1, ordering: .relaxed).oldValue) }
  }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}
