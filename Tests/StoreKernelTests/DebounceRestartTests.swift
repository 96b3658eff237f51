@testable import StoreKernel
import Testing

// A debounce restarted while it waits is restarted in place (`StoreCore.restartWaiting`): these
// check that it behaves as the waiting one cancelled and a new one started.

/// Debounces the action a `.debounce` names, for the duration it names; `.other` sleeps on the
/// clock, then records; `.cancel` cancels the debounce.
private struct Debouncing: Reducer {
  enum Action: Equatable, Sendable {
    case debounce(String, milliseconds: Int)
    case debounceRun(String, milliseconds: Int)
    case debounceThen(String, then: String)
    case other(String, milliseconds: Int)
    case cancel
    case step(String)
  }

  enum CancelID { case debounce }

  @Dependency(\.clock) var clock

  func reduce(into state: inout [String], action: Action) -> Effect<Action> {
    switch action {
    case let .debounce(name, milliseconds):
      return .send(.step(name))
        .debounce(id: CancelID.debounce, for: .milliseconds(milliseconds))
    case let .debounceRun(name, milliseconds):
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(500))
        await send(.step(name))
      }
      .debounce(id: CancelID.debounce, for: .milliseconds(milliseconds))
    case let .debounceThen(name, then):
      return .concatenate(
        .send(.step(name)).debounce(id: CancelID.debounce, for: .milliseconds(100)),
        .send(.step(then)))
    case let .other(name, milliseconds):
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(milliseconds))
        await send(.step(name))
      }
    case .cancel:
      return .cancel(id: CancelID.debounce)
    case let .step(name):
      state.append(name)
      return .none
    }
  }
}

private func makeStore() -> Store<[String], Debouncing.Action> {
  Store(initialState: [], reducer: Debouncing(), clock: .manual)
}

@Test func aRestartedDebounceRunsTheNewEffectOnce() throws {
  let store = makeStore()
  store.send(.debounce("a", milliseconds: 300))
  try store.advance(by: .milliseconds(200))
  store.send(.debounce("b", milliseconds: 300))
  try store.advance(by: .milliseconds(299))
  #expect(store.state.isEmpty)
  #expect(store.nextDeadline == .milliseconds(1))
  try store.advance(by: .milliseconds(1))
  #expect(store.state == ["b"])
  try store.advance(by: .seconds(1))
  #expect(store.state == ["b"])
  #expect(store.nextDeadline == nil)
}

@Test func aRestartedDebounceTakesTheNewDurationEvenIfShorter() throws {
  let store = makeStore()
  store.send(.debounce("a", milliseconds: 1_000))
  store.send(.debounce("b", milliseconds: 10))
  try store.advance(by: .milliseconds(10))
  #expect(store.state == ["b"])
}

@Test func aRestartedDebounceFiresAfterATimerDueAtTheSameTimeScheduledBeforeTheRestart() throws {
  // NB: timers due at the same time fire in the order they were scheduled; the restart is a
  // new timer, as upstream's cancel-and-start makes one.
  let store = makeStore()
  store.send(.debounce("debounced", milliseconds: 300))
  try store.advance(by: .milliseconds(100))
  store.send(.other("other", milliseconds: 200))
  store.send(.debounce("debounced", milliseconds: 200))
  try store.advance(by: .milliseconds(200))
  #expect(store.state == ["other", "debounced"])
}

@Test func aRestartedDebounceIsCancelledByItsID() throws {
  let store = makeStore()
  store.send(.debounce("a", milliseconds: 300))
  store.send(.debounce("b", milliseconds: 300))
  store.send(.cancel)
  #expect(store.nextDeadline == nil)
  try store.advance(by: .seconds(1))
  #expect(store.state.isEmpty)
  #expect(store.inFlightEffects().isEmpty)
}

@Test func aRestartedDebounceIsOneTimerDueAtTheNewDeadline() throws {
  let store = makeStore()
  for _ in 0..<1_000 { store.send(.debounce("a", milliseconds: 300)) }
  try store.advance(by: .milliseconds(100))
  store.send(.debounce("a", milliseconds: 300))
  #expect(store.inFlightEffects() == ["a timer due at \(Duration.milliseconds(400))"])
  try store.advance(by: .milliseconds(400))
  #expect(store.state == ["a"])
  #expect(store.inFlightEffects().isEmpty)
}

@Test func aDebounceWhoseEffectRunsIsCancelledByTheNext() throws {
  // NB: once the wait is over, the debounced `.run` runs: the next debounce cancels it (the
  // general path), and only the newest gets through.
  let store = makeStore()
  store.send(.debounceRun("first", milliseconds: 100))
  try store.advance(by: .milliseconds(150))
  store.send(.debounceRun("second", milliseconds: 100))
  try store.advance(by: .seconds(2))
  #expect(store.state == ["second"])
}

@Test func aDebounceSomeoneWaitsOnIsCancelledAndItsWaiterGoesOn() throws {
  // NB: the first debounce is part of a concatenation: cancelling it lets the concatenation go
  // on (its `.send` runs at once), so it is not restarted in place.
  let store = makeStore()
  store.send(.debounceThen("a", then: "after a"))
  store.send(.debounceThen("b", then: "after b"))
  #expect(store.state == ["after a"])
  try store.advance(by: .milliseconds(100))
  #expect(store.state == ["after a", "b", "after b"])
}

@Test func aRestartedDebounceIsStartedByTheLastAction() throws {
  let store = makeStore()
  store.core.recordsOrigins = true
  store.send(.debounce("a", milliseconds: 300))
  store.send(.debounce("b", milliseconds: 300))
  let origin = Dump.text(of: Debouncing.Action.debounce("b", milliseconds: 300), qualifyEnum: true)
  #expect(
    store.inFlightEffects() == [
      "a timer due at \(Duration.milliseconds(300)), started by \(origin)"
    ])
  try store.advance(by: .milliseconds(300))
  #expect(store.state == ["b"])
}

@Test func aTestStoreSeesOnlyTheLastDebounce() {
  // NB: a test store runs each send's effects in a region of their own, so there the waiting
  // debounce is cancelled and a new one started (the general path): the same outcome.
  let store = TestStore(initialState: [], reducer: Debouncing(), reporter: .swiftTesting)
  store.send(.debounce("a", milliseconds: 300))
  store.send(.debounce("b", milliseconds: 300))
  store.advance(by: .milliseconds(300))
  store.receive(.step("b")) { $0 = ["b"] }
  store.finish()
}

@Test func aDebounceRestartedManyTimesBehindAnEarlierTimerFiresOnceAfterIt() throws {
  // NB: each restart leaves an old entry in the timer queue's heap behind the earlier timer;
  // the queue drops them once they are most of it.
  let store = makeStore()
  store.send(.other("other", milliseconds: 50))
  for step in 0..<10_000 {
    store.send(.debounce("debounced \(step)", milliseconds: 100))
    if step % 1_000 == 0 { try store.advance(by: .milliseconds(1)) }
  }
  #expect(store.inFlightEffects().count == 2)
  try store.advance(by: .milliseconds(40))
  #expect(store.state == ["other"])
  try store.advance(by: .milliseconds(100))
  #expect(store.state == ["other", "debounced 9999"])
  #expect(store.nextDeadline == nil)
}
