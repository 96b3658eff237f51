import JSON
import Synchronization

/// The actions a recorded store reduced, each with where it came from and the state after it:
/// what a host's test store needs to assert every change (`tca_store_take_reductions`).
///
///     [{"origin":"host","action":{"incrementButtonTapped":{}},"state":{"count":1,…}},
///      {"origin":"effect","action":{"numberFactResponse":{…}},"state":{…}}]
///
/// Kept only while enabled (``isEnabled``): a store that nobody asks pays one atomic load per
/// reduction.
///
/// NB: an action is the host's when it is the oldest action the host sent that was not reduced
/// yet and encodes the same (canonical JSON); anything else was fed back by an effect. Host
/// actions are reduced in the order they were sent, so the match is exact unless an effect
/// feeds back, ahead of a host action still queued behind it, an action equal to it.
final class ReductionLog: @unchecked Sendable {
  // NB: `@unchecked Sendable`: the arrays are touched only under `lock`.
  private let enabled = Atomic<Bool>(false)
  private let lock = PlainLock()
  private var entries: [[UInt8]] = []
  private var hostActions: [[UInt8]] = []

  init() {}

  var isEnabled: Bool { enabled.load(ordering: .relaxed) }

  /// Starts (or stops, dropping what was kept) keeping reductions.
  func setEnabled(_ on: Bool) {
    lock.lock()
    defer { lock.unlock() }
    enabled.store(on, ordering: .relaxed)
    if !on {
      entries.removeAll()
      hostActions.removeAll()
    }
  }

  /// The host is about to send `action` (canonical JSON).
  func hostWillSend(_ action: [UInt8]) {
    guard isEnabled else { return }
    lock.lock()
    defer { lock.unlock() }
    hostActions.append(action)
  }

  /// The host's send of `action` failed: it will not be reduced.
  func hostSendFailed(_ action: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if let index = hostActions.lastIndex(of: action) { hostActions.remove(at: index) }
  }

  /// A reducer ran `action` (canonical JSON, nil if it has no encoding) into `state` (JSON).
  func reduced(action: [UInt8]?, state: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    let action = action ?? Array("null".utf8)
    var origin = "effect"
    if let first = hostActions.first, first == action {
      hostActions.removeFirst()
      origin = "host"
    }
    var entry = Array("{\"origin\":\"\(origin)\",\"action\":".utf8)
    entry += action
    entry += Array(",\"state\":".utf8)
    entry += state
    entry.append(UInt8(ascii: "}"))
    entries.append(entry)
  }

  /// The reductions kept since the last take, oldest first, as a JSON array; now the caller's.
  func take() -> [UInt8] {
    lock.lock()
    let taken = entries
    entries.removeAll()
    lock.unlock()
    var json: [UInt8] = [UInt8(ascii: "[")]
    for (index, entry) in taken.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json += entry
    }
    json.append(UInt8(ascii: "]"))
    return json
  }
}
