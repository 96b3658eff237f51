import CSystem

/// A point in wall-clock time: milliseconds since 1970-01-01T00:00:00Z. Codable as that number.
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var millisecondsSince1970: Int64

  public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }

  public init(from decoder: any Decoder) throws {
    millisecondsSince1970 = try decoder.singleValueContainer().decode(Int64.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(millisecondsSince1970)
  }

  public var description: String { "\(millisecondsSince1970) ms since 1970" }
}

/// Tells reducers the date: `@Dependency(\.date) var date` then `date.now`.
///
/// Stores read the system's real-time clock; test stores use a constant.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Timestamp

  public init(_ generate: @escaping @Sendable () -> Timestamp) { self.generate = generate }

  public var now: Timestamp { generate() }

  public func callAsFunction() -> Timestamp { generate() }

  /// `CLOCK_REALTIME`.
  public static let system = DateGenerator {
    Timestamp(millisecondsSince1970: csystem_realtime_ns() / 1_000_000)
  }

  /// Always `timestamp`.
  public static func constant(_ timestamp: Timestamp) -> DateGenerator {
    DateGenerator { timestamp }
  }
}
