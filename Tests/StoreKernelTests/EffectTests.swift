import StoreKernel
import Testing

/// A reducer that records the actions it receives and returns the effect a closure gives.
struct Recording: Reducer {
  typealias State = [String]
  enum Action: Equatable, Sendable {
    case start
    case step(String)
  }
  let effect: @Sendable (Dependencies) -> Effect<Action>

  func reduce(into state: inout [String], action: Action) -> Effect<Action> {
    switch action {
    case .start: return effect(Dependencies.current)
    case let .step(name):
      state.append(name)
      return .none
    }
  }
}

private func store(
  _ effect: @escaping @Sendable (Dependencies) -> Effect<Recording.Action>
) -> Store<[String], Recording.Action> {
  Store(initialState: [], reducer: Recording(effect: effect), clock: .manual)
}

@Test func sendAndMergeFeedBackInOrder() {
  let store = store { _ in
    .merge(.send(.step("a")), .merge(.send(.step("b")), .send(.step("c"))), .none)
  }
  store.send(.start)
  #expect(store.state == ["a", "b", "c"])
}

@Test func concatenateWaitsForEachPart() throws {
  let store = store { dependencies in
    let clock = dependencies.clock
    return .concatenate(
      .run { send in
        try await clock.sleep(for: .milliseconds(20))
        await send(.step("slow"))
      },
      .send(.step("after slow")),
      .run { send in await send(.step("run")) },
      .send(.step("last"))
    )
  }
  store.send(.start)
  #expect(store.state.isEmpty)
  try store.advance(by: .milliseconds(19))
  #expect(store.state.isEmpty)
  try store.advance(by: .milliseconds(1))
  #expect(store.state == ["slow", "after slow", "run", "last"])
}

@Test func mergeRunsSideBySideOnTheClock() throws {
  let store = store { dependencies in
    let clock = dependencies.clock
    return .merge(
      .run { send in
        try await clock.sleep(for: .milliseconds(30))
        await send(.step("30"))
      },
      .run { send in
        try await clock.sleep(for: .milliseconds(10))
        await send(.step("10"))
        try await clock.sleep(for: .milliseconds(10))
        await send(.step("20"))
      }
    )
  }
  store.send(.start)
  #expect(store.nextDeadline == .milliseconds(10))
  try store.advance(by: .milliseconds(100))
  #expect(store.state == ["10", "20", "30"])
  #expect(store.nextDeadline == nil)
}

@Test func runFinishesWhatDoesNotWaitInsideSend() {
  let store = store { _ in
    .run { send in
      await send(.step("one"))
      await Task.yield()
      await send(.step("two"))
    }
  }
  store.send(.start)
  #expect(store.state == ["one", "two"])
}

@Test func mapTransformsEveryKindOfEffect() throws {
  struct Parent: Reducer {
    enum Action: Equatable { case child(Recording.Action) }
    var body: some Reducer<[String], Action> {
      Scope(state: \.self, action: Action.child) {
        Recording { dependencies in
          let clock = dependencies.clock
          return .merge(
            .send(.step("sent")),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.step("ran"))
            },
            .send(.step("debounced")).debounce(id: "d", for: .seconds(2))
          )
        }
      }
    }
  }
  let store = Store(initialState: [], reducer: Parent(), clock: .manual)
  store.send(.child(.start))
  try store.advance(by: .seconds(2))
  #expect(store.state == ["sent", "ran", "debounced"])
}

@Test func cancellationStopsRunTimersAndFutureSends() throws {
  struct Feature: Reducer {
    enum Action: Equatable { case start, tick, stop, late }
    @Dependency(\.clock) var clock
    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: "ticker")
      case .tick:
        state += 1
        return .none
      case .stop:
        return .cancel(id: "ticker")
      case .late:
        return .none
      }
    }
  }
  let store = Store(initialState: 0, reducer: Feature(), clock: .manual)
  store.send(.start)
  try store.advance(by: .seconds(3))
  #expect(store.state == 3)
  store.send(.stop)
  #expect(store.nextDeadline == nil)
  try store.advance(by: .seconds(3))
  #expect(store.state == 3)
}

@Test func sendAfterCancellationIsANoOp() {
  let sentAfterCancel = Recorder<Bool>()
  struct Feature: Reducer {
    enum Action: Equatable { case start, stop, value }
    let recorder: Recorder<Bool>
    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [recorder] send in
          await withTaskCancellationHandler {
            await Task.yield()
          } onCancel: {
          }
          // NB: by now the effect was cancelled (the same send call cancelled it).
          recorder.append(send.isCancelled)
          await send(.value)
        }
        .cancellable(id: 1)
      case .stop:
        return .cancel(id: 1)
      case .value:
        state += 1
        return .none
      }
    }
  }
  struct Both: Reducer {
    let recorder: Recorder<Bool>
    func reduce(into state: inout Int, action: Feature.Action) -> Effect<Feature.Action> {
      let effect = Feature(recorder: recorder).reduce(into: &state, action: action)
      return action == .start ? effect.merge(with: .send(.stop)) : effect
    }
  }
  let store = Store(initialState: 0, reducer: Both(recorder: sentAfterCancel), clock: .manual)
  store.send(.start)
  #expect(sentAfterCancel.all == [true])
  #expect(store.state == 0)
}

