/// An effect's cancellation identifier, type-erased.
///
/// Two identifiers are the same when their values are of the same type and equal (as upstream,
/// whose identifiers carry their type): `CancelID(1)` and `CancelID(Int8(1))` differ.
///
/// NB: not an `AnyHashable`: a store looks identifiers up several times per effect, and
/// AnyHashable's `==` looks up generic metadata on every call (~2,000 instructions). The value
/// sits in a box of its own type, made where that type is known; the hash is computed once, and
/// `==` compares boxes of the same class directly. A value of a type with no stored data (the
/// usual `enum CancelID { case search }`) is its type alone: no box at all.
@usableFromInline
struct CancelID: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The value, boxed; nil for a value of a type with no stored data (see `unit`).
  @usableFromInline let box: CancelIDBox?
  /// The type of a value with no stored data: a one-case enum, an empty struct. Such a type has
  /// one value, so the type alone identifies it.
  ///
  /// NB: docs/benchmarks.md (the effect round trip): the box was an allocation, a hash computed by
  /// `Hasher` and a free per `.cancellable(id:)` of the usual one-case enum (~450 instructions).
  @usableFromInline let unit: Any.Type?

  @inlinable
  init<ID: Hashable & Sendable>(_ id: ID) {
    if let id = id as? CancelID {
      self = id
    } else if MemoryLayout<ID>.size == 0 {
      (box, unit) = (nil, ID.self)
    } else {
      (box, unit) = (TypedCancelIDBox(id), nil)
    }
  }

  /// An identifier from a hashable value that is not declared Sendable but is immutable (a key
  /// path, an element id).
  @usableFromInline
  init(unchecked id: AnyHashable) {
    if let id = id.base as? CancelID {
      self = id
    } else {
      (box, unit) = (TypedCancelIDBox(id), nil)
    }
  }

  /// This identifier inside a child's namespace (an `ifLet` child, a `forEach` element): the
  /// child's `.cancel(id:)` cannot reach its siblings' or its parent's effects of the same id;
  /// the parent's reaches the child's (see ``StoreCore/cancelChildren(of:sparingAncestorsOf:)``).
  func scoped(to namespace: CancelID) -> CancelID {
    guard let inner = scopedValue else {
      return CancelID(Scoped(namespaces: [namespace], id: self))
    }
    return CancelID(Scoped(namespaces: [namespace] + inner.namespaces, id: inner.id))
  }

  /// The namespaces this identifier is inside, outermost first, and the identifier as the
  /// innermost child gave it; for an identifier in no namespace, none and itself.
  var namespacedParts: (namespaces: [CancelID], id: CancelID) {
    guard let scoped = scopedValue else { return ([], self) }
    return (scoped.namespaces, scoped.id)
  }

  /// Whether this identifier is inside a child's namespace.
  ///
  /// NB: a flag of the box (a load and a test): asked of every id registered and unregistered.
  @inline(__always)
  var isScoped: Bool { box?.isScoped == true }

  /// The namespaces and identifier, if this identifier is inside a child's namespace.
  var scopedValue: Scoped? {
    guard let box, box.isScoped else { return nil }
    // NB: only a box of a `Scoped` value has the flag.
    return unsafeDowncast(box, to: TypedCancelIDBox<Scoped>.self).value
  }

  @usableFromInline
  static func == (lhs: CancelID, rhs: CancelID) -> Bool {
    switch (lhs.box, rhs.box) {
    case let (left?, right?):
      return left === right || left.hash == right.hash && left.isEqual(to: right)
    case (nil, nil):
      return lhs.unit.map(ObjectIdentifier.init) == rhs.unit.map(ObjectIdentifier.init)
    default:
      return false
    }
  }

  /// The value's hash: computed once, by `Hasher`, for a boxed value; the type's address, mixed,
  /// for a type alone.
  @usableFromInline
  var hash: Int {
    if let box { return box.hash }
    // NB: a multiplicative mix (Fibonacci hashing), so that the bits a table uses vary.
    let bits = identity &* 0x9E37_79B9_7F4A_7C15
    return Int(bitPattern: bits ^ bits >> 29)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// The address of the box, or of the type: equal identities are equal ids (never 0). Ids
  /// of different identities may still be equal (two boxes of equal values).
  var identity: UInt {
    if let box { return UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()) }
    guard let unit else { return 0 }
    return UInt(bitPattern: unsafeBitCast(unit, to: Int.self))
  }

  /// What `Dictionary` and `Set` hash with: the value's hash, computed once (by `Hasher`, so
  /// already mixed), combined with the table's seed.
  ///
  /// NB: without this, each lookup of an identifier ran `Hasher` again over that hash (~100
  /// instructions); a store looks an identifier up three times per cancellable effect.
  @usableFromInline
  func _rawHashValue(seed: Int) -> Int { hash ^ seed }

  @usableFromInline
  var description: String {
    if let box { return box.description }
    guard let unit else { return "" }
    return _openExistential(unit, do: describeUnit)
  }

  /// An identifier inside children's namespaces: each `ifLet`, `ifCaseLet` or `forEach` an
  /// effect went through on its way up puts its child's namespace in front.
  struct Scoped: Hashable, Sendable {
    /// The namespaces, outermost first (the child of the feature at the top, its child, …).
    let namespaces: [CancelID]
    /// The identifier as the innermost child gave it.
    let id: CancelID
  }
}

