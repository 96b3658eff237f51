/// Runs a reducer: holds the state, queues actions and processes them one at a time.
///
///     let store = Store(initialState: Counter.State(), reducer: Counter())
///     store.send(.incrementButtonTapped)
///     store.state.count  // 1
///
/// NB: an action sent while another is being reduced is queued, never recursed into, so chains
/// of effects do not grow the stack.
public final class Store<State, Action> {
  public private(set) var state: State
  /// Bumps each time an action is processed.
  public private(set) var version: UInt64 = 0

  private let reducer: (inout State, Action) -> Effect<Action>
  private var queue: [Action] = []
  private var isProcessing = false

  public init<R: Reducer>(initialState: State, reducer: R)
  where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer.reduce(into:action:)
  }

  public func send(_ action: Action) {
    queue.append(action)
    guard !isProcessing else { return }
    isProcessing = true
    defer { isProcessing = false }
    var next = 0
    while next < queue.count {
      let action = queue[next]
      next += 1
      let effect = reducer(&state, action)
      version &+= 1
      run(effect)
    }
    queue.removeAll(keepingCapacity: true)
  }

  private func run(_ effect: Effect<Action>) {
    switch effect.operation {
    case .none: break
    case let .send(action): queue.append(action)
    case let .merge(effects): effects.forEach(run)
    }
  }
}
