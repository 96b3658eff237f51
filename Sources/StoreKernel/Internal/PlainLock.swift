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
  @usableFromInline let storage: PlainLockStorage

  init() { storage = PlainLockStorage.make() }

  @inlinable func lock() {
    storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) }
  }

  @inlinable func unlock() {
    storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) }
  }

  @inlinable func tryLock() -> Bool {
    storage.withUnsafeMutablePointerToElements { pthread_mutex_trylock($0) == 0 }
  }

  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A ``PlainLock``'s mutex, in the object's own allocation.
@usableFromInline
final class PlainLockStorage: ManagedBuffer<Void, pthread_mutex_t> {
  static func make() -> PlainLockStorage {
    // NB: `create` makes an instance of the class it is called on (documented); the downcast
    // only restores the static type.
    let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: PlainLockStorage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
    return storage
  }

  deinit {
    withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
    }
  }
}

/// The calling thread's identity.
@inlinable
func currentThreadID() -> UInt { UInt(pthread_self()) }
