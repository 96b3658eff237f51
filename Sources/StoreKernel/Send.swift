/// Feeds actions from an ``Effect/run(operation:catch:)`` effect back into the store.
///
///     return .run { send in
///       for await tick in ticks {
///         await send(.tick(tick))
///       }
///     }
///
/// Once the effect is cancelled, sending does nothing.
public struct Send<Action>: Sendable {
  @usableFromInline
  let emit: @Sendable (Action) -> Void
  let cancelled: @Sendable () -> Bool
  let trace: @Sendable (String) -> Void

  init(
    emit: @escaping @Sendable (Action) -> Void,
    isCancelled: @escaping @Sendable () -> Bool,
    trace: @escaping @Sendable (String) -> Void
  ) {
    self.emit = emit
    self.cancelled = isCancelled
    self.trace = trace
  }

  /// Sends `action` to the store; it is reduced before this effect runs again.
  ///
  /// NB: `async` and nonisolated, like upstream's call sites (`await send(…)`): called from an
  /// actor, it hops back to the store's executor before touching the store.
  public func callAsFunction(_ action: Action) async {
    emit(action)
  }

  /// Whether the effect has been cancelled (sends are then ignored).
  public var isCancelled: Bool { cancelled() }

  /// Transforms the actions before they are sent.
  func pullback<T>(_ transform: @escaping @Sendable (T) -> Action) -> Send<T> {
    let emit = self.emit
    return Send<T>(emit: { emit(transform($0)) }, isCancelled: cancelled, trace: trace)
  }

  func report(_ message: String) { trace(message) }
}
