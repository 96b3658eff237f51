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

/// A call of a host callback, as ``DispatchControl/call(_:_:)`` makes it behind the callback
/// guard.
///
/// NB: values of concrete types with a C function of their own, not a Swift closure: a closure
/// handed to C was boxed on the heap at each call, an allocation a callback (docs/benchmarks.md,
/// "Issue 17's effect round trip (session 11)").
///
/// NB: noncopyable, so that the call is never copied on its way to the callback (a retain and a
/// release of each of its references).
protocol HostCallback: ~Copyable {
  /// Calls the callback.
  func call()
  /// Calls the callback of the value its argument points to.
  static var invoke: csystem_body { get }
}

/// A request for the host's handler.
struct RequestCallback: HostCallback, ~Copyable {
  let handler: Unmanaged<HandlerBox>
  let info: HostRequestInfo

  func call() { handler._withUnsafeGuaranteedRef { $0.request(info) } }

  static let invoke: csystem_body = {
    $0?.assumingMemoryBound(to: RequestCallback.self).pointee.call()
  }
}

/// A cancellation for the host's handler.
struct CancelCallback: HostCallback, ~Copyable {
  let handler: Unmanaged<HandlerBox>
  let id: UInt64

  func call() { handler._withUnsafeGuaranteedRef { $0.cancel(id) } }

  static let invoke: csystem_body = {
    $0?.assumingMemoryBound(to: CancelCallback.self).pointee.call()
  }
}

/// A notification for a subscriber.
struct NotifyCallback: HostCallback, ~Copyable {
  let subscriber: (UInt64) -> Void
  let version: UInt64

  func call() { subscriber(version) }

  static let invoke: csystem_body = {
    $0?.assumingMemoryBound(to: NotifyCallback.self).pointee.call()
  }
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
/// NB: the store core's superclass, not an object of its own: ~50 bytes less per store
/// (docs/benchmarks.md: memory per idle store). Its members are `final`: no call through the
/// class's table.
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
  /// `pthread_getspecific` each; docs/benchmarks.md: the effect round trip).
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
    if let recorded { UnwindWatch.forget(recorded)?.release() }
    signal { thread.store(0, ordering: .releasing) }
  }

  /// Calls a host callback: marks the frame for the unwind watch (in `frames`, this thread's,
  /// if the dispatch was recorded) and calls it behind the callback guard
  /// (``csystem_call_guarded``), then lets waiters know. An exception or a forced unwind that
  /// leaves the callback marks the store unwound on its way through (see ``UnwindWatch``).
  @inline(never)
  final func call<Callback: HostCallback & ~Copyable>(
    _ frames: UnwindWatch.Frames?, _ callback: inout Callback
  ) {
    inCallback.store(true, ordering: .releasing)
    if let frames {
      UnwindWatch.mark(inCallback: true, frames)
      withUnsafeMutablePointer(to: &callback) { pointer in
        csystem_call_guarded(
          Callback.invoke, pointer, { UnwindWatch.unwound(token: $0) }, frames.token)
      }
      UnwindWatch.mark(inCallback: false, frames)
    } else {
      callback.call()
    }
    signal { inCallback.store(false, ordering: .releasing) }
  }

  /// Waits while another thread is delivering (`untilIdle`) or is inside a callback; returns at
  /// once on the dispatcher's own thread and once the store is unwound.
  final func waitForOtherThread(untilIdle: Bool) {
    let me = currentThreadID()
    // NB: nothing to wait for: returns before making the sleeper. Once made, every callback
    // and every dispatch signals it (a lock and a broadcast each); a host that sets its
    // handler or unsubscribes while no other thread delivers never needs one (docs/benchmarks.md:
    // the effect round trip). The loop below asks again once the sleeper is made.
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
  /// NB: called at the start of a host's call: a callback's frame above the caller's position,
  /// on this thread's own stack, is dead (see ``UnwindWatch``).
  @inline(never)
  static func noticeUnwinding() {
    guard UnwindWatch.isActive else { return }
    UnwindWatch.forgetDead(here: UInt(csystem_stack_address()))
  }
}