@Test func cancelInFlightReplacesTheRunningEffect() throws {
  let store = store { dependencies in
    let clock = dependencies.clock
    return .run { send in
      try await clock.sleep(for: .seconds(1))
      await send(.step("done"))
    }
    .cancellable(id: "search", cancelInFlight: true)
  }
  store.send(.start)
  try store.advance(by: .milliseconds(500))
  store.send(.start)
  try store.advance(by: .milliseconds(500))
  #expect(store.state.isEmpty)
  try store.advance(by: .milliseconds(500))
  #expect(store.state == ["done"])
}

@Test func cancellingPartOfAConcatenationLetsTheRestRun() throws {
  struct Feature: Reducer {
    enum Action: Equatable { case start, stop, step(String) }
    @Dependency(\.clock) var clock
    func reduce(into state: inout [String], action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .concatenate(
          .run { [clock] send in
            try await clock.sleep(for: .seconds(10))
            await send(.step("never"))
          }
          .cancellable(id: "wait"),
          .send(.step("after"))
        )
      case .stop: return .cancel(id: "wait")
      case let .step(name):
        state.append(name)
        return .none
      }
    }
  }
  let store = Store(initialState: [], reducer: Feature(), clock: .manual)
  store.send(.start)
  store.send(.stop)
  #expect(store.state == ["after"])
}

@Test func debounceRunsOnlyAfterAQuietPeriod() throws {
  let store = store { _ in
    .send(.step("search")).debounce(id: "search", for: .milliseconds(300))
  }
  store.send(.start)
  try store.advance(by: .milliseconds(200))
  store.send(.start)
  try store.advance(by: .milliseconds(200))
  store.send(.start)
  try store.advance(by: .milliseconds(299))
  #expect(store.state.isEmpty)
  try store.advance(by: .milliseconds(1))
  #expect(store.state == ["search"])
  try store.advance(by: .seconds(1))
  #expect(store.state == ["search"])
}

/// Sends `.step(value)` through a throttle of 100 ms.
private struct Throttled: Reducer {
  enum Action: Equatable { case tap(String), step(String) }
  let latest: Bool
  func reduce(into state: inout [String], action: Action) -> Effect<Action> {
    switch action {
    case let .tap(value):
      return .send(.step(value)).throttle(id: "t", for: .milliseconds(100), latest: latest)
    case let .step(value):
      state.append(value)
      return .none
    }
  }
}

@Test(arguments: [true, false])
func throttleLetsOneThroughPerInterval(latest: Bool) throws {
  let store = Store(initialState: [], reducer: Throttled(latest: latest), clock: .manual)
  store.send(.tap("a"))
  #expect(store.state == ["a"])
  try store.advance(by: .milliseconds(10))
  store.send(.tap("b"))
  try store.advance(by: .milliseconds(10))
  store.send(.tap("c"))
  #expect(store.state == ["a"])
  try store.advance(by: .milliseconds(80))
  #expect(store.state == ["a", latest ? "c" : "b"])
  try store.advance(by: .milliseconds(150))
  store.send(.tap("d"))
  #expect(store.state == ["a", latest ? "c" : "b", "d"])
}

@Test func aNoneEffectIsNotMadeCancellable() throws {
  let store = store { _ in Effect<Recording.Action>.none.debounce(id: 1, for: .seconds(1)) }
  store.send(.start)
  #expect(store.nextDeadline == nil)
}

@Test func anErrorWithoutACatchHandlerGoesToTheTrace() {
  struct Boom: Error {}
  let lines = Recorder<String>()
  let store = store { _ in
    .run { _ in
      throw Boom()
    } catch: { error, send in
      await send(.step("caught \(error)"))
    }
    .merge(with: .run { _ in throw Boom() })
  }
  store.setTrace(TraceSink { lines.append($0) })
  store.send(.start)
  #expect(store.state == ["caught Boom()"])
  #expect(lines.all == ["[tca] an effect threw Boom() and has no catch handler"])
}

/// Effects under one id: the one in the middle finishing first leaves the others cancellable
/// together; an id of another type with an equal-looking value is another id (as upstream).
@Test func cancelReachesEveryEffectOfTheIdAndOnlyOfItsType() throws {
  struct Feature: Reducer {
    enum Action: Equatable { case start, stop, done(String) }
    @Dependency(\.clock) var clock
    func reduce(into state: inout [String], action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .merge(
          step("first", after: 3, id: 1), step("middle", after: 1, id: 1),
          step("last", after: 3, id: 1), step("other type", after: 3, id: Int8(1)))
      case .stop:
        return .cancel(id: 1)
      case let .done(name):
        state.append(name)
        return .none
      }
    }
    func step(_ name: String, after seconds: Int, id: some Hashable & Sendable) -> Effect<Action>
    {
      .run { [clock] send in
        try await clock.sleep(for: .seconds(seconds))
        await send(.done(name))
      }
      .cancellable(id: id)
    }
  }
  let store = Store(initialState: [], reducer: Feature(), clock: .manual)
  store.send(.start)
  try store.advance(by: .milliseconds(1_500))
  #expect(store.state == ["middle"])
  store.send(.stop)
  try store.advance(by: .seconds(5))
  #expect(store.state == ["middle", "other type"])
  #expect(store.nextDeadline == nil)
}
