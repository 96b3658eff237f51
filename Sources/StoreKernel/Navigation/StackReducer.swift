extension Reducer {
  /// Runs `destination` on the elements of a ``StackState`` for their ``StackAction`` actions,
  /// before this reducer, as upstream's `forEach` over a navigation stack.
  ///
  ///     Reduce { state, action in … }
  ///       .forEach(\.path, action: Action.path) {
  ///         Path()
  ///       }
  ///
  /// with `var path: StackState<Path.State>` in the state and
  /// `case path(StackAction<Path.State, Path.Action>)` in the actions. It:
  /// - runs ``StackAction/element(id:action:)`` on that element (ignored if it is not there);
  /// - pops on ``StackAction/popFrom(id:)`` and pushes on ``StackAction/push(id:state:)``, after
  ///   this reducer has seen the action (a push whose id the stack has given out before is
  ///   ignored: ids are never reused);
  /// - gives each element's effects a ``DismissEffect`` that pops that element;
  /// - cancels the effects of every element that left the stack, however it left (another
  ///   reducer's removal is seen at the next action through this one). `.cancel(id:)` in an
  ///   element reaches only its effects (and its children's); in the parent, it reaches the
  ///   elements' too, as upstream.
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      parent: self, destination: destination(), toStackState: toStackState,
      toStackAction: toStackAction)
  }

  /// ``forEach(_:action:destination:)`` with the stack's actions given by their case.
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction:
      @escaping @Sendable (StackAction<DestinationState, DestinationAction>) -> Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    forEach(toStackState, action: AnyCasePath(toStackAction), destination: destination)
  }
}

/// The reducer of `forEach(_:action:destination:)` over a ``StackState``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  @usableFromInline let toStackAction:
    AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>

  @usableFromInline
  init(
    parent: Parent, destination: Destination,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  ) {
    self.parent = parent
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the ids seen at the last pass too: another reducer may have removed elements since.
    let idsBefore = state[keyPath: toStackState].watchedIDs
    let stackAction = toStackAction.extract(from: action)
    var effect = Effect<Parent.Action>.none
    if case let .element(id, elementAction)? = stackAction {
      effect = reduceElement(id: id, into: &state, action: elementAction)
    }
    effect = effect.merge(with: parent.reduce(into: &state, action: action))
    switch stackAction {
    case let .popFrom(id)?:
      state[keyPath: toStackState].pop(from: id)
    case let .push(id, element)?:
      state[keyPath: toStackState].push(element, id: id)
    case .element?, nil:
      break
    }
    let idsAfter = state[keyPath: toStackState].mount()
    guard idsBefore != idsAfter else { return effect }
    return effect.dismissing(idsBefore, keeping: idsAfter, by: navigationID(for:))
  }

  @inlinable
  func reduceElement(
    id: StackElementID, into state: inout Parent.State, action: Destination.Action
  ) -> Effect<Parent.Action> {
    guard let position = state[keyPath: toStackState].ids.firstIndex(of: id) else { return .none }
    let effect = destination.reduce(
      into: &state[keyPath: toStackState][position], action: action)
    guard !effect.isNone else { return .none }
    let toStackAction = self.toStackAction
    return
      effect
      .map { toStackAction.embed(.element(id: id, action: $0)) }
      .dismissing { send in await send(toStackAction.embed(.popFrom(id: id))) }
      .scoped(to: navigationID(for: id).cancelID)
  }

  @usableFromInline
  func navigationID(for id: StackElementID) -> NavigationID {
    NavigationID(
      site: CancelID(unchecked: AnyHashable(toStackState)), identity: CancelID(id),
      isDismissible: true)
  }
}

extension _StackReducer: @unchecked Sendable where Parent: Sendable, Destination: Sendable {}
