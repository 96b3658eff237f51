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
///
/// A state may present itself (a folder browser, a comment thread): the child's state is held
/// in storage of its own, copied on write, so `@PresentationState var child: State?` inside
/// `State` has a size.
///
/// Both memberwise forms work: `State()` (nothing presented) and `State(child: Child.State())`.
@propertyWrapper
public struct PresentationState<State> {
  /// The child's state, shared by copies until one of them changes it.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline var state: State?

    @usableFromInline
    init(state: State?) { self.state = state }
  }

  @usableFromInline var storage: Storage
  /// The presentation the wrapper's `ifLet` saw at the end of its last pass (nil: nothing
  /// presented, or not seen yet), as upstream: what lets it cancel the effects of a child that
  /// another reducer removed or replaced since. Not compared, hashed or encoded.
  @usableFromInline var presentedID: NavigationID?

  // NB: no default value and no `init()`: a memberwise initializer then takes the child's
  // optional state (`State(child: Child.State())`), defaulting to nil as an optional property
  // does. With either, it would take the wrapper itself.
  @inlinable
  public init(wrappedValue: State?) { self.storage = Storage(state: wrappedValue) }

  /// The presented child's state, nil when nothing is presented.
  @inlinable
  public var wrappedValue: State? {
    get { storage.state }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.state = newValue
      } else {
        storage = Storage(state: newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(state: storage.state) }
      yield &storage.state
    }
  }

  /// The wrapper itself, for `ifLet(\.$destination, …)`.
  @inlinable
  public var projectedValue: PresentationState<State> {
    get { self }
    set { self = newValue }
  }

  /// Whether `other` is a copy of this value that neither changed since.
  @inlinable
  func sharesStorage(with other: PresentationState) -> Bool { storage === other.storage }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when presenting equal states (or nothing); copies that share their storage are
  /// equal without comparing the states, as upstream.
  @inlinable
  public static func == (lhs: PresentationState, rhs: PresentationState) -> Bool {
    lhs.sharesStorage(with: rhs) || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
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

extension PresentationState: CustomReflectable {
  /// The child's state alone (what a test store's diffs show).
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}

// NB: a property wrapper's member is decoded with `decode(_:forKey:)`, which fails on a missing
// key: these let a synthesized `init(from:)` read a missing member as nothing presented, as it
// reads a missing optional.
extension KeyedDecodingContainer {
  public func decode<State: Decodable>(
    _ type: PresentationState<State>.Type, forKey key: Key
  ) throws -> PresentationState<State> {
    try decodeIfPresent(type, forKey: key) ?? PresentationState(wrappedValue: nil)
  }
}
