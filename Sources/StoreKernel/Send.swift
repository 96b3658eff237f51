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
  let unhandled: @Sendable (any Error) -> Void

  init(
    emit: @escaping @Sendable (Action) -> Void,
    isCancelled: @escaping @Sendable () -> Bool,
    unhandled: @escaping @Sendable (any Error) -> Void
  ) {
    self.emit = emit
    self.cancelled = isCancelled
    self.unhandled = unhandled
  }

  /// Sends `action` to the store; it is reduced before this effect runs again.
  ///
  /// NB: `async` and nonisolated, like upstream's call sites (`await send(…)`): called from an
  /// actor, it hops back to the store's executor before touching the store. It then suspends:
  /// the store reduces the actions waiting (this one, and what its effects feed back at once)
  /// before it runs the effect's next job, so a `.run` that sends `b1` then `c1` sees `b1`'s
  /// `.send`s reduced before `c1`, as upstream.
  public func callAsFunction(_ action: Action) async {
    emit(action)
    await Task.yield()
  }

  /// Whether the effect has been cancelled (sends are then ignored).
  public var isCancelled: Bool { cancelled() }

  /// Transforms the actions before they are sent.
  func pullback<T>(_ transform: @escaping @Sendable (T) -> Action) -> Send<T> {
    let emit = self.emit
    return Send<T>(emit: { emit(transform($0)) }, isCancelled: cancelled, unhandled: unhandled)
  }
}

/// Where an effect was made (`.run`'s call site), for failures about it.
@usableFromInline
struct EffectPlace: Sendable, CustomStringConvertible {
  var fileID: String
  var filePath: String
  var line: Int
  var column: Int

  @usableFromInline
  var description: String { "\(fileID):\(line)" }
}
