import JSON
import StoreKernel
import Synchronization
import Testing

/// The number-fact feature of the README, with a stream and a fire-and-forget request.
struct Facts: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var fact: String?
    var error: String?
    var scores: [Int] = []
    var streamEnded = false
  }
  enum Action: Equatable, Codable, Sendable {
    case factButtonTapped
    case factResponse(String)
    case factFailed(String)
    case cancelFact
    case watchScores
    case score(Int)
    case scoresFailed(String)
    case scoresEnded
    case buzz
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .factButtonTapped:
      state.fact = nil
      return .request("numberFact.fetch", payload: state.count, as: String.self) {
        .factResponse($0)
      } failure: {
        .factFailed($0.message)
      }
      .cancellable(id: "fact")
    case let .factResponse(fact):
      state.fact = fact
      return .none
    case let .factFailed(message):
      state.error = message
      return .none
    case .cancelFact:
      return .cancel(id: "fact")
    case .watchScores:
      return .stream("scores.live", as: Int.self) {
        .score($0)
      } failure: {
        .scoresFailed($0.message)
      } finished: {
        .scoresEnded
      }
    case let .score(score):
      state.scores.append(score)
      return .none
    case let .scoresFailed(message):
      state.error = message
      return .none
    case .scoresEnded:
      state.streamEnded = true
      return .none
    case .buzz:
      return .fireAndForget("haptics.play", payload: ["style": "heavy"])
    }
  }
}

/// A host that records requests and cancel notices, and answers through a closure.
final class FakeHost: @unchecked Sendable {
  let requests = Recorder<HostRequestInfo>()
  let cancels = Recorder<UInt64>()
  var onRequest: (HostRequestInfo) -> Void = { _ in }

  var handler: HostRequestHandler {
    HostRequestHandler(
      onRequest: { [self] request in
        requests.append(request)
        onRequest(request)
      },
      onCancel: { [self] id in cancels.append(id) })
  }

  /// A store of `reducer` on a manual clock, its requests going to a new host.
  static func serving<R: Reducer>(
    _ reducer: R, from state: R.State
  ) -> (Store<R.State, R.Action>, FakeHost) {
    let store = Store(initialState: state, reducer: reducer, clock: .manual)
    let host = FakeHost()
    store.setRequestHandler(host.handler)
    return (store, host)
  }
}

@Test func oneShotRequestsReachTheHostAndTheirAnswerComesBack() throws {
  let store = Store(initialState: Facts.State(count: 7), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  let request = try #require(host.requests.all.first)
  #expect(request.name == "numberFact.fetch")
  #expect(request.kind == .oneShot)
  #expect(String(decoding: request.payload, as: UTF8.self) == "7")
  #expect(store.state.fact == nil)

  try store.respond(to: request.id, json: Array(json: #""7 is lucky""#))
  #expect(store.state.fact == "7 is lucky")

  // One answer only; then the id is finished.
  #expect(throws: StoreError.finishedRequest(request.id)) {
    try store.respond(to: request.id, json: Array(json: #""again""#))
  }
  #expect(throws: StoreError.unknownRequest(99)) { try store.fail(99, message: "x") }
  #expect(throws: StoreError.unknownRequest(0)) { try store.complete(0) }
}

@Test func answerErrorsAreDistinctAndLoseNothing() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  let id = try #require(host.requests.all.first?.id)

  // Wrong shape: an error, and the request still waits.
  do {
    try store.respond(to: id, json: Array(json: "12"))
    Issue.record("accepted a number for a String")
  } catch let StoreError.badAnswer(badID, error) {
    #expect(badID == id)
    #expect(error.kind == .shape)
  }
  #expect(throws: StoreError.notAStream(id)) { try store.complete(id) }
  try store.respond(to: id, json: Array(json: #""fine""#))
  #expect(store.state.fact == "fine")
}

@Test func doubleAnswersInsideTheCallbackAreRefused() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  let errors = Recorder<StoreError>()
  host.onRequest = { request in
    // Answered inside the callback: queued, processed before the outer send returns.
    do throws(StoreError) {
      try store.respond(to: request.id, json: Array(json: #""first""#))
      try store.respond(to: request.id, json: Array(json: #""second""#))
    } catch {
      errors.append(error)
    }
  }
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  #expect(store.state.fact == "first")
  #expect(errors.all == [.alreadyAnswered(1)])
}

@Test func streamsTakeManyAnswersThenComplete() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.watchScores)
  let request = try #require(host.requests.all.first)
  #expect(request.kind == .stream)
  #expect(String(decoding: request.payload, as: UTF8.self) == "{}")
  for score in [1, 2, 3] { try store.respond(to: request.id, json: Array(json: "\(score)")) }
  #expect(store.state.scores == [1, 2, 3])
  try store.complete(request.id)
  #expect(store.state.streamEnded)
  #expect(throws: StoreError.finishedRequest(request.id)) {
    try store.respond(to: request.id, json: Array(json: "4"))
  }

  store.send(.watchScores)
  let second = try #require(host.requests.all.last)
  try store.fail(second.id, message: "feed down")
  #expect(store.state.error == "feed down")
  #expect(throws: StoreError.finishedRequest(second.id)) { try store.complete(second.id) }
}

@Test func fireAndForgetRequestsTakeNoAnswer() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.buzz)
  let request = try #require(host.requests.all.first)
  #expect(request.kind == .fireAndForget)
  #expect(String(decoding: request.payload, as: UTF8.self) == #"{"style":"heavy"}"#)
  #expect(throws: StoreError.finishedRequest(request.id)) {
    try store.respond(to: request.id, json: Array(json: "null"))
  }
}

@Test func cancellingAnEffectTellsTheHost() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  let id = try #require(host.requests.all.first?.id)
  store.send(.cancelFact)
  #expect(host.cancels.all == [id])
  #expect(throws: StoreError.finishedRequest(id)) {
    try store.respond(to: id, json: Array(json: #""late""#))
  }
  #expect(store.state.fact == nil)
}

@Test func closingAStoreCancelsItsRequestsAndRefusesLaterCalls() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  store.send(.watchScores)
  store.close()
  #expect(host.cancels.all == [1, 2])
  #expect(store.isClosed)
  #expect(throws: StoreError.closed) { try store.respond(to: 1, json: Array(json: #""x""#)) }
  store.send(.factButtonTapped)
  #expect(host.requests.all.count == 2)
}

@Test func aRequestWithNoHandlerFailsAtOnce() {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let lines = Recorder<String>()
  store.setTrace(TraceSink { lines.append($0) })
  store.send(.factButtonTapped)
  #expect(store.state.error == #"no handler for "numberFact.fetch": the host has not set one"#)
  #expect(lines.all.contains { $0.contains("failed at once") })
}

@Test func answersFromAnotherThreadAreProcessedInThatCall() async throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  let id = try #require(host.requests.all.first?.id)
  let versions = Recorder<UInt64>()
  store.subscribe { versions.append($0) }
  let thread = Thread {
    try? store.respond(to: id, json: Array(json: #""from afar""#))
  }
  thread.join()
  #expect(store.state.fact == "from afar")
  #expect(versions.all.count == 1)
}

@Test func aPayloadThatCannotBeEncodedFailsTheRequest() {
  struct Feature: Reducer {
    enum Action: Equatable { case go, failed(String) }
    func reduce(into state: inout String, action: Action) -> Effect<Action> {
      switch action {
      case .go:
        return .request("x", payload: Double.nan, as: Int.self) { _ in
          .go
        } failure: {
          .failed($0.message)
        }
      case let .failed(message):
        state = message
        return .none
      }
    }
  }
  let store = Store(initialState: "", reducer: Feature())
  let host = FakeHost()
  store.setRequestHandler(host.handler)
  store.send(.go)
  #expect(host.requests.all.isEmpty)
  #expect(store.state.hasPrefix("the payload of \"x\" cannot be encoded"))
}

/// A joinable pthread running a closure.
final class Thread: @unchecked Sendable {
  private var thread = pthread_t()
  private let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
    let box = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        let me = Unmanaged<Thread>.fromOpaque(raw).takeRetainedValue()
        me.body()
        return nil
      }, box)
  }

  func join() { pthread_join(thread, nil) }
}

