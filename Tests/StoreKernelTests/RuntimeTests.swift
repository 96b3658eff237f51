import StoreKernel
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A counter whose `.bounce` changes the count and changes it back in one call.
struct Bouncer: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment, decrement, bounce, noop }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count &+= 1
      return .none
    case .decrement:
      state.count &-= 1
      return .none
    case .bounce:
      state.count &+= 1
      return .send(.decrement)
    case .noop:
      return .none
    }
  }
}

@Test func theVersionBumpsOnlyWhenTheStateChanged() {
  let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
  #expect(store.version == 0)
  store.send(.increment)
  #expect(store.version == 1)
  store.send(.noop)
  store.send(.bounce)
  #expect(store.version == 1)
  store.send(.decrement)
  #expect(store.version == 2)

  // A state that is not Equatable bumps after each call that reduced something.
  struct Opaque { var count = 0 }
  let opaque = Store(initialState: Opaque(), reducer: Reduce<Opaque, Void> { _, _ in .none })
  opaque.send(())
  opaque.send(())
  #expect(opaque.version == 2)
}

@Test func subscribersRunOncePerCallAndTheirSendsAreQueued() {
  let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
  let seen = Recorder<(version: UInt64, count: Int, countAfterSend: Int)>()
  let me = pthread_self()
  let onCallerThread = Recorder<Bool>()
  store.subscribe { version in
    onCallerThread.append(pthread_equal(pthread_self(), me) != 0)
    let count = store.state.count
    if count == 1 { store.send(.increment) }
    seen.append((version, count, store.state.count))
  }
  store.send(.increment)
  let calls = seen.all
  // The subscriber's own send was queued (the count did not move under it), then reduced
  // before the outer send returned, and the subscriber heard of that change too.
  #expect(calls.map(\.version) == [1, 2])
  #expect(calls.map(\.count) == [1, 2])
  #expect(calls.map(\.countAfterSend) == [1, 2])
  #expect(onCallerThread.all == [true, true])
  #expect(store.state.count == 2)

  store.send(.bounce)
  #expect(seen.all.count == 2)
}

@Test func aSubscriberThatAdvancesTheClockHearsWhatTheAdvanceChanged() {
  let store = Store(initialState: Timer.State(), reducer: Timer(), clock: .manual)
  let seen = Recorder<Int>()
  store.subscribe { _ in
    let ticks = store.state.ticks
    seen.append(ticks)
    // From inside the store: queued, run before the outer call returns.
    if ticks == 1 { _ = try? store.advance(by: .seconds(2)) }
  }
  store.send(.start)
  store.send(.tick)
  // The advance fired two ticks; the subscriber heard of them in the same call.
  #expect(store.state.ticks == 3)
  #expect(seen.all == [1, 3])
  store.send(.stopLocally)
}

@Test func unsubscribeStopsCallbacks() {
  let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
  let seen = Recorder<UInt64>()
  let token = store.subscribe { seen.append($0) }
  store.send(.increment)
  #expect(store.unsubscribe(token))
  #expect(!store.unsubscribe(token))
  store.send(.increment)
  #expect(seen.all == [1])
}

@Test func callsFromInsideACallbackAreQueuedNotRecursed() throws {
  let store = Store(initialState: Facts.State(), reducer: Facts(), clock: .manual)
  let host = FakeHost()
  let polled = Recorder<Int>()
  host.onRequest = { request in
    store.send(.score(1))  // queued
    polled.append(store.poll())  // nothing: the outer call is draining
    #expect(store.state.scores.isEmpty)
    store.close()  // deferred to the end of the outer call
    #expect(!store.isClosed)
  }
  store.setRequestHandler(host.handler)
  store.send(.factButtonTapped)
  #expect(polled.all == [0])
  #expect(store.state.scores == [1])
  #expect(store.isClosed)
  #expect(host.cancels.all == [1])
}

@Test func aMillionSendEffectsInAChainDoNotGrowTheStack() {
  struct Chain: Reducer {
    enum Action { case step(Int) }
    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
      guard case let .step(remaining) = action else { return .none }
      state += 1
      return remaining > 1 ? .concatenate(.none, .send(.step(remaining - 1))) : .none
    }
  }
  let store = Store(initialState: 0, reducer: Chain())
  store.send(.step(1_000_000))
  #expect(store.state == 1_000_000)
}

