extension Reducer {
  /// Runs `wrapped` on optional child state while it is non-nil, for the child's actions, before
  /// this reducer; cancels the child's effects when the state goes nil (or is replaced by another
  /// child with a different id).
  ///
  ///     Reduce { state, action in … }
  ///       .ifLet(\.destination, action: Action.destination) {
  ///         History()
  ///       }
  ///
  /// The child's cancellation ids are its own: `.cancel(id:)` in the child reaches only the
  /// child's effects. A child action that arrives while the state is nil is ignored.
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState,
      toChildAction: toWrappedAction)
  }

  /// ``ifLet(_:action:then:)`` with the child's actions given by their case (`Action.child`).
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: @escaping @Sendable (WrappedAction) -> Action,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    ifLet(toWrappedState, action: AnyCasePath(toWrappedAction), then: wrapped)
  }
}

/// The reducer of `ifLet(_:action:then:)`.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childEffects = reduceChild(into: &state, action: action)
    let idBefore = state[keyPath: toChildState].map(navigationID(for:))
    let parentEffects = parent.reduce(into: &state, action: action)
    let idAfter = state[keyPath: toChildState].map(navigationID(for:))
    return childEffects.merge(with: parentEffects)
      .merge(with: .dismissal(from: idBefore, to: idAfter))
  }

  @inlinable
  func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let embed = toChildAction._embed
    var navigation: NavigationID?
    let effect = state[keyPath: toChildState].modify { childState -> Effect<Child.Action> in
      let effect = child.reduce(into: &childState, action: childAction)
      navigation = navigationID(for: childState)
      return effect
    }
    guard let effect, let navigation else { return .none }
    return effect.map(embed).scoped(to: navigation.cancelID)
  }

  @usableFromInline
  func navigationID(for childState: Child.State) -> NavigationID {
    NavigationID(
      site: CancelID(unchecked: AnyHashable(toChildState)), identity: identity(of: childState))
  }
}

extension _IfLetReducer: @unchecked Sendable where Parent: Sendable, Child: Sendable {}
