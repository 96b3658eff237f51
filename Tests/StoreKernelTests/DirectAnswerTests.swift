@testable import StoreKernel
import Testing

/// A feature that logs every action it reduces: a one-shot fetch and a stream.
private struct Logged: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable {
    case fetch, stream, note(String), answered(String), element(Int), ended
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetch:
      state.log.append("fetch")
      return .request("fetch", as: String.self) { .answered($0) } failure: { _ in nil }
    case .stream:
      state.log.append("stream")
      return .stream("ticks", as: Int.self) { .element($0) } failure: { _ in nil } finished: {
        .ended
      }
    case let .note(text):
      state.log.append("note \(text)")
      return .none
    case let .answered(text):
      state.log.append("answered \(text)")
      return .none
    case let .element(value):
      state.log.append("element \(value)")
      return .none
    case .ended:
      state.log.append("ended")
      return .none
    }
  }
}

/// An answer given inside the request's callback, with nothing queued before it, is counted by
/// the inbox rather than queued as an item of its own (issue 17): these check that the host's
/// inputs from inside a callback are still applied in the order it gave them.
@Suite struct DirectAnswerTests {
  @Test func anActionSentBeforeTheAnswerIsReducedFirst() {
    let store = Store(initialState: Logged.State(), reducer: Logged())
    store.setRequestHandler(
      HostRequestHandler(onRequest: { request in
        store.send(.note("before"))
        try? store.respond(to: request.id, json: Array(#""fact""#.utf8))
      }))
    store.send(.fetch)
    #expect(store.state.log == ["fetch", "note before", "answered fact"])
  }

  @Test func anActionSentAfterTheAnswerIsReducedAfterIt() {
    let store = Store(initialState: Logged.State(), reducer: Logged())
    store.setRequestHandler(
      HostRequestHandler(onRequest: { request in
        try? store.respond(to: request.id, json: Array(#""fact""#.utf8))
        store.send(.note("after"))
      }))
    store.send(.fetch)
    #expect(store.state.log == ["fetch", "answered fact", "note after"])
  }

  /// The first answer is counted; the ones after it find the inbox busy and queue as items.
  @Test func aStreamAnsweredInsideItsCallbackKeepsItsOrder() throws {
    let store = Store(initialState: Logged.State(), reducer: Logged())
    store.setRequestHandler(
      HostRequestHandler(onRequest: { request in
        for value in 1...3 {
          try? store.respond(to: request.id, json: Array("\(value)".utf8))
        }
        store.send(.note("between"))
        try? store.respond(to: request.id, json: Array("4".utf8))
        try? store.complete(request.id)
      }))
    store.send(.stream)
    #expect(
      store.state.log == [
        "stream", "element 1", "element 2", "element 3", "note between", "element 4", "ended",
      ])
  }

  /// A later call finds nothing left over: the counted answer was applied, and the store is
  /// idle again (the next send takes the fast path and the request table is empty).
  @Test func aCountedAnswerLeavesNothingWaiting() {
    let store = Store(initialState: Logged.State(), reducer: Logged())
    store.setRequestHandler(
      HostRequestHandler(onRequest: { request in
        try? store.respond(to: request.id, json: Array(#""fact""#.utf8))
      }))
    for _ in 0..<3 { store.send(.fetch) }
    #expect(store.core.inbox.isEmpty)
    #expect(store.core.liveLeafCount == 0)
    #expect(store.state.log.count == 6)
    #expect(store.poll() == 0)
  }
}
