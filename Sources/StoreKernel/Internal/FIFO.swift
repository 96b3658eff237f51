/// A first-in, first-out queue: amortized O(1) append and removal from the front.
@usableFromInline
struct FIFO<Element> {
  private var storage: [Element] = []
  @usableFromInline var head = 0
  @usableFromInline var tail = 0

  init() {}

  @inlinable var isEmpty: Bool { head == tail }
  var count: Int { storage.count - head }

  mutating func append(_ element: Element) {
    storage.append(element)
    tail = storage.count
  }

  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024 && head * 2 >= storage.count {
      // NB: drop the consumed front once it is half the buffer, so a long chain of actions (each
      // reduced one appending the next) runs in constant memory.
      storage.removeFirst(head)
      head = 0
    }
    tail = storage.count
    return element
  }

  mutating func removeAll() {
    storage.removeAll()
    head = 0
    tail = 0
  }

  /// The elements still queued, oldest first.
  var elements: ArraySlice<Element> { storage[head...] }
}
