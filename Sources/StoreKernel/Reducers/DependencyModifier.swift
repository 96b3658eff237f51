extension Reducer {
  /// Runs this reducer, and the effects it returns, with one dependency set to `value`.
  ///
  ///     Child()
  ///       .dependency(\.uuid, .incrementing)
  ///
  /// The parent's reducers and effects keep the store's dependencies.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<Dependencies, Value> & Sendable, _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Runs this reducer, and the effects it returns, with one dependency changed by `transform`.
  ///
  ///     Child()
  ///       .transformDependency(\.random) { $0 = RandomSource(seed: 7) }
  public func transformDependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<Dependencies, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// A reducer whose reductions and effects see changed dependencies: see
/// ``Reducer/dependency(_:_:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: @Sendable (inout Dependencies) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var dependencies = Dependencies.current
    update(&dependencies)
    let box = DependencyContext.derived(dependencies)
    // NB: the reduction sees them through the thread's current box (swapped for its length); the
    // effects' jobs, which run later and interleave, through a task local (see
    // `DependencyContext.override`).
    let effect = DependencyContext.with(box) { base.reduce(into: &state, action: action) }
    return effect.withDependencies(box)
  }
}

extension _DependencyKeyWritingReducer: Sendable where Base: Sendable {}

extension Effect {
  /// The effect with its `.run` work reading `box`'s dependencies.
  func withDependencies(_ box: DependencyBox) -> Effect {
    switch operation {
    case .none, .send, .cancel, .sleep, .request, .cancellableRequest: return self
    case let .run(run):
      return Effect(
        operation: .run(
          Run(place: run.place) { send in
            await DependencyContext.$override.withValue(box) { await run.operation(send) }
          }))
    case let .merge(effects):
      return Effect(operation: .merge(effects.map { $0.withDependencies(box) }))
    case let .concatenate(effects):
      return Effect(operation: .concatenate(effects.map { $0.withDependencies(box) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.withDependencies(box)))
    case let .throttle(id, interval, latest, effect):
      return Effect(
        operation: .throttle(
          id: id, interval: interval, latest: latest, effect.withDependencies(box)))
    }
  }
}
