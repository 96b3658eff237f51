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
  ///   its buttons' actions;
  /// - cancels the child's effects when it goes away (dismissed, set to nil, or replaced by a
  ///   child of another case or id). Its cancellation ids are its own.
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
    let presentationAction = toPresentationAction.extract(from: action)
    var childEffects = Effect<Parent.Action>.none
    if case let .presented(childAction)? = presentationAction {
      childEffects = reduceChild(into: &state, action: childAction)
    }
    let idBefore = state[keyPath: toPresentationState].wrappedValue.map(navigationID(for:))
    let parentEffects = parent.reduce(into: &state, action: action)
    if let presentationAction, let idBefore,
      state[keyPath: toPresentationState].wrappedValue.map(navigationID(for:)) == idBefore
    {
      switch presentationAction {
      case .dismiss:
        state[keyPath: toPresentationState].wrappedValue = nil
      case .presented:
        // NB: as upstream: an alert or dialog goes away once a button was tapped.
        if let child = state[keyPath: toPresentationState].wrappedValue, isEphemeral(child) {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      }
    }
    let idAfter = state[keyPath: toPresentationState].wrappedValue.map(navigationID(for:))
    return childEffects.merge(with: parentEffects)
      .merge(with: .dismissal(from: idBefore, to: idAfter))
  }

  @inlinable
  func reduceChild(
    into state: inout Parent.State, action childAction: Destination.Action
  ) -> Effect<Parent.Action> {
    var navigation: NavigationID?
    let effect = state[keyPath: toPresentationState].wrappedValue.modify {
      childState -> Effect<Destination.Action> in
      let effect = destination.reduce(into: &childState, action: childAction)
      navigation = navigationID(for: childState)
      return effect
    }
    guard let effect, let navigation, !effect.isNone else { return .none }
    let toPresentationAction = self.toPresentationAction
    return
      effect
      .map { toPresentationAction.embed(.presented($0)) }
      .dismissing { send in await send(toPresentationAction.embed(.dismiss)) }
      .scoped(to: navigation.cancelID)
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
            tag: EnumReflection.tag(of: childState), id: identity(of: childState)))))
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

/// State that goes away by itself once the user acted on it: alerts and dialogs.
public protocol _EphemeralState {}

/// Whether `state` is an alert or a dialog, or an enum destination in a case holding one
/// (`case alert(AlertState<Alert>)`).
@usableFromInline
func isEphemeral(_ state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
    return false
  }
  return payload is any _EphemeralState
}
