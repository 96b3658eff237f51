/// An effect's cancellation identifier, type-erased.
///
/// NB: `@unchecked Sendable` because it is only made from `Hashable & Sendable` values.
@usableFromInline
struct CancelID: Hashable, @unchecked Sendable, CustomStringConvertible {
  let base: AnyHashable

  @usableFromInline
  init(_ id: some Hashable & Sendable) {
    self.base = (id as? CancelID)?.base ?? AnyHashable(id)
  }

  /// This identifier inside a child's namespace (an `ifLet` child, a `forEach` element): the
  /// child's `.cancel(id:)` cannot reach its siblings' or its parent's effects of the same id.
  /// An identifier from a hashable value that is not declared Sendable but is immutable (a key
  /// path, an element id).
  @usableFromInline
  init(unchecked id: AnyHashable) { self.base = id }

  func scoped(to namespace: CancelID) -> CancelID {
    CancelID(Scoped(namespace: namespace, id: self))
  }

  @usableFromInline
  var description: String { "\(base.base)" }

  struct Scoped: Hashable, Sendable {
    let namespace: CancelID
    let id: CancelID
  }
}

extension Effect {
  /// Makes the effect cancellable with `.cancel(id: id)`.
  ///
  ///     return .run { send in … }
  ///       .cancellable(id: CancelID.search, cancelInFlight: true)
  ///
  /// With `cancelInFlight`, effects already running under `id` are cancelled first. Cancelling
  /// an effect stops its `.run` work (its `send` then does nothing), removes its timers, and
  /// tells the host of each of its requests still in flight. `.none` stays `.none`.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    switch operation {
    case .none: return .none
    default:
      return Effect(operation: .cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// Cancels every effect running under `id`.
  ///
  ///     case .cancelButtonTapped:
  ///       return .cancel(id: CancelID.search)
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(operation: .cancel(id: CancelID(id)))
  }

  /// Puts every cancellation identifier in the effect inside `namespace`, and makes the whole
  /// effect cancellable by `namespace` itself.
  ///
  /// NB: how `ifLet`, `ifCaseLet` and `forEach` keep each child's effects apart and cancel them
  /// all when the child goes away.
  @usableFromInline
  func scoped(to namespace: CancelID) -> Effect {
    switch operation {
    case .none: return .none
    default:
      return Effect(
        operation: .cancellable(
          id: namespace, cancelInFlight: false, namespaced(by: namespace)))
    }
  }

  private func namespaced(by namespace: CancelID) -> Effect {
    switch operation {
    case .none, .send, .run, .sleep, .request: return self
    case let .merge(effects):
      return Effect(operation: .merge(effects.map { $0.namespaced(by: namespace) }))
    case let .concatenate(effects):
      return Effect(operation: .concatenate(effects.map { $0.namespaced(by: namespace) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect(
        operation: .cancellable(
          id: id.scoped(to: namespace), cancelInFlight: cancelInFlight,
          effect.namespaced(by: namespace)))
    case let .cancel(id): return Effect(operation: .cancel(id: id.scoped(to: namespace)))
    case let .throttle(id, interval, latest, effect):
      return Effect(
        operation: .throttle(
          id: id.scoped(to: namespace), interval: interval, latest: latest,
          effect.namespaced(by: namespace)))
    }
  }
}
