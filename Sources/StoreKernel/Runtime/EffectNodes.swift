/// A running effect's place in its store's tree of effects: regions (cancellation scopes) hold
/// leaves (a task, a timer, a host request) and other regions.
///
/// NB: touched only by the thread holding the store.
@usableFromInline
class EffectNode: @unchecked Sendable {
  /// The region the node runs in; nil once it has finished.
  var parent: Region?
  /// Done once when the node finishes (how `concatenate` and `merge` know to go on).
  var done: Completion?
  /// The action whose effect started the node, for test diagnostics.
  var origin: String?
  /// When the node started, in the store's order: cancellation goes in this order.
  var sequence: UInt64 = 0
  /// The next and previous children of `parent` (its list of children, oldest first).
  ///
  /// NB: an intrusive list, not a dictionary per region: attaching and detaching a node costs
  /// no hashing and no allocation. `previous` is unowned: the list holds each node through its
  /// predecessor's `next` (or the region's `firstChild`).
  fileprivate(set) var next: EffectNode?
  fileprivate(set) unowned(unsafe) var previous: EffectNode?
  /// The cancellation id the node runs under, registered with its store: a region of
  /// `.cancellable(id:)`, or a host request that is the whole body of one (it needs no region of
  /// its own); nil for the others.
  var cancelID: CancelID? { didSet { cancelIdentity = cancelID?.identity ?? 0 } }
  /// `cancelID`'s ``CancelID/identity`` (0 for none): what ``CancelRegistry`` compares first.
  private(set) var cancelIdentity: UInt = 0
  /// The next and previous nodes registered under the same `cancelID` (``StoreCore`` keeps the
  /// oldest).
  var nextWithSameID: EffectNode?
  unowned(unsafe) var previousWithSameID: EffectNode?

  /// What the node is, for test diagnostics.
  var summary: String { "an effect" }

  /// Whether `node` runs inside this node (or is it).
  final func isAncestor(of node: EffectNode) -> Bool {
    var current: EffectNode? = node
    while let candidate = current {
      if candidate === self { return true }
      current = candidate.parent
    }
    return false
  }
}

/// What a store does when an effect completes (``StoreCore/complete(_:)``).
enum Completion {
  /// Calls the function (a `merge` counting down, a `concatenate` going on).
  case call(() -> Void)
  /// The body of the region (a `.cancellable` effect) is done: the region finishes once
  /// nothing runs in it.
  ///
  /// NB: holds the region strongly: a leaf's completion is cleared when it finishes (or is
  /// cancelled), which breaks the cycle through the region's children.
  case body(Region)
}

/// A cancellation scope: the root of a store's effects, or the inside of `.cancellable(id:)`.
///
/// A region finishes when its body (the effect started in it) is done and it has no children left.
final class Region: EffectNode, @unchecked Sendable {
  /// The oldest and newest children (nil: none).
  private(set) var firstChild: EffectNode?
  private(set) unowned(unsafe) var lastChild: EffectNode?
  var isCancelled = false
  var bodyDone = false
  var finished = false
  /// The concatenation that is the region's body, while it runs (a debounce's wait, then its
  /// effect): what lets ``StoreCore`` restart a waiting debounce in place.
  ///
  /// NB: unowned(unsafe), not weak (no side table per region): the concatenation clears it
  /// when it goes away (it holds the region, so the region outlives it).
  unowned(unsafe) var body: AnyObject?

  init(id: CancelID?) {
    super.init()
    cancelID = id
  }

  deinit {
    // NB: unlinked one at a time: releasing a long list through its `next` links would recurse
    // once per node.
    var node = firstChild
    firstChild = nil
    while let current = node {
      node = current.next
      current.next = nil
    }
  }

  /// Whether nothing runs in the region.
  var hasNoChildren: Bool { firstChild == nil }

  /// Adds `node` as the newest child.
  func append(_ node: __owned EffectNode) {
    node.previous = lastChild
    node.next = nil
    lastChild = node
    if let last = node.previous { last.next = node } else { firstChild = node }
  }

  /// Removes `node`, a child of this region.
  func remove(_ node: EffectNode) {
    let (previous, next) = (node.previous, node.next)
    if let next { next.previous = previous } else { lastChild = previous }
    if let previous { previous.next = next } else { firstChild = next }
    node.previous = nil
    node.next = nil
  }

  /// The children, oldest first.
  var orderedChildren: [EffectNode] {
    var children: [EffectNode] = []
    var node = firstChild
    while let current = node {
      children.append(current)
      node = current.next
    }
    return children
  }

  override var summary: String { cancelID.map { "effects cancellable by \($0)" } ?? "effects" }
}

/// The task of a `.run` effect.
final class TaskLeaf: EffectNode, @unchecked Sendable {
  var task: Task<Void, Never>?
  var isCancelled = false
  /// Where the `.run` was made.
  var place: EffectPlace?
  /// The store running it, for `withTaskCancellation(id:)` and `Task.cancel(id:)`.
  weak var host: (any EffectHost)?

  /// The leaf of the `.run` whose task is running.
  @TaskLocal static var current: TaskLeaf?

  override var summary: String { "a .run effect" }
}

/// A wait on the store's clock (debounce, a throttled action held back).
final class TimerLeaf: EffectNode, @unchecked Sendable {
  /// Its timer in the store's queue (nil until scheduled).
  var timer: TimerQueue.Ticket?
  /// When it fires; moved when a waiting debounce is restarted in place.
  var deadline: Int64
  /// The duration of the debounce restarted last in this timer, in nanoseconds.
  ///
  /// NB: `Duration.components` divides 128-bit numbers; a debounce is restarted with the same
  /// duration every time.
  var restartedFor: (duration: Duration, nanoseconds: Int64)?

  init(deadline: Int64) { self.deadline = deadline }

  override var summary: String { "a timer due at \(Duration.nanoseconds(deadline))" }
}

/// Holds back actions of a `.throttle(id:for:latest:)` effect (upstream's semantics).
final class ThrottleSink<Action>: @unchecked Sendable {
  unowned let core: StoreCore<Action>
  let id: CancelID
  let interval: Int64
  let latest: Bool
  let region: Region
  let downstream: ThrottleSink?

  init(
    core: StoreCore<Action>, id: CancelID, interval: Int64, latest: Bool, region: Region,
    downstream: ThrottleSink?
  ) {
    self.core = core
    self.id = id
    self.interval = interval
    self.latest = latest
    self.region = region
    self.downstream = downstream
  }

  func receive(_ action: Action) {
    let core = self.core
    let now = core.clock.nowNanoseconds
    guard let last = core.throttles[id] else {
      core.throttles[id] = ThrottleState(time: now, pending: nil)
      core.emit(action, to: downstream)
      return
    }
    let value = latest ? action : (last.pending ?? action)
    core.throttles[id]?.pending = value
    guard now.saturatingSubtract(last.time) < interval else {
      core.throttles[id] = ThrottleState(time: now, pending: nil)
      core.emit(value, to: downstream)
      return
    }
    let (id, downstream) = (self.id, self.downstream)
    core.startTimer(at: last.time.saturatingAdd(interval), in: region, done: nil) {
      core.throttles[id] = ThrottleState(time: core.clock.nowNanoseconds, pending: nil)
      core.emit(value, to: downstream)
    }
  }
}

struct ThrottleState<Action> {
  var time: Int64
  var pending: Action?
}
