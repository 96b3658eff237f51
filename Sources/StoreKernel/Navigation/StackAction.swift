/// The actions of a navigation stack (``StackState``), as upstream's.
///
///     enum Action {
///       case path(StackAction<Path.State, Path.Action>)
///     }
///
/// Wire forms:
///
///     {"path":{"element":{"id":0,"action":{"teamDetail":"onAppear"}}}}
///     {"path":{"popFrom":{"id":0}}}
///     {"path":{"push":{"id":3,"state":{"teamDetail":{"team":{…}}}}}}
public enum StackAction<State, Action> {
  /// An action of the element with id `id`. Ignored if it is not on the stack.
  case element(id: StackElementID, action: Action)
  /// Pops the element with id `id` and every element above it (the host's back button, or the
  /// element's ``DismissEffect``). Ignored if it is not on the stack.
  case popFrom(id: StackElementID)
  /// Pushes `state` with id `id`, which must never have been used by the stack (at least its
  /// ``StackState/nextID``, below 2^52); ignored otherwise.
  case push(id: StackElementID, state: State)
}

/// The stack action of a reducer: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