// NB: 800,000 sends through one lock from 8 threads on 2 cores: a few seconds in debug.
@Test func eightThreadsSendingConcurrentlyLoseNothing() {
  let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
  let versions = Recorder<UInt64>()
  store.subscribe { versions.append($0) }
  let threads = (0..<8).map { _ in
    Thread {
      for _ in 0..<100_000 { store.send(.increment) }
    }
  }
  for thread in threads { thread.join() }
  #expect(store.state.count == 800_000)
  #expect(store.version == 800_000)
  // NB: subscribers run with no lock held, one thread at a time: changes made by other threads
  // while one delivers are told together, with the latest version (never an older one).
  #expect(versions.all.count <= 800_000)
  #expect(versions.all.last == 800_000)
  #expect(versions.all == versions.all.sorted())
  #expect(Set(versions.all).count == versions.all.count)
}

@Test func advanceIsRefusedOnARealClock() {
  let store = Store(initialState: Bouncer.State(), reducer: Bouncer())
  #expect(throws: StoreError.realClock) { try store.advance(by: .seconds(1)) }
}

/// Sleeps `delay` on the store's clock, then sends `.step("woke")`.
private func sleeper(_ delay: Duration) -> Recording {
  Recording { dependencies in
    let clock = dependencies.clock
    return .run { send in
      try await clock.sleep(for: delay)
      await send(.step("woke"))
    }
  }
}

private func isReadable(_ fd: Int32, waitingMilliseconds: Int32 = 0) -> Bool {
  var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  return Glibc.poll(&entry, 1, waitingMilliseconds) == 1
}

@Test func realClockTimersFireInPollAndTheDescriptorSaysWhen() throws {
  let store = Store(initialState: [], reducer: sleeper(.milliseconds(30)))
  let fd = try store.fileDescriptor()
  #expect(try store.fileDescriptor() == fd)
  store.send(.start)
  #expect(!isReadable(fd))
  let deadline = try #require(store.nextDeadline)
  #expect(deadline > .zero && deadline <= .milliseconds(30))
  #expect(store.poll() == 0)
  #expect(isReadable(fd, waitingMilliseconds: 2_000))
  #expect(store.nextDeadline == .zero)
  #expect(store.poll() > 0)
  #expect(store.state == ["woke"])
  #expect(!isReadable(fd))
  #expect(store.nextDeadline == nil)
  store.close()
  #expect(throws: StoreError.closed) { try store.fileDescriptor() }
}

@Test func workResumedFromAnotherThreadMakesTheDescriptorReadable() throws {
  let resumer = Mutex<UnsafeContinuation<Void, Never>?>(nil)
  let store = Store(
    initialState: [],
    reducer: Recording { _ in
      .run { send in
        await withUnsafeContinuation { continuation in resumer.withLock { $0 = continuation } }
        await send(.step("resumed"))
      }
    })
  let fd = try store.fileDescriptor()
  store.send(.start)
  #expect(!isReadable(fd))
  let continuation = try #require(resumer.withLock { $0 })
  Thread { continuation.resume() }.join()
  // The job waits in the store's inbox until a call runs it.
  #expect(store.state.isEmpty)
  #expect(isReadable(fd))
  #expect(store.poll() > 0)
  #expect(store.state == ["resumed"])
  #expect(!isReadable(fd))
}

@Test func aManualClockFiresTimersInDeadlineOrder() throws {
  let store = Store(
    initialState: [],
    reducer: Recording { dependencies in
      let clock = dependencies.clock
      return .merge(
        [30, 10, 20].map { delay in
          .run { send in
            try await clock.sleep(for: .milliseconds(delay))
            await send(.step("\(delay) at \(clock.now)"))
          }
        })
    }, clock: .manual)
  store.send(.start)
  #expect(try store.advance(by: .milliseconds(25)) > 0)
  #expect(store.state == ["10 at 0.01 seconds", "20 at 0.02 seconds"])
  try store.advance(by: .milliseconds(5))
  #expect(store.state.last == "30 at 0.03 seconds")
  #expect(store.clock.now == StoreClock.Instant(nanoseconds: 30_000_000))
}

@Test func releasingAStoreClosesIt() throws {
  let host = FakeHost()
  do {
    let store = Store(initialState: Facts.State(), reducer: Facts())
    store.setRequestHandler(host.handler)
    store.send(.factButtonTapped)
  }
  #expect(host.cancels.all == [1])
}
