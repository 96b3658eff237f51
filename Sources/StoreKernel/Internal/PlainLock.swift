#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive pthread mutex with explicit lock, unlock and try-lock.
///
/// NB: the store's own serialization needs `tryLock` and a lock held across a whole call (with
/// callbacks to the host inside), which `Mutex.withLock` does not express.
@usableFromInline
final class PlainLock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable func lock() { pthread_mutex_lock(mutex) }
  @inlinable func unlock() { pthread_mutex_unlock(mutex) }
  @inlinable func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

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
