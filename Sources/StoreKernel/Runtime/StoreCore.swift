import CSystem
import JSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something an effect did wrong: written to the trace, and passed to the core's
/// `issueHandler` (a test store's failures).
enum EffectIssue {
  /// A `.run` threw an error other than cancellation and has no `catch` handler.
  case unhandledError(String)
  /// A `.run`'s `send` was called after the effect had completed.
  case sentAfterCompletion(String)
}

/// What few stores use, kept out of ``StoreCore`` until one is set: a host's request handler,
/// tracing, a test store's issue handler and origins, the wake descriptor.
///
/// NB: ~100 bytes that every idle store kept (issue 17: memory per idle store). Touched only by
/// the thread holding the store, as the core's own properties were (`wake` behind `wakeLock`).
final class StoreCoreExtras: @unchecked Sendable {
  /// NB: in an object of its own, so that delivering a request takes one reference to it, not
  /// a copy of its two closures (issue 17: the effect round trip).
  var handler: HandlerBox?
  /// Handlers replaced while a dispatcher may still be calling them (see
  /// `StoreCore.setHandler(_:)`), dropped by the dispatcher.
  var retiredHandlers: [HandlerBox] = []
  var issueHandler: ((EffectIssue, EffectPlace?, String?) -> Void)?
  var rootDismissal: (() -> Void)?
  var trace: TraceSink?
  var recordsOrigins = false
  var origin: String?
  var wake: WakeDescriptor?
  /// The lock of `wake` (see `StoreCore.wakeLock`), made by its first use.
  let wakeLock = LazyObject<Guarded<Void>>()
}

/// A host's request handler, as the store keeps it (see `StoreCoreExtras.handler`).
final class HandlerBox: Sendable {
  let handler: HostRequestHandler

  init(_ handler: HostRequestHandler) { self.handler = handler }

  /// Calls `onRequest` with `info`.
  ///
  /// NB: through the box itself, not a copy of its handler: loading the function out of the
  /// box at the call site retained and released its context once per request.
  @inline(never)
  func request(_ info: HostRequestInfo) { handler.onRequest(info) }

  /// Calls `onCancel` with `id` (as ``request(_:)``).
  @inline(never)
  func cancel(_ id: UInt64) { handler.onCancel(id) }
}

/// Everything a store runs besides its reducer: the queue of actions, the tree of running
/// effects, host requests, the inbox, the executor and the clock.
///
/// NB: `@unchecked Sendable`: the parts marked "holder" are touched only by the thread holding the
/// store (see ``Store``); the rest is behind locks or atomics.
@usableFromInline
final class StoreCore<Action>: DispatchControl, EffectHost, @unchecked Sendable {
  // NB: the flags first, side by side, after the superclass's own (one word for all of them
  // and the wake descriptor: issue 17, memory per idle store).
  @usableFromInline let closedFlag = Atomic<Bool>(false)
  /// Whether the wake descriptor is open (the fast path of `send` then steps aside).
  @usableFromInline let wakeOpen = Atomic<Bool>(false)
  /// The last call left the version to be computed: `publishedVersion` may be behind the state.
  @usableFromInline let versionStale = Atomic<Bool>(false)
  /// Pull mode: requests and cancellations wait in the inbox's notices, not for a handler
  /// (holder).
  var queuedRequests = false
  /// Answers from any thread are only queued, for the host's next call (holder).
  var answersOnHostThread = false
  /// The wake descriptor's fd once made (-1 before): read without any lock.
  let wakeFD = Atomic<Int32>(-1)

  // -- serialization
  @usableFromInline let gate = PlainLock()
  /// What reaches the store from outside its running call: the core itself, as its
  /// superclass (through ``DispatchControl``).
  ///
  /// NB: yielded, not returned: a getter returning the core retained and released it at each
  /// use (issue 17: the effect round trip). So is `dispatch`.
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
  /// Guards `wake`, which the holder settles and `fileDescriptor()` makes without the store.
  ///
  /// NB: made by its first use (`fileDescriptor()`, or the close): an idle store that never
  /// had a wake descriptor does not keep a mutex for it (issue 17: memory per idle store).
  var wakeLock: PlainLock {
    PlainLock(extras.wakeLock.object { Guarded.make(()) })
  }
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
  /// released around each effect (issue 17: the effect round trip).
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
  private var cancellables = CancelRegistry()
  /// The ids in use inside children's namespaces (``CancelID/isScoped``), by the id as the
  /// child gave it: what lets a parent's `.cancel(id:)` reach its children's effects of that
  /// id (``cancelChildren(of:sparingAncestorsOf:)``). Nil while there are none: a store whose
  /// effects run in no child pays one test per cancellation.
  var scopedIDs: [CancelID: Set<CancelID>]?
  var throttles: [CancelID: ThrottleState<Action>] = [:]
  /// Leaves (tasks, timers, requests) running; what a test store's `finish` checks.
  private(set) var liveLeafCount = 0

  // -- holder, made by the first that sets one (``StoreCoreExtras``)
  /// Replaces the handler (holder). The one replaced is kept until the dispatcher next takes the
  /// store (``dropRetiredHandlers()``) if one is delivering: it may be calling it now, from
  /// ``lentHandler``.
  func setHandler(_ box: HandlerBox?) {
    guard box != nil || extrasStorage.isMade else { return }
    let extras = self.extras
    let old = extras.handler
    extras.handler = box
    if let old, dispatch.thread.load(ordering: .acquiring) != 0 {
      extras.retiredHandlers.append(old)
    }
  }

  /// The handler, unretained: the dispatcher's (holder), to call after letting go of the store
  /// and until it next takes it.
  ///
  /// NB: a reference of its own was an atomic retain and release per request (issue 17: the
  /// effect round trip); ``setHandler(_:)`` keeps a replaced handler alive for it instead.
  var lentHandler: Unmanaged<HandlerBox>? {
    extrasStorage.ifMade { extras in extras.handler.map { Unmanaged.passUnretained($0) } } ?? nil
  }

