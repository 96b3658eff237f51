import JSON
import JSONTestSupport
import Testing

// The keyed containers the decoder keeps per key type and hands out again (ContainerCache), and
// the `allKeys` arrays they remember per name: values, errors and paths as without them, and a
// container never handed out while someone still holds it.

/// Decodes `text` through `init(from:)` alone.
private func decodeCodable<T: Decodable>(_ type: T.Type, _ text: String) throws(JSONError) -> T {
  let bytes = Array(text.utf8)
  return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try JSONDecoder().decodeThroughCodable(type, from: buffer)
  }
}

/// The description of the error decoding `text` through `init(from:)` alone throws, or nil.
private func codableError<T: Decodable>(_ type: T.Type, _ text: String) -> String? {
  do {
    _ = try decodeCodable(type, text)
    return nil
  } catch {
    return error.description
  }
}

/// An enum with more cases than a cached container remembers names (8).
private enum ManyCases: Codable, Equatable {
  case c0(id: Int), c1(id: Int), c2(id: Int), c3(id: Int), c4(id: Int), c5(id: Int)
  case c6(id: Int), c7(id: Int), c8(id: Int), c9(id: Int), c10(id: Int), c11(id: Int)
  case bare(String)
  case none

  static func make(_ n: Int, id: Int) -> ManyCases {
    switch n % 14 {
    case 0: return .c0(id: id)
    case 1: return .c1(id: id)
    case 2: return .c2(id: id)
    case 3: return .c3(id: id)
    case 4: return .c4(id: id)
    case 5: return .c5(id: id)
    case 6: return .c6(id: id)
    case 7: return .c7(id: id)
    case 8: return .c8(id: id)
    case 9: return .c9(id: id)
    case 10: return .c10(id: id)
    case 11: return .c11(id: id)
    case 12: return .bare("b\(id)")
    default: return .none
    }
  }
}

@Test func aCachedContainerReadsEachNewObject() throws {
  for round in 0..<300 {
    let action = ManyCases.make(round, id: round * 7)
    let text = try encode(action)
    #expect(try decodeCodable(ManyCases.self, text) == action, "\(text)")
    #expect(try decode(ManyCases.self, text) == action, "\(text)")
  }
  // Shorthands: a bare payload, a bare case name, a name with an escape.
  #expect(try decodeCodable(ManyCases.self, #"{"bare":"x"}"#) == .bare("x"))
  #expect(try decodeCodable(ManyCases.self, #""none""#) == ManyCases.none)
  #expect(try decodeCodable(ManyCases.self, #"{"c\u0033":{"id":4}}"#) == .c3(id: 4))
  #expect(try decodeCodable(ManyCases.self, #"{"c3":{"id":5}}"#) == .c3(id: 5))
}

