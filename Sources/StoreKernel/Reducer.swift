/// A description of how a feature's state changes in response to an action, and which effects
/// run as a result.
///
///     struct Counter: Reducer {
///       struct State { var count = 0 }
///       enum Action { case incrementButtonTapped }
///       func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         state.count += 1
///         return .none
///       }
///     }
public protocol Reducer<State, Action> {
  associatedtype State
  associatedtype Action

  func reduce(into state: inout State, action: Action) -> Effect<Action>
}
