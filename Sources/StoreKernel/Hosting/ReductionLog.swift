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
  /// Whether an inspector watches (``DevtoolsStore``): it takes the actions and their origins,
  /// not the states.
  private let watched = Atomic<Bool>(false)
  private let lock = PlainLock()
  private var entries: [[UInt8]] = []
  private var hostActions: [[UInt8]] = []
  /// What the inspector has not taken: `{"origin":…,"action":…}`, at most ``watchLimit``.
  private var watchedEntries: [[UInt8]] = []
  private var watchDropped = 0
  static let watchLimit = 4096

  init() {}

  var isEnabled: Bool { enabled.load(ordering: .relaxed) }

  /// Whether anyone keeps reductions: the host (``isEnabled``) or an inspector.
  var isActive: Bool { enabled.load(ordering: .relaxed) || watched.load(ordering: .relaxed) }

  /// Starts keeping the actions reduced for an inspector (``takeWatched()``).
  func watch() { watched.store(true, ordering: .relaxed) }

  /// The actions kept for the inspector since the last take, oldest first
  /// (`{"origin":…,"action":…}` without the closing brace), and how many were dropped past
  /// ``watchLimit``.
  func takeWatched() -> (entries: [[UInt8]], dropped: Int) {
    lock.lock()
    defer { lock.unlock() }
    let taken = (watchedEntries, watchDropped)
    watchedEntries.removeAll(keepingCapacity: true)
    watchDropped = 0
    return taken
  }

  /// Starts (or stops, dropping what was kept) keeping reductions.
  func setEnabled(_ on: Bool) {
    lock.lock()
    defer { lock.unlock() }
    enabled.store(on, ordering: .relaxed)
    if !on {
      entries.removeAll()
      if !watched.load(ordering: .relaxed) { hostActions.removeAll() }
    }
  }

  /// The host is about to send `action` (canonical JSON).
  func hostWillSend(_ action: [UInt8]) {
    guard isActive else { return }
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

  /// A reducer ran `action` (canonical JSON, nil if it has no encoding) into the state that
  /// `state` encodes (asked only when the host keeps reductions).
  func reduced(action: [UInt8]?, state: () -> [UInt8]) {
    let json = isEnabled ? state() : nil
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
    if watched.load(ordering: .relaxed) {
      if watchedEntries.count < Self.watchLimit {
        watchedEntries.append(entry)
      } else {
        watchDropped += 1
      }
    }
    guard let json else { return }
    entry += Array(",\"state\":".utf8)
    entry += json
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
