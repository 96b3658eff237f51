extension Reducer {
  /// Runs `destination` on the presented child of a ``PresentationState`` for its
  /// ``PresentationAction/presented(_:)`` actions, before this reducer, as upstream's `ifLet`.
  ///
  ///     Reduce { state, action in … }
  ///       .ifLet(\.$destination, action: Action.destination) {
  ///         Destination()
  ///       }
  ///
  /// with `@PresentationState var destination: Destination.State?` in the state and
  /// `case destination(PresentationAction<Destination.Action>)` in the actions. It:
  /// - dismisses on ``PresentationAction/dismiss``: the state goes nil after this reducer has
  ///   seen the action;
  /// - gives the child's effects a ``DismissEffect`` that sends that dismissal;
  /// - dismisses an alert or dialog (``AlertState``, ``ConfirmationDialogState``) after any of
  ///   its buttons' actions (in an enum destination, those of its own case);
  /// - cancels the child's effects when it goes away: dismissed, set to nil, or replaced by a
  ///   child of another case or id (an enum destination's id is its payload's), whoever did it
  ///   (another reducer's change is seen at the next action through this one), and when the
  ///   child's own action changes its id. `.cancel(id:)` in the child reaches only the child's
  ///   effects (and its children's); in the parent, it reaches the child's too, as upstream.
  ///
  /// A child action that arrives while nothing is presented, and a dismissal then, are ignored.
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      parent: self, destination: destination(), toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction)
  }

  /// ``ifLet(_:action:destination:)`` with the child's actions given by their case.
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction:
      @escaping @Sendable (PresentationAction<DestinationAction>) -> Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    ifLet(toPresentationState, action: AnyCasePath(toPresentationAction), destination: destination)
  }

  /// ``ifLet(_:action:destination:)`` for a child without a reducer of its own: an alert or a
  /// confirmation dialog, whose buttons' actions the parent handles.
  ///
  ///     .ifLet(\.$alert, action: Action.alert)
  @inlinable
  public func ifLet<DestinationState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(toPresentationState, action: toPresentationAction) { EmptyReducer() }
  }

  /// ``ifLet(_:action:)`` with the child's actions given by their case.
  @inlinable
  public func ifLet<DestinationState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction:
      @escaping @Sendable (PresentationAction<DestinationAction>) -> Action
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(toPresentationState, action: AnyCasePath(toPresentationAction)) { EmptyReducer() }
  }
}

/// The reducer of `ifLet(_:action:destination:)` over a ``PresentationState``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toPresentationState:
    WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  @usableFromInline let toPresentationAction:
    AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>

  @inlinable
  init(
    parent: Parent, destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  ) {
    self.parent = parent
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the child seen at the last pass, and the one there now (before its own action, as
    // upstream: that action's effects run under it, and end with it if the action changes the
    // child's identity). Another reducer may have removed or replaced the first since. Read
    // in a closure so that no copy of the wrapper outlives it: the child's action then
    // changes the child in place.
    let (recorded, presented) = { (presentation: PresentationState<Destination.State>) in
      (presentation.presentedID, presentation.wrappedValue.map(navigationID(for:)))
    }(state[keyPath: toPresentationState])
    // NB: nothing presented, now or at the last pass: the parent alone. A child it presents now
    // is seen at the next pass (it can have no effects before its first action comes through).
    guard recorded != nil || presented != nil else {
      return parent.reduce(into: &state, action: action)
    }
    let presentationAction = toPresentationAction.extract(from: action)
    var effects = Effect<Parent.Action>.none
    if case let .presented(childAction)? = presentationAction, let presented {
      effects = reduceChild(into: &state, action: childAction, presented: presented)
    }
    effects = effects.merge(with: parent.reduce(into: &state, action: action))
    if let presentationAction, let presented,
      let child = state[keyPath: toPresentationState].wrappedValue,
      navigationID(for: child) == presented
    {
      switch presentationAction {
      case .dismiss:
        state[keyPath: toPresentationState].wrappedValue = nil
      case let .presented(childAction):
        // NB: as upstream: an alert or dialog goes away after one of its own actions.
        if let ephemeral = ephemeralType(of: child), ephemeral.canSend(childAction) {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      }
    }
    let current = state[keyPath: toPresentationState].wrappedValue.map(navigationID(for:))
    if let recorded, recorded != current {
      effects = effects.merge(with: .cancel(id: recorded.cancelID))
    }
    if let presented, presented != current, presented != recorded {
      effects = effects.merge(with: .cancel(id: presented.cancelID))
    }
    if current != recorded { state[keyPath: toPresentationState].presentedID = current }
    return effects
  }

  @inlinable
  func reduceChild(
    into state: inout Parent.State, action childAction: Destination.Action,
    presented: NavigationID
  ) -> Effect<Parent.Action> {
    let effect = state[keyPath: toPresentationState].wrappedValue.modify {
      childState -> Effect<Destination.Action> in
      destination.reduce(into: &childState, action: childAction)
    }
    guard let effect, !effect.isNone else { return .none }
    let toPresentationAction = self.toPresentationAction
    return
      effect
      .map { toPresentationAction.embed(.presented($0)) }
      .dismissing { send in await send(toPresentationAction.embed(.dismiss)) }
      .scoped(to: presented.cancelID)
  }

  /// The child's presentation: where it is, its case (an enum destination) and its id (an
  /// `Identifiable` one). Another case or id is another presentation.
  @usableFromInline
  func navigationID(for childState: Destination.State) -> NavigationID {
    NavigationID(
      site: CancelID(unchecked: AnyHashable(toPresentationState)),
      identity: CancelID(
        unchecked: AnyHashable(
          PresentationIdentity(
            tag: EnumReflection.tag(of: childState), id: identity(of: childState)))),
      isDismissible: true)
  }
}

extension _PresentationReducer: @unchecked Sendable
where Parent: Sendable, Destination: Sendable {}

/// A presented child's case and id, as far as it has them.
@usableFromInline
struct PresentationIdentity: Hashable {
  let tag: UInt32?
  let id: CancelID?

  @usableFromInline
  init(tag: UInt32?, id: CancelID?) {
    self.tag = tag
    self.id = id
  }
}
