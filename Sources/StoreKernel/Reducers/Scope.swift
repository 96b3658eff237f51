/// Runs a child reducer on part of the parent's state, for the child's actions.
///
///     var body: some Reducer<State, Action> {
///       Scope(state: \.counter, action: Action.counter) {
///         Counter()
///       }
///     }
///
/// The child's effects are mapped back into parent actions. With a case path for the state (an
/// enum state), the child runs only while the state is in that case.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes to a stored property of the parent's state.
  @inlinable
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// Scopes to a stored property, the child's actions given by their case (`Action.child`).
  @inlinable
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: @escaping @Sendable (Child.Action) -> ParentAction,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// Scopes to a case of an enum state; the child runs only while the state is in that case.
  @inlinable
  public init(
    state toChildState: AnyCasePath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.toChildState = .casePath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    switch toChildState {
    case let .keyPath(keyPath):
      return child.reduce(into: &state[keyPath: keyPath], action: childAction)
        .map(toChildAction._embed)
    case let .casePath(casePath):
      guard var childState = casePath.extract(from: state) else { return .none }
      let effect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
      return effect.map(toChildAction._embed)
    }
  }
}

// NB: key paths are immutable values; `@unchecked` only because `WritableKeyPath` is not
// declared Sendable.
extension Scope: @unchecked Sendable where Child: Sendable {}
