import StoreKernel
import Testing

// The defects of issue 21, found by running the Composable Architecture's own test suite against
// libtca: one test per defect, each the smallest scenario that showed it.

/// A reducer whose every action is logged by name and answered by the effect `effects` gives.
struct Probe: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case start
    case step(String)
    case value(Int)
    case set(Int)
  }

  let effects: @Sendable (Action) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: break
    case let .step(name): state.log.append(name)
    case let .value(value): state.count += value
    case let .set(value): state.count = value
    }
    return effects(action)
  }
}

/// The messages of the failures a test store reports while `body` runs (and at its `finish`).
func failures<R: Reducer>(
  _ initialState: R.State, _ reducer: R, finish: Bool = true,
  _ body: (TestStore<R.State, R.Action>) -> Void
) -> [String] where R.State: Equatable {
  let list = FailureList()
  let store = TestStore(
    initialState: initialState, reducer: reducer, reporter: .collecting(into: list))
  body(store)
  if finish { store.finish() }
  return list.messages
}

// MARK: - 1. Zero-size payloads

private struct Empty: Equatable, Sendable {}
private enum Single: Equatable, Sendable { case only }

private enum Payloads: Equatable, Sendable {
  case empty(Empty)
  case number(Int)
  case single(Single)
  case plain
}

/// An enum whose only payload case has a zero-size payload: all its cases are laid out as cases
/// without payload.
private enum AllEmpty: Equatable, Sendable {
  case first
  case single(Single)
  case empty(Empty)
}

private enum Voids: Sendable {
  case void(Void)
  case other
}

@Test func zeroSizePayloadsAreExtractedByBareCasePaths() {
  #expect(AnyCasePath(Payloads.empty).extract(from: .empty(Empty())) == Empty())
  #expect(AnyCasePath(Payloads.single).extract(from: .single(.only)) == .only)
  #expect(AnyCasePath(Payloads.single).extract(from: .empty(Empty())) == nil)
  #expect(AnyCasePath(Payloads.empty).extract(from: .plain) == nil)
  #expect(AnyCasePath(Payloads.number).extract(from: .number(7)) == 7)
  #expect(AnyCasePath(AllEmpty.single).extract(from: .single(.only)) == .only)
  #expect(AnyCasePath(AllEmpty.empty).extract(from: .empty(Empty())) == Empty())
  #expect(AnyCasePath(AllEmpty.empty).extract(from: .single(.only)) == nil)
  #expect(AnyCasePath(AllEmpty.single).extract(from: .first) == nil)
  #expect(AnyCasePath(Voids.void).extract(from: .void(())) != nil)
  #expect(AnyCasePath(Voids.void).extract(from: .other) == nil)
}

/// A child feature whose Action has one case.
private struct Tapper: Reducer {
  enum Action: Equatable, Sendable { case tapped }
  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    state += 1
    return .none
  }
}

private struct TapperHost: Reducer {
  struct State: Equatable, Sendable {
    var taps = 0
    var loaded = false
  }
  enum Action: Equatable, Sendable {
    case tapper(Tapper.Action)
    case load
    case loaded(Empty)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.taps, action: Action.tapper) { Tapper() }
    Reduce { state, action in
      switch action {
      case .tapper: return .none
      case .load: return .send(.loaded(Empty()))
      case .loaded:
        state.loaded = true
        return .none
      }
    }
  }
}

@Test func aChildWithASingleCaseActionRunsAndEmptyPayloadsAreReceived() {
  let messages = failures(TapperHost.State(), TapperHost()) { store in
    store.send(.tapper(.tapped)) { $0.taps = 1 }
    store.send(.load)
    store.receive(TapperHost.Action.loaded) { $0.loaded = true }
  }
  #expect(messages == [])
}

// MARK: - 2. Nested cancel-in-flight

@Test func nestedCancelInFlightWithTheSameIDDeliversOnce() {
  let messages = failures(Probe.State(), Probe { action in
    guard action == .start else { return .none }
    return .send(.value(42))
      .cancellable(id: "id", cancelInFlight: true)
      .cancellable(id: "id", cancelInFlight: true)
  }) { store in
    store.send(.start)
    store.receive(.value(42)) { $0.count = 42 }
  }
  #expect(messages == [])
}

// MARK: - 3. Action order from one effect

@Test func actionsSentByOneEffectAreReducedBeforeItGoesOn() {
  let store = Store(
    initialState: Probe.State(),
    reducer: Probe { action in
      switch action {
      case .start:
        return .run { send in
          await send(.step("b1"))
          await send(.step("c1"))
        }
      case .step("b1"): return .concatenate(.send(.step("b2")), .send(.step("b3")))
      case .step("c1"): return .concatenate(.send(.step("c2")), .send(.step("c3")))
      default: return .none
      }
    }, clock: .manual)
  store.send(.start)
  #expect(store.state.log == ["b1", "b2", "b3", "c1", "c2", "c3"])
}

