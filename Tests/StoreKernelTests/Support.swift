import JSON
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

/// An identified row with some text, both directions of its JSON written out (the direct
/// path), for the identified-array tree and lent-layout tests.
struct TextRow: Equatable, Codable, Identifiable, Sendable, JSONCodable {
  var id: Int
  var text = ""

  init(id: Int, text: String = "") {
    self.id = id
    self.text = text
  }

  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    id = try object.decode(Int.self, forKey: "id")
    text = try object.decode(String.self, forKey: "text")
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(id, forKey: "id")
      object.encode(text, forKey: "text")
    }
  }
}
