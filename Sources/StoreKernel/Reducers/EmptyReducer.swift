/// A reducer that does nothing: no state change, no effect.
///
///     var body: some Reducer<State, Action> {
///       EmptyReducer()
///     }
public struct EmptyReducer<State, Action>: Reducer, Sendable {
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> { .none }
}
