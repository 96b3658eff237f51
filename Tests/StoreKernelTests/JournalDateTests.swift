import Glibc
import JSON
import StoreKernel
import Testing

/// Stamps the date (in the reducer and from a timer's effect), rolls a die, names the roll.
private struct Stamps: Reducer, Sendable {
  struct State: Equatable, Codable, Sendable {
    var stamps: [Int64] = []
    var rolls: [String] = []
  }

  enum Action: Equatable, Codable, Sendable {
    case stamp
    case stampLater
    case stamped(Int64)
    case roll
    case fetch
    case fetched(String)
  }

  @Dependency(\.date) var date
  @Dependency(\.random) var random
  @Dependency(\.uuid) var uuid
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      state.stamps.append(date.now.millisecondsSince1970)
      return .none
    case .stampLater:
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(2))
        @Dependency(\.date) var date
        await send(.stamped(date.now.millisecondsSince1970))
      }
    case let .stamped(stamp):
      state.stamps.append(stamp)
      return .none
    case .roll:
      state.rolls.append("\(random.int(in: 1...6)) \(uuid())")
      return .none
    case .fetch:
      return .request("stamp.fetch", as: String.self) { .fetched($0) } failure: { _ in nil }
    case let .fetched(text):
      state.rolls.append(text)
      state.stamps.append(date.now.millisecondsSince1970)
      return .none
    }
  }
}

private let stamps = FeatureDescriptor(
  name: "stamps", summary: "Stamps the date.", initialState: Stamps.State(), reducer: Stamps())

private func send(_ store: any HostStore, _ action: String) throws {
  try Array(action.utf8).withUnsafeBufferPointer { try store.send(json: $0) }
}

/// Waits long enough for the system's date to move by a few milliseconds.
private func waitAFewMilliseconds() { usleep(4_000) }

@Test(arguments: [StoreClock.Kind.real, .manual])
func aReplayReadsTheDatesTheRecordedStoreRead(clock: StoreClock.Kind) throws {
  let store = try stamps.makeStore(
    state: nil, options: StoreOptions(clock: clock, requests: .queued, record: true))
  defer { store.close() }
  for _ in 0..<3 {
    try send(store, "\"stamp\"")
    try send(store, "\"roll\"")
    try send(store, "\"stampLater\"")
    waitAFewMilliseconds()
    if clock == .real { _ = try store.poll() } else { _ = try store.advance(milliseconds: 2) }
  }
  let recorded = try store.stateJSON()
  let state = try JSONDecoder().decode(Stamps.State.self, from: recorded)
  #expect(state.stamps.count == 6)
  #expect(Set(state.stamps).count > 1)
  guard let recorder = store as? any RecordedHostStore else {
    Issue.record("not a recorded store")
    return
  }
  let journal = recorder.journal()
  #expect(String(decoding: journal, as: UTF8.self).contains("{\"date\":"))
  waitAFewMilliseconds()
  let replayed = try journal.withUnsafeBufferPointer {
    try JournalReplay.replay($0, to: .max, feature: stamps, options: StoreOptions())
  }
  defer { replayed.close() }
  #expect(try replayed.stateJSON() == recorded)
  // The replay's own journal keeps the dates: it replays to the same state again.
  guard let again = replayed as? any RecordedHostStore else { return }
  waitAFewMilliseconds()
  let twice = try again.journal().withUnsafeBufferPointer {
    try JournalReplay.replay($0, to: .max, feature: stamps, options: StoreOptions())
  }
  defer { twice.close() }
  #expect(try twice.stateJSON() == recorded)
}

@Test func aDateLineThatIsNotANumberIsRefused() throws {
  let journal = Array(
    """
    {"tcaJournal":1,"feature":"stamps","clock":"manual","seed":7,"version":0,\
    "state":{"stamps":[],"rolls":[]}}
    {"date":"soon"}
    {"send":{"stamp":{}},"version":1}

    """.utf8)
  let error = #expect(throws: JournalError.self) {
    try journal.withUnsafeBufferPointer {
      try JournalReplay.replay($0, to: .max, feature: stamps, options: StoreOptions())
    }
  }
  #expect(error?.description.contains("line 2") == true)
  #expect(error?.description.contains("\"date\" is not a number of milliseconds") == true)
}

/// Answers applied by the host's next call (answers on the host thread): the date their actions
/// read is journaled before the first of them, which a replay applies at its own line.
@Test func answersAppliedByALaterCallReplayTheirDate() throws {
  let store = try stamps.makeStore(
    state: nil,
    options: StoreOptions(clock: .manual, requests: .queued, answers: .hostThread, record: true))
  defer { store.close() }
  try send(store, "\"stamp\"")
  try send(store, "\"fetch\"")
  try send(store, "\"fetch\"")
  _ = try store.takeRequests()
  waitAFewMilliseconds()
  try Array("\"one\"".utf8).withUnsafeBufferPointer { try store.respond(to: 1, json: $0) }
  try Array("\"two\"".utf8).withUnsafeBufferPointer { try store.respond(to: 2, json: $0) }
  _ = try store.poll()
  waitAFewMilliseconds()
  try send(store, "\"fetch\"")
  _ = try store.takeRequests()
  try Array("\"three\"".utf8).withUnsafeBufferPointer { try store.respond(to: 3, json: $0) }
  waitAFewMilliseconds()
  try send(store, "\"stamp\"")
  let recorded = try store.stateJSON()
  let state = try JSONDecoder().decode(Stamps.State.self, from: recorded)
  #expect(state.rolls == ["one", "two", "three"])
  #expect(Set(state.stamps).count == 3)
  guard let recorder = store as? any RecordedHostStore else { return }
  waitAFewMilliseconds()
  let replayed = try recorder.journal().withUnsafeBufferPointer {
    try JournalReplay.replay($0, to: .max, feature: stamps, options: StoreOptions())
  }
  defer { replayed.close() }
  #expect(try replayed.stateJSON() == recorded)
}
