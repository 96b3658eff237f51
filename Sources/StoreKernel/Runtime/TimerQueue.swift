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

  /// A scheduled timer, to cancel or move it: its slot, and which of the slot's timers it is.
  struct Ticket: Equatable, Sendable {
    fileprivate let slot: Int
    fileprivate let order: UInt64
  }

  /// A timer in the heap, in deadline order, then in the order scheduled.
  private struct Entry {
    var deadline: Int64
    /// When it was scheduled (from 1 up, never reused): ties fire in this order.
    var order: UInt64
    var slot: Int

    func precedes(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : order < other.order
    }
  }

  /// Where a pending timer's work waits: the entry of the heap that stands for it (its
  /// `order`; 0 when the slot is free) and what it does.
  ///
  /// NB: slots, not a dictionary keyed by id: scheduling, cancelling and moving a timer (a
  /// debounce restarted on every keystroke) cost no hashing. A cancelled or moved timer's old
  /// entry stays in the heap until it comes to the top, recognised by its `order`.
  private struct Slot {
    var order: UInt64 = 0
    var fire: Fire? = nil
  }

  private struct Storage {
    var heap: [Entry] = []
    var slots: [Slot] = []
    var freeSlots: [Int] = []
    var nextOrder: UInt64 = 1
    var closed = false

    func isLive(_ entry: Entry) -> Bool { slots[entry.slot].order == entry.order }

    /// The slot of `ticket` if its timer is pending.
    func pending(_ ticket: Ticket) -> Int? {
      guard ticket.slot >= 0, ticket.slot < slots.count, slots[ticket.slot].order == ticket.order,
        slots[ticket.slot].fire != nil
      else { return nil }
      return ticket.slot
    }

    /// Empties `slot`, returning what its timer would have done.
    mutating func free(_ slot: Int) -> Fire? {
      let fire = slots[slot].fire
      slots[slot] = Slot()
      freeSlots.append(slot)
      return fire
    }

    /// Adds an entry for `slot` at `deadline`; returns its ticket.
    mutating func push(_ slot: Int, at deadline: Int64) -> Ticket {
      let order = nextOrder
      nextOrder &+= 1
      slots[slot].order = order
      heap.append(Entry(deadline: deadline, order: order, slot: slot))
      TimerQueue.siftUp(&heap, from: heap.count - 1)
      return Ticket(slot: slot, order: order)
    }

    /// Drops the entries of cancelled and moved timers once they are most of the heap (so a
    /// debounce restarted many times while an earlier timer waits does not grow it for ever).
    mutating func compactIfNeeded(live: Int) {
      guard heap.count > 64, heap.count > 2 * live else { return }
      let slots = self.slots
      heap.removeAll { slots[$0.slot].order != $0.order }
      var start = heap.count / 2
      while start > 0 {
        start -= 1
        TimerQueue.siftDown(&heap, from: start)
      }
    }
  }

  // NB: a lock of its own because a sleeping task may be cancelled, and its cancellation handler
  // run, on whatever thread cancels it. The queue itself is made by the first timer (or the
  // close, see `StoreClock.timers`): a store that never waits keeps neither.
  @inline(__always)
  private func withLock<R>(_ body: () -> R) -> R { lock.withLock(body) }
  private let lock = PlainLock()
  private var storage = Storage()
  @usableFromInline let liveCount = Atomic<Int>(0)
  /// A recording store's record of its real clock's reads (``StoreClock/recordReads()``).
  let reads: ClockReads?

  init(reads: ClockReads? = nil) {
    self.reads = reads
  }

  /// Whether no timer is pending (cheap: no lock).
  @inlinable var isEmpty: Bool { liveCount.load(ordering: .acquiring) == 0 }

  /// Schedules `fire` at `deadline`; nil if the queue is closed (the store is closed).
  func schedule(at deadline: Int64, _ fire: Fire) -> Ticket? {
    withLock { () -> Ticket? in
      guard !storage.closed else { return nil }
      let slot: Int
      if let free = storage.freeSlots.popLast() {
        slot = free
      } else {
        slot = storage.slots.count
        storage.slots.append(Slot())
      }
      storage.slots[slot].fire = fire
      let ticket = storage.push(slot, at: deadline)
      let live = liveCount.add(1, ordering: .releasing).newValue
      storage.compactIfNeeded(live: live)
      return ticket
    }
  }

  /// Moves the pending timer `ticket` to `deadline`, as if cancelled and scheduled again (it
  /// fires after the timers already due then); returns its new ticket, or nil if it is not
  /// pending (fired, cancelled) or the queue is closed.
  func reschedule(_ ticket: Ticket, at deadline: Int64) -> Ticket? {
    withLock { () -> Ticket? in
      guard !storage.closed, let slot = storage.pending(ticket) else { return nil }
      // NB: the usual case, the timer first in the heap (a debounce alone), is moved in place:
      // no entry left behind to pop later.
      if let top = storage.heap.first, top.slot == slot, top.order == ticket.order {
        let order = storage.nextOrder
        storage.nextOrder &+= 1
        storage.slots[slot].order = order
        storage.heap[0] = Entry(deadline: deadline, order: order, slot: slot)
        Self.siftDown(&storage.heap, from: 0)
        return Ticket(slot: slot, order: order)
      }
      let moved = storage.push(slot, at: deadline)
      storage.compactIfNeeded(live: liveCount.load(ordering: .relaxed))
      return moved
    }
  }

  /// Removes the timer `ticket`; returns what it would have done, or nil if it already fired.
  func cancel(_ ticket: Ticket) -> Fire? {
    withLock { () -> Fire? in
      guard let slot = storage.pending(ticket) else { return nil }
      liveCount.subtract(1, ordering: .releasing)
      return storage.free(slot)
    }
  }

  /// Removes and returns the earliest timer whose deadline is at or before `now`.
  func popDue(now: Int64) -> Fire? {
    withLock { () -> Fire? in
      while let top = storage.heap.first {
        // NB: the deadline first: when the earliest entry is not due, none is, whether that
        // entry is live or a cancelled one left in the heap.
        guard top.deadline <= now else { return nil }
        Self.popTop(&storage.heap)
        guard storage.isLive(top) else { continue }
        liveCount.subtract(1, ordering: .releasing)
        return storage.free(top.slot)
      }
      return nil
    }
  }

  /// The earliest pending deadline, if any.
  var earliestDeadline: Int64? {
    withLock { () -> Int64? in
      while let top = storage.heap.first {
        if storage.isLive(top) { return top.deadline }
        Self.popTop(&storage.heap)
      }
      return nil
    }
  }

  /// Closes the queue: later `schedule` calls return nil. Returns the timers still pending.
  func close() -> [Fire] {
    withLock { () -> [Fire] in
      storage.closed = true
      let pending = storage.heap.compactMap {
        storage.isLive($0) ? storage.slots[$0.slot].fire : nil
      }
      storage.slots.removeAll()
      storage.freeSlots.removeAll()
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
