import JSON
import StoreKernel
import Testing

/// A feature whose State has synthesized Codable only (no hand-written decoder), as a user's
/// own feature has: partial snapshots still take the initial state's values.
private struct Lookup: Reducer, Sendable {
  struct Page: Codable, Equatable, Sendable {
    var number = 1
    var size = 20
  }
  enum Phase: Codable, Equatable, Sendable {
    case idle(since: Int)
    case loading(Int)
    case failed(message: String)
  }
  struct State: Codable, Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var page = Page()
    var phase = Phase.idle(since: 7)
    var tags: [String: Int] = [:]
    var selected: String? = "first"
  }
  enum Action: Codable, Equatable, Sendable { case queryChanged(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query): state.query = query
    }
    return .none
  }
}

private let search = FeatureDescriptor(
  name: "search", summary: "A search.", initialState: Lookup.State(), reducer: Lookup())

private func restored(_ snapshot: String) throws(JSONError) -> String {
  let bytes = Array(snapshot.utf8)
  let store = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try search.makeStore(state: buffer)
  }
  do {
    return String(decoding: try store.stateJSON(), as: UTF8.self)
  } catch {
    Issue.record("stateJSON: \(error)")
    return ""
  }
}

private func error(_ snapshot: String) -> JSONError? {
  do {
    _ = try restored(snapshot)
    return nil
  } catch {
    return error
  }
}

@Test func membersLeftOutTakeTheInitialStatesValues() throws {
  #expect(
    try restored(#"{"query":"bo"}"#)
      == #"{"query":"bo","results":[],"page":{"number":1,"size":20},"#
      + #""phase":{"idle":{"since":7}},"tags":{},"selected":"first"}"#)
  #expect(try restored("{}") == restored(#"{"query":""}"#))
}

@Test func nestedObjectsAreCompletedAtAnyDepth() throws {
  let state = try restored(#"{"page":{"size":5},"phase":{"idle":{}}}"#)
  #expect(state.contains(#""page":{"number":1,"size":5}"#))
  #expect(state.contains(#""phase":{"idle":{"since":7}}"#))
}

@Test func arraysScalarsAndNullReplaceTheInitialValue() throws {
  let state = try restored(#"{"results":["a","b"],"selected":null,"tags":{"x":1}}"#)
  #expect(state.contains(#""results":["a","b"]"#))
  #expect(!state.contains("selected"))
  #expect(state.contains(#""tags":{"x":1}"#))
}

@Test func anotherEnumCaseIsTakenAsGiven() throws {
  let loading = #""phase":{"loading":{"_0":3}}"#
  #expect(try restored(#"{"phase":{"loading":{"_0":3}}}"#).contains(loading))
  #expect(try restored(#"{"phase":{"loading":3}}"#).contains(loading))
  let failed = #"{"phase":{"failed":{"message":"x"}}}"#
  #expect(try restored(failed).contains(#""phase":{"failed":{"message":"x"}}"#))
}

@Test func aMemberOfTheWrongTypeNamesItsOwnPath() {
  #expect(error(#"{"page":{"size":"x"}}"#)?.path == "/page/size")
  #expect(error(#"{"results":"x"}"#)?.path == "/results")
  #expect(error(#"{"phase":{"failed":{}}}"#)?.description.contains(#"missing member"#) == true)
  // Not JSON: the error is the decoder's, at the byte where the snapshot goes wrong.
  #expect(error(#"{"query":"bo",}"#)?.offset == 14)
}

@Test func aFullSnapshotRoundTrips() throws {
  let full =
    #"{"query":"q","results":["r"],"page":{"number":2,"size":3},"#
    + #""phase":{"loading":{"_0":1}},"tags":{"t":4},"selected":"s"}"#
  #expect(try restored(full) == full)
}