/// The dispatches live on this thread, outermost first: for each, its store's
/// ``DispatchControl`` (retained), a token of its own, and, while a callback runs, the stack
/// address where it was called (0 between callbacks).
///
/// A callback that unwinds out of libtca is noticed, with no false alarm:
/// - when an exception or a forced unwind (`pthread_exit`, `pthread_cancel`) passes through
///   the guard that calls it (``csystem_call_guarded``): at once;
/// - when the thread ends with the callback not returned: at its end;
/// - when the thread calls libtca from a frame above the callback's (a longjmp out of it), both
///   on the thread's own stack: at that call. A fiber's stack is another allocation, so a call
///   made on another stack (a fiber switching away inside a callback) is never taken for one.
/// A call after a longjmp from a frame deeper than the dead callback's is taken as a call from
/// inside it (include/tca.h says so).
///
/// NB: each dispatch is found by its token, not by its place: with fibers, dispatches on one
/// thread need not end in the order they began.
///
/// NB: a pthread key rather than C `_Thread_local`: a C source in CSystem would carry DWARF 5
/// debug info, which the valgrind of `make test-c` cannot read.
enum UnwindWatch {
  static let capacity = 64
  fileprivate struct Entry {
    var store: UnsafeMutableRawPointer?
    var frame: UInt
    var token: UInt
  }

  /// A thread's dispatches and what the watch knows of the thread.
  fileprivate struct Thread {
    var depth = 0
    var nextToken: UInt = 1
    /// The thread's own stack, [low, high); both 0 until first needed, high 0 if unknown.
    var stackLow: UInt = 0
    var stackHigh: UInt = 0
    var stackKnown = false
    let entries: UnsafeMutablePointer<Entry>
  }

