import Features
import JSON
import StoreKernel
import Synchronization
import Testing

/// A built-in feature driven as a host drives it: JSON actions in, JSON state out, host requests
/// recorded and answered with JSON, a manual clock. What the C and Python tests do, in Swift.
final class HostHarness: Sendable {
  let store: any HostStore
  private let log = RequestLog()

  init(_ feature: String, state: String? = nil, seed: UInt64 = 1) throws {
    let descriptor = try #require(BuiltinFeatures.all.first { $0.name == feature })
    var options = StoreOptions(clock: .manual, seed: seed)
    // NB: tests run side by side: each store's shared state (the dice history, the favorites)
    // is its own.
    options.isolatesSharedState = true
    if let state {
      store = try Array(state.utf8).withUnsafeBufferPointer { (buffer) throws(JSONError) in
        try descriptor.makeStore(state: buffer, options: options)
      }
    } else {
      store = try descriptor.makeStore(state: nil, options: options)
    }
    let log = self.log
    try store.setRequestHandler(
      HostRequestHandler(
        onRequest: { request in log.mutex.withLock { $0.made.append(request) } },
        onCancel: { id in log.mutex.withLock { $0.cancelled.append(id) } }))
  }

  deinit { store.close() }

  /// Every request made, oldest first.
  var requests: [HostRequestInfo] { log.mutex.withLock { $0.made } }
  /// The ids of the requests the store cancelled.
  var cancelled: [UInt64] { log.mutex.withLock { $0.cancelled } }

  /// The last request named `name`, with its payload as JSON text.
  func lastRequest(_ name: String) throws -> (id: UInt64, payload: String) {
    let request = try #require(requests.last { $0.name == name })
    return (request.id, String(decoding: request.payload, as: UTF8.self))
  }

  func send(_ action: String) throws {
    try Array(action.utf8).withUnsafeBufferPointer { (buffer) throws(StoreError) in
      try store.send(json: buffer)
    }
  }

  func respond(_ id: UInt64, _ json: String) throws {
    try Array(json.utf8).withUnsafeBufferPointer { (buffer) throws(StoreError) in
      try store.respond(to: id, json: buffer)
    }
  }

  func fail(_ id: UInt64, _ message: String) throws { try store.fail(id, message: message) }

  func advance(milliseconds: UInt64) throws { _ = try store.advance(milliseconds: milliseconds) }

  /// The whole state as JSON text.
  func state() throws -> String { String(decoding: try store.stateJSON(), as: UTF8.self) }

  /// The part of the state at a JSON Pointer, as JSON text.
  func get(_ pointer: String) throws -> String {
    String(decoding: try JSONPointer.lookup(pointer, in: try store.stateJSON()), as: UTF8.self)
  }
}

private final class RequestLog: Sendable {
  let mutex = Mutex<(made: [HostRequestInfo], cancelled: [UInt64])>(([], []))
}

/// Encodes `value` as JSON text.
func json(_ value: some Encodable) throws -> String {
  String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

/// Decodes JSON text.
func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(type, from: Array(text.utf8))
}

/// The UUIDs a test store's incrementing generator makes: 0, 1, 2, …
func uuid(_ n: UInt64) -> UUID { UUID(high: 0, low: n) }
