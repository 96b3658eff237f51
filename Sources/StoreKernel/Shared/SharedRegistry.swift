import CSystem
import Synchronization

/// Where shared values live, by key: one for the process (``process``), and one of its own for
/// each test store (no files, no host requests) and each replay (no files: the journal has
/// every value that came from one).
final class SharedRegistry: @unchecked Sendable {
  // NB: `@unchecked Sendable`: `boxes` and every box's listeners are touched only under `lock`.

  /// The registry of the process's stores.
  static let process = SharedRegistry(performsFileIO: true, asksHost: true)

  /// Whether `.fileStorage` keys read and write their files.
  let performsFileIO: Bool
  /// Whether `.host` keys load and save through the host's requests.
  let asksHost: Bool
  private let lock = PlainLock()
  private var boxes: [SharedKey: SharedBox] = [:]

  init(performsFileIO: Bool, asksHost: Bool) {
    self.performsFileIO = performsFileIO
    self.asksHost = asksHost
  }

  /// The box of `key` (made if none is), with `scope` among its listeners.
  func attach(_ key: SharedKey, _ scope: SharedScope) -> SharedBox {
    lock.withLock {
      let box = boxes[key] ?? SharedBox(key: key)
      boxes[key] = box
      box.listeners[ObjectIdentifier(scope)] = WeakScope(scope: scope)
      return box
    }
  }

  /// Takes `scope` off the listeners of `box`; the box goes once no store holds it.
  ///
  /// NB: an in-memory value lives as long as a store shares it: stores made one after the other
  /// (tests, a host's sessions) do not inherit each other's values. A file or the host keeps it
  /// beyond.
  func detach(_ box: SharedBox, _ scope: ObjectIdentifier) {
    lock.withLock {
      box.listeners[scope] = nil
      box.listeners = box.listeners.filter { $0.value.scope != nil }
      if box.listeners.isEmpty, boxes[box.key] === box { boxes[box.key] = nil }
    }
  }

  /// The listeners of `box` other than `sender`.
  func listeners(of box: SharedBox, except sender: SharedScope?) -> [SharedScope] {
    lock.withLock {
      box.listeners.values.compactMap { weak in
        guard let scope = weak.scope, scope !== sender else { return nil }
        return scope
      }
    }
  }

  /// Sets the value of `box`, and tells every store holding it but `sender` (each takes the
  /// change at its next turn). Returns the value's generation.
  @discardableResult
  func set(_ box: SharedBox, to value: any Sendable, from sender: SharedScope?) -> UInt64 {
    let generation = box.store(value)
    for scope in listeners(of: box, except: sender) { scope.outsideChange() }
    return generation
  }
}

/// A store's listener, weak: a box never keeps a store alive.
struct WeakScope {
  weak var scope: SharedScope?
}

/// The value of one key, and the stores holding it.
final class SharedBox: @unchecked Sendable {
  let key: SharedKey
  private let lock = PlainLock()
  private var value: (any Sendable)?
  private var generation: UInt64 = 0
  /// Its registry's (touched under the registry's lock).
  fileprivate var listeners: [ObjectIdentifier: WeakScope] = [:]
  /// `.fileStorage`: the stamp of the file as last read or written (all zero: none).
  private var fileStamp = csystem_file_stamp()

  init(key: SharedKey) { self.key = key }

  /// The value (nil: none yet) and its generation.
  func read() -> (value: (any Sendable)?, generation: UInt64) {
    lock.withLock { (value, generation) }
  }

  /// `value` if the box has none yet (then its generation becomes 1); the box's value else.
  func seed(_ value: any Sendable) -> (value: any Sendable, generation: UInt64) {
    lock.withLock {
      if let current = self.value { return (current, generation) }
      self.value = value
      generation = 1
      return (value, generation)
    }
  }

  /// Runs `body` with the stamp of the file as last read or written, under the box's lock.
  func withFileStamp<R>(_ body: (inout csystem_file_stamp) -> R) -> R {
    lock.withLock { body(&fileStamp) }
  }

  fileprivate func store(_ value: any Sendable) -> UInt64 {
    lock.withLock {
      self.value = value
      generation &+= 1
      return generation
    }
  }
}

/// A store's part in shared state: what its shared fields' keys tell it (see ``SharedBinding``).
class SharedScope: @unchecked Sendable {
  let registry: SharedRegistry
  /// Whether a change from outside waits to be taken (one wake per batch of changes).
  let pending = Atomic<Bool>(false)

  init(registry: SharedRegistry) { self.registry = registry }

  /// Another store changed a key this store holds: wake it, once until it takes the change.
  final func outsideChange() {
    guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
    wake()
  }

  /// Queues the taking of outside changes on the store (its inbox: readable wake descriptor).
  func wake() {}

  /// The store's reducer changed `key` to `value` through `withLock` (holder).
  func changed(_ key: SharedKey, to value: any Sendable) {}

  /// Reads the store's `.fileStorage` files again if they changed (holder, at a poll).
  func checkFiles() {}
}

/// The registry a store's shared fields use (``SharedRegistry/process`` unless a test store or
/// a replay gives one of its own).
enum SharedRegistryKey: DependencyKey {
  static let defaultValue = SharedRegistry.process
}
