import CSystem
import Synchronization

/// Work that reaches a store from outside its running call: jobs of its effects (resumed from any
/// thread) and host answers given from other threads or inside callbacks. The thread holding the
/// store takes it out and runs it.
///
/// It also keeps the store's wake descriptor honest: work pushed by a thread that does not hold
/// the store makes the eventfd readable, and the holder clears it once the inbox is empty.
@usableFromInline
final class Inbox: @unchecked Sendable {
  /// Guards everything below but the atomics; made by the first push (or the close).
  ///
  /// NB: most stores never get work from another thread: their inbox keeps no mutex (issue 17:
  /// memory per idle store). Reads that find the inbox empty take no lock at all.
  private let lockStorage = LazyObject<Guarded<Void>>()
  private var jobs = FIFO<UnownedJob>()
  private var items = FIFO<() -> Void>()
  /// Pull mode: requests and cancellation notices waiting for the host to take them.
  private var notices: [HostRequestNotice] = []
  private var eventFD: Int32 = -1
  /// The store has closed: items are refused (dropped at once).
  private var closed = false
  @usableFromInline let count = Atomic<Int>(0)
  /// The thread holding the store, 0 if none.
  @usableFromInline let owner = Atomic<UInt>(0)

  /// Whether nothing is waiting (cheap: no lock).
  @inlinable var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  func push(job: UnownedJob) {
    withLock {
      jobs.append(job)
      arrived()
    }
  }

  /// Queues `item` to run on the thread holding the store; drops it once the store has closed.
  func push(_ item: @escaping () -> Void) {
    withLock {
      guard !closed else { return }
      items.append(item)
      arrived()
    }
  }

  /// Drops the items waiting and refuses later ones (the store has closed).
  ///
  /// NB: an item is a closure that holds the store's core: one left here would keep it alive.
  func close() {
    let dropped: FIFO<() -> Void> = withLock {
      closed = true
      let dropped = items
      count.subtract(items.count, ordering: .releasing)
      items = FIFO()
      return dropped
    }
    _ = dropped  // released outside the lock
  }

  /// Pull mode: keeps `notice` until the host takes it; the descriptor is readable meanwhile.
  func push(notice: HostRequestNotice) {
    withLock {
      notices.append(notice)
      if eventFD >= 0 { csystem_wake_signal(eventFD) }
    }
  }

  /// Pull mode: the notices waiting, oldest first, removed.
  func takeNotices() -> [HostRequestNotice] {
    // NB: notices are pushed under the lock: none was, if it is not made.
    guard lockStorage.made != nil else { return [] }
    return withLock {
      let taken = notices
      notices = []
      if eventFD >= 0 && jobs.isEmpty && items.isEmpty { csystem_wake_clear(eventFD) }
      return taken
    }
  }

  @inline(__always)
  private func withLock<R>(_ body: () -> R) -> R {
    lockStorage.withObject({ Guarded.make(()) }) { lock in lock.withLock { _ in body() } }
  }

  private func arrived() {
    count.add(1, ordering: .releasing)
    if eventFD >= 0 && owner.load(ordering: .relaxed) != currentThreadID() {
      csystem_wake_signal(eventFD)
    }
  }

  func popItem() -> (() -> Void)? {
    guard !isEmpty else { return nil }
    return withLock {
      guard let item = items.popFirst() else { return nil }
      count.subtract(1, ordering: .releasing)
      return item
    }
  }

  func popJob() -> UnownedJob? {
    guard !isEmpty else { return nil }
    return withLock {
      guard let job = jobs.popFirst() else { return nil }
      count.subtract(1, ordering: .releasing)
      return job
    }
  }

  /// Starts signalling `eventFD` (and signals it now if work is waiting).
  func watch(eventFD: Int32) {
    withLock {
      self.eventFD = eventFD
      if !jobs.isEmpty || !items.isEmpty || !notices.isEmpty { csystem_wake_signal(eventFD) }
    }
  }

  /// Clears the eventfd if nothing is waiting; stops signalling it if `stop`.
  func settleWake(stop: Bool = false) {
    // NB: the descriptor is watched under the lock: none is, if it is not made.
    guard lockStorage.made != nil else { return }
    withLock {
      guard eventFD >= 0 else { return }
      if jobs.isEmpty && items.isEmpty && notices.isEmpty { csystem_wake_clear(eventFD) }
      if stop { eventFD = -1 }
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
