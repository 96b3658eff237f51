#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a pthread mutex.
///
/// NB: not `Synchronization.Mutex`: its futex is invisible to ThreadSanitizer, which then reports
/// every access it guards as a race (`make sanitize`); pthread mutexes are intercepted.
final class Locked<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // NB: behind a pointer, not a stored `var`: every access to a class's `var` pays a run-time
  // exclusivity check, and the mutex already makes access exclusive.
  private let value: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
