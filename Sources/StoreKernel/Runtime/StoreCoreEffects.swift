import Synchronization

/// Something an effect did wrong: written to the trace, and passed to the core's
/// `issueHandler` (a test store's failures).
enum EffectIssue {
  /// A `.run` threw an error other than cancellation and has no `catch` handler.
  case unhandledError(String)
  /// A `.run`'s `send` was called after the effect had completed.
  case sentAfterCompletion(String)
}

/// Running effects: the tree of regions and leaves, tasks, timers and concatenations.
extension StoreCore {
  // MARK: - Running effects (holder)

  /// Starts `effect` in `region`; calls `done` once it has completed, possibly before returning.
  ///
  /// NB: `effect` is consumed: the request (or box) it carries goes on without a retain and a
  /// release at each step (docs/benchmarks.md: the effect round trip).
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
      // to get there (a copy of the request each way; docs/benchmarks.md: the effect round trip).
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
  func startCancellable(
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
    // under the id itself: a region around it would only hold it (docs/benchmarks.md: the effect
    // round trip). Cancelling either cancels the request; its completion is the region's.
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
  func restartWaiting(
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
  func restamp(_ node: EffectNode) {
    nextSequence &+= 1
    node.sequence = nextSequence
    node.origin = origin
  }

  func attach(_ node: __owned EffectNode, to region: Region) {
    nextSequence &+= 1
    node.sequence = nextSequence
    node.parent = region
    // NB: a new node has none: set only when origins are recorded (read through the extras, it
    // retained and released the nil string of every node; docs/benchmarks.md: the effect round
    // trip).
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

  func startTask(
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
  func emit(_ action: Action, from leaf: TaskLeaf, sink: ThrottleSink<Action>?) {
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

  func raise(_ issue: Issue, from leaf: TaskLeaf) {
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
