/// Runs `operation` cancellable by `id`, from inside an effect: `.cancel(id:)` from a reducer, or
/// ``_Concurrency/Task/cancel(id:)`` from another effect, cancels it.
///
///     return .run { send in
///       try await withTaskCancellation(id: CancelID.load, cancelInFlight: true) {
///         try await clock.sleep(for: .seconds(1))
///         await send(.loaded)
///       }
///     }
///
/// With `cancelInFlight`, work already running under `id` is cancelled first. A cancelled
/// `operation` throws `CancellationError` (which ends a `.run` quietly). Outside a store's
/// effect, `operation` simply runs.
///
/// Inside a child's effect (`ifLet`, `forEach`…), `id` is the child's, as its `.cancellable`
/// ids are: the child's `.cancel(id:)` and its parent's reach it, a sibling's does not.
///
/// NB: `operation` runs in a task of its own on the store's executor (as upstream, which runs it
/// in an unstructured task): hence `@escaping` and `throws` rather than `rethrows`.
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  guard let leaf = TaskLeaf.current, let host = leaf.host, host.isHeldByCurrentThread else {
    return try await operation()
  }
  let result = ResultBox<T>()
  // NB: the operation's task is not the effect's: it gets the effect's dismissal (if it is a
  // presented child's) itself.
  let dismissal = DismissRegistry.current()
  let task = host.spawn(id: CancelID(id), cancelInFlight: cancelInFlight, from: leaf) {
    let run: @Sendable () async -> Void = {
      do {
        result.value = .success(try await operation())
      } catch {
        result.value = .failure(error)
      }
    }
    if let dismissal { await DismissRegistry.with(dismissal, run) } else { await run() }
  }
  await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
  guard let value = result.value else { throw CancellationError() }
  return try value.get()
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the effects running under `id` in the store whose effect calls it (as the
  /// reducer that returned the effect would with `.cancel(id:)`: in a child, the child's `id`);
  /// outside a store's effect, does nothing.
  ///
  ///     return .run { _ in
  ///       Task.cancel(id: CancelID.timer)
  ///     }
  public static func cancel(id: some Hashable & Sendable) {
    guard let leaf = TaskLeaf.current, let host = leaf.host else { return }
    host.cancelFromEffect(id: CancelID(id), from: leaf)
  }
}

/// The store side of ``withTaskCancellation(id:cancelInFlight:operation:)``.
protocol EffectHost: AnyObject, Sendable {
  var isHeldByCurrentThread: Bool { get }
  /// Starts `operation` in a task cancellable by `id`, inside `leaf`'s region (holder only).
  func spawn(
    id: CancelID, cancelInFlight: Bool, from leaf: TaskLeaf,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never>
  /// Cancels the effects under `id` (inside the namespace of the child `leaf` runs in), now on
  /// the holder or queued for it.
  func cancelFromEffect(id: CancelID, from leaf: TaskLeaf)
  /// A `dismiss()` from `leaf`'s effect that no presentation answered: the root feature's, if
  /// `leaf` runs (still) outside every presented child (``DismissEffect``).
  func dismissFromEffect(_ leaf: TaskLeaf)
  /// Opens the request `awaiter` describes in its task's region, now on the holder or queued for
  /// it; resumes the task at once if that region or the store is gone (``Send/request``).
  func openAwaited(_ awaiter: AwaitedRequest)
  /// Cancels the request `awaiter` waits on (its task was cancelled), now on the holder or
  /// queued for it.
  func cancelAwaited(_ awaiter: AwaitedRequest)
}

/// The outcome of an operation run in a task of its own.
private final class ResultBox<T>: @unchecked Sendable {
  // NB: written by the operation's task, read after awaiting it.
  var value: Result<T, any Error>?
}
