@_spi(Bridge) import StoreKernel
import Testing

// The token table against a Dictionary: the same answers through inserts and removals in any
// order, across growth, with tokens shaped like real ones and like foreign pointers: the C
// bridge's handles (16 apart, spacing 4) and a store's request ids (1 apart, from 1).

@Test(arguments: [(spacing: UInt(4), start: UInt(7)), (spacing: 0, start: 0)])
func tokenTableAgreesWithADictionary(_ shape: (spacing: UInt, start: UInt)) {
  var table = TokenTable<Int>(spacing: shape.spacing)
  #expect(table[1] == nil && table.remove(1) == nil && table.count == 0)
  var model: [UInt: Int] = [:]
  var state: UInt64 = 42
  func random(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int(truncatingIfNeeded: state >> 33) % bound
  }
  var nextToken: UInt = 1
  var live: [UInt] = []
  for step in 0..<20_000 {
    switch random(10) {
    case 0..<5:
      let token = nextToken << shape.spacing &+ shape.start
      nextToken += 1
      table.insert(step, for: token)
      model[token] = step
      live.append(token)
    case 5..<8 where !live.isEmpty:
      let token = live.remove(at: random(live.count))
      #expect(table.remove(token) == model.removeValue(forKey: token))
      #expect(table.remove(token) == nil)
    default:
      // A freed token, a foreign pointer or a live one.
      let probe: UInt =
        [UInt(random(1 << 20)) &* 8, nextToken << shape.spacing &+ shape.start, live.first ?? 0][
          random(3)]
      #expect(table[probe] == model[probe])
    }
    #expect(table.count == model.count)
  }
  for (token, value) in model { #expect(table[token] == value) }
  table.insert(1, for: 0)
  #expect(table[0] == nil)
}

@Test func tokenTableSubscriptSetsInsertsReplacesAndRemoves() {
  var table = TokenTable<Int>(spacing: 0)
  table[3] = 30
  table[3]? += 1
  table[5] = 50
  #expect(table[3] == 31 && table[5] == 50 && table.count == 2)
  table[3] = nil
  #expect(table[3] == nil && table[5] == 50 && table.count == 1)
  table[0] = 1
  #expect(table[0] == nil && table.count == 1)
}

@Test func tokenTableChangesValuesInPlace() {
  func set(_ value: inout [Int]?, to newValue: [Int]?) { value = newValue }
  var table = TokenTable<[Int]>(spacing: 0)
  // NB: through `inout`, the subscript's `_modify`: inserts an absent token, changes a present
  // one where it is, removes one set to nil (and keeps the tokens after it reachable).
  set(&table[1], to: [1])
  set(&table[2], to: [2])
  set(&table[17], to: [17])
  table[1]?.append(10)
  #expect(table[1] == [1, 10] && table.count == 3)
  set(&table[1], to: nil)
  #expect(table[1] == nil && table[2] == [2] && table[17] == [17] && table.count == 2)
  set(&table[5], to: nil)
  #expect(table[5] == nil && table.count == 2)
  table[99]?.append(1)
  #expect(table[99] == nil && table.count == 2)
}