#if canImport(Glibc)
import Glibc
#endif

// NB: callbacks run with no lock of the store held, so an answer from another thread while the
// request callback runs is applied by that thread's own `respond`.
@Test func anAnswerGivenFromAnotherThreadDuringACallbackIsAppliedByThatCall() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts())
  let host = FakeHost()
  let answered = Atomic<Bool>(false)
  let responder = Mutex<Thread?>(nil)
  host.onRequest = { request in
    // The store is held by this thread; answer from another one and wait until it returned.
    responder.withLock {
      $0 = Thread {
        try? store.respond(to: request.id, json: Array(json: #""from afar""#))
        answered.store(true, ordering: .releasing)
      }
    }
    while !answered.load(ordering: .acquiring) { sched_yield() }
    #expect(store.state.fact == "from afar")  // applied by the responder's call
  }
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  #expect(store.state.fact == "from afar")
  responder.withLock { $0?.join() }
}

/// A reducer that returns one request effect value, made once, for every tap: twice at once
/// for a double tap.
struct SharedRequest: Reducer {
  struct State: Equatable, Sendable { var answers: [String] = [] }
  enum Action: Equatable, Sendable {
    case tap
    case doubleTap
    case answer(String)
  }
  static let fetch = Effect<Action>.request("fetch", as: String.self) {
    .answer($0)
  } failure: { _ in nil }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap: return Self.fetch
    case .doubleTap: return .merge(Self.fetch, Self.fetch)
    case let .answer(text):
      state.answers.append(text)
      return .none
    }
  }
}

@Test func oneRequestEffectStartedManyTimesMakesRequestsOfTheirOwn() throws {
  // NB: a request effect is an object that becomes its first start's leaf; each later start,
  // in this store or another, gets one of its own.
  let stores = [SharedRequest.State(), SharedRequest.State()].map {
    Store(initialState: $0, reducer: SharedRequest())
  }
  let hosts = [FakeHost(), FakeHost()]
  for (store, host) in zip(stores, hosts) { store.setRequestHandler(host.handler) }
  stores[0].send(.doubleTap)
  stores[1].send(.tap)
  stores[0].send(.tap)
  let ids = hosts[0].requests.all.map(\.id)
  #expect(ids == [1, 2, 3] && hosts[1].requests.all.map(\.id) == [1])
  try stores[0].respond(to: 2, json: Array(json: #""two""#))
  try stores[1].respond(to: 1, json: Array(json: #""other""#))
  try stores[0].respond(to: 3, json: Array(json: #""three""#))
  try stores[0].respond(to: 1, json: Array(json: #""one""#))
  #expect(stores[0].state.answers == ["two", "three", "one"])
  #expect(stores[1].state.answers == ["other"])
  #expect(throws: StoreError.finishedRequest(2)) {
    try stores[0].respond(to: 2, json: Array(json: #""again""#))
  }
}
