import StoreKernel
import Testing

/// Waits on the clock it is given, stamps the date, and calls a client of its own.
private struct Stamper: Reducer {
  struct State: Equatable {
    var stamps: [Int64] = []
    var waited = false
    var fact = ""
    var context = ""
  }

  enum Action: Equatable {
    case wait
    case waited
    case stamp
    case stampLater
    case stamped(Int64)
    case fetch
    case fetched(String)
    case readContext
  }

  @Dependency(\.clock) var clock
  @Dependency(\.date) var date
  @Dependency(\.facts) var facts
  @Dependency(\.context) var context

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .wait:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(5))
        await send(.waited)
      }
    case .waited:
      state.waited = true
      return .none
    case .stamp:
      state.stamps.append(date.now.millisecondsSince1970)
      return .none
    case .stampLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        @Dependency(\.date) var date
        await send(.stamped(date.now.millisecondsSince1970))
      }
    case let .stamped(stamp):
      state.stamps.append(stamp)
      return .none
    case .fetch:
      return .run { [facts] send in await send(.fetched(facts.fetch(3))) }
    case let .fetched(fact):
      state.fact = fact
      return .none
    case .readContext:
      state.context = "\(context)"
      return .none
    }
  }
}

private struct FactClient: Sendable {
  var fetch: @Sendable (Int) -> String
}

private enum FactClientKey: DependencyKey {
  static var defaultValue: FactClient {
    FactClient(fetch: unimplemented("FactClient.fetch", placeholder: "unimplemented"))
  }
}

extension Dependencies {
  fileprivate var facts: FactClient {
    get { self[FactClientKey.self] }
    set { self[FactClientKey.self] = newValue }
  }
}

@Test func aStoresClockCanBeOverriddenByAnImmediateOne() {
  let store = Store(initialState: Stamper.State(), reducer: Stamper(), clock: .manual) {
    $0.clock = ImmediateClock()
  }
  store.send(.wait)
  // NB: no advance: the immediate clock ended the sleep at once.
  #expect(store.state.waited)
  let plain = Store(initialState: Stamper.State(), reducer: Stamper(), clock: .manual)
  plain.send(.wait)
  #expect(!plain.state.waited)
  _ = try? plain.advance(by: .seconds(5))
  #expect(plain.state.waited)
}

@Test func aTestStoresClockCanBeOverridden() {
  let store = TestStore(
    initialState: Stamper.State(), reducer: Stamper(), reporter: .swiftTesting
  ) {
    $0.clock = ImmediateClock()
  }
  store.send(.wait)
  store.receive(.waited) { $0.waited = true }
  store.finish()
}

@Test func aReducerCanOverrideTheClockForItsEffects() {
  let store = TestStore(
    initialState: Stamper.State(), reducer: Stamper().dependency(\.clock, ImmediateClock()),
    reporter: .swiftTesting)
  store.send(.wait)
  store.receive(.waited) { $0.waited = true }
  store.finish()
}

@Test func anUnimplementedDependencyFailsTheTestStore() {
  let failures = FailureList()
  let store = TestStore(
    initialState: Stamper.State(), reducer: Stamper(), reporter: .collecting(into: failures))
  store.send(.fetch)
  store.receive(.fetched("unimplemented")) { $0.fact = "unimplemented" }
  store.finish()
  #expect(failures.messages.count == 1)
  #expect(
    failures.messages.first?.hasPrefix("Unimplemented: \"FactClient.fetch\" was called.") == true)
  #expect(failures.all.first?.fileID.hasSuffix("DependencySurfaceTests.swift") == true)

  // Overridden, it is not called, and nothing fails.
  let overridden = TestStore(
    initialState: Stamper.State(), reducer: Stamper(), reporter: .swiftTesting
  ) {
    $0.facts.fetch = { "\($0) is odd" }
  }
  overridden.send(.fetch)
  overridden.receive(.fetched("3 is odd")) { $0.fact = "3 is odd" }
  overridden.finish()

  // A store reports it nowhere and gets the placeholder.
  let live = Store(initialState: Stamper.State(), reducer: Stamper(), clock: .manual)
  live.send(.fetch)
  #expect(live.state.fact == "unimplemented")
}

