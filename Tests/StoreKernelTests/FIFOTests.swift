@testable import StoreKernel
import Testing

// The store's queue (a ring buffer) against an array: the same elements in the same order
// through appends and pops in any mix, across wrap-around and growth; copies that share a
// buffer stay independent; elements are destroyed exactly once.

@Test func fifoAgreesWithAnArray() {
  var queue = FIFO<String>()
  #expect(queue.isEmpty && queue.count == 0 && queue.popFirst() == nil)
  var model: [String] = []
  var state: UInt64 = 7
  func random(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int(truncatingIfNeeded: state >> 33) % bound
  }
  for step in 0..<20_000 {
    // NB: more appends than pops early, more pops later: the queue grows, then drains.
    if random(10) < (step < 10_000 ? 6 : 4) {
      // NB: strings longer than 15 bytes live on the heap, so a copy or a leak would show.
      let element = "element number \(step)"
      queue.append(element)
      model.append(element)
    } else {
      #expect(queue.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
    }
    #expect(queue.count == model.count && queue.isEmpty == model.isEmpty)
  }
  while let element = queue.popFirst() { #expect(element == model.removeFirst()) }
  #expect(model.isEmpty)
}

@Test func fifoCopiesAreIndependent() {
  var queue = FIFO<[Int]>()
  for value in 0..<6 { queue.append([value]) }
  _ = queue.popFirst()
  _ = queue.popFirst()
  // NB: wrapped: the next appends go to the front of the buffer.
  for value in 6..<8 { queue.append([value]) }
  var copy = queue
  #expect(copy.popFirst() == [2])
  copy.append([99])
  var drained: [[Int]] = []
  while let element = queue.popFirst() { drained.append(element) }
  #expect(drained == (2..<8).map { [$0] })
  drained = []
  while let element = copy.popFirst() { drained.append(element) }
  #expect(drained == (3..<8).map { [$0] } + [[99]])
}

@Test func fifoDestroysEachElementOnce() {
  final class Tracked {
    nonisolated(unsafe) static var alive = 0
    init() { Tracked.alive += 1 }
    deinit { Tracked.alive -= 1 }
  }
  do {
    var queue = FIFO<Tracked>()
    for _ in 0..<10 { queue.append(Tracked()) }
    for _ in 0..<7 { _ = queue.popFirst() }
    for _ in 0..<9 { queue.append(Tracked()) }
    let copy = queue
    #expect(Tracked.alive == 12 && copy.count == 12)
    queue.removeAll()
    #expect(queue.isEmpty && Tracked.alive == 12)
  }
  #expect(Tracked.alive == 0)
}

@Test func fifoMovesItsFirstElementIntoASlot() {
  var queue = FIFO<String>()
  let slot = UnsafeMutablePointer<String>.allocate(capacity: 1)
  defer { slot.deallocate() }
  let movedFromEmpty = queue.moveFirst(to: slot)
  #expect(!movedFromEmpty)
  for step in 0..<6 { queue.append("element number \(step)") }
  _ = queue.popFirst()
  // NB: wrapped, then a copy sharing the buffer: moving out of one leaves the other whole.
  for step in 6..<9 { queue.append("element number \(step)") }
  var copy = queue
  let moved = queue.moveFirst(to: slot)
  #expect(moved)
  #expect(slot.move() == "element number 1")
  var rest: [String] = []
  while queue.moveFirst(to: slot) { rest.append(slot.move()) }
  #expect(rest == (2..<9).map { "element number \($0)" })
  #expect(queue.isEmpty && copy.count == 8)
  let first = copy.popFirst()
  #expect(first == "element number 1")
}
