@testable import StoreKernel
import Testing

/// A store that closes lets go of everything: work that reaches its inbox after the close (an
/// answer or send that raced with `tca_store_free` and lost) is dropped, not kept.
@Test func workQueuedAfterCloseDoesNotKeepTheStoreAlive() {
  weak var weakCore: StoreCore<Bouncer.Action>?
  do {
    let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
    weakCore = store.core
    store.close()
    // What a late answer does: a closure holding the core, pushed after the close.
    let core = store.core
    core.inbox.push { _ = core.isClosed }
    #expect(core.inbox.isEmpty)
  }
  #expect(weakCore == nil)
}

/// A fact fetch that a re-tap cancels while in flight (the counter's number fact).
private struct Refetch: Reducer {
  struct State: Equatable { var fact: String? }
  enum Action: Equatable { case tapped, answered(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped:
      state.fact = nil
      return .request("fact.fetch", payload: 0, as: String.self) { .answered($0) } failure: {
        .answered("failed: \($0.message)")
      }
      .cancellable(id: "fact", cancelInFlight: true)
    case let .answered(fact):
      state.fact = fact
      return .none
    }
  }
}

/// Inputs given from inside a callback are applied in the order the host gave them: an answer
/// before an action sent after it, so an answered request is never reported cancelled.
@Test func anAnswerInsideTheRequestCallbackIsAppliedBeforeALaterSend() throws {
  let store = Store(initialState: Refetch.State(), reducer: Refetch())
  let cancelled = Recorder<UInt64>()
  let requests = Recorder<UInt64>()
  store.setRequestHandler(
    HostRequestHandler(
      onRequest: { request in
        requests.append(request.id)
        guard requests.all.count == 1 else { return }
        try? store.respond(to: request.id, json: Array(#""first""#.utf8))
        store.send(.tapped)
      },
      onCancel: { cancelled.append($0) }))
  store.send(.tapped)
  #expect(requests.all.count == 2)
  #expect(cancelled.all.isEmpty)
}
