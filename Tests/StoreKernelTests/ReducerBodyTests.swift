import StoreKernel
import Synchronization
import Testing

// A store builds its reducer's body once, not at every action (docs/kernel.md, "Reducers"), and
// runs a reducer that reduces by itself as it is.

/// How often something was built or run.
private final class Tally: Sendable {
  let count = Atomic<Int>(0)
  func add() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

private enum Step: Equatable, Sendable {
  case add(Int)
  case child(Int)
}

/// Adds, through a body: a `Reduce` and a scoped child.
private struct Adder: Reducer {
  struct State: Equatable { var total = 0, child = 0 }
  let builds: Tally

  var body: some Reducer<State, Step> {
    let _ = builds.add()
    Scope(
      state: \.child,
      action: AnyCasePath(
        embed: Step.child, extract: { if case let .child(n) = $0 { n } else { nil } })
    ) {
      Reduce { state, n in
        state += n
        return .none
      }
    }
    Reduce { state, step in
      if case let .add(n) = step { state.total += n }
      return .none
    }
  }
}

@Test func aStoreBuildsABodyOnceWhateverTheNumberOfActions() {
  let builds = Tally()
  let store = Store(initialState: Adder.State(), reducer: Adder(builds: builds))
  for n in 1...50 { store.send(n % 2 == 0 ? .add(n) : .child(n)) }
  #expect(store.state == Adder.State(total: 650, child: 625))
  // NB: once for the first action, as ever, and once to keep: 50 before.
  #expect(builds.value == 2)

  let another = Store(initialState: Adder.State(), reducer: Adder(builds: builds))
  another.send(.add(1))
  another.send(.add(1))
  #expect(another.state.total == 2)
  #expect(builds.value == 4)
}

/// Implements both: the store runs its `reduce(into:action:)`, never the body.
private struct Both: Reducer {
  let runs: Tally

  var body: some Reducer<Int, Step> {
    Reduce { state, _ in
      state = -1
      return .none
    }
  }

  func reduce(into state: inout Int, action: Step) -> Effect<Step> {
    runs.add()
    if case let .add(n) = action { state += n }
    return .none
  }
}

@Test func aReducerThatReducesByItselfIsRunAsItIs() {
  let runs = Tally()
  let store = Store(initialState: 0, reducer: Both(runs: runs))
  for _ in 0..<5 { store.send(.add(2)) }
  #expect(store.state == 10)
  #expect(runs.value == 5)
}

/// Reduces by itself, through a child that has a body.
private struct Wrapping: Reducer {
  let runs: Tally
  let builds: Tally

  func reduce(into state: inout Adder.State, action: Step) -> Effect<Step> {
    runs.add()
    return Adder(builds: builds).reduce(into: &state, action: action)
  }
}

@Test func aReducerRunningAChildsBodyIsStillRunItself() {
  let runs = Tally()
  let builds = Tally()
  let store = Store(initialState: Adder.State(), reducer: Wrapping(runs: runs, builds: builds))
  for _ in 0..<4 { store.send(.add(1)) }
  #expect(store.state.total == 4)
  #expect(runs.value == 4)
  #expect(builds.value == 4)
}

private enum Factor: DependencyKey {
  static let defaultValue = 1
}

extension Dependencies {
  fileprivate var factor: Int {
    get { self[Factor.self] }
    set { self[Factor.self] = newValue }
  }
}

/// Reads a dependency while its body is built.
private struct Scaled: Reducer {
  @Dependency(\.factor) var factor

  var body: some Reducer<Int, Step> {
    let factor = self.factor
    Reduce { state, step in
      if case let .add(n) = step { state += n * factor }
      return .none
    }
  }
}

@Test func aKeptBodySeesItsStoresDependencies() {
  let plain = Store(initialState: 0, reducer: Scaled())
  let tripled = Store(initialState: 0, reducer: Scaled()) { $0.factor = 3 }
  for _ in 0..<3 {
    plain.send(.add(1))
    tripled.send(.add(1))
  }
  #expect(plain.state == 3)
  #expect(tripled.state == 9)
}
