import Features
import JSON
import StoreKernel
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// `tca_store_patch`'s guarantee, on every built-in feature: after each step of a random action
// sequence, the patch since the previous version and the patch since ten versions back, applied
// to the old state JSON, give the new state JSON (equal as JSON values).

/// Steps per feature: 2,000 in `make test` (a debug build, ~10 ms a step with all checks),
/// 10,000 with `TCA_TEST_LONG=1`, 500 under `TCA_TEST_QUICK` (valgrind). The Python test runs
/// 10,000 against the release library.
private let steps =
  getenvString("TCA_TEST_LONG") != nil
  ? 10_000 : getenvString("TCA_TEST_QUICK") != nil ? 500 : 2_000

private func getenvString(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}

/// SplitMix64: a small seeded generator, so that a failure replays.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes) }

/// Equal as JSON values: objects compare as sets of members (a patch's `add` appends).
func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
  case (.object(let x), .object(let y)):
    guard x.count == y.count else { return false }
    return x.allSatisfy { member in
      y.first { $0.key == member.key }.map { sameJSON(member.value, $0.value) } ?? false
    }
  default: return a == b
  }
}

/// One random step of `feature`'s host: an action (or a clock advance) chosen from its state.
private func randomStep(
  _ feature: String, _ host: HostHarness, _ rng: inout SeededGenerator
) throws {
  let state = try parse(try host.store.stateJSON())
  let roll = Int.random(in: 0..<100, using: &rng)
  if roll < 8 {
    try host.advance(milliseconds: [50, 150, 400, 1100].randomElement(using: &rng) ?? 0)
    return
  }
  func action(_ json: String) throws {
    // NB: an action a state does not accept (a stale id) is a no-op, not an error; a shape
    // error would be the generator's bug.
    try host.send(json)
  }
  switch feature {
  case "counter":
    try action(
      [
        #""incrementButtonTapped""#, #""decrementButtonTapped""#, #""numberFactButtonTapped""#,
        #"{"numberFactResponse":"fact \#(roll)"}"#, #"{"numberFactFailed":"offline"}"#,
      ]
      .randomElement(using: &rng) ?? "")
  case "todos":
    guard case .array(let todos)? = state["todos"] else { throw PatchTestError.shape }
    let ids: [String] = todos.compactMap {
      if case .string(let id)? = $0["id"] { return id } else { return nil }
    }
    let count = todos.count
    let pick =
      ids.randomElement(using: &rng).map { "\"\($0)\"" }
      ?? "\"00000000-0000-0000-0000-000000000000\""
    switch Int.random(in: 0..<9, using: &rng) {
    case 0, 1: try action(#""addTodoButtonTapped""#)
    case 2: try action(#"{"todos":{"element":{"id":\#(pick),"action":"checkBoxToggled"}}}"#)
    case 3:
      try action(
        #"{"todos":{"element":{"id":\#(pick),"action":{"textFieldChanged":"t\#(roll)/~x"}}}}"#)
    case 4:
      try action(
        #"{"filterPicked":"\#(pickOne(["all", "active", "completed"], &rng))"}"#
      )
    case 5: try action(#"{"delete":[\#(Int.random(in: 0...max(count, 1), using: &rng))]}"#)
    case 6:
      let from = Int.random(in: 0...max(count, 1), using: &rng)
      let to = Int.random(in: 0...max(count, 1), using: &rng)
      try action(#"{"move":{"from":[\#(from)],"to":\#(to)}}"#)
    case 7: try action(count > 12 ? #""clearCompletedButtonTapped""# : #""sortCompletedTodos""#)
    default: try action(#"{"todos":{"element":{"id":\#(pick),"action":"checkBoxToggled"}}}"#)
    }
  case "dice":
    try action(
      [
        #""rollButtonTapped""#, #""undoLastRoll""#, #""resetHistory""#, #""resetButtonTapped""#,
        #"{"alert":{"presented":{"confirmReset":{}}}}"#, #"{"alert":"dismiss"}"#,
        #""viewFullHistoryTapped""#,
        #"{"destination":{"presented":{"history":"closeButtonTapped"}}}"#,
        #"{"destination":"dismiss"}"#, #"{"rollCompleted":\#(roll % 6 + 1)}"#,
      ]
      .randomElement(using: &rng) ?? "")
  case "matchscores":
    let list = ["teamList", "playerList"].randomElement(using: &rng) ?? "teamList"
    let teamID = Int.random(in: 1...12, using: &rng)
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: try action(#"{"\#(list)":"onAppear"}"#)
    case 1:
      let page = Int.random(in: 1...3, using: &rng)
      let first = Int.random(in: 1...8, using: &rng)
      let items = (first..<first + Int.random(in: 0...5, using: &rng)).map { id in
        list == "teamList"
          ? #"{"id":\#(id),"full_name":"Team \#(id) \#(roll)","city":"C\#(id)"}"#
          : #"{"id":\#(id),"first_name":"P\#(id)","last_name":"L\#(roll)"}"#
      }
      try action(
        #"{"\#(list)":{"pageLoaded":{"page":\#(page),"response":"#
          + #"{"data":[\#(items.joined(separator: ","))],"meta":{"total_pages":3}}}}}"#
      )
    case 2:
      try action(
        #"{"\#(list)":{"searchQueryChanged":"\#(pickOne(["", "1", "Team 2", "p"], &rng))"}}"#
      )
    case 3: try action(#"{"favoriteButtonTapped":\#(teamID)}"#)
    case 4: try action(#"{"favorites":{"removeButtonTapped":\#(teamID)}}"#)
    case 5: try action(#"{"teamTapped":\#(teamID)}"#)
    case 6: try action(#"{"path":{"popFrom":{"id":\#(Int.random(in: 0...6, using: &rng))}}}"#)
    case 7:
      try action(
        #"{"tabSelected":"\#(pickOne(["teams", "games", "players", "favorites"], &rng))"}"#
      )
    case 8: try action(#"{"\#(list)":"refresh"}"#)
    default: try action(#"{"\#(list)":{"pageFailed":{"page":1,"message":"offline"}}}"#)
    }
  default:
    throw PatchTestError.unknownFeature
  }
}

/// A pointer to somewhere in `value` (or, one time in ten, to a member that is not there).
private func randomPointer(in value: JSONValue, _ rng: inout SeededGenerator) -> String {
  var pointer = ""
  var node = value
  for _ in 0..<Int.random(in: 0...4, using: &rng) {
    switch node {
    case .object(let members) where !members.isEmpty:
      let member = members[Int.random(in: 0..<members.count, using: &rng)]
      pointer += "/" + member.key.replacing("~", with: "~0").replacing("/", with: "~1")
      node = member.value
    case .array(let elements) where !elements.isEmpty:
      let index = Int.random(in: 0..<elements.count, using: &rng)
      pointer += "/\(index)"
      node = elements[index]
    default:
      break
    }
  }
  return Int.random(in: 0..<10, using: &rng) == 0 ? pointer + "/missing" : pointer
}

/// One of `choices` (not empty), at random.
private func pickOne(_ choices: [String], _ rng: inout SeededGenerator) -> String {
  choices[Int.random(in: 0..<choices.count, using: &rng)]
}

enum PatchTestError: Error { case shape, unknownFeature }

/// The patch since `since`, parsed.
private func patch(_ host: HostHarness, since: UInt64) throws -> [JSONValue] {
  guard case .array(let operations) = try parse(try host.store.patch(since: since)) else {
    throw PatchTestError.shape
  }
  return operations
}

@Test(arguments: ["counter", "todos", "dice", "matchscores"])
func patchesReplayRandomSequences(_ feature: String) throws {
  try replayRandomSequence(feature, try HostHarness(feature, seed: 7), steps: steps)
}

/// Todos from a list of 300: several chunks of the identified array's tree (64 elements each),
/// so that patches are made by walking the trees past shared chunks, and by the fallback after
/// inserts, removals and moves.
@Test func patchesReplayRandomSequencesOnALargeTodosList() throws {
  let todos = (0..<300).map { index in
    let hex = String(index, radix: 16)
    let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    return #"{"id":"\#(id)","description":"todo \#(index)","isComplete":\#(index % 3 == 0)}"#
  }
  let state = #"{"filter":"all","todos":[\#(todos.joined(separator: ","))]}"#
  try replayRandomSequence(
    "todos", try HostHarness("todos", state: state, seed: 7), steps: steps / 4)
}

private func replayRandomSequence(_ feature: String, _ host: HostHarness, steps: Int) throws {
  var rng = SeededGenerator(state: 0x5EED ^ UInt64(feature.utf8.count))
  // The state JSON of the last eleven versions seen, oldest first.
  var seen: [(version: UInt64, json: JSONValue)] = [
    (host.store.version, try parse(host.store.stateJSON()))
  ]
  var changed = 0
  for step in 0..<steps {
    try randomStep(feature, host, &rng)
    let version = host.store.version
    let current = try parse(try host.store.stateJSON())
    let previous = seen[seen.count - 1]
    let sincePrevious = try patch(host, since: previous.version)
    #expect(
      sameJSON(try JSONPatch.apply(sincePrevious, to: previous.json), current),
      "\(feature) step \(step): since \(previous.version)")
    if version == previous.version {
      #expect(sincePrevious.isEmpty)
    } else {
      changed += 1
    }
    let back = seen[0]
    #expect(
      sameJSON(try JSONPatch.apply(try patch(host, since: back.version), to: back.json), current),
      "\(feature) step \(step): since \(back.version)")
    // `get` by a parsed tree (from the second lookup of a version on) finds what the text
    // lookup finds.
    let pointer = randomPointer(in: current, &rng)
    _ = try host.store.value(at: pointer)
    let byTree = try host.store.value(at: pointer)
    #expect(
      byTree == (try? JSONPointer.lookup(pointer, in: try host.store.stateJSON())), "\(pointer)")
    if version != previous.version { seen.append((version, current)) }
    if seen.count > 11 { seen.removeFirst() }
  }
  // NB: a generator that changed nothing would make the checks above vacuous.
  #expect(changed > steps / 5)
}

@Test func aPatchSinceAVersionNoLongerKeptIsRefused() throws {
  let host = try HostHarness("counter")
  #expect(try host.store.patch(since: 0) == Array("[]".utf8))
  for _ in 0..<20 {
    try host.send(#""incrementButtonTapped""#)
    _ = host.store.version
  }
  let version = host.store.version
  #expect(version == 20)
  #expect(throws: StoreError.versionGone(0, oldest: 5, current: 20)) {
    try host.store.patch(since: 0)
  }
  #expect(throws: StoreError.versionGone(21, oldest: 5, current: 20)) {
    try host.store.patch(since: 21)
  }
  #expect(
    String(decoding: try host.store.patch(since: 5), as: UTF8.self)
      == #"[{"op":"replace","path":"/count","value":20}]"#)
  #expect(try host.store.patch(since: 20) == Array("[]".utf8))
}

@Test func identifiedArraysArePatchedByID() throws {
  func ids(_ list: [Int]) -> JSONValue {
    .array(list.map { .object([("id", .number("\($0)")), ("v", .number("0"))]) })
  }
  let old = JSONValue.object([("items", ids([1, 2, 3, 4]))])
  // A move of the last element to the front: one move, not a list replaced.
  let moved = JSONValue.object([("items", ids([4, 1, 2, 3]))])
  let patch = JSONPatch.diff(from: old, to: moved)
  #expect(
    String(decoding: JSONWriter.write(.array(patch)), as: UTF8.self)
      == #"[{"op":"move","from":"/items/3","path":"/items/0"}]"#)
  #expect(try JSONPatch.apply(patch, to: old) == moved)
  // An insert and a removal.
  let edited = JSONValue.object([("items", ids([1, 5, 3, 4]))])
  let edit = JSONPatch.diff(from: old, to: edited)
  #expect(edit.count == 2)
  #expect(try JSONPatch.apply(edit, to: old) == edited)
}

/// `get` of one todo after a change encodes that todo only (``JSONPointable``) and finds what the
/// text lookup finds; pointers it does not follow (the list, a leading zero, a member not there)
/// go to the text lookup.
@Test func getFollowsPointersIntoALargeTodosListAfterAChange() throws {
  let todos = (0..<200).map { index in
    let hex = String(index, radix: 16)
    let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    return #"{"id":"\#(id)","description":"a/b~\#(index)","isComplete":false}"#
  }
  let host = try HostHarness(
    "todos", state: #"{"filter":"all","todos":[\#(todos.joined(separator: ","))]}"#)
  try host.send(
    #"{"todos":{"element":{"id":"00000000-0000-4000-8000-000000000096","action":"checkBoxToggled"}}}"#
  )
  let pointers = [
    "/todos/150", "/todos/150/isComplete", "/todos/199/description", "/todos/0/id", "/todos/01",
    "/todos/200", "/todos/-", "/todos/3/missing", "/todos", "/filter", "/filteredTodos/150", "",
  ]
  for pointer in pointers {
    let state = try host.store.stateJSON()
    let expected = try? JSONPointer.lookup(pointer, in: state)
    let found = try host.store.value(at: pointer)
    // NB: nil from `value(at:)` means "look it up in the text", which the C API then does.
    #expect((found ?? expected) == expected, "\(pointer)")
    if pointer.hasPrefix("/todos/1") { #expect(found != nil, "\(pointer): not followed") }
  }
  #expect(
    try host.store.value(at: "/todos/150/isComplete") == Array("true".utf8))
}
