/// A value behind a ``PlainLock``.
///
///     let table = Guarded([UInt64: String]())
///     table.withLock { $0[7] = "numberFact.fetch" }
///
/// NB: not `Synchronization.Mutex`: ThreadSanitizer does not see its futex and reports every
/// access it guards, from two threads, as a race (`make sanitize-thread`); pthread mutexes it sees.
final class Guarded<Value>: @unchecked Sendable {
  private let lock = PlainLock()
  // NB: behind a pointer, not a stored `var`: no run-time exclusivity check per access.
  private let value: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value.pointee)
  }
}
