/// A first-in, first-out queue: O(1) removal from the front, amortized O(1) append.
///
///     var queue = FIFO<Int>()
///     queue.append(1)
///     queue.append(2)
///     queue.popFirst()  // 1
///
/// NB: a ring buffer of its own, not an array with a moving head: `popFirst` moves the element
/// out of the buffer, where reading it from an array copied it (a retain per reference it holds)
/// and emptying the array destroyed it again (a release, through a generic `removeAll`): ~170
/// instructions a pop on the effect path (docs/benchmarks.md: the effect round trip). An empty
/// queue that never held anything has no buffer; one that did keeps its buffer for the next
/// elements.
@usableFromInline
struct FIFO<Element> {
  @usableFromInline var storage: FIFOStorage<Element>?

  init() {}

  @inlinable var isEmpty: Bool { storage?.header.count ?? 0 == 0 }
  var count: Int { storage?.header.count ?? 0 }

  /// NB: `consuming`, and the element moved into its slot outside any closure: a closure
  /// capturing it made the store copy each event and action it queued, then destroy the
  /// original (generic value witnesses for a multi-payload enum: ~100 instructions an event).
  mutating func append(_ element: consuming Element) {
    let unique = isKnownUniquelyReferenced(&storage)
    let header = storage?.header ?? FIFOHeader(head: 0, count: 0, capacity: 0)
    let full = header.count == header.capacity
    if full || !unique {
      storage = FIFOStorage.make(
        capacity: full ? max(4, header.capacity * 2) : header.capacity, from: storage,
        unique: unique)
    }
    // NB: never nil here (made above when it was).
    guard let storage else { return }
    // NB: the buffer stays where it is while `self.storage` holds it, so its slot's address is
    // good after the closure.
    let slot = storage.withUnsafeMutablePointers { header, elements in
      let (head, count) = (header.pointee.head, header.pointee.count)
      let end = head &+ count
      header.pointee.count = count &+ 1
      return elements + (end < header.pointee.capacity ? end : end &- header.pointee.capacity)
    }
    slot.initialize(to: element)
  }

  mutating func popFirst() -> Element? {
    guard let header = storage?.header, header.count > 0 else { return nil }
    if !isKnownUniquelyReferenced(&storage) {
      storage = FIFOStorage.make(capacity: header.capacity, from: storage, unique: false)
    }
    guard let storage else { return nil }
    return storage.withUnsafeMutablePointers { header, elements in
      let head = header.pointee.head
      let element = (elements + head).move()
      let next = head &+ 1
      header.pointee.count &-= 1
      header.pointee.head =
        header.pointee.count == 0 || next == header.pointee.capacity ? 0 : next
      return element
    }
  }

  /// Moves the first element into `slot` (uninitialized memory); false, leaving `slot` as it
  /// is, when there is none.
  ///
  /// NB: for a caller that must carry an element out of a closure without an `Element?`: the
  /// outlined copies and destroys of an optional action were merged across types by the
  /// compiler into generic ones (~150 instructions each).
  ///
  /// NB: `popFirst`'s steps written again, not shared: `popFirst` written through a helper
  /// common to both (its slot returned, or its move passed in) cost the round trip 45–65
  /// instructions.
  mutating func moveFirst(to slot: UnsafeMutablePointer<Element>) -> Bool {
    guard let header = storage?.header, header.count > 0 else { return false }
    if !isKnownUniquelyReferenced(&storage) {
      storage = FIFOStorage.make(capacity: header.capacity, from: storage, unique: false)
    }
    guard let storage else { return false }
    let first = storage.withUnsafeMutablePointers { header, elements in
      let head = header.pointee.head
      let next = head &+ 1
      header.pointee.count &-= 1
      header.pointee.head =
        header.pointee.count == 0 || next == header.pointee.capacity ? 0 : next
      return elements + head
    }
    slot.moveInitialize(from: first, count: 1)
    return true
  }

  /// Drops every element, and the buffer.
  mutating func removeAll() {
    storage = nil
  }
}

@usableFromInline
struct FIFOHeader {
  /// Where the first element is.
  @usableFromInline var head: Int
  @usableFromInline var count: Int
  /// How many elements fit (what the buffer was made for).
  @usableFromInline let capacity: Int

  @usableFromInline
  init(head: Int, count: Int, capacity: Int) {
    self.head = head
    self.count = count
    self.capacity = capacity
  }
}

/// The ring buffer of a ``FIFO``: `count` elements from `head`, wrapping at `capacity`.
@usableFromInline
final class FIFOStorage<Element>: ManagedBuffer<FIFOHeader, Element> {
  /// A buffer of `capacity` holding the elements of `old`, first at 0: moved out of it if
  /// `unique` (no other queue shares it), copied otherwise.
  static func make(capacity: Int, from old: FIFOStorage?, unique: Bool) -> FIFOStorage {
    let made = unsafeDowncast(
      create(minimumCapacity: capacity) { _ in
        FIFOHeader(head: 0, count: 0, capacity: capacity)
      },
      to: FIFOStorage.self)
    guard let old else { return made }
    made.withUnsafeMutablePointers { header, target in
      old.withUnsafeMutablePointers { oldHeader, source in
        let (head, count) = (oldHeader.pointee.head, oldHeader.pointee.count)
        let first = min(count, oldHeader.pointee.capacity &- head)
        if unique {
          target.moveInitialize(from: source + head, count: first)
          (target + first).moveInitialize(from: source, count: count &- first)
          oldHeader.pointee.count = 0
          oldHeader.pointee.head = 0
        } else {
          target.initialize(from: source + head, count: first)
          (target + first).initialize(from: source, count: count &- first)
        }
        header.pointee.count = count
      }
    }
    return made
  }

  deinit {
    withUnsafeMutablePointers { header, elements in
      let (head, count) = (header.pointee.head, header.pointee.count)
      let first = min(count, header.pointee.capacity &- head)
      (elements + head).deinitialize(count: first)
      elements.deinitialize(count: count &- first)
    }
  }
}
