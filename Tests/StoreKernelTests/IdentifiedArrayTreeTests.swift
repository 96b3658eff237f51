import JSON
import StoreKernel
import Testing

// The identified array as a persistent tree of chunks (issue 16): large arrays across leaf
// (64) and branch (4,096) boundaries behave as a plain array would, snapshots stay what they
// were, cached chunk encodings never go stale, and patches made by walking the trees apply.

private typealias Row = TextRow

private struct Generator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state ^ (state >> 29)
  }
}

private func rows(_ range: Range<Int>) -> [Row] { range.map { Row(id: $0, text: "r\($0)") } }

private func json(_ array: IdentifiedArrayOf<Row>) throws -> [UInt8] {
  try JSONEncoder().encode(array)
}

private func expectSame(_ array: IdentifiedArrayOf<Row>, _ model: [Row], _ note: String) {
  #expect(array.count == model.count, "\(note)")
  #expect(Array(array) == model, "\(note)")
  #expect(array.ids == model.map(\.id), "\(note)")
  #expect(array == IdentifiedArray(uniqueElements: model), "\(note)")
  for (position, row) in model.enumerated() where position % 97 == 0 || position == model.count - 1 {
    #expect(array.index(id: row.id) == position, "\(note)")
    #expect(array[position] == row, "\(note)")
  }
}

/// One random change, to the array and to the model alike.
private func change(
  _ array: inout IdentifiedArrayOf<Row>, _ model: inout [Row], _ next: inout Int,
  _ rng: inout Generator
) {
  let count = model.count
  let position = count == 0 ? 0 : Int.random(in: 0..<count, using: &rng)
  switch Int.random(in: 0..<12, using: &rng) {
  case 0:
    array.append(Row(id: next))
    model.append(Row(id: next))
    next += 1
  case 1:
    let at = Int.random(in: 0...count, using: &rng)
    array.insert(Row(id: next), at: at)
    model.insert(Row(id: next), at: at)
    next += 1
  case 2 where count > 0:
    #expect(array.remove(at: position) == model.remove(at: position))
  case 3 where count > 0:
    let id = model[position].id
    #expect(array.remove(id: id) == model.remove(at: position))
  case 4 where count > 0:
    let to = Int.random(in: 0..<count, using: &rng)
    array.move(from: position, to: to)
    model.insert(model.remove(at: position), at: to)
  case 5 where count > 1:
    let other = Int.random(in: 0..<count, using: &rng)
    array.swapAt(position, other)
    model.swapAt(position, other)
  case 6 where count > 0:
    // NB: an id that is there replaces that element (ids stay unique).
    let id = model[Int.random(in: 0..<count, using: &rng)].id
    array[position].id = id
    let text = model[position].text
    if let other = model.firstIndex(where: { $0.id == id }), other != position {
      model[position] = Row(id: id, text: text)
      model.remove(at: other)
    }
  case 7 where count > 3000 && Int.random(in: 0..<8, using: &rng) == 0:
    array.removeAll { $0.id % 5 == 0 }
    model.removeAll { $0.id % 5 == 0 }
  case 8 where Int.random(in: 0..<20, using: &rng) == 0:
    array.sort { $0.text < $1.text }
    model = model.enumerated().sorted {
      $0.element.text == $1.element.text ? $0.offset < $1.offset : $0.element.text < $1.element.text
    }.map(\.element)
  default:
    guard count > 0 else { return }
    let text = "t\(next)"
    next += 1
    if Bool.random(using: &rng) {
      array[id: model[position].id]?.text = text
    } else {
      array[position].text = text
    }
    model[position].text = text
  }
}

@Test func largeArraysBehaveAsPlainArraysAndSnapshotsStay() {
  var rng = Generator(state: 16)
  var model = rows(0..<4_150)
  var array = IdentifiedArray(uniqueElements: model)
  var next = 10_000
  expectSame(array, model, "start")
  for step in 0..<400 {
    let snapshot = array
    let before = model
    change(&array, &model, &next, &rng)
    expectSame(array, model, "step \(step)")
    #expect(Array(snapshot) == before, "step \(step): the snapshot changed")
  }
  // Appending across the 64, 1,024 and 16,384 boundaries (a root one level deeper each time),
  // then the same built at once.
  var big = IdentifiedArrayOf<Row>()
  for id in 0..<16_385 { big.append(Row(id: id)) }
  #expect(big.count == 16_385 && big[16_384].id == 16_384 && big.index(id: 4_096) == 4_096)
  #expect(big == IdentifiedArray(uniqueElements: (0..<16_385).map { Row(id: $0) }))
  #expect(Array(big).map(\.id) == Array(0..<16_385))
  let copy = big
  big[4_096].text = "changed"
  #expect(copy[4_096].text == "" && big[4_096].text == "changed" && copy != big)
  big[4_096].text = ""
  #expect(copy == big)
}

@Test func cachedChunkEncodingsNeverGoStale() throws {
  var rng = Generator(state: 61)
  var model = rows(0..<700)
  var array = IdentifiedArray(uniqueElements: model)
  var next = 10_000
  for step in 0..<150 {
    // NB: encoding fills the chunks' caches; a snapshot held half the time makes the next
    // change copy the chunks, the other half changes them in place (uniquely held).
    let encoded = try json(array)
    #expect(encoded == (try JSONEncoder().encodeThroughCodable(array)), "step \(step)")
    let snapshot: IdentifiedArrayOf<Row>? = step % 2 == 0 ? array : nil
    let before = model
    change(&array, &model, &next, &rng)
    #expect(
      try json(array) == (try JSONEncoder().encodeThroughCodable(model)), "step \(step)")
    if let snapshot {
      #expect(try json(snapshot) == (try JSONEncoder().encodeThroughCodable(before)))
    }
  }
}

@Test func patchesMadeByWalkingTheTreesApply() throws {
  var rng = Generator(state: 7)
  var model = rows(0..<700)
  var array = IdentifiedArray(uniqueElements: model)
  var next = 10_000
  for step in 0..<100 {
    let old = array
    let oldJSON = try JSONParser.parse(try json(old))
    // Mostly changes in place (the walk), sometimes an insert or removal (the fallback).
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      change(&array, &model, &next, &rng)
    }
    var operations: [JSONValue] = []
    try array.patch(from: old, at: "/list", into: &operations)
    let patched = try JSONPatch.apply(operations, to: .object([("list", oldJSON)]))
    #expect(patched == .object([("list", try JSONParser.parse(try json(array)))]), "step \(step)")
    if array == old { #expect(operations.isEmpty) }
    if array.sharesIDs(with: old) {
      // NB: a change in place patches the element's member, not the element or the list.
      #expect(operations.count <= 3, "step \(step): \(operations.count) operations")
    }
  }
}
