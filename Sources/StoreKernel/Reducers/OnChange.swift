extension Reducer {
  /// Runs `reducer`, built from the old and new value, after this one whenever `toValue` of the
  /// state changed.
  ///
  ///     Reduce { state, action in … }
  ///       .onChange(of: { $0.todos.map(\.isComplete) }) { _, _ in
  ///         Reduce { _, _ in
  ///           .send(.sortCompletedTodos).debounce(id: CancelID.sort, for: .seconds(1))
  ///         }
  ///       }
  @inlinable
  public func onChange<V: Equatable, R: Reducer>(
    of toValue: @escaping @Sendable (State) -> V,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping @Sendable (_ oldValue: V, _ newValue: V) -> R
  ) -> _OnChangeReducer<Self, V, R> where R.State == State, R.Action == Action {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer of ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Reaction: Reducer>: Reducer
where Reaction.State == Base.State, Reaction.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: @Sendable (Base.State) -> Value
  @usableFromInline let reducer: @Sendable (Value, Value) -> Reaction

  @inlinable
  init(
    base: Base, toValue: @escaping @Sendable (Base.State) -> Value,
    reducer: @escaping @Sendable (Value, Value) -> Reaction
  ) {
    self.base = base
    self.toValue = toValue
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}

extension _OnChangeReducer: Sendable where Base: Sendable {}
