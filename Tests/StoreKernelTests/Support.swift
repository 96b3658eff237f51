import StoreKernel
@_exported import StoreKernelTesting
import Testing

/// A thread-safe list, for collecting what callbacks saw.
final class Recorder<Element>: @unchecked Sendable {
  private let lock = NSLockLike()
  private var storage: [Element] = []

  func append(_ element: Element) { lock.withLock { storage.append(element) } }
  var all: [Element] { lock.withLock { storage } }
  func removeAll() { lock.withLock { storage.removeAll() } }
}

import Synchronization

/// A tiny lock for test helpers.
final class NSLockLike: Sendable {
  private let mutex = Mutex(())
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    try mutex.withLock { _ in try body() }
  }
}

extension Array where Element == UInt8 {
  init(json: String) { self = Array(json.utf8) }
}
