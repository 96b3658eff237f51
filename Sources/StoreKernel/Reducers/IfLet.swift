extension Reducer {
  /// Runs `wrapped` on optional child state while it is non-nil, for the child's actions, before
  /// this reducer; cancels the child's effects when the state goes nil (or is replaced by another
  /// child with a different id, or the child's own action changes its id).
  ///
  ///     Reduce { state, action in … }
  ///       .ifLet(\.destination, action: Action.destination) {
  ///         History()
  ///       }
  ///
  /// `.cancel(id:)` in the child reaches only the child's effects (and its children's); in the
  /// parent, it reaches the child's too, as upstream. An alert or dialog (``AlertState``,
  /// ``ConfirmationDialogState``) goes away after one of its own actions. A child action that
  /// arrives while the state is nil is ignored.
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

extension Reducer {
  /// ``ifLet(_:action:then:)`` for an alert or a confirmation dialog in a plain optional: no
  /// reducer of its own; it goes away after one of its buttons' actions.
  ///
  ///     .ifLet(\.alert, action: Action.alert)
  @inlinable
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(toWrappedState, action: toWrappedAction) { EmptyReducer() }
  }

  /// ``ifLet(_:action:)`` with the alert's actions given by their case.
  @inlinable
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: @escaping @Sendable (WrappedAction) -> Action
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(toWrappedState, action: AnyCasePath(toWrappedAction)) { EmptyReducer() }
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
    let childAction = toChildAction.extract(from: action)
    var effects = Effect<Parent.Action>.none
    // NB: the child's identity before its own action: that action's effects run under it, and
    // end with it if the action changes the child's identity.
    let before: NavigationID?
    if let childAction {
      (effects, before) = reduceChild(into: &state, action: childAction)
    } else {
      before = state[keyPath: toChildState].map(navigationID(for:))
    }
    effects = effects.merge(with: parent.reduce(into: &state, action: action))
    var after = state[keyPath: toChildState].map(navigationID(for:))
    // NB: as upstream: an alert or dialog goes away after one of its own actions.
    if let childAction, let before, after == before,
      let child = state[keyPath: toChildState], let ephemeral = ephemeralType(of: child),
      ephemeral.canSend(childAction)
    {
      state[keyPath: toChildState] = nil
      after = nil
    }
    return effects.merge(with: .dismissal(from: before, to: after))
  }

  /// Runs the child's action; returns its effects and the child's identity before it (nil:
  /// no child).
  @inlinable
  func reduceChild(
    into state: inout Parent.State, action childAction: Child.Action
  ) -> (Effect<Parent.Action>, NavigationID?) {
    let embed = toChildAction._embed
    var navigation: NavigationID?
    let effect = state[keyPath: toChildState].modify { childState -> Effect<Child.Action> in
      navigation = navigationID(for: childState)
      return child.reduce(into: &childState, action: childAction)
    }
    guard let effect, let navigation else { return (.none, nil) }
    return (effect.map(embed).scoped(to: navigation.cancelID), navigation)
  }

  @usableFromInline
  func navigationID(for childState: Child.State) -> NavigationID {
    NavigationID(
      site: CancelID(unchecked: AnyHashable(toChildState)), identity: identity(of: childState))
  }
}

extension _IfLetReducer: @unchecked Sendable where Parent: Sendable, Child: Sendable {}
