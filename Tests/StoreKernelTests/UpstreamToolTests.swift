import StoreKernel
import Testing

// The test-store and effect tools of issue 21 that upstream's users reach for.

// MARK: - .dependency / .transformDependency

/// Logs the greeting its reduction sees, and the one its effect sees.
private struct Greeting: Reducer {
  @Dependency(\.greeting) var greeting

  func reduce(into state: inout [String], action: Probe.Action) -> Effect<Probe.Action> {
    switch action {
    case .start:
      state.append("reduce: \(greeting)")
      return .run { send in
        @Dependency(\.greeting) var greeting
        await send(.step("effect: \(greeting)"))
      }
    case let .step(line):
      state.append(line)
      return .none
    default:
      return .none
    }
  }
}

private struct GreetingParent: Reducer {
  struct State: Equatable, Sendable {
    var child: [String] = []
    var changed: [String] = []
    var plain: [String] = []
  }

  enum Action: Equatable, Sendable {
    case child(Probe.Action)
    case changed(Probe.Action)
    case plain(Probe.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) {
      Greeting().dependency(\.greeting, "hi")
    }
    Scope(state: \.changed, action: Action.changed) {
      Greeting().transformDependency(\.greeting) { $0 += ", you" }
    }
    Scope(state: \.plain, action: Action.plain) { Greeting() }
  }
}

@Test func aReducersDependencyReachesItsReductionsAndItsEffectsOnly() {
  let store = Store(initialState: GreetingParent.State(), reducer: GreetingParent())
  store.send(.child(.start))
  store.send(.changed(.start))
  store.send(.plain(.start))
  #expect(store.state.child == ["reduce: hi", "effect: hi"])
  #expect(store.state.changed == ["reduce: hello, you", "effect: hello, you"])
  #expect(store.state.plain == ["reduce: hello", "effect: hello"])
}

// MARK: - withTaskCancellation(id:) and Task.cancel(id:)

private func cancellationProbe() -> Probe {
  Probe { action in
    let clock = Dependencies.current.clock
    switch action {
    case .start:
      return .run { send in
        try await withTaskCancellation(id: "work", cancelInFlight: true) {
          try await clock.sleep(for: .seconds(1))
          await send(.step("worked"))
        }
      }
    case .step("cancel"): return .cancel(id: "work")
    case .step("cancel from an effect"): return .run { _ in Task.cancel(id: "work") }
    default: return .none
    }
  }
}

@Test func withTaskCancellationRunsWorkCancellableByItsID() throws {
  let store = Store(initialState: Probe.State(), reducer: cancellationProbe(), clock: .manual)
  store.send(.start)
  store.send(.start)  // cancels the first one in flight
  try store.advance(by: .seconds(1))
  #expect(store.state.log == ["worked"])

  store.send(.start)
  store.send(.step("cancel"))
  try store.advance(by: .seconds(1))
  #expect(store.state.log == ["worked", "cancel"])

  store.send(.start)
  store.send(.step("cancel from an effect"))
  try store.advance(by: .seconds(1))
  #expect(store.state.log == ["worked", "cancel", "cancel from an effect"])
  #expect(store.nextDeadline == nil)
}

// MARK: - receive(_ predicate:)

@Test func receiveTakesAPredicate() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .send(.value(3)) : .none
  }) { store in
    store.send(.start)
    store.receive({ if case .value = $0 { true } else { false } }) { $0.count = 3 }
    store.send(.start)
    store.receive({ $0 == .step("x") })
  }
  #expect(messages.count == 1)
  #expect(
    messages.first
      == "Received unexpected action (- expected, + received):\n"
      + "- an action matching the predicate\n+ Probe.Action.value(3)")
}

// MARK: - store.assert

@Test func assertChecksTheStateAsDescribed() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .merge(.send(.value(1)), .send(.step("fed"))) : .none
  }) { store in
    store.exhaustivity = .off
    store.send(.start)
    store.skipReceivedActions()
    store.assert { $0.count = 1 }
    store.assert { $0.log = ["fed"] }
    store.assert { $0.count = 2 }
  }
  #expect(messages.count == 1)
  #expect(messages.first?.contains("-   count: 2\n  +   count: 1") == true)
}

