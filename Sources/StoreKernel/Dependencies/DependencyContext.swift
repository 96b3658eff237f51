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

  init(_ dependencies: Dependencies) { self.dependencies = dependencies }
}

/// Which store's dependencies a thread sees: set by the store for the length of each call into
/// it (reducers and effect jobs both run inside such calls, on the caller's thread).
///
/// NB: a pthread key, not a global and not `@TaskLocal`: the value belongs to the thread that
/// holds the store, and a call into another store from a callback nests and restores it.
@usableFromInline
enum DependencyContext {
  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  static var current: DependencyBox? {
    guard let raw = pthread_getspecific(key) else { return nil }
    return Unmanaged<DependencyBox>.fromOpaque(raw).takeUnretainedValue()
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
