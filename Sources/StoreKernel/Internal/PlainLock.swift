#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive pthread mutex with explicit lock, unlock and try-lock.
///
/// NB: the store's own serialization needs `tryLock` and a lock held across a whole call (with
/// callbacks to the host inside), which `Mutex.withLock` does not express. A value holding one
/// object, with the mutex allocated inside it (one allocation per lock, not two: a store has
/// six); copies share the mutex.
@usableFromInline
struct PlainLock: @unchecked Sendable {
  /// The mutex, in the object's own allocation (a ``Guarded`` with nothing to guard).
  @usableFromInline let storage: Guarded<Void>

  init() { storage = Guarded.make(()) }

  /// The lock of `storage` (a `Guarded<Void>` kept elsewhere, e.g. made on first use).
  init(_ storage: Guarded<Void>) { self.storage = storage }

  @inlinable func lock() {
    _ = pthread_mutex_lock(storage.mutex)
  }

  @inlinable func unlock() {
    _ = pthread_mutex_unlock(storage.mutex)
  }

  @inlinable func tryLock() -> Bool {
    pthread_mutex_trylock(storage.mutex) == 0
  }

  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// The calling thread's identity.
@inlinable
func currentThreadID() -> UInt { UInt(pthread_self()) }
