import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The dependencies of a store, shared by reference so effects read the store's current ones.
@usableFromInline
final class DependencyBox: @unchecked Sendable {
  // NB: written only when the store is made; read by the thread holding the store.
  var dependencies: Dependencies
  /// The store's own box, for a box derived from it by `.dependency(_:_:)` (nil: this is it).
  let store: ObjectIdentifier?
  /// `DependencyContext.key`, kept here so that a store's calls read it without the lazy
  /// global's check (in the box, whose malloc chunk had room for it; in the store it cost 16
  /// bytes per store).
  @usableFromInline let key = DependencyContext.key
  /// The store's shared fields (nil: it has none), which `Shared.withLock` tells of a change.
  var sharedScope: SharedScope?

  init(_ dependencies: Dependencies, store: ObjectIdentifier? = nil) {
    self.dependencies = dependencies
    self.store = store
  }

  /// Which store's dependencies these are.
  var storeIdentity: ObjectIdentifier { store ?? ObjectIdentifier(self) }
}

/// Where a feature runs (``Dependencies/context``): `.live` in a ``Store``, `.test` in a
/// ``TestStore``; `.preview` is for a host's previews, set with `withDependencies`.
///
/// Its static members (internal) are which store's dependencies a thread sees: set by the store
/// for the length of each call into it (reducers and effect jobs both run inside such calls, on
/// the caller's thread).
///
/// NB: a pthread key, not a global and not `@TaskLocal`: the value belongs to the thread that
/// holds the store, and a call into another store from a callback nests and restores it.
public enum DependencyContext: Sendable, Equatable {
  case live
  case preview
  case test

  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  static var current: DependencyBox? {
    guard let raw = pthread_getspecific(key) else { return nil }
    return Unmanaged<DependencyBox>.fromOpaque(raw).takeUnretainedValue()
  }

  /// The dependencies an effect of a `.dependency(_:_:)` reducer runs with: they apply while the
  /// thread runs that effect's job for the store they were derived from.
  @TaskLocal static var override: DependencyBox?

  /// Whether any `.dependency(_:_:)` reducer has run: until then, reading dependencies skips the
  /// task local.
  private static let overridden = Atomic<Bool>(false)

  /// The dependencies of the current call: an effect's override, else the thread's box.
  static var effective: DependencyBox? {
    let box = current
    if overridden.load(ordering: .relaxed), let override, let box,
      override.storeIdentity == box.storeIdentity
    {
      return override
    }
    return box
  }

  /// A box of `dependencies` derived from the current call's (outside a store, on its own).
  static func derived(_ dependencies: Dependencies) -> DependencyBox {
    overridden.store(true, ordering: .relaxed)
    return DependencyBox(dependencies, store: effective?.storeIdentity)
  }

  /// Runs `body` with `box` as the thread's current dependencies.
  static func with<R>(_ box: DependencyBox, _ body: () -> R) -> R {
    let previous = enter(box, key: key)
    defer { restore(previous, key: key) }
    return body()
  }

  /// Makes `box` current; returns what was current, for ``restore(_:key:)``.
  ///
  /// NB: callers pass ``key`` read once (a store keeps it): reading the static each call costs a
  /// `swift_once` check on the hot path.
  @inlinable
  static func enter(_ box: DependencyBox, key: pthread_key_t) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
    return previous
  }

  @inlinable
  static func restore(_ previous: UnsafeMutableRawPointer?, key: pthread_key_t) {
    pthread_setspecific(key, previous)
  }
}