  /// Drops the handlers replaced while delivering (the dispatcher, holding the store).
  func dropRetiredHandlers() {
    extrasStorage.ifMade { extras in
      if !extras.retiredHandlers.isEmpty { extras.retiredHandlers = [] }
    }
  }
  /// Whether a handler is set (without copying it).
  var hasHandler: Bool { extrasStorage.ifMade { $0.handler != nil } ?? false }
  var trace: TraceSink? {
    get { extrasStorage.ifMade { $0.trace } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.trace = newValue } }
  }
  /// Set by a test store: what effects did wrong (see ``Issue``), where the effect was made, and
  /// the action whose effect it was.
  var issueHandler: ((Issue, EffectPlace?, String?) -> Void)? {
    get { extrasStorage.ifMade { $0.issueHandler } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.issueHandler = newValue } }
  }
  /// Set by a test store: what a `dismiss()` of the root feature does (else the host is asked
  /// with the request "dismiss").
  var rootDismissal: (() -> Void)? {
    get { extrasStorage.ifMade { $0.rootDismissal } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.rootDismissal = newValue } }
  }
  /// Set by a test store: effects remember the action that started them.
  var recordsOrigins: Bool {
    get { extrasStorage.ifMade { $0.recordsOrigins } ?? false }
    set { if newValue || extrasStorage.isMade { extras.recordsOrigins = newValue } }
  }
  var origin: String? {
    get { extrasStorage.ifMade { $0.origin } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.origin = newValue } }
  }
  /// Behind `wakeLock`.
  var wake: WakeDescriptor? {
    get { extrasStorage.ifMade { $0.wake } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.wake = newValue } }
  }
  private var extras: StoreCoreExtras { extrasStorage.object { StoreCoreExtras() } }
  private let extrasStorage = LazyObject<StoreCoreExtras>()

  /// Host requests, cancellations and notifications, delivered after the store is let go.
  private var outbox = FIFO<Outgoing>()

  // -- any thread, behind its lock
  /// The requests awaiting answers, and their lock, made by the first request (or answer).
  ///
  /// NB: an idle store keeps neither a table nor a lock (issue 17: memory per idle store).
  private let requests = LazyObject<RequestTableStorage<Action>>()

  /// Runs `body` on the table of requests, behind its lock.
  @inline(__always)
  private func withRequests<R, E: Error>(
    _ body: (inout RequestTable<Action>) throws(E) -> R
  ) throws(E) -> R {
    let (table, lock) = requestTable
    csystem_spin_lock(lock)
    defer { csystem_spin_unlock(lock) }
    return try body(&table.pointee)
  }

  /// The table of requests and its lock, made by the first use.
  ///
  /// NB: the addresses taken without retaining their object, which lives as long as the core
  /// (a `ManagedBuffer`'s header and elements do not move). A retained lock, or the body's
  /// result carried out of a closure, cost an answer ~100 instructions more.
  @inline(__always)
  private var requestTable: (
    table: UnsafeMutablePointer<RequestTable<Action>>, lock: UnsafeMutablePointer<UInt32>
  ) {
    requests.withObject({ [unowned(unsafe) self] in
      // NB: made here, in code specialized for the store's action, and once per store: an
      // answer queues this function (a retain), not a closure of its own (an allocation).
      // Unowned: the table is the core's, and the function leaves it only for the inbox, which
      // the core empties when it closes.
      RequestTableStorage.make(RequestTable(applyAnswer: { self.applyAcceptedAnswer() }))
    }) { storage in
      storage.withUnsafeMutablePointers { ($0, $1) }
    }
  }

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

  // MARK: - Outbox (holder)

  /// Queues an event for the host, delivered once the store is let go.
  ///
  /// NB: the count is written by the holder alone (other threads only read it): a load and a
  /// store, not an atomic add (two atomic operations per host request; issue 17: the effect
  /// round trip). So is it in `nextOutgoing`.
  func post(_ event: consuming Outgoing) {
    outbox.append(event)
    outboxCount.store(outbox.count, ordering: .releasing)
  }

  /// The oldest event for the host, taken out (holder).
  func nextOutgoing() -> Outgoing? {
    guard let event = outbox.popFirst() else { return nil }
    outboxCount.store(outbox.count, ordering: .releasing)
    return event
  }

  @usableFromInline
  var hasOutgoing: Bool { outboxCount.load(ordering: .acquiring) > 0 }

  /// Whether no timer is pending (the clock's ``StoreClock/hasNoTimers``).
  ///
  /// NB: read through an unretained reference (the core keeps its clock): read as
  /// `clock.hasNoTimers` from the store's loop, the clock was retained and released around it,
  /// twice a call.
  @inlinable
  var hasNoTimers: Bool {
    Unmanaged.passUnretained(clock)._withUnsafeGuaranteedRef { $0.hasNoTimers }
  }

  /// Whether nothing at all waits: no action, no inbox work, no timer, no wake descriptor to
  /// settle. What lets `send` skip the general loop.
  @inlinable
  var isIdle: Bool {
    actions.pointee.isEmpty && inbox.isEmpty && hasNoTimers
      && !wakeOpen.load(ordering: .relaxed)
  }

  // MARK: - Running effects (holder)

  /// Feeds an action back, through a throttle if the effect has one.
  func emit(_ action: consuming Action, to sink: ThrottleSink<Action>?) {
    guard !isClosed else { return }
    if let sink {
      sink.receive(action)
    } else {
      actions.pointee.append(action)
    }
  }

  /// Starts `effect` in `region`; calls `done` once it has completed, possibly before returning.
  ///
  /// NB: `effect` is consumed: the request (or box) it carries goes on without a retain and a
  /// release at each step (issue 17: the effect round trip).
  func start(
    _ effect: __owned Effect<Action>, in region: Region, sink: ThrottleSink<Action>?,
    done: Completion?
  ) {
    // NB: switched on consumed, so that a request case binds the effect's own reference (see
    // `startRequest`).
    let operation = (consume effect).operation
    switch consume operation {
    case .none:
      complete(done)
    case let .send(action):
      if !region.isCancelled { emit(action, to: sink) }
      complete(done)
    case let .merge(effects):
      guard let done else {
        for effect in effects { start(effect, in: region, sink: sink, done: nil) }
        return
      }
      let countdown = Countdown(effects.count) { [self] in self.complete(done) }
      for effect in effects { start(effect, in: region, sink: sink, done: .call(countdown.tick)) }
    case let .concatenate(effects):
      Concatenation(core: self, effects: effects, region: region, sink: sink, done: done).next()
    case let .run(run):
      startTask(run, in: region, sink: sink, done: done)
    case let .cancellable(id, cancelInFlight, effect):
      startCancellable(
        effect, id: id, cancelInFlight: cancelInFlight, in: region, sink: sink, done: done)
    case let .cancellableRequest(request):
      // NB: what `startCancellable` does for a lone request, without an effect made around it
      // to get there (a copy of the request each way; issue 17: the effect round trip).
      guard let id = request.foldedID else {
        return startRequest(consume request, in: region, sink: sink, done: done)
      }
      if request.foldedCancelInFlight { cancel(id: id, sparingAncestorsOf: region) }
      guard !region.isCancelled else { return complete(done) }
      startRequest(consume request, in: region, sink: sink, done: done, cancelID: id)
    case let .cancel(id):
      cancel(id: id)
      complete(done)
    case let .sleep(duration):
      startTimer(
        at: clock.nowNanoseconds.saturatingAdd(duration.saturatingNanoseconds), in: region,
        done: done, fire: {})
    case let .throttle(id, interval, latest, effect):
      let throttle = ThrottleSink(
        core: self, id: id, interval: interval.saturatingNanoseconds, latest: latest,
        region: region, downstream: sink)
      start(effect, in: region, sink: throttle, done: done)
    case let .request(request):
      startRequest(consume request, in: region, sink: sink, done: done)
    }
  }

  /// Starts `effect` cancellable by `id` in `region` (``Effect/cancellable(id:cancelInFlight:)``).
  private func startCancellable(
    _ effect: Effect<Action>, id: CancelID, cancelInFlight: Bool, in region: Region,
    sink: ThrottleSink<Action>?, done: Completion?
  ) {
    if cancelInFlight {
      if scopedIDs != nil { cancelChildren(of: id, sparingAncestorsOf: region) }
      if restartWaiting(id, with: effect, in: region, sink: sink, done: done) { return }
      cancel(id: id, sparingAncestorsOf: region)
    }
    guard !region.isCancelled else {
      complete(done)
      return
    }
    // NB: a lone host request (`.request(…).cancellable(id:)`, the usual shape) is registered
    // under the id itself: a region around it would only hold it (issue 17: the effect round
    // trip). Cancelling either cancels the request; its completion is the region's.
    if case let .request(request) = effect.operation {
      return startRequest(request, in: region, sink: sink, done: done, cancelID: id)
    }
    let child = Region(id: id)
    attach(child, to: region)
    child.done = done
    register(child, id: id)
    // NB: a case naming the region, not a closure: no allocation per cancellable effect.
    let bodyDone = Completion.body(child)
    // NB: a concatenation body (a debounce: its wait, then its effect) is known to the
    // region, so that the next debounce of the id can restart it in place.
    guard case let .concatenate(effects) = effect.operation else {
      return start(effect, in: child, sink: sink, done: bodyDone)
    }
    let body = Concatenation(
      core: self, effects: effects, region: child, sink: sink, done: bodyDone)
    child.body = body
    body.next()
  }

  private var nextSequence: UInt64 = 0

  /// Restarts in place the debounce of `id` that is still waiting on its timer, with `effect`
  /// (a debounce's `.concatenate([.sleep(duration), effect])`) started in `region`; false
  /// (nothing done) when there is no such debounce, or when it is anything else.
  ///
  /// NB: does what cancelling it and starting `effect` in a new region would (a debounce
  /// restarted on every keystroke or toggle), without freeing its region, timer leaf and
  /// concatenation and making them again: the timer gets the new deadline and a new id (it
  /// fires after timers scheduled before it, as a new one would); the concatenation takes the
  /// new effects and sink; the region and the leaf move to the end of their lists with new
  /// sequence numbers and origin, as new nodes. Only a lone region of the id, directly in
  /// `region` and with no one waiting on its completion, qualifies: cancelling anything else
  /// has effects of its own (a parent told it is done, other regions of the id).
  private func restartWaiting(
    _ id: CancelID, with effect: Effect<Action>, in region: Region, sink: ThrottleSink<Action>?,
    done: Completion?
  ) -> Bool {
    guard case let .concatenate(effects) = effect.operation,
      case let .sleep(duration)? = effects.first?.operation,
      let registered = cancellables[id], registered.nextWithSameID == nil,
      let waiting = registered as? Region, waiting.parent === region,
      waiting.done == nil, !waiting.isCancelled, !region.isCancelled,
      let body = waiting.body,
      ObjectIdentifier(type(of: body)) == ObjectIdentifier(Concatenation<Action>.self)
    else { return false }
    // NB: the class was checked above: the cast checks nothing more.
    let concatenation = unsafeDowncast(body, to: Concatenation<Action>.self)
    guard concatenation.isWaitingOnFirstSleep, let timer = waiting.firstChild as? TimerLeaf,
      timer.next == nil, let ticket = timer.timer
    else { return false }
    let nanoseconds: Int64
    if let last = timer.restartedFor, last.duration == duration {
      nanoseconds = last.nanoseconds
    } else {
      nanoseconds = duration.saturatingNanoseconds
      timer.restartedFor = (duration, nanoseconds)
    }
    let deadline = clock.nowNanoseconds.saturatingAdd(nanoseconds)
    // NB: nil when the queue is closed (the store is closing): then the general path.
    guard let moved = clock.timers.reschedule(ticket, at: deadline) else { return false }
    timer.timer = moved
    timer.deadline = deadline
    concatenation.restart(with: effects, sink: sink)
    waiting.done = done
    // NB: already the newest child (a debounce alone in its region) stays where it is.
    if waiting.next != nil {
      region.remove(waiting)
      region.append(waiting)
    }
    restamp(waiting)
    restamp(timer)
    return true
  }

  /// Gives `node` the next sequence number and the current origin, as ``attach(_:to:)`` does.
  private func restamp(_ node: EffectNode) {
    nextSequence &+= 1
    node.sequence = nextSequence
    node.origin = origin
  }

  private func attach(_ node: __owned EffectNode, to region: Region) {
    nextSequence &+= 1
    node.sequence = nextSequence
    node.parent = region
    // NB: a new node has none: set only when origins are recorded (read through the extras, it
    // retained and released the nil string of every node; issue 17: the effect round trip).
    if recordsOrigins { node.origin = origin }
    if !(node is Region) { liveLeafCount += 1 }
    region.append(node)
  }

  /// Ends a leaf: detaches it, calls its `done`, and lets its region finish if that was the last.
  func finish(_ leaf: EffectNode) {
    // NB: the leaf's reference to its region moved out, not copied (a retain and a release).
    guard let parent = leaf.parent.take() else { return }
    if let id = leaf.cancelID { unregister(leaf, id: id) }
    parent.remove(leaf)
    liveLeafCount -= 1
    let done = leaf.done
    leaf.done = nil
    complete(done)
    settle(parent)
  }

  /// Does what `completion` says: calls its function, or marks a region's body done and lets
  /// the region finish.
  func complete(_ completion: Completion?) {
    switch completion {
    case nil: return
    case let .call(work)?: work()
    case let .body(region)?:
      region.bodyDone = true
      settle(region)
    }
  }

  /// Finishes `region` if its body is done and nothing runs in it any more.
  func settle(_ region: Region) {
    guard region.bodyDone, region.hasNoChildren, !region.finished else { return }
    region.finished = true
    if let id = region.cancelID { unregister(region, id: id) }
    guard let parent = region.parent else { return }
    parent.remove(region)
    region.parent = nil
    let done = region.done
    region.done = nil
    complete(done)
    settle(parent)
  }

  private func startTask(
    _ run: Effect<Action>.Run, in region: Region, sink: ThrottleSink<Action>?,
    done: Completion?
  ) {
    guard !region.isCancelled, !isClosed else {
      complete(done)
      return
    }
    let leaf = TaskLeaf()
    attach(leaf, to: region)
    leaf.done = done
    leaf.place = run.place
    leaf.host = self
    let send = Send<Action>(
      emit: { [self] action in self.emit(action, from: leaf, sink: sink) },
      isCancelled: { leaf.isCancelled },
      unhandled: { [self] error in
        self.onHolder { self.raise(.unhandledError("\(error)"), from: leaf) }
      })
    leaf.task = Task(executorPreference: executor) { [self] in
      await TaskLeaf.$current.withValue(leaf) { await run.operation(send) }
      self.onHolder { self.finish(leaf) }
    }
  }

  /// An action sent by a task: dropped once the task is cancelled; raised as an issue once the
  /// task has completed (its `send` escaped it).
  private func emit(_ action: Action, from leaf: TaskLeaf, sink: ThrottleSink<Action>?) {
    onHolder { [self] in
      guard !leaf.isCancelled else { return }
      guard leaf.parent != nil else {
        self.raise(.sentAfterCompletion(Dump.text(of: action, qualifyEnum: true)), from: leaf)
        return
      }
      self.emit(action, to: sink)
    }
  }

  /// Something an effect did wrong (``EffectIssue``).
  typealias Issue = EffectIssue

  private func raise(_ issue: Issue, from leaf: TaskLeaf) {
    switch issue {
    case let .unhandledError(error):
      report("an effect threw \(error) and has no catch handler")
    case let .sentAfterCompletion(action):
      report(
        "an action was sent from a completed effect: \(action)"
          + (leaf.place.map { " (the effect made at \($0))" } ?? ""))
    }
    issueHandler?(issue, leaf.place, leaf.origin)
  }

  /// Runs `work` now if this thread holds the store, else queues it for the holder.
  ///
  /// NB: an effect's code runs on the store's executor, hence on the holder; this guards the odd
  /// task that sends from elsewhere (a detached task it spawned).
  private func onHolder(_ work: @escaping () -> Void) {
    if isHeldByCurrentThread {
      work()
    } else {
      inbox.push(work)
    }
  }

  /// Starts a wait on the clock in `region`; at `deadline` runs `fire`, then finishes.
  func startTimer(
    at deadline: Int64, in region: Region, done: Completion?, fire: @escaping () -> Void
  ) {
    guard !region.isCancelled else {
      complete(done)
      return
    }
    let leaf = TimerLeaf(deadline: deadline)
    attach(leaf, to: region)
    leaf.done = done
    let ticket = clock.timers.schedule(
      at: deadline,
      .call { [self] in
        fire()
        self.finish(leaf)
      })
    guard let ticket else {
      finish(leaf)
      return
    }
    leaf.timer = ticket
  }

  /// Runs a due timer (holder).
  func fire(_ timer: TimerQueue.Fire) {
    switch timer {
    case let .resume(continuation): continuation.resume()
    case let .call(work): work()
    }
  }

  // MARK: - Cancellation (holder)

  func spawn(
    id: CancelID, cancelInFlight: Bool, from leaf: TaskLeaf,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let parent = leaf.parent ?? root
    let id = id.inNamespace(of: leaf)
    if cancelInFlight { cancel(id: id, sparingAncestorsOf: parent) }
    let region = Region(id: id)
    attach(region, to: parent)
    region.bodyDone = true
    register(region, id: id)
    let child = TaskLeaf()
    attach(child, to: region)
    child.origin = leaf.origin
    child.place = leaf.place
    child.host = self
    let task = Task(executorPreference: executor) { [self] in
      await TaskLeaf.$current.withValue(child) { await operation() }
      self.onHolder { self.finish(child) }
    }
    child.task = task
    if parent.isCancelled || leaf.isCancelled || isClosed { cancel(child) }
    return task
  }

  func cancelFromEffect(id: CancelID, from leaf: TaskLeaf) {
    onHolder { [self] in self.cancel(id: id.inNamespace(of: leaf)) }
  }

  func dismissFromEffect(_ leaf: TaskLeaf) {
    onHolder { [self] in
      guard leaf.parent != nil, !leaf.isCancelled, !self.isClosed,
        !leaf.isInsideDismissibleChild
      else { return }
      if let rootDismissal = self.rootDismissal { return rootDismissal() }
      // NB: what a host sees of it: the request "dismiss" (docs/wire-format.md).
      self.startAtRoot(Effect<Action>.fireAndForget("dismiss"))
    }
  }

  /// Adds `node` (a region, or a lone request) as the newest node running under `id`.
  private func register(_ node: EffectNode, id: CancelID) {
    node.cancelID = id
    // NB: one probe when the id is new (the usual case: a lookup, then an insert, was two).
    guard let oldest = cancellables.updateValue(node, forKey: id) else {
      if id.isScoped { indexScoped(id) }
      return
    }
    cancellables.updateValue(oldest, forKey: id)
    var newest = oldest
    while let next = newest.nextWithSameID { newest = next }
    newest.nextWithSameID = node
    node.previousWithSameID = newest
  }

  private func unregister(_ node: EffectNode, id: CancelID) {
    let next = node.nextWithSameID
    if let previous = node.previousWithSameID {
      previous.nextWithSameID = next
      next?.previousWithSameID = previous
    } else if let next {
      if cancellables[id] === node {
        next.previousWithSameID = nil
        cancellables.updateValue(next, forKey: id)
      }
    } else {
      cancellables.remove(node, forKey: id)
      if id.isScoped { unindexScoped(id) }
    }
    node.nextWithSameID = nil
    node.previousWithSameID = nil
  }

  /// Whether some node runs under `id`.
  func isRegistered(_ id: CancelID) -> Bool { cancellables[id] != nil }

  /// The nodes (regions, lone requests) running under `id`, oldest first.
  func nodes(for id: CancelID) -> [EffectNode] {
    var nodes: [EffectNode] = []
    var node = cancellables[id]
    while let current = node {
      nodes.append(current)
      node = current.nextWithSameID
    }
    return nodes
  }

  func cancel(id: CancelID) {
    if scopedIDs != nil { cancelChildren(of: id) }
    guard let oldest = cancellables[id] else { return }
    // NB: a copy of the chain first (cancelling a region may finish others of the id), except
    // for the usual single region.
    guard oldest.nextWithSameID != nil else { return cancel(oldest) }
    for region in nodes(for: id) { cancel(region) }
  }

  /// Cancels the effects running under `id` except those `region` runs inside: what
  /// `cancelInFlight` does.
  ///
  /// NB: `.cancellable(id: x, cancelInFlight: true)` nested in another of the same id would
  /// otherwise cancel the effect it is part of, and deliver nothing (upstream delivers once).
  func cancel(id: CancelID, sparingAncestorsOf region: EffectNode) {
    if scopedIDs != nil { cancelChildren(of: id, sparingAncestorsOf: region) }
    guard let oldest = cancellables[id] else { return }
    guard oldest.nextWithSameID != nil else {
      if !oldest.isAncestor(of: region) { cancel(oldest) }
      return
    }
    for target in nodes(for: id) where !target.isAncestor(of: region) { cancel(target) }
  }

  func cancel(_ node: EffectNode) {
    switch node {
    case let region as Region:
      guard !region.isCancelled else { return }
      region.isCancelled = true
      // NB: one child (a debounce's timer, a request) is cancelled without a copy of the list.
      if let only = region.firstChild, only.next == nil {
        cancel(only)
      } else {
        for child in region.orderedChildren { cancel(child) }
      }
    case let leaf as TaskLeaf:
      guard !leaf.isCancelled else { return }
      leaf.isCancelled = true
      // NB: the leaf finishes when its task returns (at its next job); `send` is already inert.
      leaf.task?.cancel()
    case let leaf as TimerLeaf:
      if let ticket = leaf.timer { _ = clock.madeTimers?.cancel(ticket) }
      finish(leaf)
    case let leaf as HostRequest<Action>:
      // NB: a request that has finished is not cancelled again (no cancel notice for it).
      guard leaf.parent != nil else { return }
      report("request #\(leaf.id) \"\(leaf.name)\" cancelled")
      if queuedRequests {
        // NB: in pull mode the id stays answerable until the host takes the notice (tca.h): the
        // request stays in the table, kept by it, and an answer to it is checked and accepted
        // as any, then dropped (`apply`: the leaf has finished); taking the notice ends it there
        // (`endCancelled`). A host answering before it looks at its notices gets no error.
        withRequests { table in table.cancelledWaiting[leaf.id] = leaf }
        inbox.push(notice: .cancelled(leaf.id))
      } else {
        withRequests { table in table.finish(leaf) }
        if hasHandler { post(.cancel(leaf.id)) }
      }
      finish(leaf)
    default:
      break
    }
  }

  /// Pull mode: ends the requests cancelled whose notices the host has just taken (see
  /// `cancel`): from now on they refuse answers.
  ///
  /// NB: what it adds to a take that brings no cancellation is a look at each notice's kind.
  func endCancelled(in notices: [HostRequestNotice]) {
    guard notices.contains(where: \.isCancellation) else { return }
    let ended = withRequests { table -> [HostRequest<Action>] in
      var ended: [HostRequest<Action>] = []
      for case let .cancelled(id) in notices {
        guard let leaf = table.cancelledWaiting.removeValue(forKey: id) else { continue }
        table.finish(leaf)
        ended.append(leaf)
      }
      return ended
    }
    // NB: let go outside the lock.
    _ = consume ended
  }

  /// The leaves still running, for a test store's failure message.
  var liveLeaves: [EffectNode] { liveLeaves(in: [root]) }

  /// The leaves still running inside `nodes` (or among them), oldest first.
  func liveLeaves(in nodes: [EffectNode]) -> [EffectNode] {
    var leaves: [EffectNode] = []
    var regions: [Region] = []
    for node in nodes {
      if let region = node as? Region { regions.append(region) } else { leaves.append(node) }
    }
    while let region = regions.popLast() {
      for child in region.orderedChildren {
        if let child = child as? Region { regions.append(child) } else { leaves.append(child) }
      }
    }
    return leaves.sorted { $0.sequence < $1.sequence }
  }

  // MARK: - Host requests

  /// Starts `request` in `region`; with `cancelID`, as the whole body of a `.cancellable(id:)`
  /// effect (registered under the id itself).
  ///
  /// NB: `request` is taken owned: when the effect that carried it was its only holder, the
  /// request becomes its own leaf with that reference (no claim, no retain and release; issue
  /// 17: the effect round trip).
  private func startRequest(
    _ request: __owned HostRequest<Action>, in region: Region, sink: ThrottleSink<Action>?,
    done: Completion?, cancelID: CancelID? = nil
  ) {
    let waits = request.kind != .fireAndForget
    // NB: the leaf is made first so that the table of open requests holds it: an answer then
    // reaches it without a lookup of its own on the holder. From here on, `request` is the
    // leaf when the request waits (a copy only if another effect value holds the same one).
    var request = consume request
    if waits {
      if isKnownUniquelyReferenced(&request) {
        request.sink = sink
      } else {
        request = request.claimForLeaf(sink: sink)
      }
    }
    guard !region.isCancelled, let (id, payload) = open(request, waits: waits, sink: sink) else {
      complete(done)
      return
    }
    report(
      "request #\(id) \"\(request.name)\" "
        + payload.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
    let info = HostRequestInfo(id: id, name: request.name, body: payload, kind: request.kind)
    if queuedRequests {
      inbox.push(notice: .request(info))
    } else if request.kind == .oneShot {
      post(.request(info, Unmanaged.passRetained(request)))
    } else {
      post(.request(info, nil))
    }
    guard waits else { return complete(done) }
    request.done = done
    if let cancelID { register(request, id: cancelID) }
    // NB: attached last, handing the region the reference this function owns (one retain and
    // one release fewer per request).
    attach(consume request, to: region)
  }

  /// Lends `leaf` (the one-shot request whose event is delivered now, with its reference) to an
  /// answer given inside its callback, on this thread (the one delivering); ``endDelivering()``
  /// takes it back if no answer did.
  ///
  /// NB: such an answer finds its request without the table's lock, and takes the event's
  /// reference instead of one of its own (issue 17: the effect round trip).
  func beginDelivering(_ leaf: Unmanaged<EffectNode>?) {
    guard let leaf else { return }
    let request = unsafeDowncast(leaf.takeRetainedValue(), to: HostRequest<Action>.self)
    lane.delivering.pointee = request
  }

  /// Ends what ``beginDelivering(_:)`` lent (the thread delivering).
  func endDelivering() {
    guard requests.isMade else { return }
    lane.delivering.pointee = nil
  }

  /// The request `id` if it is the one whose callback runs on this thread, taken out.
  @inline(__always)
  private func takeDelivering(_ id: UInt64) -> HostRequest<Action>? {
    guard dispatch.isCurrentThread, requests.isMade else { return nil }
    let delivering = lane.delivering
    guard delivering.pointee?.id == id else { return nil }
    return delivering.pointee.take()
  }

  /// Gives `request` an id (and, unless fire-and-forget, a place in the table of requests
  /// awaiting answers); or fails it at once, feeding its failure action back, and returns nil.
  private func open(
    _ request: HostRequest<Action>, waits: Bool, sink: ThrottleSink<Action>?
  ) -> (id: UInt64, payload: RequestPayload)? {
    // NB: in pull mode a request never fails for want of a handler: it waits to be taken. The
    // payload read where it is: a switch over a tuple of it copied the whole result (an
    // encoding error is seven words).
    if let payload = request.encodedPayload, hasHandler || queuedRequests {
      let id = withRequests { table in
        let id = table.nextID
        table.nextID &+= 1
        if waits {
          request.id = id
          table.open.insert(OpenRequest(leaf: request), for: UInt(id))
        }
        return id
      }
      return (id, payload)
    }
    let message: String
    switch request.payload {
    case let .failure(error):
      message = "the payload of \"\(request.name)\" cannot be encoded: \(error)"
    case .success:
      message = "no handler for \"\(request.name)\": the host has not set one"
    }
    report("request \"\(request.name)\" failed at once: \(message)")
    if let action = request.failure(HostFailure(message)) { emit(action, to: sink) }
    return nil
  }

  /// Checks and decodes an answer on the caller's thread, then queues it for the holder.
  ///
  /// NB: checking here, not when the answer is applied, is what lets `respond` return its error
  /// (unknown id, double answer, wrong shape) to the caller even when another thread holds the
  /// store. An answer of the wrong shape leaves the request waiting for a good one.
  @usableFromInline
  func accept(_ answer: HostAnswer, for id: UInt64) throws(StoreError) {
    guard !isClosed else { throw .closed }
    let request: HostRequest<Action>
    if let delivered = takeDelivering(id) {
      request = delivered
    } else {
      request = try withRequests { (table) throws(StoreError) in try table.openRequest(id) }
    }
    // NB: the request moves into the accepted answer, and that into the table: neither is copied
    // (a retain and a release each; issue 17: the effect round trip).
    // NB: a one-shot answer given inside one of the store's callbacks, with nothing queued
    // before it, waits in the table's one direct slot, counted by the inbox: no lock and no
    // item (issue 17: the effect round trip). It is admitted by the request's state alone: a
    // one-shot request's answers all end it, so whichever sets the state first is the answer.
    // Only the delivering thread fills the slot, and only while the inbox is empty, so the
    // holder has taken the previous one (see `takeDirectAnswer`).
    let direct = request.kind == .oneShot && dispatch.isCurrentThread && inbox.isEmpty
    switch answer {
    case let .value(bytes):
      let ends = request.kind == .oneShot
      let action: Action?
      do throws(JSONError) {
        action = try request.answer(request, bytes)
      } catch {
        throw .badAnswer(id, error)
      }
      if direct, !request.admit(ending: true) { throw request.refusal(id) }
      // NB: the action moved out of its optional into the table, not copied (see
      // `FIFO.moveFirst(to:)`): taken inside the closure, not captured by it (a copy, and a
      // retain and a release of what it holds).
      guard action != nil else {
        let accepted = AcceptedAnswer(leaf: consume request, ends: ends)
        return try queue(accepted, for: id, direct: direct) { _ in }
      }
      var pending = consume action
      let accepted = AcceptedAnswer(leaf: consume request, hasAction: true, ends: ends)
      try queue(accepted, for: id, direct: direct) { actions in
        if let action = pending.take() { actions.append(action) }
      }
    case let .failure(message):
      if direct, !request.admit(ending: true) { throw request.refusal(id) }
      let accepted = AcceptedAnswer(leaf: consume request, failure: message)
      try queue(accepted, for: id, direct: direct) { _ in }
    case .complete:
      guard request.kind == .stream else { throw .notAStream(id) }
      try queue(AcceptedAnswer(leaf: consume request, completes: true), for: id, direct: false) {
        _ in
      }
    }
  }

  /// Queues `accepted` for request `id` (`addAction` queues its action, if any) and its
  /// application for the holder: in the direct slot (`direct`: admitted already), or admitted
  /// here under the table's lock.
  @inline(__always)
  private func queue(
    _ accepted: consuming AcceptedAnswer, for id: UInt64, direct: Bool,
    _ addAction: (inout FIFO<Action>) -> Void
  ) throws(StoreError) {
    if direct {
      let direct = lane.direct
      addAction(&direct.pointee.actions)
      direct.pointee.answer = consume accepted
      inbox.pushDirectAnswer()
      return
    }
    // NB: behind the lock without a closure, so that `accepted` moves into the table.
    let (table, lock) = requestTable
    csystem_spin_lock(lock)
    guard accepted.leaf.admit(ending: accepted.ends) else {
      csystem_spin_unlock(lock)
      throw accepted.leaf.refusal(id)
    }
    addAction(&table.pointee.acceptedActions)
    table.pointee.accepted.append(accepted)
    csystem_spin_unlock(lock)
    // NB: `applier` is immutable: read without the lock.
    inbox.push(table.pointee.applier.apply)
  }

  /// An accepted answer, waiting in the table of requests for the holder: an answer (its action,
  /// if any, waits in `RequestTable.acceptedActions`), a failure, or a stream's completion.
  ///
  /// NB: the action kept in a queue of actions (destroyed by the queue's storage), not in an
  /// `Action?` here: a feature's action made by a reabstraction thunk (a child's answer mapped
  /// into the parent's action) can leave bytes of the enum unset, and the specialized code
  /// destroying an `Action?` held in a struct read them (valgrind: "conditional jump depends on
  /// uninitialised value").
  struct AcceptedAnswer {
    let leaf: HostRequest<Action>
    var hasAction = false
    var failure: String? = nil
    var completes = false
    var ends = true
  }

  /// Takes the answer counted by the inbox (``Inbox/pushDirectAnswer()``), if any, and applies
  /// it (holder).
  ///
  /// NB: the slot is emptied before the count is taken back: the delivering thread fills it
  /// again only once it finds the inbox empty.
  func takeDirectAnswer() -> Bool {
    guard inbox.hasDirectAnswer else { return false }
    let direct = lane.direct
    guard let accepted = direct.pointee.answer.take() else {
      // NB: cannot happen (the slot is filled before it is counted); the count is taken back
      // so that the store is not left with work it can never find.
      inbox.returnDirectAnswer()
      return true
    }
    withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
      guard let slot = buffer.baseAddress else { return }
      let moved = accepted.hasAction && direct.pointee.actions.moveFirst(to: slot)
      inbox.returnDirectAnswer()
      if accepted.ends {
        withRequests { table in table.finish(accepted.leaf) }
      }
      apply(
        accepted.leaf, failure: accepted.failure, completes: accepted.completes,
        ends: accepted.ends, action: moved ? slot : nil)
    }
    return true
  }

  /// The table's lane (see ``AnswerLane``), read without an access to the table.
  ///
  /// NB: the lane's reference is loaded from the table's first word (``RequestTable/lane``),
  /// not read as `table.pointee.lane`: that read is an access to the whole table, which a
  /// thread holding its lock may be changing (a race for the thread sanitizer, though no field
  /// is shared).
  @inline(__always)
  private var lane: AnswerLane<Action> {
    UnsafeRawPointer(requestTable.table).load(as: AnswerLane<Action>.self)
  }

  /// Applies the oldest accepted answer (holder). A request cancelled since takes it silently.
  func applyAcceptedAnswer() {
    // NB: the answer's action is moved out of the table into this slot, not into an `Action?`
    // (see `FIFO.moveFirst(to:)`); every path below moves it out again.
    withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
      guard let slot = buffer.baseAddress else { return }
      // NB: the answer's fields taken apart as it leaves the table: the request moves out of
      // it (copied out of a whole answer kept alive, it was retained and released once more).
      typealias Taken = (
        leaf: HostRequest<Action>, failure: String?, completes: Bool, ends: Bool, moved: Bool
      )
      let taken = withRequests { table -> Taken? in
        guard let accepted = table.accepted.popFirst() else { return nil }
        let moved = accepted.hasAction && table.acceptedActions.moveFirst(to: slot)
        // NB: removed here, under the same lock, if it is the answer that ends the request (a
        // request cancelled since is already gone; ids are never reused).
        if accepted.ends { table.finish(accepted.leaf) }
        return (accepted.leaf, accepted.failure, accepted.completes, accepted.ends, moved)
      }
      guard let (leaf, failure, completes, ends, moved) = consume taken else { return }
      apply(leaf, failure: failure, completes: completes, ends: ends, action: moved ? slot : nil)
    }
  }

  /// Applies an answer taken out of the table: `action` (moved out here), or `failure`, or a
  /// stream's completion; then finishes the request if the answer ends it.
  @inline(__always)
  private func apply(
    _ leaf: HostRequest<Action>, failure: String?, completes: Bool, ends: Bool,
    action: UnsafeMutablePointer<Action>?
  ) {
    // NB: a leaf cancelled (so finished) since the answer was accepted has no parent: its
    // action is dropped.
    guard leaf.parent != nil else {
      action?.deinitialize(count: 1)
      return
    }
    if let action {
      emit(action.move(), to: leaf.sink)
    } else if let message = failure {
      report("request #\(leaf.id) \"\(leaf.name)\" failed: \(JSONError.quoted(message))")
      if let action = leaf.failure(HostFailure(message)) { emit(action, to: leaf.sink) }
    } else if completes {
      if let action = leaf.finished() { emit(action, to: leaf.sink) }
    }
    guard ends else { return }
    finish(leaf)
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

/// What a host said about a request.
@usableFromInline
enum HostAnswer {
  case value(UnsafeBufferPointer<UInt8>)
  case failure(String)
  case complete
}

/// Requests waiting for answers, readable from any thread (behind `StoreCore.requests`' lock).
struct RequestTable<Action>: @unchecked Sendable {
  /// What passes between threads without the lock (see ``AnswerLane``).
  ///
  /// NB: first, at offset 0, where `StoreCore.lane` loads it (a test checks the offset).
  let lane = AnswerLane<Action>.make()
  var nextID: UInt64 = 1
  /// By id (ids are handed out 1 apart, from 1).
  var open = TokenTable<OpenRequest<Action>>(spacing: 0)
  /// Answers accepted from any thread, waiting for the holder, oldest first; the actions of
  /// those that have one, in the same order.
  var accepted = FIFO<StoreCore<Action>.AcceptedAnswer>()
  var acceptedActions = FIFO<Action>()
  /// Applies the oldest accepted answer (see ``StoreCore/accept(_:for:)``).
  let applier: AnswerApplier<Action>
  /// Pull mode: the requests cancelled whose `{"cancelled":id}` notices wait to be taken, by id,
  /// kept here (and in `open`) until then: their ids still take answers (see `StoreCore.cancel`).
  ///
  /// NB: last, so that the fields the answer path reads keep their places.
  var cancelledWaiting: [UInt64: HostRequest<Action>] = [:]

  init(applyAnswer: @escaping () -> Void) { self.applier = AnswerApplier(apply: applyAnswer) }

  /// The request `id` names, if it still takes answers (a first look: the answer is admitted
  /// once decoded).
  @inline(__always)
  func openRequest(_ id: UInt64) throws(StoreError) -> HostRequest<Action> {
    guard let request = open[UInt(id)],
      request.leaf.answerState.load(ordering: .acquiring) == HostRequest<Action>.open
    else { throw refusal(of: id) }
    return request.leaf
  }

  /// Why request `id` takes no answer: it is not open, or an answer that ends it was accepted.
  @inline(never)
  func refusal(of id: UInt64) -> StoreError {
    guard let request = open[UInt(id)] else {
      return id > 0 && id < nextID ? .finishedRequest(id) : .unknownRequest(id)
    }
    return request.leaf.refusal(id)
  }

  /// Ends `leaf` (holder, under the lock): out of the table of open requests, and refusing any
  /// later answer.
  mutating func finish(_ leaf: HostRequest<Action>) {
    _ = open.remove(UInt(leaf.id))
    leaf.answerState.store(HostRequest<Action>.finished, ordering: .releasing)
  }
}

/// The table of a store's requests (in the header, at a fixed address) and its lock word (the one
/// element; see `csystem_spin_lock`).
final class RequestTableStorage<Action>: ManagedBuffer<RequestTable<Action>, UInt32> {
  static func make(_ table: RequestTable<Action>) -> RequestTableStorage {
    // NB: `create` makes an instance of the class it is called on; the downcast only restores
    // the static type.
    let storage = unsafeDowncast(
      create(minimumCapacity: 1) { _ in table }, to: RequestTableStorage.self)
    storage.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
    return storage
  }

  // NB: the table frees its lane itself, not the core: two threads that first use the table at
  // once each make one, and the one whose copy loses (``LazyObject/keep(_:)``) drops it here.
  deinit {
    withUnsafeMutablePointerToHeader { $0.pointee.lane.destroy() }
  }
}

/// What the thread delivering a store's events and the thread holding it hand each other
/// without the table's lock: the request whose callback runs, and the one answer given inside a
/// callback while nothing else waited.
///
/// NB: each behind a pointer of its own, made and freed with the table: neither is part of the
/// table (an access to it under the lock would overlap), nor of one object (the two are touched
/// by different threads at once, which the thread sanitizer would report as overlapping
/// accesses), nor a class's property (a dynamic exclusivity check at each access).
struct AnswerLane<Action> {
  /// The one-shot request whose callback runs now (see `StoreCore.beginDelivering`).
  ///
  /// NB: the thread delivering the store's events alone touches it.
  let delivering: UnsafeMutablePointer<HostRequest<Action>?>
  /// The one answer accepted directly inside a callback, and its action if it has one.
  ///
  /// NB: behind the inbox's count of direct answers: filled by the thread delivering while the
  /// count is 0, emptied by the holder before it takes the count back.
  let direct: UnsafeMutablePointer<DirectAnswer<Action>>

  static func make() -> AnswerLane {
    let delivering = UnsafeMutablePointer<HostRequest<Action>?>.allocate(capacity: 1)
    delivering.initialize(to: nil)
    let direct = UnsafeMutablePointer<DirectAnswer<Action>>.allocate(capacity: 1)
    direct.initialize(to: DirectAnswer())
    return AnswerLane(delivering: delivering, direct: direct)
  }

  /// Frees both (the table's storage, as it goes).
  func destroy() {
    delivering.deinitialize(count: 1)
    delivering.deallocate()
    direct.deinitialize(count: 1)
    direct.deallocate()
  }
}

/// See ``AnswerLane/direct``.
struct DirectAnswer<Action> {
  var answer: StoreCore<Action>.AcceptedAnswer?
  var actions = FIFO<Action>()
}

/// What applies the oldest accepted answer (see ``StoreCore/accept(_:for:)``).
///
/// NB: a struct around the function, so that it leaves the table's lock as the generic result
/// of `withRequests` without a reabstraction thunk (a closure allocated per answer).
struct AnswerApplier<Action> {
  let apply: () -> Void
}

struct OpenRequest<Action>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: of `leaf`, other threads read only its request fields
  // (immutable), `id` (set before the leaf enters the table) and `answerState` (atomic); the
  // holder alone touches the rest.
  /// The request, which is also its place in the store's effects.
  ///
  /// NB: not retained: the leaf's region keeps it, and it leaves this table (under its lock)
  /// before it is finished (cancelled, or its last answer applied) and let go; a request
  /// cancelled in pull mode stays, kept by `RequestTable.cancelledWaiting`. Other threads take
  /// their own reference under the lock (issue 17: the effect round trip).
  unowned(unsafe) let leaf: HostRequest<Action>
}

