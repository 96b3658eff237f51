import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a reducer: holds the state, processes actions one at a time, and runs their effects.
///
///     let store = Store(initialState: Counter.State(), reducer: Counter())
///     store.send(.incrementButtonTapped)
///     store.state.count  // 1
///
/// Runtime semantics (DESIGN.md §4, what hosts and tests rely on):
/// 1. `send` reduces the action at once on the caller's thread, then keeps going until the store
///    is idle: actions fed back are reduced in order, async effects run on the store's executor
///    until they finish or wait (on the clock, or on a host answer), host requests are made. When
///    `send` returns, everything that did not have to wait has happened.
/// 2. Host inputs are applied in the order the host gave them: an answer given inside a callback
///    is queued, and applied before anything sent after it; an answer from another thread is
///    applied inside that `respond` call (the store is free while callbacks run), or only queued
///    for the host's next `send`/`poll`/`advance` (``AnswerDelivery/hostThread``).
/// 3. `poll` runs whatever is due: queued answers, effect work resumed from other threads, timers
///    whose deadline passed. `advance(by:)` moves a manual clock, firing due timers in deadline
///    order, each followed by the work it releases; a manual clock's timers fire only there.
/// 4. Callbacks (requests, cancellations, subscribers) run with no lock of the store held: a call
///    collects them in an outbox while it holds the store, and delivers them after letting go,
///    in order, before it returns — unless another thread is delivering the store's callbacks,
///    which then delivers them (one thread at a time per store; see ``dispatch()``). Subscribers
///    are told at the end of a call that changed the state, with the version current when
///    they are called.
/// 5. ``fileDescriptor()`` is readable exactly when `poll` would do something, or while
///    requests wait to be taken (pull mode).
/// 6. (Threaded stores are not offered: every callback runs on a thread that called in.)
/// 7. ``close()`` (or the last reference going away) cancels every effect, tells the host of each
///    request in flight, and makes later calls do nothing (Swift API) or throw `.closed`.
///
/// Thread safety: every method may be called from any thread; runs of the store are serialized.
/// A call from inside the store (from a subscriber, a host callback, an effect) does not wait or
/// recurse: a `send` is queued and reduced before the outer call returns, as are answers and
/// `advance`; `poll` returns 0; `close` happens when the outer call ends. `version` and
/// ``fileDescriptor()`` never wait.
///
/// NB: actions are queued, never recursed into, so chains of effects do not grow the stack.
public final class Store<State, Action>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: everything below is touched only by the thread holding
  // `core.gate`, except the atomics.

  /// What a call into the store reads and writes.
  ///
  /// NB: behind a pointer rather than in stored properties: the fast path of `send` is inlined
  /// into (and specialized for) the caller's module, where stored class properties would cost a
  /// dynamic exclusivity check each.
  @usableFromInline
  struct Hot {
    // NB: the flags side by side after the states, not one per word between them: 16 bytes
    // less per store (docs/benchmarks.md: memory per idle store).
    @usableFromInline var state: State
    /// The state the last version was computed against (Equatable states only).
    @usableFromInline var snapshot: State?
    /// Whether an action was reduced since the version was last computed.
    @usableFromInline var dirty = false
    @usableFromInline var hasSubscribers = false
    var closeRequested = false
    @usableFromInline var version: UInt64 = 0
    @usableFromInline var notifiedVersion: UInt64 = 0
    var subscribers: [(token: UInt64, callback: (UInt64) -> Void)] = []
    var nextToken: UInt64 = 1
    var pendingAdvance: Int64 = 0
    /// The version subscribers were last called with (by the dispatcher).
    var deliveredVersion: UInt64 = 0
    var ranInCall = 0
    /// The states of the last ``historyLimit`` versions, oldest first (see ``states(since:)``).
    @usableFromInline var history: VersionHistory<State>

    init(state: State, snapshot: State?) {
      self.state = state
      self.snapshot = snapshot
      // NB: an `Equatable` state's snapshot keeps version 0's state until the first change,
      // which hands it to the history (`refreshVersion`): an idle store keeps no history.
      self.history = VersionHistory(initial: snapshot == nil ? state : nil)
    }
  }

  @usableFromInline let hot: UnsafeMutablePointer<Hot>
  @usableFromInline let reducer: (inout State, Action) -> Effect<Action>
  @usableFromInline let isEqual: ((State, State) -> Bool)?
  @usableFromInline let core: StoreCore<Action>
  @usableFromInline let dependencyBox: DependencyBox

  /// A store of `reducer` from `initialState`, with a clock of `clock` kind, random numbers from
  /// `seed` (nil: a seed from the system), and dependencies changed by `withDependencies`.
  ///
  /// The state version bumps only when the state changed (compared with `==`).
  // NB: inlinable so that the reducer's closure is formed where its types are known: the store
  // then calls the feature's `reduce` directly, not through generic thunks. A reducer with a
  // body is run through its body, built once (`ReducerBodyCache`).
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    reducer: R,
    clock: StoreClock.Kind = .real,
    seed: UInt64? = nil,
    withDependencies: (inout Dependencies) -> Void = { _ in }
  ) where R.State == State, R.Action == Action, State: Equatable {
    self.init(
      initialState: initialState,
      reduce: R._hasBody ? reducer._storeBodyReduction() : reducer.reduce(into:action:),
      isEqual: (==),
      clock: clock, seed: seed, withDependencies: withDependencies)
  }

  /// A store whose state is not `Equatable`: its version bumps after every call that reduced an
  /// action, changed or not.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    reducer: R,
    clock: StoreClock.Kind = .real,
    seed: UInt64? = nil,
    withDependencies: (inout Dependencies) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState,
      reduce: R._hasBody ? reducer._storeBodyReduction() : reducer.reduce(into:action:),
      isEqual: nil,
      clock: clock, seed: seed, withDependencies: withDependencies)
  }

  @usableFromInline
  convenience init(
    initialState: State,
    reduce: @escaping (inout State, Action) -> Effect<Action>,
    isEqual: ((State, State) -> Bool)?,
    clock: StoreClock.Kind,
    seed: UInt64?,
    withDependencies: (inout Dependencies) -> Void
  ) {
    let storeClock = StoreClock(kind: clock)
    var dependencies = Dependencies(clock: storeClock, seed: seed)
    withDependencies(&dependencies)
    self.init(
      initialState: initialState, reduce: reduce, isEqual: isEqual, clock: storeClock,
      dependencies: dependencies)
  }

  init(
    initialState: State,
    reduce: @escaping (inout State, Action) -> Effect<Action>,
    isEqual: ((State, State) -> Bool)?,
    clock: StoreClock,
    dependencies: Dependencies
  ) {
    // NB: the state's shared fields take their keys' values before version 0 (docs/kernel.md,
    // "Shared state"); a state without any costs a lookup here.
    var initialState = initialState
    let shared = SharedBinding<State, Action>.make(registry: dependencies[SharedRegistryKey.self])
    shared?.bind(&initialState)
    self.hot = .allocate(capacity: 1)
    hot.initialize(to: Hot(state: initialState, snapshot: isEqual == nil ? nil : initialState))
    self.reducer = reduce
    self.isEqual = isEqual
    self.core = StoreCore(clock: clock)
    self.dependencyBox = DependencyBox(dependencies)
    shared?.attach(to: self)
  }

  deinit {
    close()
    hot.deinitialize(count: 1)
    hot.deallocate()
  }

  // MARK: - Reading

  /// The current state.
  public var state: State {
    locked { hot.pointee.state }
  }

  /// Bumps when the state changes: two reads give the same version exactly when the state did
  /// not change between them (an `Equatable` state is compared with `==`; see ``init``).
  ///
  /// Never waits for a callback, nor, in the common case, for anything: while another thread
  /// runs the store it gives the version published at the end of the last call. Only when the
  /// last call left its version to be computed (a send with no subscriber) does it wait for the
  /// run in progress, to compute it.
  // NB: inlinable, as `stateAndVersion`, so that a host's reads run specialized for the feature.
  @inlinable
  public var version: UInt64 {
    if core.isHeldByCurrentThread {
      refreshVersion()
      return hot.pointee.version
    }
    if !core.gate.tryLock() {
      if !core.versionStale.load(ordering: .acquiring) {
        return core.publishedVersion.load(ordering: .acquiring)
      }
      core.gate.lock()
    }
    refreshVersion()
    let version = hot.pointee.version
    core.gate.unlock()
    return version
  }

  /// The state at version `since` (nil when the store no longer keeps it, or never had it),
  /// the current state and its version, read together. See ``VersionHistory``.
  public func states(since: UInt64) -> (old: State?, state: State, version: UInt64) {
    locked {
      refreshVersion()
      let version = hot.pointee.version
      let old = since == version ? hot.pointee.state : hot.pointee.history.state(at: since)
      return (old, hot.pointee.state, version)
    }
  }

  /// The oldest version whose state the store keeps.
  public var oldestKeptVersion: UInt64 {
    locked { hot.pointee.history.oldestVersion ?? hot.pointee.version }
  }

  /// The state and its version, read together.
  @inlinable
  public var stateAndVersion: (state: State, version: UInt64) {
    locked {
      refreshVersion()
      return (hot.pointee.state, hot.pointee.version)
    }
  }

  /// The store's dependencies.
  public var dependencies: Dependencies { dependencyBox.dependencies }

  /// The store's clock.
  public var clock: StoreClock { core.clock }

  /// Whether ``close()`` has run.
  public var isClosed: Bool { core.isClosed }

  /// Whether a host callback unwound out of the store (a C++ exception, a longjmp): it then
  /// refuses every call. Checks first whether one of this thread's callbacks just did.
  public var isUnwound: Bool {
    DispatchControl.noticeUnwinding()
    return core.dispatch.isUnwound
  }

  // MARK: - Sending

  /// Reduces `action`, then runs everything it leads to that need not wait (semantic 1).
  ///
  /// From inside the store (a subscriber, a host callback), the action is queued and reduced
  /// before the outer call returns. After ``close()``, does nothing.
  @inlinable
  public func send(_ action: Action) {
    let core = self.core
    if core.isInsideOnCurrentThread {
      _sendFromInside(action)
      return
    }
    core.gate.lock()
    guard !core.isClosed else {
      core.gate.unlock()
      return
    }
    let previous = enter()
    // NB: answers (and sends from callbacks) accepted before this send are applied first: the
    // host's inputs are applied in the order it gave them.
    guard core.inbox.isEmpty else {
      _sendAfterQueued(action)
      leave(previous)
      core.gate.unlock()
      dispatch()
      return
    }
    hot.pointee.dirty = true
    let effect = reducer(&hot.pointee.state, action)
    // NB: the fast path: an action with no effect, in a store with nothing else going on, is
    // reduced and versioned right here (specialized in the caller's module); anything else goes
    // through the general loop.
    if effect.isNone, core.isIdle, !hot.pointee.hasSubscribers {
      versionAtEndOfCall()
    } else {
      _continueSend(consume effect, after: action)
    }
    leave(previous)
    // NB: what the call left for the host is delivered from here, the store still held for the
    // first event (see `dispatchHeld`).
    guard core.hasOutgoing || !core.inbox.isEmpty else { return core.gate.unlock() }
    dispatchHeld()
  }

  @usableFromInline
  func _sendFromInside(_ action: Action) {
    guard !core.isClosed else { return }
    if core.isHeldByCurrentThread {
      core.actions.pointee.append(action)
    } else {
      // NB: from a callback: in the one queue of host inputs, after any answer given before it.
      core.inbox.push { [unowned(unsafe) self] in
        // NB: unowned: the inbox is dropped when the store closes (deinit closes first), and
        // the items a close runs find it closed.
        guard !self.core.isClosed else { return }
        self.reduce(action)
      }
    }
  }

  /// The general path of `send`, once its action is reduced.
  @usableFromInline
  func _continueSend(_ effect: __owned Effect<Action>, after action: Action) {
    hot.pointee.ranInCall = 1
    run(consume effect, of: action)
    finishCall()
  }

  /// `send` when inputs wait: they go first, then `action`.
  @usableFromInline
  func _sendAfterQueued(_ action: Action) {
    hot.pointee.ranInCall = 0
    drain()
    if !core.isClosed { reduce(action) }
    finishCall()
  }

  /// Runs whatever is due (semantic 3) and returns how much ran: actions reduced, timers fired,
  /// answers applied, effect jobs run. 0 from inside the store or after ``close()``.
  @discardableResult
  public func poll() -> Int {
    hold {
      // NB: a `.fileStorage` file changed by another process is noticed here.
      dependencyBox.sharedScope?.checkFiles()
      return drain()
    } ?? 0
  }

  /// Moves a manual clock forward by `duration`, firing due timers in deadline order, each
  /// followed by the work it releases. Returns how much ran (as ``poll()``).
  ///
  /// From inside the store, the advance is queued and happens before the outer call returns.
  @discardableResult
  public func advance(by duration: Duration) throws(StoreError) -> Int {
    guard core.clock.kind == .manual else { throw .realClock }
    guard !core.isClosed else { throw .closed }
    let nanoseconds = max(0, duration.saturatingNanoseconds)
    if core.isInsideOnCurrentThread {
      locked {
        hot.pointee.pendingAdvance = hot.pointee.pendingAdvance.saturatingAdd(nanoseconds)
      }
      return 0
    }
    return hold { runAdvance(nanoseconds) } ?? 0
  }

  /// How long until the next timer is due (zero if one is due now), or nil if none is pending.
  public var nextDeadline: Duration? {
    guard let deadline = core.clock.madeTimers?.earliestDeadline else { return nil }
    return .nanoseconds(max(0, deadline.saturatingSubtract(core.clock.nowNanoseconds)))
  }

  // MARK: - Subscribers

  /// Calls `callback` with the new version after each call that changed the state, with no lock
  /// of the store held, on that call's thread (or on the thread already delivering the store's
  /// callbacks, see ``dispatch()``). Returns a token for ``unsubscribe(_:)``.
  @discardableResult
  public func subscribe(_ callback: @escaping (UInt64) -> Void) -> UInt64 {
    locked {
      let token = hot.pointee.nextToken
      hot.pointee.nextToken &+= 1
      hot.pointee.subscribers.append((token, callback))
      hot.pointee.hasSubscribers = true
      return token
    }
  }

  /// Stops the subscription `token`; false if there is none. If another thread is inside a
  /// callback of the store, waits for it to return.
  @discardableResult
  public func unsubscribe(_ token: UInt64) -> Bool {
    let removed = locked { () -> Bool in
      guard let index = hot.pointee.subscribers.firstIndex(where: { $0.token == token }) else {
        return false
      }
      hot.pointee.subscribers.remove(at: index)
      hot.pointee.hasSubscribers = !hot.pointee.subscribers.isEmpty
      return true
    }
    core.dispatch.waitForOtherThread(untilIdle: false)
    return removed
  }

  // MARK: - Wake descriptor

  /// A descriptor readable exactly when ``poll()`` would do something (semantic 5): made on
  /// first call, owned by the store, closed by ``close()``. Never waits for a call in progress.
  public func fileDescriptor() throws(StoreError) -> Int32 {
    let made = core.wakeFD.load(ordering: .acquiring)
    if made >= 0 && !core.isClosed { return made }
    core.wakeLock.lock()
    defer { core.wakeLock.unlock() }
    do {
      guard !core.isClosed else { throw .closed }
      if let wake = core.wake { return wake.fd }
      guard let wake = WakeDescriptor() else {
        throw .system("cannot make the store's wake descriptor (eventfd/timerfd/epoll failed)")
      }
      core.wake = wake
      core.wakeOpen.store(true, ordering: .relaxed)
      core.inbox.watch(eventFD: wake.eventFD)
      if core.clock.kind == .real { wake.arm(core.clock.madeTimers?.earliestDeadline) }
      core.wakeFD.store(wake.fd, ordering: .releasing)
      return wake.fd
    }
  }

  // MARK: - Closing

  /// Cancels every effect, tells the host of each request in flight, and ends the store: later
  /// calls do nothing or throw `.closed`. From inside the store, happens when the outer call ends.
  /// Else waits for a callback running on another thread, and tells the host of each request
  /// in flight before returning: no callback runs after it returns.
  public func close() {
    if core.isInsideOnCurrentThread {
      locked { hot.pointee.closeRequested = true }
      return
    }
    _ = hold { hot.pointee.closeRequested = true }
    // NB: the cancellations it made are delivered by this thread, once no other is delivering.
    repeat {
      core.dispatch.waitForOtherThread(untilIdle: true)
      dispatch()
    } while core.hasOutgoing && !core.dispatch.isUnwound
    locked { core.setHandler(nil) }
  }

  // MARK: - The running call (holder)

  /// Runs `body` with the store's parts to itself, without making it a call (no work is run):
  /// directly from inside the store, else under its lock.
  @inlinable
  func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    if core.isHeldByCurrentThread { return try body() }
    core.gate.lock()
    defer { core.gate.unlock() }
    return try body()
  }

  /// Runs `body` holding the store, then finishes the call and delivers what it left for the
  /// host; nil from inside the store (holding it, or inside its callbacks).
  func hold<R>(_ body: () -> R) -> R? {
    if core.isInsideOnCurrentThread { return nil }
    core.gate.lock()
    let previous = enter()
    hot.pointee.ranInCall = 0
    let result = body()
    finishCall()
    leave(previous)
    core.gate.unlock()
    dispatch()
    return result
  }

  @inlinable
  func enter() -> UnsafeMutableRawPointer? {
    core.inbox.owner.store(currentThreadID(), ordering: .relaxed)
    return DependencyContext.enter(dependencyBox, key: dependencyBox.key)
  }

  @inlinable
  func leave(_ previous: UnsafeMutableRawPointer?) {
    DependencyContext.restore(previous, key: dependencyBox.key)
    core.inbox.owner.store(0, ordering: .relaxed)
  }

  private func reduce(_ action: Action) {
    hot.pointee.dirty = true
    hot.pointee.ranInCall += 1
    run(reducer(&hot.pointee.state, action), of: action)
  }

  private func run(_ effect: __owned Effect<Action>, of action: Action) {
    // NB: asked of the effect, not switched on here: a switch binding the operation's payload
    // copied the whole operation (a retain and a release of the request it carries).
    if effect.isNone { return }
    if let next = effect.sentAction { return core.actions.pointee.append(next) }
    // NB: the origin cleared only if set: clearing it always reached the core's extras (a
    // retain and a release) on every effect.
    guard core.recordsOrigins else {
      return core.startAtRoot(consume effect)
    }
    core.origin = Dump.text(of: action, qualifyEnum: true)
    core.start(effect, in: core.root, sink: nil, done: nil)
    core.origin = nil
  }

  /// Runs everything that need not wait; returns how much ran.
  @discardableResult
  private func drain() -> Int {
    let before = hot.pointee.ranInCall
    while !core.isClosed {
      if let action = core.actions.pointee.popFirst() {
        reduce(action)
        continue
      }
      // NB: the core is its own inbox (see `StoreCore.inbox`).
      if !core.isEmpty {
        if core.takeDirectAnswer() {
          hot.pointee.ranInCall += 1
          continue
        }
        if let item = core.popItem() {
          hot.pointee.ranInCall += 1
          item()
          continue
        }
        if let job = core.popJob() {
          hot.pointee.ranInCall += 1
          core.executor.run(job)
          continue
        }
      }
      if !core.hasNoTimers, fireDueTimer() { continue }
      break
    }
    return hot.pointee.ranInCall - before
  }

  /// Fires the earliest timer if it is due (and the clock fires them here); returns whether one
  /// fired.
  ///
  /// NB: apart from `drain`, so that a store with no timer does not retain and release its
  /// clock for the calls below at each step.
  @inline(never)
  private func fireDueTimer() -> Bool {
    let clock = core.clock
    guard clock.firesDueTimers, let timer = clock.madeTimers?.popDue(now: clock.nowNanoseconds)
    else { return false }
    hot.pointee.ranInCall += 1
    core.fire(timer)
    return true
  }

  private func runAdvance(_ nanoseconds: Int64) -> Int {
    let clock = core.clock
    let target = clock.nowNanoseconds.saturatingAdd(nanoseconds)
    // NB: a manual clock's timers fire only in here (see `StoreClock`).
    clock.isAdvancing = true
    defer { clock.isAdvancing = false }
    var ran = drain()
    while !core.isClosed, let deadline = clock.madeTimers?.earliestDeadline, deadline <= target {
      clock.setManualNow(deadline)
      ran += drain()
    }
    clock.setManualNow(target)
    return ran + drain()
  }

  var hasWork: Bool {
    guard !core.isClosed else { return false }
    if !core.actions.pointee.isEmpty || !core.isEmpty || hot.pointee.pendingAdvance > 0 {
      return true
    }
    return !core.hasNoTimers && hasDueTimer()
  }

  /// Whether the earliest timer is due and the clock fires it here (see `fireDueTimer`).
  @inline(never)
  private func hasDueTimer() -> Bool {
    let clock = core.clock
    guard clock.firesDueTimers, let deadline = clock.madeTimers?.earliestDeadline else {
      return false
    }
    return deadline <= clock.nowNanoseconds
  }

  /// Ends a call: runs everything left, queues the subscribers' notification, closes if asked,
  /// settles the fd.
  func finishCall() {
    repeat {
      drain()
      // NB: no `continue` after the advance: in a repeat-while it would test the loop's condition,
      // which is false once the advance has run everything, and skip telling the subscribers of
      // what it changed (an advance queued by a subscriber went unreported until the next call).
      if hot.pointee.pendingAdvance > 0 {
        let nanoseconds = hot.pointee.pendingAdvance
        hot.pointee.pendingAdvance = 0
        _ = runAdvance(nanoseconds)
      }
    } while hasWork && !hot.pointee.closeRequested
    versionAtEndOfCall()
    let version = hot.pointee.version
    if version != hot.pointee.notifiedVersion && !core.isClosed {
      hot.pointee.notifiedVersion = version
      core.post(.notify)
    }
    if hot.pointee.closeRequested {
      core.close()
      hot.pointee.subscribers.removeAll()
      hot.pointee.hasSubscribers = false
      refreshVersion()
    }
    settleWake()
  }

  /// Brings the version up to date: compares the state with the one the version was last
  /// computed for (`Equatable` states), or counts the reduction (other states).
  @inlinable
  func refreshVersion() {
    guard hot.pointee.dirty else { return }
    hot.pointee.dirty = false
    // NB: the published version is current again (bumped below, or the state came back equal).
    defer { core.versionStale.store(false, ordering: .releasing) }
    var previous: State?
    if let isEqual {
      if let snapshot = hot.pointee.snapshot, isEqual(snapshot, hot.pointee.state) { return }
      // NB: the snapshot is the state of the version before this one: the history's first
      // entry when it has none yet (see `Hot.init`).
      if hot.pointee.history.entries.isEmpty { previous = hot.pointee.snapshot }
      hot.pointee.snapshot = hot.pointee.state
    }
    hot.pointee.version &+= 1
    hot.pointee.history.record(hot.pointee.state, at: hot.pointee.version, previous: previous)
    core.publishedVersion.store(hot.pointee.version, ordering: .releasing)
    // NB: with no subscriber, the notification is due at once (there is no one to call).
    if !hot.pointee.hasSubscribers { hot.pointee.notifiedVersion = hot.pointee.version }
  }

  /// The version work at the end of a call.
  ///
  /// NB: an `Equatable` state is compared only when its version is needed: at the end of each
  /// call if there are subscribers, else when `version` is read. The comparison keeps a copy of
  /// the state it compared, so the next change to a large collection copies it once (copy on
  /// write): a loop of sends that nobody observes pays that once, not per send.
  @inlinable
  func versionAtEndOfCall() {
    if isEqual == nil || hot.pointee.hasSubscribers {
      refreshVersion()
    } else if hot.pointee.dirty {
      // NB: left for the next read; `version` then computes it rather than give the published.
      core.versionStale.store(true, ordering: .releasing)
    }
  }

  private func settleWake() {
    guard core.wakeOpen.load(ordering: .relaxed) else { return }
    core.wakeLock.withLock {
      guard let wake = core.wake else { return }
      core.inbox.settleWake()
      if core.clock.kind == .real { wake.arm(core.clock.madeTimers?.earliestDeadline) }
    }
  }
}

extension Store {
  /// Cancels every running effect (the store stays open).
  func cancelAllEffects() {
    let cancel = { [self] in
      for child in core.root.orderedChildren { core.cancel(child) }
    }
    if core.isHeldByCurrentThread {
      cancel()
    } else if core.isInsideOnCurrentThread {
      locked(cancel)
    } else {
      _ = hold(cancel)
    }
  }

  /// Descriptions of the effects still running, for a test store's failure messages.
  func inFlightEffects() -> [String] {
    locked {
      core.liveLeaves.map { leaf in
        leaf.summary + (leaf.origin.map { ", started by \($0)" } ?? "")
      }
    }
  }
}
