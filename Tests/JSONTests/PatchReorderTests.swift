import JSON
import JSONTestSupport
import Testing

// Arrays diffed by id (`JSONPatch.diff`): reorders of thousands of elements make a correct patch
// in O(n log n) (it was O(n²): 16,000 reversed elements took 70 s in a release build), and
// small changes keep their few operations. Each patch is checked by applying it.

/// A team-like element: `{"id":…,"name":"team …","wins":…}`.
private func element(_ id: Int, wins: Int = 0, stringID: Bool = false) -> JSONValue {
  .object([
    ("id", stringID ? .string("t\(id)") : .number(String(id))),
    ("name", .string("team \(id)")),
    ("wins", .number(String(wins))),
  ])
}

private func document(_ elements: [JSONValue]) -> JSONValue {
  .object([("page", .number("1")), ("teams", .array(elements))])
}

/// Equal as JSON values: an object's members in any order (a patch's `add` appends).
private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
  case (.object(let x), .object(let y)):
    guard x.count == y.count else { return false }
    return x.allSatisfy { member in
      y.first { $0.key == member.key }.map { same(member.value, $0.value) } ?? false
    }
  default: return a == b
  }
}

/// The patch from `old` to `new`, checked: applied to `old` it gives `new`.
@discardableResult
private func checkedPatch(_ old: [JSONValue], _ new: [JSONValue]) throws -> [JSONValue] {
  let operations = JSONPatch.diff(from: document(old), to: document(new))
  let patched = try JSONPatch.apply(operations, to: document(old))
  // NB: no description of a failure: it would print both documents whole.
  let equal = same(patched, document(new))
  #expect(equal)
  return operations
}

private func ops(_ operations: [JSONValue], _ op: String) -> Int {
  operations.filter { $0["op"] == .string(op) }.count
}

// NB: the time limit is a bound only quadratic work breaks: the diff alone took minutes in a
// debug build before; it is well under a second now.
@Test(.timeLimit(.minutes(1)))
func sixteenThousandReversedElementsPatchAtOnce() throws {
  let old = (0..<16_000).map { element($0) }
  let operations = try checkedPatch(old, old.reversed())
  // NB: 15,999 moves would cost a host O(n²) to apply: the array is replaced.
  #expect(operations.count == 1 && ops(operations, "replace") == 1)
}

@Test(.timeLimit(.minutes(1)))
func sixteenThousandShuffledElementsWithChangesPatchAtOnce() throws {
  var generator = SeededRandom(seed: 34)
  let old = (0..<16_000).map { element($0, stringID: true) }
  var new = old.shuffled(using: &generator)
  new[5] = element(99_999, stringID: true)
  new.removeLast(100)
  try checkedPatch(old, new)
}

/// A few moves in a long array stay moves, each found in O(log n).
@Test(.timeLimit(.minutes(1)))
func aFewMovesInSixteenThousandElementsAreMoves() throws {
  let old = (0..<16_000).map { element($0) }
  var new = old
  // The first element to the end, one near the end to the front, two in the middle swapped,
  // and one changed in place.
  new.append(new.removeFirst())
  new.insert(new.remove(at: 15_000), at: 0)
  new.swapAt(8_000, 8_001)
  new[100] = element(100, wins: 3)
  let operations = try checkedPatch(old, new)
  #expect(ops(operations, "move") == 3)
  #expect(ops(operations, "replace") == 1)
  #expect(operations.count == 4)
}

@Test func oneMoveEitherWayIsOneOperation() throws {
  let old = (0..<10).map { element($0) }
  var later = old
  later.insert(later.remove(at: 2), at: 7)
  var earlier = old
  earlier.insert(earlier.remove(at: 7), at: 2)
  for new in [later, earlier] {
    let operations = try checkedPatch(old, new)
    #expect(operations.count == 1 && ops(operations, "move") == 1)
  }
}

@Test func aReorderOfMoreThanMaxMovesReplacesTheArray() throws {
  // Reversed, all but one element move: maxMoves moves are moves, one more replaces the array.
  let fits = (0...JSONPatch.maxMoves).map { element($0) }
  let moves = try checkedPatch(fits, fits.reversed())
  #expect(moves.count == JSONPatch.maxMoves && ops(moves, "move") == JSONPatch.maxMoves)
  let over = (0...JSONPatch.maxMoves + 1).map { element($0) }
  let replaced = try checkedPatch(over, over.reversed())
  #expect(replaced.count == 1 && ops(replaced, "replace") == 1)
}

/// Random changes to small arrays: adds, removals, moves and member changes together, every
/// patch applied.
@Test func randomChangesToIdentifiedArraysPatchCorrectly() throws {
  var generator = SeededRandom(seed: 7)
  var nextID = 1_000
  for round in 0..<2_000 {
    let count = Int.random(in: 1...(round % 10 == 0 ? 120 : 24), using: &generator)
    let old = (0..<count).map { element($0, wins: $0 % 3) }
    var new = old
    for _ in 0..<Int.random(in: 1...6, using: &generator) {
      switch Int.random(in: 0..<5, using: &generator) {
      case 0 where !new.isEmpty:
        new.remove(at: Int.random(in: 0..<new.count, using: &generator))
      case 1:
        nextID += 1
        new.insert(element(nextID), at: Int.random(in: 0...new.count, using: &generator))
      case 2 where new.count > 1:
        let moved = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
        new.insert(moved, at: Int.random(in: 0...new.count, using: &generator))
      case 3 where !new.isEmpty:
        let index = Int.random(in: 0..<new.count, using: &generator)
        let wins = Int.random(in: 5...9, using: &generator)
        if case .number(let id)? = new[index]["id"], let number = Int(id) {
          new[index] = element(number, wins: wins)
        }
      default:
        new.shuffle(using: &generator)
      }
    }
    let operations = JSONPatch.diff(from: document(old), to: document(new))
    let patched = try JSONPatch.apply(operations, to: document(old))
    let equal = same(patched, document(new))
    #expect(equal, "round \(round): \(old) -> \(new)")
    if !equal { return }
  }
}
