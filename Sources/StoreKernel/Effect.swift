/// Work a reducer asks the store to do after it has changed state: feed actions back, run async
/// work, wait on the store's clock, ask the host to do something.
///
///     case .numberFactButtonTapped:
///       return .request("numberFact.fetch", payload: state.count, as: String.self) {
///         .numberFactResponse($0)
///       } failure: {
///         .numberFactFailed($0.message)
///       }
///
/// An effect is a value: nothing happens until the store runs it, after the reducer returns.
public struct Effect<Action> {
  // NB: every case but `none`, `send` and `request` (an object) is `indirect` (boxed): the enum
  // is then an action or a pointer, so the store copies and destroys effects without the
  // generic value witnesses a wide multi-payload enum needs. That keeps `send` cheap for the
  // common `.none`.
  @usableFromInline
  enum Operation {
    case none
    case send(Action)
    indirect case merge([Effect])
    indirect case concatenate([Effect])
    indirect case run(Run)
    indirect case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    indirect case cancel(id: CancelID)
    /// Completes after the duration, on the store's clock (the building block of debounce).
    indirect case sleep(Duration)
    indirect case throttle(id: CancelID, interval: Duration, latest: Bool, Effect)
    /// NB: not `indirect`: the request is an object already (one pointer, no box of its own).
    case request(HostRequest<Action>)
    /// `.cancellable(id: request.foldedID, cancelInFlight: request.foldedCancelInFlight,
    /// .request(request))`, the cancellation kept in the request (see `HostRequest.fold`).
    ///
    /// NB: the usual `.request(…).cancellable(id:)` then makes no box around the request
    /// (docs/benchmarks.md: the effect round trip).
    case cancellableRequest(HostRequest<Action>)
  }

  @usableFromInline
  struct Run: Sendable {
    var place: EffectPlace? = nil
    let operation: @Sendable (Send<Action>) async -> Void
  }

  @usableFromInline
  let operation: Operation

  @inlinable
  init(operation: Operation) { self.operation = operation }

  /// No effect.
  @inlinable
  public static var none: Effect { Effect(operation: .none) }

  /// Whether this is `.none`.
  @inlinable
  var isNone: Bool {
    switch operation {
    case .none: return true
    default: return false
    }
  }

  /// The action of a `.send(action)`, nil for any other effect.
  @inlinable
  var sentAction: Action? {
    if case let .send(action) = operation { return action }
    return nil
  }

  /// Feeds `action` back into the store, after the current action.
  ///
  ///     return .send(.delegate(.finished))
  @inlinable
  public static func send(_ action: Action) -> Effect { Effect(operation: .send(action)) }

  /// Runs async work on the store's executor; `send` feeds actions back.
  ///
  ///     return .run { send in
  ///       try await clock.sleep(for: .seconds(1))
  ///       await send(.timerTicked)
  ///     }
  ///
  /// The work runs only inside the store's `send`/`poll`/`advance`/`respond` calls, on the
  /// calling thread. Once the effect is cancelled, `send` does nothing and sleeps on the store's
  /// clock throw `CancellationError`. An error other than cancellation goes to `handler`; if there
  /// is none, it is written to the store's trace, and a ``TestStore`` fails.
  public static func run(
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Effect {
    Effect(
      operation: .run(
        Run(
          place: EffectPlace(
            fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        ) { send in
          do {
            try await operation(send)
          } catch is CancellationError {
            // NB: cancellation ends the effect quietly, as upstream.
          } catch {
            if let handler {
              await handler(error, send)
            } else {
              send.unhandled(error)
            }
          }
        }))
  }

  /// Runs `effects` side by side. Actions they send arrive in the order they are sent.
  @inlinable
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  /// Runs `effects` side by side.
  @inlinable
  public static func merge(_ effects: some Sequence<Effect>) -> Effect {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// Runs this effect and `other` side by side.
  @inlinable
  public func merge(with other: Effect) -> Effect {
    // NB: `.none` first, without copying both operations into a tuple (an effect is as large
    // as its action).
    if other.isNone { return self }
    if isNone { return other }
    switch (operation, other.operation) {
    case (.none, _): return other
    case (_, .none): return self
    case let (.merge(lhs), .merge(rhs)): return Effect(operation: .merge(lhs + rhs))
    case let (.merge(lhs), _): return Effect(operation: .merge(lhs + [other]))
    case let (_, .merge(rhs)): return Effect(operation: .merge([self] + rhs))
    default: return Effect(operation: .merge([self, other]))
    }
  }

  /// Runs `effects` one after the other: each starts when the one before has completed.
  @inlinable
  public static func concatenate(_ effects: Effect...) -> Effect { concatenate(effects) }

  /// Runs `effects` one after the other.
  @inlinable
  public static func concatenate(_ effects: some Sequence<Effect>) -> Effect {
    effects.reduce(.none) { $0.concatenate(with: $1) }
  }

  /// Runs `other` when this effect has completed.
  @inlinable
  public func concatenate(with other: Effect) -> Effect {
    switch (operation, other.operation) {
    case (.none, _): return other
    case (_, .none): return self
    case let (.concatenate(lhs), .concatenate(rhs)):
      return Effect(operation: .concatenate(lhs + rhs))
    case let (.concatenate(lhs), _): return Effect(operation: .concatenate(lhs + [other]))
    case let (_, .concatenate(rhs)): return Effect(operation: .concatenate([self] + rhs))
    default: return Effect(operation: .concatenate([self, other]))
    }
  }

  /// Transforms the actions the effect sends: how a parent runs a child's effects.
  ///
  ///     child.reduce(into: &state.child, action: action).map(Action.child)
  @inlinable
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch operation {
    case .none: return .none
    default: return _map(transform)
    }
  }

  @usableFromInline
  func _map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch operation {
    case .none: return .none
    case let .send(action): return .send(transform(action))
    case let .merge(effects):
      return Effect<T>(operation: .merge(effects.map { $0._map(transform) }))
    case let .concatenate(effects):
      return Effect<T>(operation: .concatenate(effects.map { $0._map(transform) }))
    case let .run(run):
      return Effect<T>(
        operation: .run(
          .init(place: run.place) { send in
            await run.operation(send.pullback(transform))
          }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<T>(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect._map(transform)))
    case let .cancel(id): return Effect<T>(operation: .cancel(id: id))
    case let .sleep(duration): return Effect<T>(operation: .sleep(duration))
    case let .throttle(id, interval, latest, effect):
      return Effect<T>(
        operation: .throttle(
          id: id, interval: interval, latest: latest, effect._map(transform)))
    case let .request(request): return Effect<T>(operation: .request(request.map(transform)))
    case let .cancellableRequest(request):
      return Effect.unfolding(request)._map(transform)
    }
  }
}

extension Effect: @unchecked Sendable where Action: Sendable {}
