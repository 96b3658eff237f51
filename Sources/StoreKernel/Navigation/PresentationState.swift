/// The state of a child a parent presents (a sheet, a popover, an alert): the child's state while
/// it is presented, nil otherwise.
///
///     struct State: Equatable {
///       @PresentationState var destination: Destination.State?
///     }
///     …
///     case .viewHistoryTapped:
///       state.destination = .history(History.State())
///
/// Run the child with ``Reducer/ifLet(_:action:destination:)`` on `\.$destination`: it runs the
/// child's actions, dismisses on ``PresentationAction/dismiss``, gives the child a
/// ``DismissEffect`` and cancels the child's effects when it goes away.
///
/// Wire form: the child's state, or `null` (as the optional it wraps).
@propertyWrapper
public struct PresentationState<State> {
  /// The presented child's state, nil when nothing is presented.
  public var wrappedValue: State?

  @inlinable
  public init(wrappedValue: State? = nil) { self.wrappedValue = wrappedValue }

  /// The wrapper itself, for `ifLet(\.$destination, …)`.
  @inlinable
  public var projectedValue: PresentationState<State> {
    get { self }
    set { self = newValue }
  }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(State.self)
  }
}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension PresentationState: CustomStringConvertible {
  public var description: String {
    wrappedValue.map { "\($0)" } ?? "nil"
  }
}

// NB: a property wrapper's member is decoded with `decode(_:forKey:)`, which fails on a missing
// key: these let a synthesized `init(from:)` read a missing member as nothing presented, as it
// reads a missing optional.
extension KeyedDecodingContainer {
  public func decode<State: Decodable>(
    _ type: PresentationState<State>.Type, forKey key: Key
  ) throws -> PresentationState<State> {
    try decodeIfPresent(type, forKey: key) ?? PresentationState()
  }
}
