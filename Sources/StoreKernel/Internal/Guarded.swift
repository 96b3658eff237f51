#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a pthread mutex, both in one allocation.
///
///     let table = Guarded.make([UInt64: String]())
///     table.withLock { $0[7] = "numberFact.fetch" }
///
/// NB: not `Synchronization.Mutex`: ThreadSanitizer does not see its futex and reports every
/// access it guards, from two threads, as a race (`make sanitize-thread`); pthread mutexes it sees.
/// The value is the buffer's header (no run-time exclusivity check per access, as a stored `var`
/// would have), the mutex its one element.
@usableFromInline
final class Guarded<Value>: ManagedBuffer<Value, pthread_mutex_t> {
  static func make(_ value: Value) -> Guarded {
    // NB: `create` makes an instance of the class it is called on; the downcast only restores
    // the static type.
    let guarded = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: Guarded.self)
    guarded.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
    return guarded
  }

  deinit {
    withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
    }
  }

  /// The mutex's address. Valid while the object lives (a buffer's elements do not move): the
  /// caller keeps it alive.
  ///
  /// NB: taken without a retain. Locking through `withUnsafeMutablePointerToElements` retained
  /// and released the object around each `pthread_mutex_lock` and `pthread_mutex_unlock` (an
  /// opaque call): two atomic operations more per lock and per unlock (docs/benchmarks.md).
  @inlinable @inline(__always)
  var mutex: UnsafeMutablePointer<pthread_mutex_t> {
    Unmanaged.passUnretained(self)._withUnsafeGuaranteedRef {
      $0.withUnsafeMutablePointerToElements { $0 }
    }
  }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    try withUnsafeMutablePointers { (value, mutex) throws(E) -> R in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
}
