import StoreKernel
import Testing

@Test func aTestStoreDrivesTheHostSide() {
  let store = TestStore(
    initialState: Facts.State(count: 3), reducer: Facts(), reporter: .swiftTesting)
  store.send(.factButtonTapped)
  #expect(store.request("numberFact.fetch").map { try? $0.payload(as: Int.self) } == 3)
  store.respond(to: "numberFact.fetch", with: "3 is a crowd")
  store.receive(.factResponse("3 is a crowd")) { $0.fact = "3 is a crowd" }

  store.send(.watchScores)
  store.respond(to: "scores.live", with: 10)
  store.respond(to: "scores.live", with: 20)
  store.receive(.score(10)) { $0.scores = [10] }
  store.receive(Facts.Action.score) { $0.scores = [10, 20] }
  store.complete("scores.live")
  store.receive(.scoresEnded) { $0.streamEnded = true }

  store.send(.factButtonTapped) { $0.fact = nil }
  store.fail("numberFact.fetch", message: "offline")
  store.receive(.factFailed("offline")) { $0.error = "offline" }

  store.send(.buzz)
  #expect(
    store.requestLog.map(\.name) == [
      "numberFact.fetch", "scores.live", "numberFact.fetch", "haptics.play",
    ])
  #expect(store.requests.isEmpty)

  store.send(.factButtonTapped)
  store.send(.cancelFact)
  #expect(store.cancelledRequests == [5])
  store.finish()
}

@Test func aTestStoreWorksWithTheManualClock() {
  let store = TestStore(initialState: Host.State(), reducer: Host(), reporter: .swiftTesting)
  store.send(.present) { $0.timer = Timer.State() }
  store.send(.timer(.start))
  store.advance(by: .milliseconds(2_500))
  store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
  store.receive(.timer(.tick)) { $0.timer?.ticks = 2 }
  #expect(store.now == StoreClock.Instant(nanoseconds: 2_500_000_000))
  store.skipInFlightEffects()
  store.finish()
}

// MARK: - Failures

private func failing<State: Equatable, Action>(
  _ initialState: State, _ reducer: some Reducer<State, Action>,
  _ body: (TestStore<State, Action>) -> Void
) -> [String] {
  let failures = FailureList()
  let store = TestStore(
    initialState: initialState, reducer: reducer, reporter: .collecting(into: failures))
  body(store)
  store.finish()
  return failures.messages
}

@Test func aWrongStateAssertionFailsWithAFieldDiff() {
  let messages = failing(Facts.State(), Facts()) { store in
    store.send(.score(5)) {
      $0.scores = [6]
      $0.error = "nope"
    }
  }
  #expect(
    messages == [
      """
      State change does not match expectation (- expected, + actual):
          Facts.State(
            count: 0
            fact: nil
        -   error: "nope"
        -   scores: [6]
        +   error: nil
        +   scores: [5]
            streamEnded: false
          )
      """
    ])
}

@Test func aChangeWithoutAnAssertionFails() {
  let messages = failing(Bouncer.State(), Bouncer()) { store in
    store.send(.increment)
  }
  #expect(messages.count == 1)
  #expect(messages.first?.hasPrefix("State changed but no assertion was given") == true)
  #expect(messages.first?.contains("-   count: 0\n  +   count: 1") == true)
}

@Test func anUnreceivedActionFails() {
  let messages = failing(Bouncer.State(), Bouncer()) { store in
    store.send(.bounce) { $0.count = 1 }
  }
  #expect(
    messages == [
      """
      Must handle 1 received action before the test ends:
        - Bouncer.Action.decrement
      """
    ])
}

@Test func sendingWithUnhandledActionsFails() {
  let messages = failing(Bouncer.State(), Bouncer()) { store in
    store.send(.bounce) { $0.count = 1 }
    store.send(.noop)
  }
  // NB: the pending action is kept (as upstream), so `finish` still asks for it.
  #expect(messages.count == 2)
  #expect(
    messages.first?.hasPrefix("Must handle 1 received action before sending an action:") == true)
  #expect(messages.last?.hasPrefix("Must handle 1 received action before the test ends") == true)
}

@Test func anUnexpectedReceivedActionFails() {
  let messages = failing(Bouncer.State(), Bouncer()) { store in
    store.send(.bounce) { $0.count = 1 }
    store.receive(.increment) { $0.count = 0 }
  }
  #expect(
    messages == [
      """
      Received unexpected action (- expected, + received):
      - Bouncer.Action.increment
      + Bouncer.Action.decrement
      """
    ])
}

@Test func receivingWhenNothingArrivedFails() {
  let messages = failing(Facts.State(), Facts()) { store in
    store.send(.factButtonTapped)
    store.receive(.factResponse("?"))
    store.skipInFlightEffects()
  }
  #expect(messages.count == 1)
  #expect(
    messages.first?.contains(
      "Expected to receive Facts.Action.factResponse(\"?\"), but received none.") == true)
  #expect(messages.first?.contains("host request #1 \"numberFact.fetch\"") == true)
}

@Test func anEffectLeftRunningFails() {
  let messages = failing(Facts.State(), Facts()) { store in
    store.send(.factButtonTapped)
    store.send(.watchScores)
  }
  #expect(
    messages == [
      """
      2 effects still running before the test ends:
        - host request #1 "numberFact.fetch", started by Facts.Action.factButtonTapped
        - host request #2 "scores.live" (stream), started by Facts.Action.watchScores

      Answer, fail or complete host requests, advance the clock past timers, or call \
      skipInFlightEffects().
      """
    ])
}

@Test func aTimerLeftRunningFailsEvenWithoutFinish() {
  let failures = FailureList()
  do {
    let store = TestStore(
      initialState: Timer.State(), reducer: Timer(), reporter: .collecting(into: failures))
    store.send(.start)
  }
  #expect(failures.messages.count == 1)
  #expect(
    failures.messages.first?.hasPrefix(
      "1 effect still running before the test store went away (it was never finished):\n"
        + "  - a .run effect, started by Timer.Action.start") == true)
}

@Test func answeringARequestThatIsNotThereFails() {
  let messages = failing(Facts.State(), Facts()) { store in
    store.respond(to: "numberFact.fetch", with: "?")
    store.send(.factButtonTapped)
    store.respond(to: "numberFact.fetch", with: 12)
    store.skipInFlightEffects()
  }
  #expect(messages.count == 2)
  #expect(messages.first == "No request \"numberFact.fetch\" is in flight.")
  #expect(
    messages.last?.hasPrefix(
      "The store refused the answer: the answer to request #1 does not fit its response type")
      == true)
}

@Test func nonExhaustiveStoresCheckOnlyWhatIsDescribed() {
  let messages = failing(Facts.State(), Facts()) { store in
    store.exhaustivity = .off
    store.send(.score(1))
    // NB: the closure gets the actual state after the action: describe values, not steps.
    store.send(.score(2)) { $0.scores = [1, 2] }
    store.send(.factButtonTapped)
    store.respond(to: "numberFact.fetch", with: "ok")
    store.receive(.factResponse("ok")) { $0.fact = "ok" }
    store.send(.watchScores)  // left running: fine when not exhaustive
  }
  #expect(messages.isEmpty)
}
