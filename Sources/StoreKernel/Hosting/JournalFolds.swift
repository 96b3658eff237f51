/// When a recorded store with a limit (`record_limit`) folds its oldest journal lines into a
/// checkpoint (docs/wire-format.md, "Checkpoints").
///
/// Every half limit of lines, once nothing is in flight, the store takes a checkpoint where its
/// journal is: its state, version, clock, random position and next request id. When the lines
/// pass the limit, those before the oldest checkpoint that leaves at most the limit are dropped,
/// and it becomes the journal's start. So a journal keeps between half the limit and the limit
/// of lines while the store comes to rest now and then.
///
/// NB: a checkpoint is taken only where no effect is in flight, for a replay from it starts with
/// none (``Store/journalPosition()``). A store that never comes to rest still folds, to bound
/// its memory: once twice the limit of lines pass with no checkpoint, one is taken as it is,
/// naming what is in flight, and a replay from it fails with that list (TCA_ERR_VERSION_GONE)
/// until a checkpoint taken at rest is the journal's start again.
struct JournalFolds {
  let limit: Int
  /// Where the journal starts (nil: at its header).
  var checkpoint: JournalCheckpoint?
  /// Checkpoints taken since, oldest first, each after the first `position` lines.
  private var taken: [(position: Int, checkpoint: JournalCheckpoint)] = []
  /// The lines before the newest checkpoint (0: none).
  private var mark = 0
  /// While the store is busy: the number of lines before which it is not asked again.
  private var retry = 0

  init(limit: UInt64) {
    self.limit = Int(clamping: limit)
  }

  private var half: Int { max(1, limit / 2) }

  /// Whether a checkpoint is due after `lines` lines.
  @inline(__always)
  func isDue(lines: Int) -> Bool {
    limit > 0 && lines - mark >= half && lines >= retry
  }

  /// Whether a checkpoint is taken even with effects in flight.
  ///
  /// NB: not `2 * limit`, which overflows for a limit near `UINT64_MAX`.
  func mustCheckpoint(lines: Int) -> Bool { lines - mark - limit >= limit }

  /// The store had effects in flight after `lines` lines: asked again some lines later.
  mutating func busy(lines: Int) { retry = lines + max(1, half / 8) }

  mutating func inserted(at index: Int) {
    guard !taken.isEmpty else { return }
    for i in taken.indices where taken[i].position > index { taken[i].position += 1 }
    if mark > index { mark += 1 }
  }

  mutating func removed(at index: Int) {
    guard !taken.isEmpty else { return }
    for i in taken.indices where taken[i].position > index { taken[i].position -= 1 }
    if mark > index { mark -= 1 }
  }

  /// Adds `checkpoint`, taken after the first `position` lines.
  mutating func add(_ checkpoint: JournalCheckpoint, at position: Int) {
    taken.append((position, checkpoint))
    mark = position
    retry = 0
  }

  /// How many of `lines` lines to drop, the journal starting at a checkpoint after them: those
  /// before the oldest checkpoint that leaves at most the limit (0: none to drop).
  @inline(__always)
  mutating func overflow(lines: Int) -> Int {
    guard limit > 0, lines > limit, let last = taken.last, last.position >= lines - limit else {
      return 0
    }
    let index = taken.firstIndex { $0.position >= lines - limit } ?? taken.endIndex - 1
    let (drop, start) = taken[index]
    checkpoint = start
    taken.removeFirst(index + 1)
    for i in taken.indices { taken[i].position -= drop }
    mark -= drop
    retry = max(0, retry - drop)
    return drop
  }
}
