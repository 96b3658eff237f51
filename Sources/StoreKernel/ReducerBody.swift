import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A store's reducer whose `reduce(into:action:)` runs its ``Reducer/body-swift.property``:
/// the body built once and kept, instead of at every action.
///
/// NB: a composed body (`Scope`s, `Reduce`, `forEach`, key paths and case paths) costs thousands
/// of instructions to build, more than running it for an action that concerns one child
/// (docs/benchmarks.md, "Codable at the direct path's speed"). The store's first action runs
/// `reduce(into:action:)` as ever, and ``BodyWatch`` learns whether that is the body's (the
/// default implementation) or the type's own: only in the first case is the body built again,
/// after that action, and kept for the next ones. A type that implements `reduce(into:action:)`
/// itself keeps having it called. The body is built inside the store's call, so it sees the
/// store's dependencies, as at every action before.
@usableFromInline
final class ReducerBodyCache<R: Reducer>: @unchecked Sendable
where R.Body: Reducer, R.Body.State == R.State, R.Body.Action == R.Action {
  // NB: `@unchecked Sendable`: a store reduces one action at a time, the only caller.
  @usableFromInline let reducer: R
  /// The body, once kept.
  ///
  /// NB: in a box of its own, so that an action reads it in place: bound out of an optional,
  /// the whole body (every closure and key path in it) was copied at each action.
  @usableFromInline var kept: Kept?
  /// Whether the first action has been reduced (and the body kept, if it is what runs).
  @usableFromInline var watched = false

  @usableFromInline
  final class Kept {
    @usableFromInline let body: R.Body

    @inlinable
    init(_ body: R.Body) { self.body = body }
  }

  @inlinable
  init(_ reducer: R) { self.reducer = reducer }

  @inlinable
  func reduce(into state: inout R.State, action: R.Action) -> Effect<R.Action> {
    if let kept { return kept.body.reduce(into: &state, action: action) }
    guard !watched else { return reducer.reduce(into: &state, action: action) }
    return watchFirst(into: &state, action: action)
  }

  @inlinable
  func watchFirst(into state: inout R.State, action: R.Action) -> Effect<R.Action> {
    watched = true
    let (effect, runsBody) = BodyWatch.watching(R.self) {
      reducer.reduce(into: &state, action: action)
    }
    if runsBody { kept = Kept(reducer.body) }
    return effect
  }
}

/// Learns whether a reducer's `reduce(into:action:)` is the one that runs its body: the
/// default implementation tells it (``saw(_:)``) when a thread is watching.
///
/// NB: the first body-run `reduce` on the thread while it watches a store's first action is
/// the store's reducer's own when that reducer runs its body; when the reducer reduces by
/// itself, that is another type's (a child's), or none at all.
@usableFromInline
enum BodyWatch {
  /// How many threads are watching: read inline by every body-run `reduce`, so that nothing
  /// else is done while none is.
  @usableFromInline static let watchers = Atomic<Int>(0)

  /// Whether some thread is watching.
  @inlinable
  static var isOn: Bool { watchers.load(ordering: .relaxed) > 0 }

  /// What a thread watches: the reducer type, and what the first body-run `reduce` was.
  final class Watch {
    let type: ObjectIdentifier
    /// nil until the first body-run `reduce`; then whether it was `type`'s.
    var firstWasType: Bool?

    init(_ type: ObjectIdentifier) { self.type = type }
  }

  static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Called by a body-run `reduce` of `type` while some thread watches.
  @usableFromInline
  static func saw(_ type: Any.Type) {
    guard let raw = pthread_getspecific(key) else { return }
    let watch = Unmanaged<Watch>.fromOpaque(raw).takeUnretainedValue()
    if watch.firstWasType == nil { watch.firstWasType = watch.type == ObjectIdentifier(type) }
  }

  /// Runs `body` (a reducer of type `type` reducing), and returns whether that reducer's
  /// `reduce` ran its body.
  @usableFromInline
  static func watching<T>(_ type: Any.Type, _ body: () -> T) -> (T, Bool) {
    let watch = Watch(ObjectIdentifier(type))
    let key = self.key
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(watch).toOpaque())
    watchers.add(1, ordering: .relaxed)
    let result = withExtendedLifetime(watch) { body() }
    watchers.subtract(1, ordering: .relaxed)
    pthread_setspecific(key, previous)
    return (result, watch.firstWasType == true)
  }
}
