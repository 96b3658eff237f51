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
    var high: UInt64 = 0
    var low: UInt64 = 0
    var digits = 0
    var position = 0
    for byte in uuidString.utf8 {
      defer { position += 1 }
      if position == 8 || position == 13 || position == 18 || position == 23 {
        guard byte == UInt8(ascii: "-") else { return nil }
        continue
      }
      let nibble: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      if digits < 16 {
        high = high << 4 | UInt64(nibble)
      } else {
        low = low << 4 | UInt64(nibble)
      }
      digits += 1
    }
    guard position == 36, digits == 32 else { return nil }
    self.init(high: high, low: low)
  }

  /// The canonical upper-case form.
  public var uuidString: String { withText { String(decoding: $0, as: UTF8.self) } }

  /// Calls `body` with the canonical upper-case form as UTF-8, written on the stack.
  public func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    // NB: 36 bytes in a tuple rather than an array: writing a UUID allocates nothing.
    var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    return try withUnsafeMutableBytes(of: &text) { (raw) throws -> R in
      let out = raw.bindMemory(to: UInt8.self)
      var position = 0
      for half in 0..<2 {
        let word = half == 0 ? high : low
        for byte in 0..<8 {
          if position == 8 || position == 13 || position == 18 || position == 23 {
            out[position] = UInt8(ascii: "-")
            position += 1
          }
          let value = UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * byte))
          out[position] = hexDigit(value >> 4)
          out[position + 1] = hexDigit(value & 0xF)
          position += 2
        }
      }
      return try body(UnsafeBufferPointer(rebasing: out[0..<36]))
    }
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

/// The upper-case hexadecimal digit of `nibble` (0 to 15).
@inline(__always)
private func hexDigit(_ nibble: UInt8) -> UInt8 {
  nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ (nibble &- 10)
}
