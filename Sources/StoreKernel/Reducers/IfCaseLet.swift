extension Reducer {
  /// Runs `child` on one case of an enum state while the state is in that case, for the child's
  /// actions, before this reducer; cancels the child's effects when the state leaves the case.
  ///
  ///     Reduce { state, action in … }
  ///       .ifCaseLet(
  ///         AnyCasePath(State.loggedIn), action: Action.loggedIn
  ///       ) {
  ///         LoggedIn()
  ///       }
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Case
  ) -> _IfCaseLetReducer<Self, Case>
  where Case.State == CaseState, Case.Action == CaseAction {
    _IfCaseLetReducer(
      parent: self, child: child(), toChildState: toCaseState, toChildAction: toCaseAction)
  }

  /// ``ifCaseLet(_:action:then:)`` with the child's actions given by their case.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: @escaping @Sendable (CaseAction) -> Action,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Case
  ) -> _IfCaseLetReducer<Self, Case>
  where Case.State == CaseState, Case.Action == CaseAction {
    ifCaseLet(toCaseState, action: AnyCasePath(toCaseAction), then: child)
  }
}

/// The reducer of `ifCaseLet(_:action:then:)`.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: AnyCasePath<Parent.State, Child.State>
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: AnyCasePath<Parent.State, Child.State>,
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
    // NB: the child's identity before its own action, as `ifLet`.
    var (effects, before) = reduceChild(into: &state, action: action)
    if before == nil { before = toChildState.extract(from: state).map(navigationID(for:)) }
    effects = effects.merge(with: parent.reduce(into: &state, action: action))
    let after = toChildState.extract(from: state).map(navigationID(for:))
    return effects.merge(with: .dismissal(from: before, to: after))
  }

  /// Runs the child's action, if `action` is one and the state is in the child's case; returns
  /// its effects and the child's identity before it.
  @inlinable
  func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> (Effect<Parent.Action>, NavigationID?) {
    guard let childAction = toChildAction.extract(from: action),
      var childState = toChildState.extract(from: state)
    else { return (.none, nil) }
    let navigation = navigationID(for: childState)
    let effect = child.reduce(into: &childState, action: childAction)
    state = toChildState.embed(childState)
    return (effect.map(toChildAction._embed).scoped(to: navigation.cancelID), navigation)
  }

  // NB: the site is the pair of reducer types, not the operator value: `body` makes a new value
  // for every action, and ids must match from the action that started an effect to the one that
  // cancels it.
  @usableFromInline
  func navigationID(for childState: Child.State) -> NavigationID {
    NavigationID(
      site: CancelID(
        Site(parent: ObjectIdentifier(Parent.self), child: ObjectIdentifier(Child.self))),
      identity: identity(of: childState))
  }

  private struct Site: Hashable, Sendable {
    let parent: ObjectIdentifier
    let child: ObjectIdentifier
  }
}

extension _IfCaseLetReducer: @unchecked Sendable where Parent: Sendable, Child: Sendable {}
