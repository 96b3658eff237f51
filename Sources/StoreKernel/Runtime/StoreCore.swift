import CSystem
import JSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Everything a store runs besides its reducer: the queue of actions, the tree of running
/// effects, host requests, the inbox, the executor and the clock.
///
/// NB: `@unchecked Sendable`: the parts marked "holder" are touched only by the thread holding the
/// store (see ``Store``); the rest is behind locks or atomics.
@usableFromInline
final class StoreCore<Action>: DispatchControl, EffectHost, @unchecked Sendable {
  // NB: the flags first, side by side, after the superclass's own (one word for all of them
  // and the wake descriptor: docs/benchmarks.md: memory per idle store).
  @usableFromInline let closedFlag = Atomic<Bool>(false)
  /// Whether the wake descriptor is open (the fast path of `send` then steps aside).
  @usableFromInline let wakeOpen = Atomic<Bool>(false)
  /// The last call left the version to be computed: `publishedVersion` may be behind the state.
  @usableFromInline let versionStale = Atomic<Bool>(false)
  /// Pull mode: requests and cancellations wait in the inbox's notices, not for a handler
  /// (holder).
  var queuedRequests = false
  /// Answers from any thread are only queued, for the host's next call (holder).
  @usableFromInline var answersOnHostThread = false
  /// The wake descriptor's fd once made (-1 before): read without any lock.
  let wakeFD = Atomic<Int32>(-1)

  // -- serialization
  @usableFromInline let gate = PlainLock()
  /// What reaches the store from outside its running call: the core itself, as its
  /// superclass (through ``DispatchControl``).
  ///
  /// NB: yielded, not returned: a getter returning the core retained and released it at each
  /// use (docs/benchmarks.md: the effect round trip). So is `dispatch`.
  @inlinable var inbox: Inbox { _read { yield self } }
  /// Made by the first `.run` (holder).
  ///
  /// NB: lazy, like `root`: an idle store, or one whose effects are only timers and requests,
  /// never allocates them.
  var executor: HostDrainedExecutor {
    if let executorStorage { return executorStorage }
    let made = HostDrainedExecutor(inbox: inbox)
    // NB: not kept once closed (a job run after the close): nothing would let it go again.
    if !isClosed { executorStorage = made }
    return made
  }
  /// NB: the executor holds the core (its inbox): the close lets it go, or the two would keep
  /// each other alive.
  private var executorStorage: HostDrainedExecutor?
  @usableFromInline let clock: StoreClock
  /// The state version as of the end of the last call: what `version` gives without waiting.
  @usableFromInline let publishedVersion = Atomic<UInt64>(0)
  /// Who delivers the outbox, and whether a callback unwound: the core itself, as its
  /// superclass.
  var dispatch: DispatchControl { _read { yield self } }
  /// How many events wait in the outbox (read without the lock, to skip the dispatch).
  @usableFromInline let outboxCount = Atomic<Int>(0)

  // -- holder
  /// The actions waiting to be reduced.
  ///
  /// NB: behind a pointer, like the store's state, so the inlined fast path of `send` reaches it
  /// without dynamic exclusivity checks.
  @usableFromInline let actions: UnsafeMutablePointer<FIFO<Action>>
  /// The region every effect of the store runs in; made by the first effect (holder).
  var root: Region { madeRoot.takeUnretainedValue() }
  private var rootStorage: Region?

  /// The root region, made if none is yet, unretained (the core keeps it).
  private var madeRoot: Unmanaged<Region> {
    if rootStorage == nil { rootStorage = Region(id: nil) }
    return Unmanaged.passUnretained(rootStorage.unsafelyUnwrapped)
  }

