/// Builds a reducer from the reducers listed in a ``Reducer/body-swift.property``: they run one
/// after the other, in order, on the same state, and their effects are merged.
///
///     var body: some Reducer<State, Action> {
///       Scope(state: \.child, action: Action.child) { Child() }
///       Reduce { state, action in … }
///       if isLogging { Logger() }
///     }
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> where R0.State == State, R0.Action == Action {
    _Sequence(accumulated, next)
  }

  @inlinable
  public static func buildOptional<R: Reducer>(_ wrapped: R?) -> _Optional<R>
  where R.State == State, R.Action == Action {
    _Optional(wrapped)
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(first: R0) -> _Conditional<R0, R1>
  where R0.State == State, R0.Action == Action {
    .first(first)
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(second: R1) -> _Conditional<R0, R1>
  where R1.State == State, R1.Action == Action {
    .second(second)
  }

  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: [R]) -> _SequenceMany<R>
  where R.State == State, R.Action == Action {
    _SequenceMany(reducers)
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer>(_ wrapped: R) -> R
  where R.State == State, R.Action == Action {
    wrapped
  }

  @inlinable
  public static func buildFinalResult<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  /// Two reducers run in order; their effects merged.
  public struct _Sequence<R0: Reducer, R1: Reducer>: Reducer
  where R0.State == R1.State, R0.Action == R1.Action {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
      self.r0 = r0
      self.r1 = r1
    }

    @inlinable
    public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
      let first = r0.reduce(into: &state, action: action)
      let second = r1.reduce(into: &state, action: action)
      // NB: most reducers return `.none`: then `first` is handed on, not copied (an effect is
      // as large as its action).
      if second.isNone { return first }
      return first.merge(with: second)
    }
  }

  /// Any number of reducers of one type, run in order; their effects merged.
  public struct _SequenceMany<Element: Reducer>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(_ reducers: [Element]) { self.reducers = reducers }

    @inlinable
    public func reduce(
      into state: inout Element.State, action: Element.Action
    ) -> Effect<Element.Action> {
      var effect = Effect<Element.Action>.none
      for reducer in reducers {
        effect = effect.merge(with: reducer.reduce(into: &state, action: action))
      }
      return effect
    }
  }

  /// A reducer that runs only if it was built (`if` without `else`).
  public struct _Optional<Wrapped: Reducer>: Reducer {
    @usableFromInline let wrapped: Wrapped?

    @inlinable
    init(_ wrapped: Wrapped?) { self.wrapped = wrapped }

    @inlinable
    public func reduce(
      into state: inout Wrapped.State, action: Wrapped.Action
    ) -> Effect<Wrapped.Action> {
      wrapped?.reduce(into: &state, action: action) ?? .none
    }
  }

  /// One of two reducers (`if`/`else`, `switch`).
  public enum _Conditional<First: Reducer, Second: Reducer>: Reducer
  where First.State == Second.State, First.Action == Second.Action {
    case first(First)
    case second(Second)

    @inlinable
    public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action>
    {
      switch self {
      case let .first(first): first.reduce(into: &state, action: action)
      case let .second(second): second.reduce(into: &state, action: action)
      }
    }
  }
}

extension ReducerBuilder._Sequence: Sendable where R0: Sendable, R1: Sendable {}
extension ReducerBuilder._SequenceMany: Sendable where Element: Sendable {}
extension ReducerBuilder._Optional: Sendable where Wrapped: Sendable {}
extension ReducerBuilder._Conditional: Sendable where First: Sendable, Second: Sendable {}
