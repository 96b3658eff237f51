#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a pthread mutex, both in one allocation.
///
///     let names = Locked([String]())
///     names.withLock { $0.append("counter") }
///
/// NB: not `Synchronization.Mutex`: its futex is invisible to ThreadSanitizer, which then reports
/// every access it guards as a race (`make sanitize`); pthread mutexes are intercepted. The value
/// and the mutex live in one object's own allocation (a `ManagedBuffer`'s header and element):
/// one allocation instead of three, and no stored `var` (whose every access would pay a run-time
/// exclusivity check). A struct around it, because a `ManagedBuffer` cannot be `Sendable`.
struct Locked<Value>: @unchecked Sendable {
  private let storage: Storage

  init(_ value: Value) {
    // NB: `create` makes an instance of the class it is called on; the downcast only restores
    // the static type.
    storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
  }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    try storage.withUnsafeMutablePointers { (value, mutex) throws(E) -> R in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }

  private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    deinit {
      withUnsafeMutablePointerToElements { mutex in
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
      }
    }
  }
}
