import JSON
import StoreKernel
import Testing

/// A host request that is the whole body of a `.cancellable(id:)` effect runs without a region
/// of its own (docs/benchmarks.md: the effect round trip). These check that it is cancelled,
/// replaced and completed exactly as one inside a region: alone, next to other effects of the same
/// id, and inside `merge` and `concatenate`.
struct Lookups: Reducer {
  struct State: Equatable, Sendable {
    var answers: [String] = []
    var failures: [String] = []
    var after: [String] = []
  }
  enum Action: Equatable, Sendable {
    /// A lookup under "lookup"; with `replace`, cancelling the one in flight first.
    case lookup(replace: Bool)
    /// A lookup and a timer both under "lookup".
    case lookupAndWait
    /// A lookup under "lookup", then `.finished` once it is over.
    case lookupThenFinish
    /// A lookup under "lookup" merged with a lookup under "other".
    case twoIDs
    case cancel(String)
    case answer(String)
    case failed(String)
    case finished
    case waited
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .lookup(replace):
      return lookup().cancellable(id: "lookup", cancelInFlight: replace)
    case .lookupAndWait:
      return .merge(
        lookup().cancellable(id: "lookup"),
        Effect.send(.waited).debounce(id: "lookup-timer", for: .seconds(1))
          .cancellable(id: "lookup"))
    case .lookupThenFinish:
      return .concatenate(lookup().cancellable(id: "lookup"), .send(.finished))
    case .twoIDs:
      return .merge(lookup().cancellable(id: "lookup"), lookup().cancellable(id: "other"))
    case let .cancel(id):
      return .cancel(id: id)
    case let .answer(text):
      state.answers.append(text)
      return .none
    case let .failed(message):
      state.failures.append(message)
      return .none
    case .finished:
      state.after.append("finished")
      return .none
    case .waited:
      state.after.append("waited")
      return .none
    }
  }

  private func lookup() -> Effect<Action> {
    .request("lookup", as: String.self) { .answer($0) } failure: { .failed($0.message) }
  }
}

private func makeStore() -> (Store<Lookups.State, Lookups.Action>, FakeHost) {
  FakeHost.serving(Lookups(), from: Lookups.State())
}

@Test func cancelInFlightReplacesALoneRequest() throws {
  let (store, host) = makeStore()
  store.send(.lookup(replace: true))
  store.send(.lookup(replace: true))
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  #expect(host.cancels.all == [ids[0]])
  #expect(throws: StoreError.finishedRequest(ids[0])) {
    try store.respond(to: ids[0], json: Array(json: #""old""#))
  }
  try store.respond(to: ids[1], json: Array(json: #""new""#))
  #expect(store.state.answers == ["new"])
  // Answered, the request is no longer under the id: a third replaces nothing.
  store.send(.lookup(replace: true))
  #expect(host.cancels.all == [ids[0]])
}

@Test func loneRequestsUnderOneIDAreCancelledOldestFirst() throws {
  let (store, host) = makeStore()
  store.send(.lookup(replace: false))
  store.send(.lookup(replace: false))
  store.send(.lookup(replace: false))
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 3)
  // The middle one answered: the other two are still under the id, in order.
  try store.respond(to: ids[1], json: Array(json: #""middle""#))
  store.send(.cancel("lookup"))
  #expect(host.cancels.all == [ids[0], ids[2]])
  #expect(store.state.answers == ["middle"])
  store.send(.cancel("lookup"))
  #expect(host.cancels.all == [ids[0], ids[2]])
}

@Test func aLoneRequestAndARegionOfTheSameIDAreCancelledTogether() throws {
  let (store, host) = makeStore()
  store.send(.lookupAndWait)
  let id = try #require(host.requests.all.first?.id)
  store.send(.cancel("lookup"))
  #expect(host.cancels.all == [id])
  _ = try store.advance(by: .seconds(2))
  #expect(store.state.after.isEmpty)
  #expect(throws: StoreError.finishedRequest(id)) {
    try store.respond(to: id, json: Array(json: #""late""#))
  }
}

@Test func cancellingOneIDLeavesAnotherIDsRequest() throws {
  let (store, host) = makeStore()
  store.send(.twoIDs)
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  store.send(.cancel("other"))
  #expect(host.cancels.all == [ids[1]])
  try store.respond(to: ids[0], json: Array(json: #""kept""#))
  #expect(store.state.answers == ["kept"])
}

@Test func aConcatenationGoesOnOnceItsLoneRequestIsAnsweredFailedOrCancelled() throws {
  let (store, host) = makeStore()
  store.send(.lookupThenFinish)
  let answered = try #require(host.requests.all.last?.id)
  #expect(store.state.after.isEmpty)
  try store.respond(to: answered, json: Array(json: #""one""#))
  #expect(store.state.after == ["finished"])

  store.send(.lookupThenFinish)
  let failed = try #require(host.requests.all.last?.id)
  try store.fail(failed, message: "offline")
  #expect(store.state.failures == ["offline"])
  #expect(store.state.after == ["finished", "finished"])

  store.send(.lookupThenFinish)
  let cancelled = try #require(host.requests.all.last?.id)
  store.send(.cancel("lookup"))
  #expect(host.cancels.all == [cancelled])
  #expect(store.state.after == ["finished", "finished", "finished"])
  #expect(store.state.answers == ["one"])
}

@Test func aTestStoreTaskSeesCancelsAndFinishesALoneCancellableRequest() {
  let store = TestStore(
    initialState: Lookups.State(), reducer: Lookups(), reporter: .swiftTesting)
  let first = store.send(.lookup(replace: true))
  #expect(first.isRunning)
  let second = store.send(.lookup(replace: true))
  // The second replaced the first: its request is cancelled, and the first send has nothing left.
  #expect(!first.isRunning)
  #expect(store.cancelledRequests == [1])
  #expect(second.isRunning)
  second.cancel()
  #expect(!second.isRunning)
  #expect(store.cancelledRequests == [1, 2])

  store.send(.lookup(replace: false))
  store.respond(to: "lookup", with: "found")
  store.receive(.answer("found")) { $0.answers = ["found"] }
  store.finish()
}