  /// Starts `effect` in the root region.
  ///
  /// NB: the root lent unretained (the core keeps it): read through `root`, it was retained and
  /// released around each effect (docs/benchmarks.md: the effect round trip).
  func startAtRoot(_ effect: __owned Effect<Action>) {
    // NB: moved into the closure through an optional (a capture is borrowed: a copy).
    var pending: Effect<Action>? = consume effect
    madeRoot._withUnsafeGuaranteedRef { root in
      if let effect = pending.take() { start(effect, in: root, sink: nil, done: nil) }
    }
  }
  /// The oldest node running under each cancellation id (a region, or a lone host request);
  /// the others follow it through `EffectNode.nextWithSameID`, oldest first.
  ///
  /// NB: a chain through the nodes, not an array per id: starting and finishing a
  /// cancellable effect (a debounce restarted on every keystroke) allocates nothing here.
  var cancellables = CancelRegistry()
  /// The ids in use inside children's namespaces (``CancelID/isScoped``), by the id as the
  /// child gave it: what lets a parent's `.cancel(id:)` reach its children's effects of that
  /// id (``cancelChildren(of:sparingAncestorsOf:)``). Nil while there are none: a store whose
  /// effects run in no child pays one test per cancellation.
  var scopedIDs: [CancelID: Set<CancelID>]?
  var throttles: [CancelID: ThrottleState<Action>] = [:]
  /// Leaves (tasks, timers, requests) running; what a test store's `finish` checks.
  var liveLeafCount = 0


  let extrasStorage = LazyObject<StoreCoreExtras>()

  /// Host requests, cancellations and notifications, delivered after the store is let go.
  var outbox = FIFO<Outgoing>()

  // -- any thread, behind its lock
  /// The requests awaiting answers, and their lock, made by the first request (or answer).
  ///
  /// NB: an idle store keeps neither a table nor a lock (docs/benchmarks.md: memory per idle
  /// store).
  let requests = LazyObject<RequestTableStorage<Action>>()

  var nextSequence: UInt64 = 0

  init(clock: StoreClock) {
    self.clock = clock
    self.actions = .allocate(capacity: 1)
    actions.initialize(to: FIFO())
  }

  deinit {
    // NB: the leaves that events never delivered still hold (see `Outgoing.request`).
    while let event = outbox.popFirst() {
      if case let .request(_, leaf?) = event { leaf.release() }
    }
    actions.deinitialize(count: 1)
    actions.deallocate()
  }

  @inlinable
  var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

  /// Whether the calling thread holds the store.
  @inlinable
  var isHeldByCurrentThread: Bool { inbox.owner.load(ordering: .relaxed) == currentThreadID() }

  /// Whether the calling thread is inside the store: holding it, or inside one of its callbacks
  /// (delivering its outbox). Calls that would run the store are then queued, not recursed into.
  @usableFromInline
  var isInsideOnCurrentThread: Bool {
    isHeldByCurrentThread || dispatch.isCurrentThread
  }

  // MARK: - Closing (holder)

  /// Cancels every effect (telling the host of each request in flight), lets cancelled tasks
  /// finish, and refuses all later work.
  func close() {
    guard !isClosed else { return }
    cancel(root)
    closedFlag.store(true, ordering: .releasing)
    for timer in clock.timers.close() {
      if case let .resume(continuation) = timer {
        continuation.resume(throwing: CancellationError())
      }
    }
    // NB: requests cancelled in pull mode whose notices were never taken end with the store.
    if requests.isMade {
      let ended = withRequests { table -> [UInt64: HostRequest<Action>] in
        for leaf in table.cancelledWaiting.values { table.finish(leaf) }
        defer { table.cancelledWaiting = [:] }
        return table.cancelledWaiting
      }
      _ = consume ended
    }
    // NB: run what cancellation released, so cancelled tasks end and free what they hold; the
    // budget stops an effect that ignores cancellation from holding the closing thread forever.
    var budget = 100_000
    while budget > 0 {
      budget -= 1
      if takeDirectAnswer() {
        continue
      } else if let item = inbox.popItem() {
        item()
      } else if let job = inbox.popJob() {
        executor.run(job)
      } else {
        break
      }
    }
    // NB: answers and sends that raced with the close and lost are dropped here, and the inbox
    // takes no more: a closure left in it would keep this core alive for ever (a leak).
    inbox.refuseItems()
    actions.pointee.removeAll()
    executorStorage = nil
    wakeLock.withLock {
      inbox.settleWake(stop: true)
      wake?.close()
      wake = nil
      wakeFD.store(-1, ordering: .releasing)
      wakeOpen.store(false, ordering: .relaxed)
    }
  }

  /// Writes `message` to the trace, if there is one.
  ///
  /// NB: an autoclosure: without a trace (the usual case) the message is never built, and the
  /// request path's messages (a payload copied into a String) cost nothing.
  func report(_ message: @autoclosure () -> String) {
    guard let trace else { return }
    trace.write("[tca] " + message())
  }
}
