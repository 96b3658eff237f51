import Synchronization

/// The timers of one store, fired in deadline order by the store's `poll`/`advance`.
///
/// NB: effects never rely on `Task.sleep`'s own timers: every wait goes through this queue, so a
/// store's time is wholly its clock's (manual clocks move only when advanced) and a due timer runs
/// only inside a call into the store, on the caller's thread.
@usableFromInline
final class TimerQueue: @unchecked Sendable {
  /// What a due timer does.
  enum Fire {
    /// Resumes a sleeping task (its job then runs on the store's executor).
    case resume(UnsafeContinuation<Void, any Error>)
    /// Runs store work (a debounce wait ending, a throttled action going through). Only ever
    /// scheduled and fired by the thread holding the store.
    case call(() -> Void)
  }

  private struct Entry {
    var deadline: Int64
    var id: UInt64

    func precedes(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : id < other.id
    }
  }

  private struct Storage {
    var heap: [Entry] = []
    var live: [UInt64: Fire] = [:]
    var nextID: UInt64 = 1
    var closed = false
  }

  // NB: a lock of its own because a sleeping task may be cancelled, and its cancellation handler
  // run, on whatever thread cancels it.
  private let lock = PlainLock()
  private var storage = Storage()
  @usableFromInline let liveCount = Atomic<Int>(0)

  /// Whether no timer is pending (cheap: no lock).
  @inlinable var isEmpty: Bool { liveCount.load(ordering: .acquiring) == 0 }

  /// Schedules `fire` at `deadline`; nil if the queue is closed (the store is closed).
  func schedule(at deadline: Int64, _ fire: Fire) -> UInt64? {
    lock.withLock { () -> UInt64? in
      guard !storage.closed else { return nil }
      let id = storage.nextID
      storage.nextID &+= 1
      storage.live[id] = fire
      storage.heap.append(Entry(deadline: deadline, id: id))
      Self.siftUp(&storage.heap, from: storage.heap.count - 1)
      liveCount.add(1, ordering: .releasing)
      return id
    }
  }

  /// Removes the timer `id`; returns what it would have done, or nil if it already fired.
  func cancel(_ id: UInt64) -> Fire? {
    lock.withLock { () -> Fire? in
      guard let fire = storage.live.removeValue(forKey: id) else { return nil }
      liveCount.subtract(1, ordering: .releasing)
      return fire
    }
  }

  /// Removes and returns the earliest timer whose deadline is at or before `now`.
  func popDue(now: Int64) -> Fire? {
    lock.withLock { () -> Fire? in
      while let top = storage.heap.first {
        // NB: the deadline first: when the earliest entry is not due, none is, whether that
        // entry is live or a cancelled one left in the heap (no lookup on every call).
        guard top.deadline <= now else { return nil }
        guard storage.live[top.id] != nil else {
          Self.popTop(&storage.heap)
          continue
        }
        Self.popTop(&storage.heap)
        liveCount.subtract(1, ordering: .releasing)
        return storage.live.removeValue(forKey: top.id)
      }
      return nil
    }
  }

  /// The earliest pending deadline, if any.
  var earliestDeadline: Int64? {
    lock.withLock { () -> Int64? in
      while let top = storage.heap.first {
        if storage.live[top.id] != nil { return top.deadline }
        Self.popTop(&storage.heap)
      }
      return nil
    }
  }

  /// Closes the queue: later `schedule` calls return nil. Returns the timers still pending.
  func close() -> [Fire] {
    lock.withLock { () -> [Fire] in
      storage.closed = true
      let pending = storage.heap.compactMap { storage.live[$0.id] }
      storage.live.removeAll()
      storage.heap.removeAll()
      liveCount.store(0, ordering: .releasing)
      return pending
    }
  }

  private static func popTop(_ heap: inout [Entry]) {
    guard let last = heap.popLast() else { return }
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(&heap, from: 0)
  }

  private static func siftUp(_ heap: inout [Entry], from start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private static func siftDown(_ heap: inout [Entry], from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count && heap[left].precedes(heap[first]) { first = left }
      if right < heap.count && heap[right].precedes(heap[first]) { first = right }
      guard first != parent else { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
