import JSON
import StoreKernel
import Testing

private let facts = FeatureDescriptor(
  name: "facts", summary: "Number facts from the host.", requests: ["numberFact.fetch"],
  initialState: Facts.State(), reducer: Facts())

private func send(_ store: any HostStore, _ json: String) throws(StoreError) {
  var bytes = Array(json.utf8)
  try bytes.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
    try store.send(json: UnsafeBufferPointer(buffer))
  }
}

private func respond(_ store: any HostStore, _ id: UInt64, _ json: String) throws(StoreError) {
  let bytes = Array(json.utf8)
  try bytes.withUnsafeBufferPointer { (buffer) throws(StoreError) in
    try store.respond(to: id, json: buffer)
  }
}

private func state(_ store: any HostStore) throws -> String {
  String(decoding: try store.stateJSON(), as: UTF8.self)
}

@Test func aHostDrivesAFeatureWithJSON() throws {
  let store = try facts.makeStore(state: nil)
  let requests = Recorder<HostRequestInfo>()
  let versions = Recorder<UInt64>()
  try store.setRequestHandler(HostRequestHandler(onRequest: { requests.append($0) }))
  _ = try store.subscribe { versions.append($0) }

  #expect(try state(store) == #"{"count":0,"scores":[],"streamEnded":false}"#)
  try send(store, #""factButtonTapped""#)
  let request = try #require(requests.all.first)
  #expect(request.name == "numberFact.fetch")
  try respond(store, request.id, #""0 is nothing""#)
  #expect(try state(store) == #"{"count":0,"fact":"0 is nothing","scores":[],"streamEnded":false}"#)
  #expect(store.version == 1)
  #expect(versions.all == [1])

  // A bad action is an error and changes nothing.
  #expect(throws: StoreError.self) { try send(store, #""jump""#) }
  #expect(throws: StoreError.self) { try send(store, #"{"score":"#) }
  #expect(store.version == 1)

  // An answer of the wrong shape keeps the request waiting.
  try send(store, #""factButtonTapped""#)
  let second = try #require(requests.all.last)
  #expect(throws: StoreError.self) { try respond(store, second.id, "[1]") }
  try respond(store, second.id, #""now right""#)
  #expect(try state(store).contains("now right"))
}

@Test func stateJSONIsCachedPerVersion() throws {
  let store = try facts.makeStore(state: nil)
  let first = try store.stateJSON()
  let again = try store.stateJSON()
  // Same version: the very same bytes (the cached buffer), no re-encoding.
  first.withUnsafeBufferPointer { a in
    again.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) }
  }
  try send(store, #"{"score":4}"#)
  #expect(try state(store).contains(#""scores":[4]"#))
}

@Test func storesAreMadeFromSnapshotsAndOptions() throws {
  let snapshot = Array(#"{"count":9,"scores":[1],"streamEnded":true}"#.utf8)
  let store = try snapshot.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try facts.makeStore(state: buffer, options: StoreOptions(clock: .manual, seed: 1))
  }
  #expect(try state(store) == #"{"count":9,"scores":[1],"streamEnded":true}"#)
  #expect(try store.advance(milliseconds: 10) == 0)
  #expect(store.nextDeadlineMilliseconds == nil)

  let bad = Array(#"{"count":"x"}"#.utf8)
  #expect(throws: JSONError.self) {
    try bad.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      _ = try facts.makeStore(state: buffer)
    }
  }

  let real = try facts.makeStore(state: nil)
  #expect(throws: StoreError.realClock) { try real.advance(milliseconds: 1) }
}

@Test func aTracedStorePrintsActionsAndRequests() throws {
  let lines = Recorder<String>()
  let store = try facts.makeStore(
    state: nil, options: StoreOptions(trace: TraceSink { lines.append($0) }))
  try store.setRequestHandler(HostRequestHandler(onRequest: { _ in }))
  try send(store, #""factButtonTapped""#)
  try send(store, #"{"score":1}"#)
  let output = lines.all
  #expect(output.first == "received action:\n  Facts.Action.factButtonTapped\n  (No state changes)")
  #expect(output.contains(#"[tca] request #1 "numberFact.fetch" 0"#))
  #expect(output.last?.contains("+   scores: [1]") == true)
}

@Test func closingAHostStoreRefusesEverything() throws {
  let store = try facts.makeStore(state: nil)
  let cancels = Recorder<UInt64>()
  try store.setRequestHandler(
    HostRequestHandler(onRequest: { _ in }, onCancel: { cancels.append($0) }))
  try send(store, #""factButtonTapped""#)
  store.close()
  store.close()
  #expect(cancels.all == [1])
  #expect(store.isClosed)
  #expect(throws: StoreError.closed) { try send(store, #""factButtonTapped""#) }
  #expect(throws: StoreError.closed) { try store.poll() }
  #expect(throws: StoreError.closed) { try store.fail(1, message: "x") }
  #expect(throws: StoreError.closed) { try store.subscribe { _ in } }
  #expect(throws: StoreError.closed) { try store.fileDescriptor() }
  #expect(try state(store).contains(#""count":0"#))
}
