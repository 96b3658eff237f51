import Synchronization

/// Lets a presented child (``PresentationState``) or a stack element (``StackState``) dismiss
/// itself from an effect: the parent's `ifLet` then receives ``PresentationAction/dismiss`` (a
/// stack's `forEach`, ``StackAction/popFrom(id:)`` for the element), sets the child's state to
/// nil and cancels the child's effects, this one included. A plain `ifLet` or `forEach` child
/// dismisses whatever presents its parent.
///
///     struct History: Reducer {
///       @Dependency(\.dismiss) var dismiss
///       …
///       case .closeButtonTapped:
///         return .run { _ in await dismiss() }
///     }
///
/// Called by an effect of the feature at the root of a store (nothing presents it), it
/// dismisses the store's feature, as upstream: a ``Store`` tells its host, with the
/// fire-and-forget host request `"dismiss"` (payload `{}`), so that it can close the window or
/// screen that shows it; a ``TestStore`` is dismissed (its effects are cancelled, and a later
/// `send` fails). Called outside a store's effect, or by an effect that has ended, it does
/// nothing.
public struct DismissEffect: Sendable {
  @usableFromInline let dismiss: (@Sendable () async -> Void)?

  /// The dismissal of whatever presents the calling effect.
  public init() { self.dismiss = nil }

  /// A dismissal that runs `dismiss` (for tests: `$0.dismiss = DismissEffect { … }`).
  public init(_ dismiss: @escaping @Sendable () async -> Void) { self.dismiss = dismiss }

  /// Dismisses the child whose effect calls it (at the root, the store's feature).
  public func callAsFunction() async {
    if let dismiss {
      await dismiss()
    } else if let presented = DismissRegistry.current() {
      await presented()
    } else if let leaf = TaskLeaf.current, let host = leaf.host {
      // NB: the store decides whether the effect runs at the root: a task of a presented
      // child's effect that is not the effect's own (`Task { … }`, a task group's) finds no
      // dismissal here, and must not dismiss the store's feature.
      host.dismissFromEffect(leaf)
    }
  }
}

extension EffectNode {
  /// Whether the node runs inside a presented child's or a stack element's effects (a region
  /// of its `ifLet` or `forEach`): a `dismiss()` there is not the root feature's.
  var isInsideDismissibleChild: Bool {
    var region = parent
    while let current = region {
      if let id = current.cancelID, id.namesDismissibleChild { return true }
      region = current.parent
    }
    return false
  }
}

extension CancelID {
  /// Whether this is the namespace of a presented child or a stack element (however deep).
  var namesDismissibleChild: Bool { navigationID?.isDismissible == true }
}

/// Which dismissal each running effect task has: what `ifLet` and `forEach` set around their
/// children's `.run` work, the innermost last.
///
/// NB: not a `@TaskLocal`: pushing a task-local value crashes inside the statically linked
/// concurrency runtime of libtca.so when the task runs on the store's host-drained executor
/// (swift_task_localValuePush). A table keyed by the current task does the same here: the task
/// is alive while its entries are (they are removed before the work returns).
enum DismissRegistry {
  typealias Dismissal = @Sendable () async -> Void

  private static let table = Mutex<[Int: [Dismissal]]>([:])

  /// The current task's key: its address (unique while it runs).
  private static func currentKey() -> Int? {
    withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: Int.self) } }
  }

  /// Runs `operation` with `dismissal` as the current task's dismissal.
  static func with(_ dismissal: @escaping Dismissal, _ operation: () async -> Void) async {
    guard let key = currentKey() else { return await operation() }
    table.withLock { $0[key, default: []].append(dismissal) }
    await operation()
    table.withLock { table in
      table[key]?.removeLast()
      if table[key]?.isEmpty == true { table[key] = nil }
    }
  }

  /// The current task's innermost dismissal, if any.
  static func current() -> Dismissal? {
    guard let key = currentKey() else { return nil }
    return table.withLock { $0[key]?.last }
  }
}

private enum DismissKey: DependencyKey {
  static var defaultValue: DismissEffect { DismissEffect() }
}

extension Dependencies {
  /// Dismisses the presented child or stack element whose effect calls it (``DismissEffect``).
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }
}

extension Effect {
  /// Runs the effect's `.run` work with ``DismissEffect`` calling `dismiss` (with the effect's
  /// own `send`).
  @usableFromInline
  func dismissing(with dismiss: @escaping @Sendable (Send<Action>) async -> Void) -> Effect {
    switch operation {
    case .none, .send, .cancel, .sleep, .request, .cancellableRequest:
      return self
    case let .run(run):
      return Effect(
        operation: .run(
          Run { send in
            await DismissRegistry.with({ await dismiss(send) }) {
              await run.operation(send)
            }
          }))
    case let .merge(effects):
      return Effect(operation: .merge(effects.map { $0.dismissing(with: dismiss) }))
    case let .concatenate(effects):
      return Effect(operation: .concatenate(effects.map { $0.dismissing(with: dismiss) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.dismissing(with: dismiss)))
    case let .throttle(id, interval, latest, effect):
      return Effect(
        operation: .throttle(
          id: id, interval: interval, latest: latest, effect.dismissing(with: dismiss)))
    }
  }
}
