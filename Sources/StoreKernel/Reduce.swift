/// A reducer made from a closure.
///
///     Reduce<Int, Void> { count, _ in
///       count += 1
///       return .none
///     }
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let _reduce: @Sendable (inout State, Action) -> Effect<Action>

  @inlinable
  public init(_ reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>) {
    self._reduce = reduce
  }

  /// Wraps another reducer, erasing its type.
  @inlinable
  public init<R: Reducer & Sendable>(_ reducer: R) where R.State == State, R.Action == Action {
    self._reduce = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    _reduce(&state, action)
  }
}

extension Reduce: Sendable {}
