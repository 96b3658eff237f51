import CSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a store's call leaves for the host, to be delivered once the store is let go: host
/// requests, cancellations, and subscriber notifications.
enum Outgoing {
  case request(HostRequestInfo)
  case cancel(UInt64)
  case notify
}

/// Who delivers a store's outgoing events, and whether a callback unwound out of it.
///
/// NB: callbacks run with no store lock held. One thread at a time per store delivers them (the
/// dispatcher: a flag, not a lock): a call that finds another thread delivering leaves its events
/// to it and returns without waiting, which is what keeps two stores whose callbacks call each
/// other from waiting on each other. The few calls that must wait for a callback on another
/// thread (free, replacing a handler, unsubscribing) wait on `changed`, and give up once the
/// store is found unwound.
final class DispatchControl: @unchecked Sendable {
  /// The thread delivering, 0 if none.
  let thread = Atomic<UInt>(0)
  /// Whether the dispatcher is inside a host callback now.
  let inCallback = Atomic<Bool>(false)
  /// A callback unwound out of a dispatch: the store refuses every call.
  let unwound = Atomic<Bool>(false)
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let changed: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    changed = .allocate(capacity: 1)
    changed.initialize(to: pthread_cond_t())
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    changed.deinitialize(count: 1)
    changed.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  var isUnwound: Bool { unwound.load(ordering: .acquiring) }

  /// Whether the calling thread is delivering this store's events (so is inside its callbacks).
  @inline(__always)
  var isCurrentThread: Bool { thread.load(ordering: .acquiring) == currentThreadID() }

  /// Becomes the dispatcher unless another thread is (or this store is unwound); returns
  /// whether it did, and whether the unwind watch recorded it (pass that to ``release(_:)``).
  func claim() -> (claimed: Bool, recorded: Bool) {
    guard !isUnwound else { return (false, false) }
    let claimed = thread.compareExchange(
      expected: 0, desired: currentThreadID(), ordering: .acquiringAndReleasing
    ).exchanged
    guard claimed else { return (false, false) }
    let opaque = Unmanaged.passRetained(self).toOpaque()
    guard csystem_dispatch_enter(opaque) != 0 else {
      Unmanaged.passUnretained(self).release()
      return (true, false)
    }
    return (true, true)
  }

  /// Stops being the dispatcher.
  func release(_ recorded: Bool) {
    if recorded {
      // NB: a dispatch of another store nested in one of ours, whose callback unwound and was
      // caught inside ours, is still above our record: it is dead.
      while let top = csystem_dispatch_pop() {
        let control = Unmanaged<DispatchControl>.fromOpaque(top).takeRetainedValue()
        if control === self { break }
        control.markUnwound()
      }
    }
    signal { thread.store(0, ordering: .releasing) }
  }

  /// Calls a host callback: marks the frame for the unwind watch, and lets waiters know.
  @inline(never)
  func call(_ body: () -> Void) {
    inCallback.store(true, ordering: .releasing)
    csystem_dispatch_mark(1)
    body()
    csystem_dispatch_mark(0)
    signal { inCallback.store(false, ordering: .releasing) }
  }

  /// Waits while another thread is delivering (`untilIdle`) or is inside a callback; returns at
  /// once on the dispatcher's own thread and once the store is unwound.
  func waitForOtherThread(untilIdle: Bool) {
    let me = currentThreadID()
    pthread_mutex_lock(mutex)
    while !isUnwound {
      let dispatcher = thread.load(ordering: .acquiring)
      guard dispatcher != 0, dispatcher != me else { break }
      guard untilIdle || inCallback.load(ordering: .acquiring) else { break }
      // NB: timed, so that a dispatcher found unwound by its own thread's next call (which
      // signals) or never found cannot hold this thread for longer than a tick at a time.
      var deadline = timespec()
      clock_gettime(CLOCK_REALTIME, &deadline)
      deadline.tv_nsec += 50_000_000
      if deadline.tv_nsec >= 1_000_000_000 {
        deadline.tv_sec += 1
        deadline.tv_nsec -= 1_000_000_000
      }
      pthread_cond_timedwait(changed, mutex, &deadline)
    }
    pthread_mutex_unlock(mutex)
  }

  /// Marks the store unwound: its dispatcher is gone.
  func markUnwound() {
    signal {
      unwound.store(true, ordering: .releasing)
      inCallback.store(false, ordering: .releasing)
      thread.store(0, ordering: .releasing)
    }
  }

  private func signal(_ change: () -> Void) {
    pthread_mutex_lock(mutex)
    change()
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(mutex)
  }

  /// Finds the dispatches on this thread whose callback frame is gone (a callback unwound out of
  /// them) and marks their stores unwound.
  ///
  /// NB: called at the start of a host's call: a frame deeper than the caller's position is the
  /// one of a callback still running (a call from inside it); one above it is dead.
  @inline(never)
  static func noticeUnwinding() {
    guard csystem_dispatch_active() > 0 else { return }
    let here = csystem_stack_address()
    while let dead = csystem_dispatch_dead(here) {
      let control = Unmanaged<DispatchControl>.fromOpaque(dead).takeRetainedValue()
      control.markUnwound()
    }
  }
}
