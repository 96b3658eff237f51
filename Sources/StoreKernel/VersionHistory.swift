/// The states of a store's last few versions, so that a host can ask what changed since a
/// version it saw (``Store/states(since:)``, `tca_store_patch`).
///
///     var history = VersionHistory(initial: 0)
///     history.record(1, at: 1, previous: nil)
///     history.state(at: 0)  // 0
///
/// NB: it keeps the values themselves: copy-on-write makes recording free, and a kept state
/// shares its storage with the next one until that is changed. What it costs is memory: up to
/// ``limit`` states that each differ from the next. An ``IdentifiedArray`` (a persistent tree)
/// differs from the next version by the chunks on the way to what changed; a plain array or
/// dictionary is copied whole, in the worst case `limit` full copies of a large one.
@usableFromInline
struct VersionHistory<State> {
  /// How many versions are kept: the current one and the `limit - 1` before it.
  static var limit: Int { 16 }

  @usableFromInline var entries: [(version: UInt64, state: State)]
  /// Where the oldest entry is, once the ring is full.
  @usableFromInline var start = 0

  /// A history whose version 0 is `initial`; with nil, version 0's state is given to the first
  /// ``record(_:at:previous:)`` instead (a store whose snapshot keeps it until then).
  ///
  /// NB: an idle store keeps no entry at all, and no room is reserved for `limit` entries: an
  /// array of one state was ~100 bytes of every idle store (docs/benchmarks.md: memory per idle
  /// store). The ring grows as versions come, reallocating four times on the way to 16.
  init(initial: State?) {
    entries = []
    if let initial { entries.append((version: 0, state: initial)) }
  }

  /// Keeps `state` as the state of `version` (a version newer than any kept), dropping the
  /// oldest when full. `previous` is the state of `version - 1`, kept first when the history
  /// has no entry yet.
  @usableFromInline
  mutating func record(_ state: State, at version: UInt64, previous: State?) {
    if entries.isEmpty, let previous, version > 0 {
      entries.append((version - 1, previous))
    }
    if entries.count < Self.limit {
      entries.append((version, state))
    } else {
      entries[start] = (version, state)
      start = (start + 1) % Self.limit
    }
  }

  /// The state of `version`, nil if it is not kept (see ``Store/states(since:)`` for the
  /// current version, which a history with no entry yet does not hold).
  func state(at version: UInt64) -> State? {
    for entry in entries where entry.version == version { return entry.state }
    return nil
  }

  /// The oldest version kept; nil while no entry is (the current version is then the oldest).
  var oldestVersion: UInt64? {
    entries.isEmpty ? nil : entries[entries.count < Self.limit ? 0 : start].version
  }
}