  /// One dispatch, as ``enter(_:)`` recorded it on this thread.
  struct Frames {
    fileprivate let thread: UnsafeMutablePointer<Thread>
    let token: UInt
    fileprivate let index: Int
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
      guard let thread = raw?.assumingMemoryBound(to: Thread.self) else { return }
      // NB: a thread ending inside a callback (it unwound and the thread went on to its end,
      // or a fiber never came back to it): its dispatches are dead. Their records are kept
      // (a few bytes), in case a fiber still holds one.
      guard thread.pointee.depth == 0 else {
        while thread.pointee.depth > 0 {
          UnwindWatch.remove(thread, at: thread.pointee.depth - 1)?.markUnwoundAndRelease()
        }
        return
      }
      thread.pointee.entries.deallocate()
      thread.deinitialize(count: 1)
      thread.deallocate()
    }
    return key
  }()

  private static var current: UnsafeMutablePointer<Thread> {
    if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Thread.self) }
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
    entries.initialize(repeating: Entry(store: nil, frame: 0, token: 0), count: capacity)
    let thread = UnsafeMutablePointer<Thread>.allocate(capacity: 1)
    thread.initialize(to: Thread(entries: entries))
    pthread_setspecific(key, thread)
    return thread
  }

  private static var existing: UnsafeMutablePointer<Thread>? {
    pthread_getspecific(key)?.assumingMemoryBound(to: Thread.self)
  }

  static var isActive: Bool { (existing?.pointee.depth ?? 0) > 0 }

  /// Records a dispatch of `store`; returns it, or nil (nothing recorded) when 64 are already
  /// live on this thread.
  static func enter(_ store: UnsafeMutableRawPointer) -> Frames? {
    let thread = current
    let depth = thread.pointee.depth
    guard depth < capacity else { return nil }
    let token = thread.pointee.nextToken
    thread.pointee.nextToken &+= 1
    thread.pointee.entries[depth] = Entry(store: store, frame: 0, token: token)
    thread.pointee.depth = depth + 1
    return Frames(thread: thread, token: token, index: depth)
  }

  /// Where `frames`' dispatch is recorded now, if it still is.
  private static func index(of frames: Frames) -> Int? {
    let thread = frames.thread
    let depth = thread.pointee.depth
    if frames.index < depth, thread.pointee.entries[frames.index].token == frames.token {
      return frames.index
    }
    return index(of: frames.token, in: thread)
  }

  private static func index(of token: UInt, in thread: UnsafeMutablePointer<Thread>) -> Int? {
    var i = thread.pointee.depth
    while i > 0 {
      i -= 1
      if thread.pointee.entries[i].token == token { return i }
    }
    return nil
  }

  /// Forgets entry `i` of `thread`; returns its store's control (retained by the record).
  fileprivate static func remove(
    _ thread: UnsafeMutablePointer<Thread>, at i: Int
  ) -> Unmanaged<DispatchControl>? {
    let entries = thread.pointee.entries
    let depth = thread.pointee.depth
    guard i >= 0, i < depth else { return nil }
    let store = entries[i].store
    var j = i
    while j + 1 < depth {
      entries[j] = entries[j + 1]
      j += 1
    }
    entries[depth - 1] = Entry(store: nil, frame: 0, token: 0)
    thread.pointee.depth = depth - 1
    return store.map { Unmanaged<DispatchControl>.fromOpaque($0) }
  }

  /// Forgets `frames`' dispatch as it ends; returns its store's control (retained by the
  /// record).
  ///
  /// NB: a dispatch nested in this one and still recorded had a callback left by a longjmp
  /// caught inside ours (dead), or is suspended on a fiber (alive): the stack tells which.
  static func forget(_ frames: Frames) -> Unmanaged<DispatchControl>? {
    let thread = frames.thread
    let entries = thread.pointee.entries
    if frames.index + 1 == thread.pointee.depth, entries[frames.index].token == frames.token {
      thread.pointee.depth = frames.index
      return entries[frames.index].store.map { Unmanaged<DispatchControl>.fromOpaque($0) }
    }
    guard let i = index(of: frames) else { return nil }
    if i + 1 != thread.pointee.depth {
      forgetDead(in: thread, from: i + 1, here: UInt(csystem_stack_address()))
    }
    return remove(thread, at: i)
  }

  /// The store of the innermost dispatch if one of its callbacks is running above `here` (a
  /// live frame: the caller is inside that callback).
  static func liveCallbackStore(below here: UInt) -> UnsafeMutableRawPointer? {
    guard let thread = existing, thread.pointee.depth > 0 else { return nil }
    let top = thread.pointee.entries[thread.pointee.depth - 1]
    guard top.frame != 0, top.frame > here else { return nil }
    return top.store
  }

  /// Marks, for `frames`' dispatch (this thread's), that a callback starts here or has
  /// returned.
  @inline(never)
  static func mark(inCallback: Bool, _ frames: Frames) {
    guard let i = index(of: frames) else { return }
    frames.thread.pointee.entries[i].frame = inCallback ? UInt(csystem_stack_address()) : 0
  }

  /// An exception or a forced unwind is leaving the callback of dispatch `token`, on this
  /// thread: its store is unwound.
  static func unwound(token: UInt) {
    guard let thread = existing, let i = index(of: token, in: thread) else { return }
    // NB: dispatches nested in the callback whose own callbacks were left by a longjmp are
    // dead too; those whose callbacks threw were forgotten by their own guards.
    forgetDead(in: thread, from: i + 1, here: UInt(csystem_stack_address()))
    // NB: only entries above `i` were removed: the dispatch is still at `i`.
    remove(thread, at: i)?.markUnwoundAndRelease()
  }

  /// Forgets the dispatches on this thread whose callback's frame is above `here` on the
  /// thread's own stack (dead), and marks their stores unwound.
  static func forgetDead(here: UInt) {
    guard let thread = existing else { return }
    forgetDead(in: thread, from: 0, here: here)
  }

  /// ``forgetDead(here:)`` for the dispatches recorded at `from` and above.
  private static func forgetDead(in thread: UnsafeMutablePointer<Thread>, from: Int, here: UInt) {
    var i = thread.pointee.depth
    while i > from {
      i -= 1
      let frame = thread.pointee.entries[i].frame
      guard frame != 0, frame < here, onOwnStack(thread, frame, here) else { continue }
      remove(thread, at: i)?.markUnwoundAndRelease()
    }
  }

  /// Whether `a` and `b` both lie on the thread's own stack (not a fiber's).
  private static func onOwnStack(_ thread: UnsafeMutablePointer<Thread>, _ a: UInt, _ b: UInt)
    -> Bool
  {
    if !thread.pointee.stackKnown {
      var low: UInt = 0, high: UInt = 0
      if csystem_thread_stack(&low, &high) == 0 {
        thread.pointee.stackLow = low
        thread.pointee.stackHigh = high
      }
      thread.pointee.stackKnown = true
    }
    let low = thread.pointee.stackLow, high = thread.pointee.stackHigh
    return low <= a && a < high && low <= b && b < high
  }
}

extension Unmanaged where Instance == DispatchControl {
  /// Marks the store unwound and drops the unwind watch's reference.
  fileprivate func markUnwoundAndRelease() {
    takeRetainedValue().markUnwound()
  }
}

/// What the host bound to the store whose callback the caller is inside, on this thread (the
/// innermost dispatch, in a live callback frame); nil if none, or nothing is bound.
///
/// NB: what lets the C bridge find the store of an answer given inside its request's callback
/// without its table of handles (a global lock, a retain and a release: docs/benchmarks.md, the
/// effect round trip). The host unbinds before its context goes away (``HostStore/bindHost(_:)``);
/// a callback runs inside a call that keeps the context, so what is bound outlives the callback.
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
