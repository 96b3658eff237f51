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
  /// A request for the handler; a one-shot request's event also holds its leaf (retained), for
  /// an answer given inside the callback (see `StoreCore.beginDelivering`).
  ///
  /// NB: unmanaged, so that the event is copied and destroyed without a retain and a release.
  /// Taken by the delivery, or released by the core if the event is dropped.
  case request(HostRequestInfo, Unmanaged<EffectNode>?)
  case cancel(UInt64)
  case notify
}

/// Who delivers a store's outgoing events, and whether a callback unwound out of it.
///
/// NB: callbacks run with no store lock held. One thread at a time per store delivers them (the
/// dispatcher: a flag, not a lock): a call that finds another thread delivering leaves its events
/// to it and returns without waiting, which is what keeps two stores whose callbacks call each
/// other from waiting on each other. The few calls that must wait for a callback on another
/// thread (free, replacing a handler, unsubscribing) wait on a condition made by the first of
/// them (``Sleeper``), and give up once the store is found unwound.
///
/// NB: the store core's superclass, not an object of its own: ~50 bytes less per store (issue 17:
/// memory per idle store). Its members are `final`: no call through the class's table.
@usableFromInline
class DispatchControl: Inbox, @unchecked Sendable {
  /// The thread delivering, 0 if none.
  final let thread = Atomic<UInt>(0)
  /// What the host bound to this store (the C bridge's context for its handle, unretained),
  /// 0 if none or once unbound: see ``innermostCallbackHostContext()``.
  final let hostContext = Atomic<UInt>(0)
  /// What a waiting thread sleeps on, made by the first wait (most stores never have one).
  private final let sleeper = LazyObject<Sleeper>()
  // NB: the one-byte properties last: the core's own flags follow them in the same word.
  /// Whether the dispatcher is inside a host callback now.
  final let inCallback = Atomic<Bool>(false)
  /// A callback unwound out of a dispatch: the store refuses every call.
  final let unwound = Atomic<Bool>(false)

  final var isUnwound: Bool { unwound.load(ordering: .acquiring) }

  /// Whether the calling thread is delivering this store's events (so is inside its callbacks).
  @inline(__always)
  final var isCurrentThread: Bool { thread.load(ordering: .acquiring) == currentThreadID() }

  /// Becomes the dispatcher unless another thread is (or this store is unwound); returns
  /// whether it did, and this thread's frames if the unwind watch recorded it (pass them to
  /// ``call(_:_:)`` and ``release(_:)``).
  ///
  /// NB: the frames handed on, not looked up again at each callback and at the release (a
  /// `pthread_getspecific` each; issue 17: the effect round trip).
  final func claim() -> (claimed: Bool, recorded: UnwindWatch.Frames?) {
    guard !isUnwound else { return (false, nil) }
    let claimed = thread.compareExchange(
      expected: 0, desired: currentThreadID(), ordering: .acquiringAndReleasing
    ).exchanged
    guard claimed else { return (false, nil) }
    let opaque = Unmanaged.passRetained(self).toOpaque()
    guard let frames = UnwindWatch.enter(opaque) else {
      Unmanaged.passUnretained(self).release()
      return (true, nil)
    }
    return (true, frames)
  }

  /// Stops being the dispatcher.
  final func release(_ recorded: UnwindWatch.Frames?) {
    if let recorded {
      // NB: a dispatch of another store nested in one of ours, whose callback unwound and was
      // caught inside ours, is still above our record: it is dead.
      while let top = UnwindWatch.pop(recorded) {
        let control = Unmanaged<DispatchControl>.fromOpaque(top).takeRetainedValue()
        if control === self { break }
        control.markUnwound()
      }
    }
    signal { thread.store(0, ordering: .releasing) }
  }

  /// Calls a host callback: marks the frame for the unwind watch (in `frames`, this thread's,
  /// if the dispatch was recorded), and lets waiters know.
  @inline(never)
  final func call(_ frames: UnwindWatch.Frames?, _ body: () -> Void) {
    inCallback.store(true, ordering: .releasing)
    if let frames { UnwindWatch.mark(inCallback: true, frames) }
    body()
    if let frames { UnwindWatch.mark(inCallback: false, frames) }
    signal { inCallback.store(false, ordering: .releasing) }
  }

