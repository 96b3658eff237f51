#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive pthread mutex with explicit lock, unlock and try-lock.
///
/// NB: the store's own serialization needs `tryLock` and a lock held across a whole call (with
/// callbacks to the host inside), which `Mutex.withLock` does not express.
final class PlainLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

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

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
  @inline(__always) func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// The calling thread's identity.
@inline(__always)
func currentThreadID() -> UInt { UInt(pthread_self()) }
