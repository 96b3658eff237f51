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
  /// Where the stack is inside the parent's state when the key path is a chain of stored
  /// properties (`\.path`), as `MemoryLayout.offset(of:)` gives it; nil otherwise.
  ///
  /// NB: as `_ForEachReducer`'s: a key path applied at run time costs ~500 instructions a read,
  /// and every action the parent reduces reads the stack twice.
  @usableFromInline let stackOffset: Int?

  @inlinable
  init(
    parent: Parent, destination: Destination,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  ) {
    self.parent = parent
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.stackOffset = MemoryLayout<Parent.State>.offset(of: toStackState)
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    guard let stackAction = toStackAction.extract(from: action) else {
      // NB: most actions are not the stack's: the parent's alone, the stack only compared (an
      // optional stack action, as large as an element's state, was copied at every step).
      // NB: the ids seen at the last pass too: another reducer may have removed elements since.
      let idsBefore = withStack(of: &state) { $0.watchedIDs }
      let effect = parent.reduce(into: &state, action: action)
      let idsAfter = withStack(of: &state) { $0.mount() }
      guard idsBefore != idsAfter else { return effect }
      return effect.dismissing(idsBefore, keeping: idsAfter, by: navigationID(for:))
    }
    let idsBefore = withStack(of: &state) { $0.watchedIDs }
    var effect = Effect<Parent.Action>.none
    if case let .element(id, elementAction) = stackAction {
      effect = reduceElement(id: id, into: &state, action: elementAction)
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    effect = effect.isNone ? parentEffect : effect.merge(with: parentEffect)
    switch stackAction {
    case let .popFrom(id):
      withStack(of: &state) { _ = $0.pop(from: id) }
    case let .push(id, element):
      withStack(of: &state) { _ = $0.push(element, id: id) }
    case .element:
      break
    }
    let idsAfter = withStack(of: &state) { $0.mount() }
    // NB: checked here too, so that the common case does not form the `navigationID(for:)`
    // closure (a context allocated per action).
    guard idsBefore != idsAfter else { return effect }
    return effect.dismissing(idsBefore, keeping: idsAfter, by: navigationID(for:))
  }

  /// Runs `body` on the stack inside `state`, in place.
  @inlinable
  func withStack<R>(
    of state: inout Parent.State, _ body: (inout StackState<Destination.State>) -> R
  ) -> R {
    guard let offset = stackOffset else { return body(&state[keyPath: toStackState]) }
    // NB: the offset of a stored property of `Parent.State` (or of one of its stored struct
    // properties): the memory there is the stack's, as the key path would project it.
    return withUnsafeMutablePointer(to: &state) { pointer in
      body(
        &UnsafeMutableRawPointer(pointer).advanced(by: offset)
          .assumingMemoryBound(to: StackState<Destination.State>.self).pointee)
    }
  }

  @inlinable
  func reduceElement(
    id: StackElementID, into state: inout Parent.State, action: Destination.Action
  ) -> Effect<Parent.Action> {
    guard let position = withStack(of: &state, { $0.ids.firstIndex(of: id) }) else {
      return .none
    }
    let effect = withStack(of: &state) { destination.reduce(into: &$0[position], action: action) }
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
    NavigationID(site: CancelID(unchecked: AnyHashable(toStackState)), identity: CancelID(id))
  }
}

extension _StackReducer: @unchecked Sendable where Parent: Sendable, Destination: Sendable {}
