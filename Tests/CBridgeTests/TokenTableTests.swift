@testable import CBridge
import Testing

// The handle table against a Dictionary: the same answers through inserts and removals in any
// order, across growth, with tokens shaped like real ones and like foreign pointers.

@Test func tokenTableAgreesWithADictionary() {
  var table = TokenTable<Int>()
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
      let token = nextToken &* 16 &+ 7
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
        [UInt(random(1 << 20)) &* 8, nextToken &* 16 &+ 7, live.first ?? 0][random(3)]
      #expect(table[probe] == model[probe])
    }
    #expect(table.count == model.count)
  }
  for (token, value) in model { #expect(table[token] == value) }
  table.insert(1, for: 0)
  #expect(table[0] == nil)
}
