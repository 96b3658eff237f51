import CSystem
import Synchronization

/// Work that reaches a store from outside its running call: jobs of its effects (resumed from any
/// thread) and host answers given from other threads or inside callbacks. The thread holding the
/// store takes it out and runs it.
///
/// It also keeps the store's wake descriptor honest: work pushed by a thread that does not hold
/// the store makes the eventfd readable, and the holder clears it once the inbox is empty.
///
/// NB: the store core's superclass (through ``DispatchControl``), not an object of its own:
/// ~50 bytes less per store (docs/benchmarks.md: memory per idle store). Its members are `final`.
@usableFromInline
class Inbox: @unchecked Sendable {
  /// An item, in a struct so that the queue's generic storage holds the function as it is.
  ///
  /// NB: a `FIFO<() -> Void>` keeps its functions at the generic abstraction: each one pushed
  /// and each one popped was wrapped in a reabstraction thunk, an allocation each.
  private struct Item {
    let run: () -> Void
  }

  /// What waits, behind its lock.
  private struct Queues {
    var jobs = FIFO<UnownedJob>()
    var items = FIFO<Item>()
    /// Pull mode: requests and cancellation notices waiting for the host to take them.
    var notices: [HostRequestNotice] = []
    var eventFD: Int32 = -1
    /// Whether the eventfd was signalled since it was last cleared.
    ///
    /// NB: clearing reads the eventfd, a system call: a store whose descriptor is watched paid
    /// one at the end of every call, signalled or not (docs/benchmarks.md, "The descriptor").
    var signalled = false
    /// The store has closed: items are refused (dropped at once).
    var closed = false

    var hasWork: Bool { !jobs.isEmpty || !items.isEmpty || !notices.isEmpty }

    /// Makes the eventfd readable, if one is watched.
    mutating func signal() {
      guard eventFD >= 0 else { return }
      csystem_wake_signal(eventFD)
      signalled = true
    }

    /// Makes the eventfd unreadable if nothing waits and it was signalled.
    mutating func clearIfIdle() {
      guard eventFD >= 0, signalled, !hasWork else { return }
      csystem_wake_clear(eventFD)
      signalled = false
    }
  }

  /// The queues and their lock, made by the first push (or the close).
  ///
  /// NB: most stores never get work from another thread: their inbox keeps neither queues nor
  /// a mutex (docs/benchmarks.md: memory per idle store). Reads that find the inbox empty take no
  /// lock.
  private final let storage = LazyObject<Guarded<Queues>>()
  @usableFromInline final let count = Atomic<Int>(0)
  /// The thread holding the store, 0 if none.
  @usableFromInline final let owner = Atomic<UInt>(0)

  /// Whether nothing is waiting (cheap: no lock).
  @inlinable final var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// One answer accepted by the thread delivering the store's events (inside its callback)
  /// while nothing else waited: counted in the high half of `count`, with no item of its own.
  /// The holder applies it from the table of requests' direct slot before any item (see
  /// ``StoreCore``'s `accept` and `takeDirectAnswer`).
  ///
  /// NB: an item per answer cost its closure, a lock to push and a lock to pop (docs/benchmarks.md:
  /// the effect round trip). Only an answer given while the inbox is empty goes this way (the next
  /// one finds it counted, and queues an item), so there is at most one, and it is older than
  /// every item the host queued after it: taking it first keeps the host's inputs in order.
  @usableFromInline static let directAnswer = 1 << (Int.bitWidth / 2)

  /// Counts an answer that waits in the table of requests (see ``directAnswer``).
  final func pushDirectAnswer() {
    count.wrappingAdd(Self.directAnswer, ordering: .releasing)
  }

  /// Whether an answer counted by ``pushDirectAnswer()`` waits (the holder).
  @inline(__always)
  final var hasDirectAnswer: Bool { count.load(ordering: .acquiring) >= Self.directAnswer }