/// Calls `done` after `count` ticks.
private final class Countdown {
  private var remaining: Int
  private let done: () -> Void

  init(_ count: Int, _ done: @escaping () -> Void) {
    self.remaining = count
    self.done = done
    if count == 0 { done() }
  }

  func tick() {
    remaining -= 1
    if remaining == 0 { done() }
  }
}

/// Runs effects one after the other.
///
/// NB: a loop, not recursion, over the parts that complete at once, so a long concatenation of
/// synchronous effects does not grow the stack.
private final class Concatenation<Action> {
  private let core: StoreCore<Action>
  private var effects: [Effect<Action>]
  private let region: Region
  private var sink: ThrottleSink<Action>?
  private let done: Completion?
  private var index = 0
  private var starting = false
  private var finishedWhileStarting = false

  init(
    core: StoreCore<Action>, effects: [Effect<Action>], region: Region,
    sink: ThrottleSink<Action>?, done: Completion?
  ) {
    self.core = core
    self.effects = effects
    self.region = region
    self.sink = sink
    self.done = done
    if case .sleep? = effects.first?.operation {
      startsWithSleep = true
    } else {
      startsWithSleep = false
    }
  }

  deinit {
    if region.body === self { region.body = nil }
  }

  /// Whether the first effect is a `.sleep` (a debounce's wait).
  private let startsWithSleep: Bool

  /// Whether the first effect, a `.sleep`, has started and not ended: a debounce waiting.
  var isWaitingOnFirstSleep: Bool { index == 1 && !starting && startsWithSleep }

  /// Goes on with `effects` after its first (a debounce restarted: the wait already running
  /// stands for the new first effect, also a `.sleep`).
  func restart(with effects: [Effect<Action>], sink: ThrottleSink<Action>?) {
    self.effects = effects
    self.sink = sink
  }

  func next() {
    while index < effects.count && !region.isCancelled && !core.isClosed {
      let effect = effects[index]
      index += 1
      starting = true
      finishedWhileStarting = false
      core.start(
        effect, in: region, sink: sink,
        done: .call { [self] in
          if starting { finishedWhileStarting = true } else { next() }
        })
      starting = false
      guard finishedWhileStarting else { return }
    }
    core.complete(done)
  }
}