/// The one value of `T`, a type with no stored data, described.
private func describeUnit<T>(_: T.Type) -> String {
  // NB: a type of size 0 has nothing to read: its value is made from no bytes.
  guard MemoryLayout<T>.size == 0 else { return "\(T.self)" }
  return "\(unsafeBitCast((), to: T.self))"
}

/// The value of a ``CancelID`` (see ``TypedCancelIDBox``).
@usableFromInline
class CancelIDBox: @unchecked Sendable {
  /// The value's hash, computed once.
  @usableFromInline let hash: Int
  /// Whether the value is a ``CancelID/Scoped``.
  let isScoped: Bool

  @usableFromInline
  init(hash: Int, isScoped: Bool) {
    self.hash = hash
    self.isScoped = isScoped
  }

  /// Whether `other` holds an equal value of the same type.
  func isEqual(to other: CancelIDBox) -> Bool { false }

  var description: String { "" }
}

@usableFromInline
final class TypedCancelIDBox<ID: Hashable>: CancelIDBox, @unchecked Sendable {
  let value: ID

  @usableFromInline
  init(_ value: ID) {
    self.value = value
    super.init(hash: value.hashValue, isScoped: ID.self == CancelID.Scoped.self)
  }

  override func isEqual(to other: CancelIDBox) -> Bool {
    // NB: the classes compared by their metadata pointers, then a cast that checks nothing: no
    // generic metadata looked up, as `as?` would.
    guard ObjectIdentifier(type(of: other)) == ObjectIdentifier(type(of: self)) else {
      return false
    }
    return unsafeDowncast(other, to: TypedCancelIDBox<ID>.self).value == value
  }

  // NB: through AnyHashable, which unwraps an id made from an AnyHashable (`init(unchecked:)`).
  override var description: String { "\(AnyHashable(value).base)" }
}

extension Effect {
  /// Makes the effect cancellable with `.cancel(id: id)`.
  ///
  ///     return .run { send in … }
  ///       .cancellable(id: CancelID.search, cancelInFlight: true)
  ///
  /// Identifiers are the same when they have the same type and equal values (`1` and `Int8(1)`
  /// are two identifiers), as upstream.
  ///
  /// With `cancelInFlight`, effects already running under `id` are cancelled first. Cancelling
  /// an effect stops its `.run` work (its `send` then does nothing), removes its timers, and
  /// tells the host of each of its requests still in flight. `.none` stays `.none`.
  ///
  /// NB: consuming: a request moves into the effect returned, without a retain here and a
  /// release of the effect given (docs/benchmarks.md: the effect round trip).
  @inlinable
  public __consuming func cancellable(
    id: some Hashable & Sendable, cancelInFlight: Bool = false
  ) -> Effect {
    switch operation {
    case .none: return .none
    case let .request(request):
      let id = CancelID(id)
      // NB: a request's first cancellation is kept in the request itself (no box around it).
      guard request.fold(id: id, cancelInFlight: cancelInFlight) else {
        return Effect(
          operation: .cancellable(
            id: id, cancelInFlight: cancelInFlight, Effect(operation: .request(request))))
      }
      return Effect(operation: .cancellableRequest(request))
    case let other:
      return Effect(
        operation: .cancellable(
          id: CancelID(id), cancelInFlight: cancelInFlight, Effect(operation: other)))
    }
  }

  /// The effect ``Operation/cancellableRequest(_:)`` stands for, `.cancellable(id:)` of
  /// `.request(request)` in a box: for the rare places that rewrite effects (scoping, mapping).
  @usableFromInline
  static func unfolding(_ request: HostRequest<Action>) -> Effect {
    let plain = Effect(operation: .request(request))
    guard let id = request.foldedID else { return plain }
    return Effect(
      operation: .cancellable(id: id, cancelInFlight: request.foldedCancelInFlight, plain))
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
    case let .cancellableRequest(request):
      return Effect.unfolding(request).namespaced(by: namespace)
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