// MARK: - strict skipping

@Test func strictSkippingNeedsSomethingToSkip() {
  let list = FailureList()
  let store = TestStore(
    initialState: Probe.State(), reducer: Probe { _ in .none },
    reporter: .collecting(into: list))
  store.skipReceivedActions()
  store.skipInFlightEffects()
  store.skipReceivedActions(strict: false)
  store.skipInFlightEffects(strict: false)
  store.finish()
  #expect(
    list.messages == [
      "There were no received actions to skip.", "There were no in-flight effects to skip.",
    ])
}

@Test func skippingInAnExhaustiveStoreShowsWhatWasSkipped() {
  let list = FailureList()
  let store = TestStore(
    initialState: Probe.State(),
    reducer: Probe { action in
      action == .start
        ? .merge(.send(.value(1)), .run { _ in try await Task.sleep(for: .seconds(60)) }) : .none
    },
    reporter: .collecting(into: list))
  store.send(.start)
  store.skipReceivedActions()
  store.skipInFlightEffects()
  store.finish()
  #expect(list.messages == [])
  #expect(list.skipped.count == 2)
  #expect(list.skipped.first == "1 received action was skipped:\n  - Probe.Action.value(1)")
  #expect(list.skipped.last?.hasPrefix("1 in-flight effect was cancelled:") == true)
  #expect(store.state.count == 1)
}

// MARK: - exhaustivity = .off(showSkippedAssertions: true)

@Test func nonExhaustiveStoresCanShowWhatTheySkipped() {
  let list = FailureList()
  let store = TestStore(
    initialState: Probe.State(),
    reducer: Probe { action in
      action == .start ? .merge(.send(.value(1)), .send(.value(2)), .send(.value(4))) : .none
    },
    reporter: .collecting(into: list))
  store.exhaustivity = .off(showSkippedAssertions: true)
  store.send(.step("a")) { $0.count = 0 }
  store.send(.start)
  store.receive(.value(2)) { $0.count = 3 }
  store.send(.set(9))
  store.finish()
  #expect(list.messages == [])
  #expect(
    list.skipped == [
      """
      State change does not match expectation (- expected, + actual):
          Probe.State(
            count: 0
        -   log: []
        +   log: ["a"]
          )
      """,
      "1 received action skipped:\n  - Probe.Action.value(1)",
      "Must handle 1 received action before sending an action:\n  - Probe.Action.value(4)"
        + "\n\nUnhandled actions must be asserted with receive(_:), or skipped with "
        + "skipReceivedActions().",
      """
      State changed but no assertion was given (- before, + after):
          Probe.State(
        -   count: 7
        +   count: 9
            log: ["a"]
          )
      """,
    ])
}

// MARK: - The handle `send` returns

@Test func theHandleOfASendCancelsOrFinishesItsEffects() {
  let messages = failures(Probe.State(), Probe { action in
    let clock = Dependencies.current.clock
    switch action {
    case .start:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.value(1))
      }
    case .step("forever"):
      return .run { _ in try await clock.sleep(for: .seconds(3600)) }
    default:
      return .none
    }
  }) { store in
    let task = store.send(.start)
    let forever = store.send(.step("forever")) { $0.log = ["forever"] }
    #expect(task.isRunning)
    store.advance(by: .seconds(1))
    store.receive(.value(1)) { $0.count = 1 }
    task.finish()
    forever.finish()
    #expect(forever.isRunning)
    forever.cancel()
    #expect(forever.isCancelled)
    #expect(!forever.isRunning)
  }
  #expect(messages.count == 1)
  #expect(
    messages.first?.hasPrefix(
      "Expected the effects of this send to finish, but 1 is still running:\n"
        + "  - a .run effect, started by Probe.Action.step(\"forever\")") == true)
}
