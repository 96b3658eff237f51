/// A reducer made from a closure.
///
///     Reduce<Int, Void> { count, _ in
///       count += 1
///       return .none
///     }
public struct Reduce<State, Action>: Reducer {
  let body: (inout State, Action) -> Effect<Action>

  public init(_ reduce: @escaping (inout State, Action) -> Effect<Action>) {
    self.body = reduce
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body(&state, action)
  }
}
