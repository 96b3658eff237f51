import JSON
import StoreKernel
import StoreKernelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A list of numbers shared under a key the test chooses (tests run in parallel: each its own
/// key), and a count of its own.
struct SharedNumbers: Reducer {
  struct State: Equatable, Codable, Sendable {
    @Shared var numbers: [Int]
    @SharedReader var mirror: [Int]
    var local = 0

    init(_ key: SharedKey, numbers: [Int] = []) {
      _numbers = Shared(wrappedValue: numbers, key)
      _mirror = SharedReader(wrappedValue: numbers, key)
    }

    enum CodingKeys: String, CodingKey { case numbers, mirror, local, key }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let key = SharedKey(
        kind: .inMemory, name: try container.decode(String.self, forKey: .key))
      let numbers = try container.decodeIfPresent([Int].self, forKey: .numbers) ?? []
      self.init(key, numbers: numbers)
      local = try container.decodeIfPresent(Int.self, forKey: .local) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(numbers, forKey: .numbers)
      try container.encode(local, forKey: .local)
      try container.encode($numbers.key.name, forKey: .key)
    }
  }

  enum Action: Equatable, Codable, Sendable {
    case add(Int)
    case bump
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(number):
      state.$numbers.withLock { $0.append(number) }
      return .none
    case .bump:
      state.local += 1
      return .none
    }
  }
}

private func numbersStore(_ key: SharedKey) -> Store<SharedNumbers.State, SharedNumbers.Action> {
  Store(initialState: SharedNumbers.State(key), reducer: SharedNumbers(), clock: .manual)
}

@Test func aChangeReachesTheOtherStoreAtItsNextTurn() {
  let key = SharedKey.inMemory("shared-test-turn")
  let a = numbersStore(key)
  let b = numbersStore(key)
  let versions = Recorder<UInt64>()
  b.subscribe { versions.append($0) }
  a.send(.add(1))
  #expect(a.state.numbers == [1])
  // B takes it at its next turn, not under A's call.
  #expect(b.state.numbers == [])
  #expect(b.poll() > 0)
  #expect(b.state.numbers == [1])
  #expect(b.state.mirror == [1])
  #expect(b.version == 1)
  #expect(versions.all == [1])
  // And back: B's change reaches A before A's next action.
  b.send(.add(2))
  a.send(.bump)
  #expect(a.state.numbers == [1, 2])
  #expect(a.state.local == 1)
}

@Test func aStoreMadeLaterStartsFromTheKeysValue() {
  let key = SharedKey.inMemory("shared-test-later")
  let a = numbersStore(key)
  a.send(.add(7))
  let b = numbersStore(key)
  #expect(b.state.numbers == [7])
  #expect(b.version == 0)
  _ = a
}

@Test func anInMemoryValueGoesWithTheLastStoreHoldingIt() {
  let key = SharedKey.inMemory("shared-test-gone")
  do {
    let a = numbersStore(key)
    a.send(.add(1))
    a.close()
  }
  let b = numbersStore(key)
  #expect(b.state.numbers == [])
}

@Test func aTestStoreAssertsSharedChangesLikeState() {
  let store = TestStore(
    initialState: SharedNumbers.State(.inMemory("shared-test-teststore")),
    reducer: SharedNumbers(), reporter: .swiftTesting)
  store.send(.add(3)) {
    $0.$numbers.withLock { $0 = [3] }
  }
  store.finish()
}

@Test func aTestStoreFailsOnAnUnassertedSharedChange() {
  let failures = Recorder<String>()
  let store = TestStore(
    initialState: SharedNumbers.State(.inMemory("shared-test-teststore-fail")),
    reducer: SharedNumbers(), reporter: FailureReporter { failures.append($0.message) })
  store.send(.add(3))
  #expect(failures.all.count == 1)
  #expect(failures.all.first?.contains("+     3") == true || failures.all.first != nil)
}