@Test func aThrowingUnimplementedEndpointThrows() async {
  let endpoint: @Sendable (Int) throws -> String = unimplemented("Client.load")
  #expect(throws: UnimplementedFailure.self) { try endpoint(1) }
  let asyncEndpoint: @Sendable () async throws -> Int = unimplemented("Client.count")
  await #expect(throws: UnimplementedFailure.self) { try await asyncEndpoint() }
}

@Test func theContextIsLiveInAStoreAndTestInATestStore() {
  let live = Store(initialState: Stamper.State(), reducer: Stamper(), clock: .manual)
  live.send(.readContext)
  #expect(live.state.context == "live")
  let preview = Store(initialState: Stamper.State(), reducer: Stamper(), clock: .manual) {
    $0.context = .preview
  }
  preview.send(.readContext)
  #expect(preview.state.context == "preview")
  let test = TestStore(initialState: Stamper.State(), reducer: Stamper(), reporter: .swiftTesting)
  test.send(.readContext) { $0.context = "test" }
  test.finish()
  #expect(Dependencies.outsideStore.context == .test)
}

@Test func withExhaustivityAppliesToItsOperationOnly() {
  let failures = FailureList()
  let store = TestStore(
    initialState: Stamper.State(), reducer: Stamper(), reporter: .collecting(into: failures))
  store.withExhaustivity(.off) {
    // Not exhaustive: the change need not be asserted.
    store.send(.stamp)
    #expect(store.exhaustivity == .off)
  }
  #expect(store.exhaustivity == .on)
  #expect(failures.messages.isEmpty)
  store.send(.stamp)  // exhaustive again: the stamp is not asserted
  #expect(failures.messages.count == 1)
  #expect(failures.messages.first?.hasPrefix("State changed but no assertion was given") == true)
}

@Test func withDependenciesInTheMiddleOfATest() {
  let store = TestStore(initialState: Stamper.State(), reducer: Stamper(), reporter: .swiftTesting)
  store.send(.stamp) { $0.stamps = [0] }
  store.withDependencies {
    $0.date = .constant(Timestamp(millisecondsSince1970: 1_000))
  } operation: {
    store.send(.stamp) { $0.stamps = [0, 1_000] }
    store.send(.stampLater)
  }
  // The effect started inside keeps the override once the operation has ended.
  store.advance(by: .seconds(1))
  store.receive(.stamped(1_000)) { $0.stamps = [0, 1_000, 1_000] }
  store.send(.stamp) { $0.stamps = [0, 1_000, 1_000, 0] }
  // Nested: the inner change applies on top of the outer one.
  store.withDependencies {
    $0.date = .constant(Timestamp(millisecondsSince1970: 7))
  } operation: {
    store.withDependencies {
      $0.clock = ImmediateClock()
    } operation: {
      store.send(.stampLater)
      store.receive(.stamped(7)) { $0.stamps.append(7) }
    }
  }
  store.finish()
}

/// Feeds back an action whose value is not `Equatable`-compared by the test but by its case.
private struct Responder: Reducer {
  struct State: Equatable { var fact = "" }
  enum Action { case ask, answered(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ask: return .send(.answered("0 is a good number."))
    case let .answered(fact):
      state.fact = fact
      return .none
    }
  }
}

@Test func receiveACaseWithItsValue() {
  let store = TestStore(
    initialState: Responder.State(), reducer: Responder(), reporter: .swiftTesting)
  store.send(.ask)
  store.receive(Responder.Action.answered, "0 is a good number.") {
    $0.fact = "0 is a good number."
  }
  store.finish()

  let failures = FailureList()
  let wrong = TestStore(
    initialState: Responder.State(), reducer: Responder(), reporter: .collecting(into: failures))
  wrong.send(.ask)
  wrong.receive(Responder.Action.answered, "1 is a good number.") {
    $0.fact = "0 is a good number."
  }
  wrong.finish()
  #expect(
    failures.messages == [
      """
      Received unexpected action (- expected, + received):
      - Responder.Action.answered("1 is a good number.")
      + Responder.Action.answered("0 is a good number.")
      """
    ])
}
