/// The id of an element of a ``StackState``: stable while the element is on the stack, and never
/// given to another element of that stack, even after it is popped.
///
///     store.send(.path(.element(id: 0, action: .refresh)))
///
/// Wire form: a plain integer, `0`. An id a host gives (in a push, in a snapshot) is from 0 to
/// 2^52 - 1; a stack gives out ids up to 2^53 - 1, so every JSON reader (JavaScript's numbers
/// included) reads them exactly.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  /// The id's number: 0 for the first element a stack ever held, 1 for the next, and so on.
  public var generation: Int

  @inlinable
  public init(generation: Int) { self.generation = generation }

  @inlinable
  public init(integerLiteral value: Int) { self.generation = value }

  /// One past the largest id a stack gives out: 2^53.
  public static let limit = 1 << 53

  /// One past the largest id a host may give: 2^52.
  ///
  /// NB: half of ``limit``, so that a stack can give out 2^52 more ids after any id a host
  /// gave: it never runs out (a push a microsecond would take 142 years).
  public static let hostLimit = 1 << 52

  /// Whether a host may give this id (0 ..< ``hostLimit``).
  @inlinable
  public var isValid: Bool { generation >= 0 && generation < StackElementID.hostLimit }

  @inlinable
  public static func < (lhs: StackElementID, rhs: StackElementID) -> Bool {
    lhs.generation < rhs.generation
  }

  public var description: String { "#\(generation)" }
}

extension StackElementID: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let generation = try container.decode(Int.self)
    self.init(generation: generation)
    guard isValid else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "a stack element id is from 0 to 2^52 - 1, found \(generation)")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }
}
