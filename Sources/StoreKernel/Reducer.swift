/// A description of how a feature's state changes in response to an action, and which effects
/// run as a result.
///
/// Implement either ``reduce(into:action:)``, for a reducer that does the work itself:
///
///     struct Counter: Reducer {
///       struct State: Equatable { var count = 0 }
///       enum Action { case incrementButtonTapped }
///       func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         state.count += 1
///         return .none
///       }
///     }
///
/// or ``body-swift.property``, for a reducer composed of others:
///
///     struct App: Reducer {
///       struct State: Equatable { var counter = Counter.State() }
///       enum Action { case counter(Counter.Action) }
///       var body: some Reducer<State, Action> {
///         Scope(state: \.counter, action: Action.counter) { Counter() }
///       }
///     }
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  // NB: an unconstrained associated type, as upstream: `Body == Never` for reducers that implement
  // `reduce(into:action:)`, and a `Reducer` for those that implement `body`.
  associatedtype _Body
  typealias Body = _Body

  /// Changes `state` for `action` and returns the effect to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer this one is made of.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// Whether the reducer has a body (`Body` is a reducer). Provided; do not implement it.
  static var _hasBody: Bool { get }

  /// For a reducer with a body, the function a ``Store`` reduces each action with: the body
  /// built once, when `reduce(into:action:)` is what runs it (see `ReducerBodyCache`).
  /// Provided; do not implement it.
  func _storeBodyReduction() -> (inout State, Action) -> Effect<Action>
}

extension Reducer {
  // NB: a constant where the reducer's type is known: a store of a reducer without a body
  // forms `reduce(into:action:)` itself, a direct call (formed in a function of this
  // protocol, it went through a closure context at every action).
  @inlinable
  public static var _hasBody: Bool { false }

  @inlinable
  public func _storeBodyReduction() -> (inout State, Action) -> Effect<Action> {
    reduce(into:action:)
  }
}

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  ///
  /// NB: only reached by reading `body` of such a reducer yourself, a programming error; the store
  /// calls `reduce(into:action:)`, never this.
  public var body: Body {
    fatalError("\(Self.self) has no body: it implements reduce(into:action:)")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body-swift.property``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // NB: a store's first action is watched, to learn whether this is what its reducer runs
    // (see `ReducerBodyCache`); one relaxed load otherwise.
    if BodyWatch.isOn { BodyWatch.saw(Self.self) }
    return body.reduce(into: &state, action: action)
  }

  /// ``body-swift.property`` built once, at the store's first action, if that is what
  /// `reduce(into:action:)` runs.
  @inlinable
  public static var _hasBody: Bool { true }

  @inlinable
  public func _storeBodyReduction() -> (inout State, Action) -> Effect<Action> {
    ReducerBodyCache(self).reduce(into:action:)
  }
}

/// A reducer of `R`'s state and action: `ReducerOf<Counter>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