  /// Waits while another thread is delivering (`untilIdle`) or is inside a callback; returns at
  /// once on the dispatcher's own thread and once the store is unwound.
  final func waitForOtherThread(untilIdle: Bool) {
    let me = currentThreadID()
    // NB: nothing to wait for: returns before making the sleeper. Once made, every callback
    // and every dispatch signals it (a lock and a broadcast each); a host that sets its
    // handler or unsubscribes while no other thread delivers never needs one (issue 17: the
    // effect round trip). The loop below asks again once the sleeper is made.
    guard mustWait(me, untilIdle: untilIdle) else { return }
    // NB: the sleeper is made (an atomic exchange, a full barrier) before the state below is
    // read; `signal` reads whether it is made after changing the state, behind a full fence.
    // Either the change is seen here, or the sleeper there, and then its broadcast, taken
    // under the mutex, cannot fall between the check and the wait.
    let sleeper = self.sleeper.object { Sleeper() }
    let mutex = sleeper.mutex, changed = sleeper.changed
    pthread_mutex_lock(mutex)
    while mustWait(me, untilIdle: untilIdle) {
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

  /// Whether thread `me` has to wait: another thread is delivering (`untilIdle`) or is inside
  /// a callback, and the store is not unwound.
  private final func mustWait(_ me: UInt, untilIdle: Bool) -> Bool {
    guard !isUnwound else { return false }
    let dispatcher = thread.load(ordering: .acquiring)
    guard dispatcher != 0, dispatcher != me else { return false }
    return untilIdle || inCallback.load(ordering: .acquiring)
  }

  /// Marks the store unwound: its dispatcher is gone.
  final func markUnwound() {
    signal {
      unwound.store(true, ordering: .releasing)
      inCallback.store(false, ordering: .releasing)
      thread.store(0, ordering: .releasing)
    }
  }

  /// Makes `change`, then wakes the threads waiting for one, if any ever waited.
  ///
  /// NB: no lock and no broadcast while nobody waits: this runs after every callback (two or
  /// three a request's round trip).
  private final func signal(_ change: () -> Void) {
    change()
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    guard let sleeper = self.sleeper.made else { return }
    pthread_mutex_lock(sleeper.mutex)
    pthread_cond_broadcast(sleeper.changed)
    pthread_mutex_unlock(sleeper.mutex)
  }

  /// A mutex and a condition, for threads waiting for the dispatcher.
  private final class Sleeper {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let changed: UnsafeMutablePointer<pthread_cond_t>

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
  }

  /// Finds the dispatches on this thread whose callback frame is gone (a callback unwound out of
  /// them) and marks their stores unwound.
  ///
  /// NB: called at the start of a host's call: a frame deeper than the caller's position is the
  /// one of a callback still running (a call from inside it); one above it is dead.
  @inline(never)
  static func noticeUnwinding() {
    guard UnwindWatch.isActive else { return }
    let here = UInt(csystem_stack_address())
    while let dead = UnwindWatch.dead(below: here) {
      let control = Unmanaged<DispatchControl>.fromOpaque(dead).takeRetainedValue()
      control.markUnwound()
    }
  }
}

/// The dispatch frames live on this thread, outermost first (so deepest last): for each, its
/// store's ``DispatchControl`` (retained) and, while a callback runs, the stack address where it
/// was called (0 between callbacks).
///
/// NB: a pthread key rather than C `_Thread_local`: a C source in CSystem would carry DWARF 5
/// debug info, which the valgrind of `make test-c` cannot read.
enum UnwindWatch {
  static let capacity = 64
  fileprivate struct Entry {
    var store: UnsafeMutableRawPointer?
    var frame: UInt
  }

  /// This thread's frames, as ``enter(_:)`` found them.
  struct Frames {
    fileprivate let entries: UnsafeMutablePointer<Entry>
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
      // NB: a thread ending with no dispatch live (the normal case): its frames go with it.
      raw?.assumingMemoryBound(to: Entry.self).deallocate()
    }
    return key
  }()

  /// This thread's frames: entry 0's `frame` is the depth; entries 1... are the dispatches.
  private static var frames: UnsafeMutablePointer<Entry> {
    if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Entry.self) }
    let frames = UnsafeMutablePointer<Entry>.allocate(capacity: capacity + 1)
    frames.initialize(repeating: Entry(store: nil, frame: 0), count: capacity + 1)
    pthread_setspecific(key, frames)
    return frames
  }

  private static var existing: UnsafeMutablePointer<Entry>? {
    pthread_getspecific(key)?.assumingMemoryBound(to: Entry.self)
  }

  static var isActive: Bool { (existing?[0].frame ?? 0) > 0 }

  /// Records a dispatch of `store`; returns this thread's frames, or nil (nothing recorded)
  /// when 64 are already live.
  static func enter(_ store: UnsafeMutableRawPointer) -> Frames? {
    let frames = self.frames
    let depth = Int(frames[0].frame)
    guard depth < capacity else { return nil }
    frames[depth + 1] = Entry(store: store, frame: 0)
    frames[0].frame = UInt(depth + 1)
    return Frames(entries: frames)
  }

  /// The store of the innermost dispatch if one of its callbacks is running above `here` (a
  /// live frame: the caller is inside that callback).
  static func liveCallbackStore(below here: UInt) -> UnsafeMutableRawPointer? {
    guard let frames = existing, frames[0].frame > 0 else { return nil }
    let top = frames[Int(frames[0].frame)]
    guard top.frame != 0, top.frame > here else { return nil }
    return top.store
  }

  /// Marks, for the innermost dispatch in `frames` (this thread's), that a callback starts
  /// here or has returned.
  @inline(never)
  static func mark(inCallback: Bool, _ frames: Frames) {
    let entries = frames.entries
    guard entries[0].frame > 0 else { return }
    entries[Int(entries[0].frame)].frame = inCallback ? UInt(csystem_stack_address()) : 0
  }

  /// Forgets the innermost dispatch; returns its store.
  static func pop() -> UnsafeMutableRawPointer? {
    guard let frames = existing else { return nil }
    return pop(Frames(entries: frames))
  }

  /// Forgets the innermost dispatch in `frames` (this thread's); returns its store.
  static func pop(_ frames: Frames) -> UnsafeMutableRawPointer? {
    let entries = frames.entries
    guard entries[0].frame > 0 else { return nil }
    let depth = Int(entries[0].frame)
    entries[0].frame = UInt(depth - 1)
    return entries[depth].store
  }

  /// If the innermost dispatch is inside a callback whose frame is above `here` (dead: the
  /// callback unwound), forgets it and returns its store.
  static func dead(below here: UInt) -> UnsafeMutableRawPointer? {
    guard let frames = existing, frames[0].frame > 0 else { return nil }
    let top = frames[Int(frames[0].frame)]
    guard top.frame != 0, top.frame < here else { return nil }
    return pop()
  }
}

/// What the host bound to the store whose callback the caller is inside, on this thread (the
/// innermost dispatch, in a live callback frame); nil if none, or nothing is bound.
///
/// NB: what lets the C bridge find the store of an answer given inside its request's callback
/// without its table of handles (a global lock, a retain and a release: issue 17, the effect
/// round trip). The host unbinds before its context goes away (``HostStore/bindHost(_:)``); a
/// callback runs inside a call that keeps the context, so what is bound outlives the callback.
@_spi(Bridge)
public func innermostCallbackHostContext() -> UnsafeRawPointer? {
  guard let store = UnwindWatch.liveCallbackStore(below: UInt(csystem_stack_address())) else {
    return nil
  }
  let bound = Unmanaged<DispatchControl>.fromOpaque(store)._withUnsafeGuaranteedRef {
    $0.hostContext.load(ordering: .acquiring)
  }
  return UnsafeRawPointer(bitPattern: bound)
}
