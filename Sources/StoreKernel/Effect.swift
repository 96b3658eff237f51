/// Work a reducer asks the store to do after it has changed state.
///
///     return .send(.delegate(.finished))
public struct Effect<Action> {
  enum Operation {
    case none
    case send(Action)
    case merge([Effect<Action>])
  }

  let operation: Operation

  /// No effect.
  public static var none: Effect { Effect(operation: .none) }

  /// Feeds `action` back into the store, after the current action.
  public static func send(_ action: Action) -> Effect { Effect(operation: .send(action)) }

  /// Runs several effects side by side.
  public static func merge(_ effects: Effect...) -> Effect { Effect(operation: .merge(effects)) }
}
