/// The states of a store's last few versions, so that a host can ask what changed since a
/// version it saw (``Store/states(since:)``, `tca_store_patch`).
///
///     var history = VersionHistory(initial: 0)
///     history.record(1, at: 1)
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

  init(initial: State) {
    // NB: no room reserved for `limit` entries: an idle store keeps one, and a reserve would
    // cost it most of its memory (issue 17: memory per idle store). The ring grows as versions
    // come, reallocating four times on the way to 16.
    entries = [(0, initial)]
  }

  /// Keeps `state` as the state of `version` (a version newer than any kept), dropping the
  /// oldest when full.
  @usableFromInline
  mutating func record(_ state: State, at version: UInt64) {
    if entries.count < Self.limit {
      entries.append((version, state))
    } else {
      entries[start] = (version, state)
      start = (start + 1) % Self.limit
    }
  }

  /// The state of `version`, nil if it is not kept.
  func state(at version: UInt64) -> State? {
    for entry in entries where entry.version == version { return entry.state }
    return nil
  }

  /// The oldest version kept.
  var oldestVersion: UInt64 { entries[entries.count < Self.limit ? 0 : start].version }
}
