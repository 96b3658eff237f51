import Synchronization

/// State that goes away by itself once the user acted on it: alerts and dialogs. Its `ifLet`
/// dismisses it after an action of its own (``actionType``).
public protocol _EphemeralState {
  /// The actions its buttons send.
  static var actionType: Any.Type { get }
}

extension AlertState {
  public static var actionType: Any.Type { Action.self }
}

extension ConfirmationDialogState {
  public static var actionType: Any.Type { Action.self }
}

/// The ephemeral type `state` is, or holds in its case (`case alert(AlertState<Alert>)` of an
/// enum destination); nil if it is neither.
@usableFromInline
func ephemeralType<State>(of state: State) -> (any _EphemeralState.Type)? {
  if let type = State.self as? any _EphemeralState.Type { return type }
  return EnumReflection.payloadType(of: state)?.type as? any _EphemeralState.Type
}

extension _EphemeralState {
  /// Whether `action` is one of this state's: of its action type, or an enum in a case holding
  /// one (`case alert(Alert)` of an enum destination's actions), as upstream.
  @usableFromInline
  static func canSend<Action>(_ action: Action) -> Bool {
    Action.self == actionType || EnumReflection.payloadType(of: action)?.type == actionType
  }
}

private let ephemeralIDs = Atomic<UInt64>(0)

extension UUID {
  /// A UUID no other call in this process returns (a counter): an alert's or a dialog's id.
  static func nextEphemeralID() -> UUID {
    UUID(high: 0, low: ephemeralIDs.wrappingAdd(1, ordering: .relaxed).newValue)
  }
}