// MARK: - 4. Zero-length sleeps

@Test func aZeroLengthSleepWaitsForTheManualClockToBeAdvanced() throws {
  let store = Store(
    initialState: Probe.State(),
    reducer: Probe { action in
      guard action == .start else { return .none }
      let clock = Dependencies.current.clock
      return .run { send in
        try await clock.sleep(for: .zero)
        await send(.step("slept"))
      }
    }, clock: .manual)
  store.send(.start)
  #expect(store.state.log == [])
  try store.advance(by: .zero)
  #expect(store.state.log == ["slept"])
}

// MARK: - 5. TestStore.state

@Test func aTestStoresStateIsTheStateAsOfTheLastAssertion() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .concatenate(.send(.value(1)), .send(.value(10))) : .none
  }) { store in
    store.send(.set(1)) { $0.count = 1 }
    store.send(.start)
    #expect(store.state.count == 1)
    store.receive(.value(1)) { $0.count = 2 }
    #expect(store.state.count == 2)
    store.receive(.value(10)) { $0.count = 12 }
    #expect(store.state.count == 12)
  }
  #expect(messages == [])
}

// MARK: - 6. An assertion that changes nothing

@Test func anAssertionClosureThatChangesNothingFails() {
  let messages = failures(Probe.State(), Probe { _ in .none }) { store in
    store.send(.set(0)) { $0.count = 0 }
    store.send(.set(0)) { _ = $0 }
    store.send(.set(0))
  }
  let expected =
    "Expected state to change, but no change occurred.\n\nThe trailing closure made no "
    + "observable modifications to state. If no change to state is expected, omit the trailing "
    + "closure."
  #expect(messages == [expected, expected])
}

// MARK: - 7. One mistake, one failure

@Test func receivingTheWrongActionFailsOnce() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .send(.value(1)) : .none
  }) { store in
    store.send(.start)
    store.receive(.value(2)) { $0.count = 2 }
  }
  #expect(messages.count == 1)
  #expect(messages.first?.hasPrefix("Received unexpected action") == true)
}

// MARK: - 8. Pending actions kept

@Test func sendingWithPendingActionsFailsButKeepsThem() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .send(.value(1)) : .none
  }) { store in
    store.send(.start)
    store.send(.step("next")) { $0.log = ["next"] }
    store.receive(.value(1)) { $0.count = 1 }
  }
  #expect(messages.count == 1)
  #expect(
    messages.first?.hasPrefix("Must handle 1 received action before sending an action") == true)
}

// MARK: - 9. A failed non-exhaustive receive

@Test func aFailedNonExhaustiveReceiveKeepsThePendingActions() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .merge(.send(.value(1)), .send(.value(2))) : .none
  }) { store in
    store.exhaustivity = .off
    store.send(.start)
    store.receive(.step("onAppear"))
    store.receive(.value(1)) { $0.count = 1 }
    store.receive(.value(2)) { $0.count = 3 }
  }
  #expect(messages == ["Expected to receive Probe.Action.step(\"onAppear\"), but never did."])
}

// MARK: - 10. Errors thrown out of `.run`

private struct Broken: Error {}

@Test func anErrorThrownOutOfARunFailsATestStore() {
  let messages = failures(Probe.State(), Probe { action in
    action == .start ? .run { _ in throw Broken() } : .none
  }) { store in
    store.send(.start)
  }
  #expect(messages.count == 1)
  #expect(messages.first?.contains("threw an unhandled error") == true)
  #expect(messages.first?.contains("Broken()") == true)
}

// MARK: - 11. A send after the effect finished

/// Where an effect leaves its `send` for a later one to misuse.
private final class Escaped: @unchecked Sendable {
  var send: Send<Probe.Action>?
}

private func escapingProbe(_ escaped: Escaped) -> Probe {
  Probe { action in
    switch action {
    case .start: return .run { send in escaped.send = send }
    case .step("late"): return .run { _ in await escaped.send?(.value(1)) }
    default: return .none
    }
  }
}

@Test func aSendAfterTheEffectFinishedFailsATestStore() {
  let escaped = Escaped()
  let messages = failures(Probe.State(), escapingProbe(escaped)) { store in
    store.send(.start)
    store.send(.step("late")) { $0.log = ["late"] }
  }
  #expect(messages.count == 1)
  #expect(messages.first?.hasPrefix("An action was sent from a completed effect") == true)
}

@Test func aSendAfterTheEffectFinishedIsTracedByAStore() {
  let escaped = Escaped()
  let trace = Recorder<String>()
  let store = Store(
    initialState: Probe.State(), reducer: escapingProbe(escaped), clock: .manual)
  store.setTrace(TraceSink { trace.append($0) })
  store.send(.start)
  store.send(.step("late"))
  #expect(store.state.count == 0)
  #expect(trace.all.contains { $0.contains("an action was sent from a completed effect") })
}
