import JSON
@testable import StoreKernel
import Synchronization
import Testing

/// Fetches, saves, then notifies, in one `.run` that awaits two host requests.
struct FactChain: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var saved: String?
    var error: String?
  }
  enum Action: Equatable, Codable, Sendable {
    case saveTapped
    case saved(String)
    case failed(String)
    case cancel
    case outside
    case inChildTask
    case cancelChildTask
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveTapped:
      return .run { [count = state.count] send in
        let fact: String = try await send.request("fact.fetch", payload: count)
        _ = try await send.request("fact.save", payload: fact, as: Bool.self)
        await send(.saved(fact))
      } catch: { error, send in
        await send(.failed("\(error)"))
      }
      .cancellable(id: "chain", cancelInFlight: true)
    case let .saved(fact):
      state.saved = fact
      return .none
    case let .failed(message):
      state.error = message
      return .none
    case .cancel:
      return .cancel(id: "chain")
    case .outside:
      // NB: the request is made from a detached task: it runs outside the effect and has no
      // store to ask.
      return .run { send in
        let escaped = Task.detached { try await send.request("fact.fetch", as: String.self) }
        do {
          _ = try await escaped.value
        } catch {
          await send(.failed("\(error)"))
        }
      }
    case .inChildTask:
      return .run { send in
        let fact = try await withTaskCancellation(id: "child") {
          try await send.request("fact.fetch", payload: 1, as: String.self)
        }
        await send(.saved(fact))
      }
    case .cancelChildTask:
      return .run { _ in Task.cancel(id: "child") }
    }
  }
}

private func answer(_ store: Store<FactChain.State, FactChain.Action>, _ id: UInt64, _ json: String)
  throws
{
  try store.respond(to: id, json: Array(json.utf8))
}

@Test func aRunAwaitsTwoRequestsInTurnAndSendsWhatTheyAnswered() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State(count: 4))
  store.send(.saveTapped)
  let fetch = try #require(host.requests.all.first)
  #expect(fetch.name == "fact.fetch" && fetch.kind == .oneShot)
  #expect(String(decoding: fetch.payload, as: UTF8.self) == "4")
  // The second request is made only once the first is answered.
  #expect(host.requests.all.count == 1)
  try answer(store, fetch.id, #""4 is even""#)
  let save = try #require(host.requests.all.last)
  #expect(save.name == "fact.save")
  #expect(String(decoding: save.payload, as: UTF8.self) == #""4 is even""#)
  #expect(store.state.saved == nil)
  try answer(store, save.id, "true")
  #expect(store.state == FactChain.State(count: 4, saved: "4 is even", error: nil))
  #expect(host.cancels.all.isEmpty)
}

@Test func anAnswerOfTheWrongShapeIsRefusedAndTheRequestWaits() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.saveTapped)
  let fetch = try #require(host.requests.all.first)
  #expect(throws: StoreError.self) { try answer(store, fetch.id, "5") }
  try answer(store, fetch.id, #""0 is zero""#)
  #expect(host.requests.all.map(\.name) == ["fact.fetch", "fact.save"])
  #expect(throws: StoreError.finishedRequest(fetch.id)) {
    try answer(store, fetch.id, #""again""#)
  }
}

@Test func aFailedRequestThrowsTheHostsMessage() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.saveTapped)
  try answer(store, try #require(host.requests.all.first).id, #""0 is zero""#)
  try store.fail(try #require(host.requests.all.last).id, message: "disk full")
  #expect(store.state.error == "disk full")
  #expect(store.state.saved == nil)
}

@Test func aRequestWithNoHandlerThrowsAtOnce() {
  let store = Store(initialState: FactChain.State(), reducer: FactChain(), clock: .manual)
  store.send(.saveTapped)
  #expect(store.state.error == #"no handler for "fact.fetch": the host has not set one"#)
}

@Test func cancellingTheEffectCancelsTheRequestAndTellsTheHost() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.saveTapped)
  let fetch = try #require(host.requests.all.first)
  store.send(.cancel)
  #expect(host.cancels.all == [fetch.id])
  #expect(throws: StoreError.finishedRequest(fetch.id)) {
    try answer(store, fetch.id, #""late""#)
  }
  // Cancellation ends the `.run` quietly: no failure, nothing saved, nothing left running.
  #expect(store.state == FactChain.State())
  #expect(host.requests.all.count == 1)

  // `cancelInFlight`: a second tap cancels the first chain's request.
  store.send(.saveTapped)
  store.send(.saveTapped)
  let (second, third) = (host.requests.all[1], host.requests.all[2])
  #expect(host.cancels.all == [fetch.id, second.id])
  try answer(store, third.id, #""0 again""#)
  try answer(store, try #require(host.requests.all.last).id, "true")
  #expect(store.state.saved == "0 again")
}

@Test func cancellingTheTaskThatAwaitsCancelsItsRequest() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.inChildTask)
  let fetch = try #require(host.requests.all.first)
  store.send(.cancelChildTask)
  #expect(host.cancels.all == [fetch.id])
  #expect(store.state == FactChain.State())

  store.send(.inChildTask)
  try answer(store, try #require(host.requests.all.last).id, #""1 is one""#)
  #expect(store.state.saved == "1 is one")
}

@Test func closingTheStoreCancelsTheRequest() throws {
  let (store, host) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.saveTapped)
  let fetch = try #require(host.requests.all.first)
  store.close()
  #expect(host.cancels.all == [fetch.id])
}

@Test func aRequestFromOutsideTheEffectThrows() async throws {
  let (store, _) = FakeHost.serving(FactChain(), from: FactChain.State())
  store.send(.outside)
  // NB: the detached task runs on the global executor; this test waits for it without holding
  // one of that executor's threads.
  for _ in 0..<5_000 where store.state.error == nil {
    _ = store.poll()
    try await Task.sleep(for: .milliseconds(2))
  }
  #expect(
    store.state.error
      == #"send.request("fact.fetch") was called outside the .run effect of a store"#)
}

@Test func pullModeSeesAnAwaitedRequestAsAnyOther() throws {
  let store = Store(initialState: FactChain.State(count: 2), reducer: FactChain(), clock: .manual)
  store.setDelivery(requests: .queued, answers: .anyThread)
  store.send(.saveTapped)
  guard case let .request(fetch)? = store.takeRequests().first else {
    Issue.record("no request taken")
    return
  }
  try answer(store, fetch.id, #""2 is prime""#)
  guard case let .request(save)? = store.takeRequests().first else {
    Issue.record("no second request taken")
    return
  }
  #expect(save.name == "fact.save")
  store.send(.cancel)
  #expect(store.takeRequests() == [.cancelled(save.id)])
  #expect(store.state == FactChain.State(count: 2))
}

@Test func aTestStoreAnswersAnAwaitedRequestAsAnyOther() {
  let store = TestStore(
    initialState: FactChain.State(count: 3), reducer: FactChain(), reporter: .swiftTesting)
  store.send(.saveTapped)
  #expect(store.request("fact.fetch").map { try? $0.payload(as: Int.self) } == 3)
  store.respond(to: "fact.fetch", with: "3 is odd")
  #expect(store.request("fact.save").map { try? $0.payload(as: String.self) } == "3 is odd")
  store.respond(to: "fact.save", with: true)
  store.receive(.saved("3 is odd")) { $0.saved = "3 is odd" }

  store.send(.saveTapped)
  store.fail("fact.fetch", message: "offline")
  store.receive(.failed("offline")) { $0.error = "offline" }

  store.send(.saveTapped)
  store.send(.cancel)
  #expect(store.cancelledRequests.count == 1)
  store.finish()
}