@Test func unknownCasesAndBadPayloadsFailTheSameEveryTime() throws {
  for _ in 0..<3 {
    let unknown = codableError(ManyCases.self, #"{"nope":{"id":1}}"#)
    #expect(
      unknown?.hasPrefix(
        #"at /: expected exactly one known case, found "nope" (did you mean "none"?"#) == true)
    let two = codableError(ManyCases.self, #"{"c1":{"id":1},"c2":{"id":2}}"#)
    #expect(two?.contains("expected exactly one known case") == true)
    let wrong = codableError(ManyCases.self, #"{"c1":{"id":"x"}}"#)
    #expect(wrong == #"at /c1/id: expected an integer, found "x""#)
    let missing = codableError(ManyCases.self, #"{"c2":{"di":1}}"#)
    #expect(missing == #"at /c2: missing member "id""#)
    #expect(try decodeCodable(ManyCases.self, #"{"c2":{"id":2}}"#) == .c2(id: 2))
  }
}

@Test func theUnlabeledPayloadShorthandStillWorksWhenCached() throws {
  for round in 0..<20 {
    let query = "q\(round)"
    let text = #"{"child":{"searchQueryChanged":"\#(query)"}}"#
    #expect(try decodeCodable(AppAction.self, text) == .child(.searchQueryChanged(query)))
    #expect(try decodeCodable(AppAction.self, #"{"setCount":\#(round)}"#) == .setCount(round))
    let toggle = #"{"toggle":{"id":\#(round)}}"#
    #expect(try decodeCodable(AppAction.self, toggle) == .toggle(id: round))
    #expect(try decodeCodable(AppAction.self, #""increment""#) == .increment)
  }
}

/// A tree whose containers of one key type are open inside one another: the outer one is read
/// after the inner ones are done with.
private final class Node: Decodable {
  let value: Int
  let children: [Node]
  let next: Node?

  enum CodingKeys: String, CodingKey { case value, children, next }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    next = try container.decodeIfPresent(Node.self, forKey: .next)
    children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
    value = try container.decode(Int.self, forKey: .value)
  }

  var values: [Int] { [value] + children.flatMap(\.values) + (next?.values ?? []) }
}

@Test func nestedContainersOfOneKeyTypeAreNotShared() throws {
  let text = #"""
    {"value":1,"next":{"value":2,"next":{"value":3}},
     "children":[{"value":4,"children":[{"value":5},{"value":6}]},{"value":7}]}
    """#
  for _ in 0..<3 {
    #expect(try decodeCodable(Node.self, text).values == [1, 4, 5, 6, 7, 2, 3])
  }
  let bad = codableError(Node.self, #"{"value":1,"next":{"value":"x"}}"#)
  #expect(bad == #"at /next/value: expected an integer, found "x""#)
}

/// Keeps the container of the last one decoded and reads it again while the next one decodes.
private struct Keeper: Decodable {
  nonisolated(unsafe) static var kept: KeyedDecodingContainer<CodingKeys>?

  let value: Int
  /// The value read, during this one's decoding, from the previous one's container.
  let previous: Int?

  enum CodingKeys: String, CodingKey { case value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    value = try container.decode(Int.self, forKey: .value)
    previous = try Keeper.kept?.decode(Int.self, forKey: .value)
    Keeper.kept = container
  }
}

@Test func aContainerKeptByItsTypeIsNotHandedOutAgain() throws {
  let keepers = try decodeCodable([Keeper].self, #"[{"value":1},{"value":2},{"value":3}]"#)
  Keeper.kept = nil
  #expect(keepers.map(\.value) == [1, 2, 3])
  #expect(keepers.map(\.previous) == [nil, 1, 2])
}

/// Changes the `allKeys` array it is given; the next decode must not see it.
private enum KeyMutator: Decodable, Equatable {
  case one(Int)

  enum CodingKeys: String, CodingKey { case one, two }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var keys = container.allKeys
    guard keys == [.one] else {
      throw DecodingError.dataCorruptedError(
        forKey: .one, in: container, debugDescription: "keys \(keys)")
    }
    keys.append(.two)
    keys[0] = .two
    self = .one(try container.decode(Int.self, forKey: .one))
  }
}

@Test func rememberedKeysAreNotChangedByTheirUsers() throws {
  for round in 0..<5 {
    #expect(try decodeCodable(KeyMutator.self, #"{"one":\#(round)}"#) == .one(round))
  }
}

private struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

private struct Segment: Codable, Equatable {
  var from: Point
  var to: Point
}

@Test func siblingContainersOfOneKeyTypeEachReadTheirObject() throws {
  for round in 0..<5 {
    let segment = Segment(from: Point(x: round, y: -1), to: Point(x: 2, y: round * 3))
    #expect(try decodeCodable(Segment.self, encode(segment)) == segment)
    #expect(try decodeCodable([Segment].self, encode([segment, segment])) == [segment, segment])
  }
  let missing = codableError(Segment.self, #"{"from":{"x":1,"y":2},"to":{"x":1}}"#)
  #expect(missing == #"at /to: missing member "y""#)
}

@Test func decodesFromManyThreadsAtOnce() async throws {
  let failures = await withTaskGroup(of: Int.self) { group in
    for task in 0..<8 {
      group.addTask {
        var failures = 0
        for round in 0..<400 {
          let id = task * 10_000 + round
          let action = ManyCases.make(round &+ task, id: id)
          let segment = Segment(from: Point(x: id, y: task), to: Point(x: round, y: -id))
          let node = #"{"value":\#(id),"next":{"value":\#(task)}}"#
          do {
            if try decodeCodable(ManyCases.self, encode(action)) != action { failures += 1 }
            if try decodeCodable(Segment.self, encode(segment)) != segment { failures += 1 }
            if try decodeCodable(Node.self, node).values != [id, task] { failures += 1 }
          } catch {
            failures += 1
          }
        }
        return failures
      }
    }
    return await group.reduce(0, +)
  }
  #expect(failures == 0)
}

/// A type with its own key type for each `T`: `Probe<Int>.CodingKeys` and
/// `Probe<Nest<Int>>.CodingKeys` are different types to the cache.
private struct Probe<T>: Decodable {
  let value: Int
  let name: String?
}

private enum Nest<T> {}

/// Decodes a `Probe<T>`, `Probe<Nest<T>>`, … `count` key types in all; how many came out right.
private func decodeProbes<T>(_ type: T.Type, count: Int) throws -> Int {
  guard count > 0 else { return 0 }
  var right = 0
  for round in 0..<2 {
    let probe = try decodeCodable(Probe<T>.self, #"{"name":"n\#(round)","value":\#(count)}"#)
    if probe.value == count, probe.name == "n\(round)" { right += 1 }
  }
  return try right + decodeProbes(Nest<T>.self, count: count - 1)
}

@Test func keyTypesPastTheCachesRoomAreDecodedAsBefore() throws {
  // NB: more key types than the cache has slots (256): the last ones find no room.
  #expect(try decodeProbes(Int.self, count: 300) == 600)
  #expect(try decodeProbes(Int.self, count: 300) == 600)
}
