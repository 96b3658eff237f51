import JSON
import Synchronization

/// A store seen from a host: actions in and state out as JSON bytes.
///
/// The C bridge holds every store through this protocol, whatever its feature's types.
public protocol HostStore: AnyObject, Sendable {
  /// Decodes `action` and sends it. On a decoding error nothing is sent and the state is unchanged.
  func send(json action: UnsafeBufferPointer<UInt8>) throws(JSONError)
  /// The current state, encoded.
  func stateJSON() throws(JSONError) -> [UInt8]
  /// Bumps when the state changes.
  var version: UInt64 { get }
}

/// A ``Store`` whose state and actions are Codable, driven with JSON.
///
/// NB: `@unchecked Sendable` because every access to the store and the cache goes through `lock`.
final class JSONStore<State: Codable, Action: Decodable>: HostStore, @unchecked Sendable {
  private let store: Store<State, Action>
  private let lock = Mutex(())
  private var cachedState: (version: UInt64, json: [UInt8])?

  init(store: Store<State, Action>) { self.store = store }

  func send(json action: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    // NB: decode before taking the lock: a bad action changes nothing and blocks no one.
    let decoded = try JSONDecoder().decode(Action.self, from: action)
    lock.withLock { _ in store.send(decoded) }
  }

  func stateJSON() throws(JSONError) -> [UInt8] {
    let (version, state) = lock.withLock { _ in (store.version, store.state) }
    if let cached = lock.withLock({ _ in cachedState }), cached.version == version {
      return cached.json
    }
    let json = try JSONEncoder().encode(state)
    lock.withLock { _ in cachedState = (version, json) }
    return json
  }

  var version: UInt64 { lock.withLock { _ in store.version } }
}