@Test func hostKeysLoadAndSaveThroughRequests() throws {
  let key = SharedKey.host("shared-test-host")
  let store = numbersStore(key)
  let requests = Recorder<HostRequestInfo>()
  store.setRequestHandler(HostRequestHandler(onRequest: { requests.append($0) }))
  store.send(.bump)
  let load = try #require(requests.all.first)
  #expect(load.name == "shared.load")
  #expect(String(decoding: load.payload, as: UTF8.self) == #"{"key":"shared-test-host"}"#)
  try store.respond(to: load.id, json: Array("[4,5]".utf8))
  #expect(store.state.numbers == [4, 5])
  store.send(.add(6))
  let save = try #require(requests.all.last)
  #expect(save.name == "shared.save")
  #expect(save.kind == .fireAndForget)
  #expect(
    String(decoding: save.payload, as: UTF8.self) == #"{"key":"shared-test-host","value":[4,5,6]}"#)
  // Two changes in one turn make one save.
  #expect(requests.all.filter { $0.name == "shared.save" }.count == 1)
}

@Test func aHostLoadAnswerOfTheWrongShapeIsRefused() throws {
  let store = numbersStore(.host("shared-test-host-bad"))
  let requests = Recorder<HostRequestInfo>()
  store.setRequestHandler(HostRequestHandler(onRequest: { requests.append($0) }))
  store.send(.bump)
  let load = try #require(requests.all.first)
  #expect(throws: StoreError.self) { try store.respond(to: load.id, json: Array("\"x\"".utf8)) }
  #expect(store.state.numbers == [])
  // `null`: nothing saved; the default stays.
  try store.respond(to: load.id, json: Array("null".utf8))
  #expect(store.state.numbers == [])
}

@Test func fileStorageIsWrittenAtomicallyAndReadAgainWhenItChanges() throws {
  let path = "/tmp/tca-shared-test-\(getpid()).json"
  unlink(path)
  defer { unlink(path) }
  let key = SharedKey.fileStorage(path)
  do {
    let a = numbersStore(key)
    a.send(.add(1))
    a.send(.add(2))
    #expect(try readFile(path) == "[1,2]")
  }
  // Read at first use.
  let b = numbersStore(key)
  #expect(b.state.numbers == [1, 2])
  // Another process writes it: the next poll reads it.
  usleep(10_000)
  try writeFile(path, "[9]")
  #expect(b.poll() > 0)
  #expect(b.state.numbers == [9])
  #expect(b.poll() == 0)
}

@Test func aJournalRecordsOutsideChangesAndReplaysThem() throws {
  let descriptor = FeatureDescriptor(
    name: "numbers", summary: "Shared numbers.", requests: [],
    initialState: SharedNumbers.State(.inMemory("shared-test-journal")), reducer: SharedNumbers())
  let a = try descriptor.makeStore(state: nil, options: StoreOptions(clock: .manual))
  let b = try #require(
    try descriptor.makeStore(state: nil, options: StoreOptions(clock: .manual, record: true))
      as? any RecordedHostStore)
  try sendJSON(b, #""bump""#)
  try sendJSON(a, #"{"add":5}"#)
  try sendJSON(b, #""bump""#)
  try sendJSON(a, #"{"add":6}"#)
  #expect(try b.poll() > 0)
  let journal = String(decoding: b.journal(), as: UTF8.self)
  let lines = journal.split(separator: "\n").dropFirst().map(String.init)
  #expect(
    lines == [
      #"{"send":"bump","version":1}"#,
      #"{"shared":"inMemory:shared-test-journal","value":[5],"version":1}"#,
      #"{"send":"bump","version":1}"#,
      #"{"shared":"inMemory:shared-test-journal","value":[5,6],"version":1}"#,
    ])
  let expected = String(decoding: try b.stateJSON(), as: UTF8.self)
  let replayed = try b.journal().withUnsafeBufferPointer { bytes in
    try JournalReplay.replay(
      bytes, to: .max, feature: descriptor, options: StoreOptions(clock: .manual))
  }
  #expect(String(decoding: try replayed.stateJSON(), as: UTF8.self) == expected)
  #expect(replayed.version == b.version)
  // The replay changed no live store.
  #expect(String(decoding: try a.stateJSON(), as: UTF8.self).contains("[5,6]"))
}

private func sendJSON(_ store: any HostStore, _ json: String) throws(StoreError) {
  let bytes = Array(json.utf8)
  try bytes.withUnsafeBufferPointer { (buffer) throws(StoreError) in
    try store.send(json: buffer)
  }
}

private func readFile(_ path: String) throws -> String {
  guard let file = fopen(path, "r") else { throw StoreError.closed }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

private func writeFile(_ path: String, _ text: String) throws {
  guard let file = fopen(path, "w") else { throw StoreError.closed }
  fputs(text, file)
  fclose(file)
}
