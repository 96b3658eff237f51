/// A view of part of a store: a child feature's state and actions, on the parent store's
/// runtime (its queue, effects, clock, dependencies and host requests).
///
///     let store = Store(initialState: MatchScores.State(), reducer: MatchScores())
///     let teams = store.scope(state: \.teamList, action: MatchScores.Action.teamList)
///     teams.send(.onAppear)        // the parent store reduces .teamList(.onAppear)
///     teams.state.isLoading        // true
///
/// It holds no state of its own: reading reads the parent's, sending sends the parent an
/// action. Scopes of scopes narrow further. For Swift code that drives the kernel directly;
/// hosts address children by nesting their actions in JSON (`{"teamList":"onAppear"}`).
///
/// NB: a type of its own rather than a `Store` as upstream's: a `Store` owns a runtime, and a
/// scope must share its parent's, so it is a thin layer over the parent's calls.
public struct ScopedStore<State, Action>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: the closures only call into the root store, which serializes
  // calls from any thread.
  @usableFromInline let readState: () -> State
  @usableFromInline let sendAction: (Action) -> Void
  @usableFromInline let readVersion: () -> UInt64
  @usableFromInline let subscribeToRoot: (@escaping (UInt64) -> Void) -> UInt64
  @usableFromInline let unsubscribeFromRoot: (UInt64) -> Bool

  @usableFromInline
  init(
    state: @escaping () -> State,
    send: @escaping (Action) -> Void,
    version: @escaping () -> UInt64,
    subscribe: @escaping (@escaping (UInt64) -> Void) -> UInt64,
    unsubscribe: @escaping (UInt64) -> Bool
  ) {
    self.readState = state
    self.sendAction = send
    self.readVersion = version
    self.subscribeToRoot = subscribe
    self.unsubscribeFromRoot = unsubscribe
  }

  /// The child's part of the root store's current state.
  @inlinable
  public var state: State { readState() }

  /// The root store's state version (it bumps when any part of the state changed).
  @inlinable
  public var version: UInt64 { readVersion() }

  /// Sends `action`, embedded in the parent's actions, to the root store.
  @inlinable
  public func send(_ action: Action) { sendAction(action) }

  /// Subscribes to the root store (``Store/subscribe(_:)``).
  @discardableResult
  public func subscribe(_ callback: @escaping (UInt64) -> Void) -> UInt64 {
    subscribeToRoot(callback)
  }

  /// Ends a subscription made with ``subscribe(_:)``.
  @discardableResult
  public func unsubscribe(_ token: UInt64) -> Bool { unsubscribeFromRoot(token) }

  /// A narrower scope: part of this scope's state and actions.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: @escaping (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    let readState = self.readState
    let sendAction = self.sendAction
    return ScopedStore<ChildState, ChildAction>(
      state: { readState()[keyPath: toChildState] },
      send: { sendAction(toChildAction($0)) },
      version: readVersion, subscribe: subscribeToRoot, unsubscribe: unsubscribeFromRoot)
  }

  /// A scope of a case path of actions (``AnyCasePath``).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: AnyCasePath<Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction> {
    scope(state: toChildState, action: toChildAction.embed)
  }

  /// A scope of a presented child (``PresentationState``), nil while nothing is presented; its
  /// actions are sent as ``PresentationAction/presented(_:)``.
  ///
  ///     if let history = store.scope(state: \.$destination, action: Dice.Action.destination) {
  ///       history.send(.history(.closeButtonTapped))
  ///     }
  ///
  /// NB: while the child is presented the scope reads it; once it is dismissed, the scope keeps
  /// reading the last state it was presented with (as upstream's child stores do).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, PresentationState<ChildState>>,
    action toChildAction: @escaping (PresentationAction<ChildAction>) -> Action
  ) -> ScopedStore<ChildState, ChildAction>? {
    guard let initial = readState()[keyPath: toChildState].wrappedValue else { return nil }
    let readState = self.readState
    let last = LastValue(initial)
    return scope(
      state: \.self, action: { toChildAction(.presented($0)) }
    ).mapState { _ in
      let current = readState()[keyPath: toChildState].wrappedValue ?? last.value
      last.value = current
      return current
    }
  }

  func mapState<T>(_ transform: @escaping (State) -> T) -> ScopedStore<T, Action> {
    let readState = self.readState
    return ScopedStore<T, Action>(
      state: { transform(readState()) }, send: sendAction, version: readVersion,
      subscribe: subscribeToRoot, unsubscribe: unsubscribeFromRoot)
  }
}

/// The last state a presented scope read.
private final class LastValue<Value>: @unchecked Sendable {
  // NB: read and written only inside reads of the scope's state, which callers of a store's
  // scope make as they make reads of the store.
  var value: Value
  init(_ value: Value) { self.value = value }
}

extension Store {
  /// A child store: part of this store's state and actions, sharing this store's runtime.
  ///
  ///     let teams = store.scope(state: \.teamList, action: MatchScores.Action.teamList)
  ///     teams.send(.onAppear)
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: @escaping (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    root.scope(state: toChildState, action: toChildAction)
  }

  /// A child store of a case path of actions (``AnyCasePath``).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: AnyCasePath<Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction> {
    root.scope(state: toChildState, action: toChildAction)
  }

  /// A child store of a presented child, nil while nothing is presented
  /// (as ``ScopedStore``'s scope of a ``PresentationState``).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, PresentationState<ChildState>>,
    action toChildAction: @escaping (PresentationAction<ChildAction>) -> Action
  ) -> ScopedStore<ChildState, ChildAction>? {
    root.scope(state: toChildState, action: toChildAction)
  }

  /// The whole store as a scope.
  var root: ScopedStore<State, Action> {
    // NB: the scope holds the store strongly, as upstream's child stores hold their parent.
    ScopedStore(
      state: { self.state }, send: { self.send($0) }, version: { self.version },
      subscribe: { self.subscribe($0) }, unsubscribe: { self.unsubscribe($0) })
  }
}