  /// Takes back the count of the direct answer the holder has taken out.
  ///
  /// NB: only the holder takes, and others only add: the load and the subtraction cannot
  /// take the same answer twice.
  @inline(__always)
  final func returnDirectAnswer() {
    count.wrappingSubtract(Self.directAnswer, ordering: .releasing)
  }

  final func push(job: UnownedJob) {
    withQueues { queues in
      queues.jobs.append(job)
      arrived(&queues)
    }
  }

  /// Queues `item` to run on the thread holding the store; drops it once the store has closed.
  final func push(_ item: @escaping () -> Void) {
    withQueues { queues in
      guard !queues.closed else { return }
      queues.items.append(Item(run: item))
      arrived(&queues)
    }
  }

  /// Drops the items waiting and refuses later ones (the store has closed).
  ///
  /// NB: an item is a closure that holds the store's core: one left here would keep it alive.
  final func refuseItems() {
    let dropped: FIFO<Item> = withQueues { queues in
      queues.closed = true
      let dropped = queues.items
      count.wrappingSubtract(queues.items.count, ordering: .releasing)
      queues.items = FIFO()
      return dropped
    }
    _ = dropped  // released outside the lock
  }

  /// Pull mode: keeps `notice` until the host takes it; the descriptor is readable meanwhile.
  final func push(notice: HostRequestNotice) {
    withQueues { queues in
      queues.notices.append(notice)
      queues.signal()
    }
  }

  /// Pull mode: the notices waiting, oldest first, removed.
  final func takeNotices() -> [HostRequestNotice] {
    // NB: notices are pushed under the lock: none was, if it is not made.
    guard storage.isMade else { return [] }
    return withQueues { queues in
      let taken = queues.notices
      queues.notices = []
      queues.clearIfIdle()
      return taken
    }
  }

  @inline(__always)
  private final func withQueues<R>(_ body: (inout Queues) -> R) -> R {
    storage.withObject({ Guarded.make(Queues()) }) { guarded in guarded.withLock(body) }
  }

  private final func arrived(_ queues: inout Queues) {
    count.wrappingAdd(1, ordering: .releasing)
    if queues.eventFD >= 0 && owner.load(ordering: .relaxed) != currentThreadID() {
      queues.signal()
    }
  }

  final func popItem() -> (() -> Void)? {
    guard !isEmpty else { return nil }
    // NB: taken out through a variable, not returned through `withQueues`'s generic result: a
    // function returned as a generic value is reabstracted, an allocation per item.
    var item: Item?
    withQueues { queues in
      item = queues.items.popFirst()
      if item != nil { count.wrappingSubtract(1, ordering: .releasing) }
    }
    return item?.run
  }

  final func popJob() -> UnownedJob? {
    guard !isEmpty else { return nil }
    return withQueues { queues in
      guard let job = queues.jobs.popFirst() else { return nil }
      count.wrappingSubtract(1, ordering: .releasing)
      return job
    }
  }

  /// Starts signalling `eventFD` (and signals it now if work is waiting).
  final func watch(eventFD: Int32) {
    withQueues { queues in
      queues.eventFD = eventFD
      queues.signalled = false
      if queues.hasWork { queues.signal() }
    }
  }

  /// Clears the eventfd if nothing is waiting; stops signalling it if `stop`.
  final func settleWake(stop: Bool = false) {
    // NB: the descriptor is watched under the lock: none is, if it is not made.
    guard storage.isMade else { return }
    withQueues { queues in
      queues.clearIfIdle()
      if stop { queues.eventFD = -1 }
    }
  }
}

/// The store's host-drained executor (SE-0417): its effects' tasks prefer it, so every job they
/// enqueue lands in the store's inbox and runs only when a call into the store drains it, on
/// that call's thread.
final class HostDrainedExecutor: TaskExecutor, @unchecked Sendable {
  let inbox: Inbox

  init(inbox: Inbox) { self.inbox = inbox }

  func enqueue(_ job: consuming ExecutorJob) {
    inbox.push(job: UnownedJob(job))
  }

  func run(_ job: UnownedJob) {
    job.runSynchronously(on: asUnownedTaskExecutor())
  }
}
