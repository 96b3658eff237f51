import JSON
import Synchronization

/// A ``HostStore`` that keeps a journal of every input a host gives its store, from which
/// ``JournalReplay`` rebuilds the store at any version (`options.record`, `tca_store_journal`).
///
///     {"tcaJournal":1,"feature":"counter","clock":"manual","seed":7,"version":0,"state":{…}}
///     {"send":{"incrementButtonTapped":{}},"version":1}
///     {"request":{"id":1,"name":"numberFact.fetch","kind":"oneShot","payload":1}}
///     {"respond":1,"value":"1 is the loneliest number.","version":2}
///
/// Each input line carries the version the state had once the input was applied (read when the
/// host next read the state or its version, or when the journal was taken: inputs no read came
/// between share one). Inputs given from inside a callback of the store are applied before the
/// call that made the callback returns, all together: they carry the version after that call.
/// `request` and `cancelled` lines record what the store asked of the host; replays skip them.
///
/// NB: a recording store always has a request handler in callback mode: a request the host has
/// no handler for is failed through the journal (`fail`), not inside the kernel, so that its id
/// is taken as in a replay, which answers every request from the journal.
final class RecordingStore: RecordedHostStore, @unchecked Sendable {
  // NB: `@unchecked Sendable`: the mutable parts are touched only under `lock`.
  typealias Entry = JournalLines.Record

  let inner: any HostStore
  let access: RecordingAccess
  /// The header line, without its newline.
  private var header: [UInt8]
  private let origin: Int64
  let lock = PlainLock()
  private var entries = JournalLines()
  private var nextSequence: UInt64 = 0
  /// With a limit: what the oldest lines kept fold into (docs/wire-format.md, "Checkpoints").
  private var folds: JournalFolds?
  /// Whether a replay left requests for the host (read without the lock by every input).
  let hasLeftovers = Atomic<Bool>(false)
  /// The inputs begun and not yet settled, oldest first (where a shared change goes).
  private var inProgress: [UInt64] = []
  /// How many inputs given from outside a callback are in progress: the clock's reads count
  /// from the first one's start to the last one's end (``ClockReads``).
  private var timedInputs = 0
  /// A replayed line's `from`, for the next input's line (a replay of a real-clock journal).
  private var replayedFrom = JournalLines.noTime
  var hostHandler: HostRequestHandler?
  /// Requests a replay left unanswered, for the host's first take or its handler.
  var leftovers: [HostRequestInfo] = []
  var queued: Bool
  /// The thread running one of the store's callbacks through this wrapper (0: none).
  private let callbackThread = Atomic<UInt>(0)
  /// The callback run in progress (0: none), the last one's number, and the version the last
  /// subscribers' run was told of.
  private var run: UInt64 = 0
  private var runs: UInt64 = 0
  private var subscribersRun: (run: UInt64, version: UInt64)?
  /// The version subscribers were last told of, and the inputs begun before (``noteNotified``).
  private var notified: (version: UInt64, mark: UInt64)?
  /// The sequence number of the input given last from outside a callback: a date read during
  /// it is journaled before it.
  private var outerInput: UInt64 = 0
  /// Whether answers wait for the host's next call (``AnswerDelivery/hostThread``), and the
  /// first answer given since the last call that applied them: a date read in the call that
  /// applies it is journaled before it (a replay applies each answer at its line).
  private var answersOnHostThread: Bool
  private var waitingAnswer: UInt64?
  /// What a replay adds to the kernel's version to give the recorded one (wrapping).
  ///
  /// NB: inputs given in one callback are applied in one go, and the recorded store's version
  /// bumps once for them; a replay gives them one call each and may bump more. Its versions
  /// are the journal's all the same: after each input it replays, the offset is set so.
  let versionOffset = Atomic<UInt64>(0)

  init(
    inner: any HostStore, access: RecordingAccess, requests: RequestDelivery,
    answers: AnswerDelivery
  ) throws(StoreError) {
    self.inner = inner
    self.access = access
    self.queued = requests == .queued
    self.answersOnHostThread = answers == .hostThread
    self.origin = access.clock == .real ? access.now() : 0
    var header = Array("{\"tcaJournal\":\(JournalFormat.version),\"feature\":".utf8)
    header += JournalFormat.string(access.feature)
    header += Array(",\"clock\":\"\(access.clock == .real ? "real" : "manual")\"".utf8)
    header += Array(",\"seed\":\(access.seed),\"version\":\(inner.version),\"state\":".utf8)
    header += try inner.stateJSON()
    header.append(UInt8(ascii: "}"))
    self.header = header
    if access.limit > 0 { folds = JournalFolds(limit: access.limit) }
    if !queued { try inner.setRequestHandler(recordingHandler()) }
    access.date.setOnSample { [weak self] milliseconds in self?.noteDate(milliseconds) }
    // NB: no subscriber of its own: an input's version is read when the host reads the state or
    // its version (``noteRead()``), and after every input a replay gives. A subscriber brought
    // the version up to date at the end of every call, at twice a send's cost
    // (docs/benchmarks.md, "The journal").
    access.observeShared { [weak self] key, json in self?.noteShared(key, json) }
  }

  // MARK: - The journal

  func logReductions(_ on: Bool) { access.reductions.setEnabled(on) }

  var logsReductions: Bool { access.reductions.isEnabled }

  func takeReductions() -> [UInt8] { access.reductions.take() }

  /// The journal as JSON Lines: the header, its checkpoint if it has one, then one line per
  /// input or request, each ended by a newline.
  ///
  /// NB: a read, as the host's reads of the state are (``noteRead()``): the inputs waiting for
  /// their version keep the one written here.
  func journal() -> [UInt8] {
    lock.lock()
    let mark = nextSequence
    lock.unlock()
    let version = storeVersion
    let nested = isInsideCallback
    lock.lock()
    defer { lock.unlock() }
    if !nested { fill(version, before: mark) }
    var text = header
    text.append(UInt8(ascii: "\n"))
    if let checkpoint = folds?.checkpoint { text += checkpoint.line }
    entries.render(into: &text, version: version)
    return text
  }

  /// The journal's header line (no newline).
  var headerLine: [UInt8] { header }

  /// The journal's lines (no newlines) after the one numbered `sequence` (nil: all), with the
  /// last one's number: what an inspector has not been sent yet (``DevtoolsStore``).
  func lines(after sequence: UInt64?) -> (lines: [[UInt8]], last: UInt64?) {
    // NB: a read (``noteRead()``): an inspector shows the versions it is sent.
    let version = self.version
    lock.lock()
    defer { lock.unlock() }
    var start = entries.count
    while start > 0, sequence.map({ entries[start - 1].sequence > $0 }) ?? true { start -= 1 }
    var lines: [[UInt8]] = []
    var last = sequence
    for index in start..<entries.count {
      var text: [UInt8] = []
      entries.render(index, into: &text, version: version)
      lines.append(text)
      last = max(last ?? 0, entries[index].sequence)
    }
    return (lines, last)
  }

  /// The state becomes `state`, the state at version `target` (an inspector's jump): effects
  /// are cancelled and subscribers told (``HostStore/replaceState(json:)``). Journaled as
  /// `{"jump":target,"state":S,"version":N}`.
  func jump(to target: UInt64, state: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    let compact: [UInt8]
    do throws(JSONError) {
      compact = JSONWriter.write(try JSONParser.parse(state))
    } catch {
      throw .json(error)
    }
    let line = Array("{\"jump\":\(target),\"state\":".utf8) + compact
    try recording(line) { () throws(StoreError) in try inner.replaceState(json: state) }
  }

  var isInsideCallback: Bool {
    callbackThread.load(ordering: .acquiring) == currentThreadID()
  }

  /// Writes an input line (written by `write`, without its closing brace) before the input is
  /// given; returns its sequence number, for ``settle(_:failed:)``.
  ///
  /// NB: the inputs a callback gives are applied once it returns, the clock's moves last (the
  /// kernel sums them and runs them after the queue of inputs): an input given in a callback
  /// goes before the moves given earlier in the same run, as it is applied.
  @inline(__always)
  func begin(
    isAdvance: Bool = false, isAnswer: Bool = false, isPoll: Bool = false,
    _ write: (inout [UInt8]) -> Void
  ) -> UInt64 {
    let nested = isInsideCallback
    lock.lock()
    defer { lock.unlock() }
    let sequence = nextSequence
    nextSequence &+= 1
    if !nested {
      if isAnswer && answersOnHostThread {
        // NB: queued, not applied: the date is read by the call that applies it.
        if waitingAnswer == nil { waitingAnswer = sequence }
      } else {
        outerInput = waitingAnswer ?? sequence
        waitingAnswer = nil
        access.date.inputBegins()
      }
      if let reads = access.clockReads {
        if timedInputs == 0 { reads.arm() }
        timedInputs += 1
      }
    }
    let start = entries.write(write)
    var entry = Entry(start: start, end: entries.end, sequence: sequence, isInput: true)
    entry.run = nested ? run : 0
    entry.isAdvance = isAdvance
    entry.isPoll = isPoll
    if replayedFrom != JournalLines.noTime {
      entry.from = replayedFrom
      replayedFrom = JournalLines.noTime
    }
    var index = entries.count
    if nested && !isAdvance {
      while index > 0, entries[index - 1].run == run, entries[index - 1].isAdvance {
        index -= 1
      }
    }
    entries.insert(entry, at: index)
    folds?.inserted(at: index)
    inProgress.append(sequence)
    return sequence
  }

  /// After the input `sequence` was given: drops it if it failed (it changed nothing), else
  /// notes the times a real clock was read during its call (`from`, `at`); then, with a limit,
  /// folds the oldest lines (``JournalFolds``).
  ///
  /// NB: the times the store read, not a read of the clock's own: an input that read no time
  /// (a counter's send) needs none in its line, and the timers that fired at the end of its call
  /// were those due at the last read (docs/wire-format.md, "Journals").
  @inline(__always)
  func settle(_ sequence: UInt64, failed: Bool) {
    let nested = isInsideCallback
    lock.lock()
    var span: (first: Int64, last: Int64)?
    if !nested, let reads = access.clockReads, timedInputs > 0 {
      timedInputs -= 1
      span = reads.span(disarming: timedInputs == 0)
    }
    if inProgress.last == sequence {
      inProgress.removeLast()
    } else {
      inProgress.removeAll { $0 == sequence }
    }
    var index = entries.count
    while index > 0 {
      index -= 1
      guard entries[index].sequence == sequence else { continue }
      if failed {
        entries.remove(at: index)
        folds?.removed(at: index)
      } else if let span {
        if !entries[index].isPoll { entries[index].from = span.first.saturatingSubtract(origin) }
        entries[index].at = span.last.saturatingSubtract(origin)
      }
      break
    }
    if let drop = folds?.overflow(lines: entries.count), drop > 0 { entries.dropFirst(drop) }
    let due = folds?.isDue(lines: entries.count) ?? false
    lock.unlock()
    if due && !nested { fold() }
  }

  /// Runs `body`, the input given to the store (its line written by `write`), recording it
  /// unless it throws.
  @inline(__always)
  func recording<R>(
    isAdvance: Bool = false, isAnswer: Bool = false, _ write: (inout [UInt8]) -> Void,
    _ body: () throws(StoreError) -> R
  ) throws(StoreError) -> R {
    let sequence = begin(isAdvance: isAdvance, isAnswer: isAnswer, write)
    do {
      let result = try body()
      settle(sequence, failed: false)
      return result
    } catch {
      settle(sequence, failed: true)
      throw error
    }
  }

  /// Runs `body`, the input `line` (without its closing brace) given to the store.
  func recording<R>(
    _ line: [UInt8], isAdvance: Bool = false, isAnswer: Bool = false,
    _ body: () throws(StoreError) -> R
  ) throws(StoreError) -> R {
    try recording(isAdvance: isAdvance, isAnswer: isAnswer, { $0 += line }, body)
  }

  func note(_ line: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    insertLine(isInput: false) { $0 += line }
  }

  /// Writes a line with `write` and puts it before the line numbered `anchor`, or last when
  /// there is no such line (under the lock).
  private func insertLine(
    isInput: Bool, before anchor: UInt64? = nil, _ write: (inout [UInt8]) -> Void
  ) {
    let sequence = nextSequence
    nextSequence &+= 1
    let start = entries.write(write)
    let index =
      anchor.flatMap { anchor in entries.records.firstIndex { $0.sequence == anchor } }
      ?? entries.count
    entries.insert(
      Entry(start: start, end: entries.end, sequence: sequence, isInput: isInput), at: index)
    folds?.inserted(at: index)
  }

  // MARK: - Versions

  /// Writes `version` into the inputs begun before `mark` (a sequence number) whose version is
  /// not known yet (under the lock).
  private func fill(_ version: UInt64, before mark: UInt64) {
    var index = entries.count
    while index > 0 {
      index -= 1
      guard entries[index].isInput, entries[index].sequence < mark else { continue }
      if entries[index].version != JournalLines.unset { break }
      entries[index].version = version
    }
  }

  /// Before the host reads the state or its version: the inputs given before get the version
  /// read, the one the host will see.
  ///
  /// NB: an input's version is the state's once it was applied, as the host can name it: read
  /// when the host reads (or at a checkpoint, or when the journal is taken), not after every
  /// input, where it cost a comparison of states per send (docs/benchmarks.md, "The journal").
  /// Inputs no read came between share a version, as inputs given in one callback do: a replay
  /// to that version gives them all. Not from inside a callback: the inputs given there are
  /// applied once it returns.
  func noteRead() {
    guard !isInsideCallback else { return }
    lock.lock()
    let mark = nextSequence
    let waiting = entries.count > 0
    lock.unlock()
    guard waiting else { return }
    // NB: read outside the lock: reading the version may wait for a call in progress, whose
    // callbacks may be recording.
    let version = storeVersion
    lock.lock()
    fill(version, before: mark)
    lock.unlock()
  }

  /// Before subscribers are told of `version`: the inputs given before the notification get it.
  ///
  /// NB: the subscribers told of one version are one run; the inputs the first ones give are
  /// applied after them all, and must not take the version they were told of.
  func noteNotified(_ version: UInt64) {
    lock.lock()
    defer { lock.unlock() }
    let mark: UInt64
    if let last = notified, last.version == version {
      mark = last.mark
    } else {
      mark = nextSequence
      notified = (version, mark)
    }
    fill(version, before: mark)
  }

  // MARK: - Checkpoints

  /// Folds the oldest lines into a checkpoint if the limit asks (``JournalFolds``): takes one
  /// where the journal is now, if nothing is in flight (or the lines would pass the bound), and
  /// drops the lines before the newest checkpoint that leaves at most the limit.
  private func fold() {
    lock.lock()
    let mark = nextSequence
    let forced = folds?.mustCheckpoint(lines: entries.count) ?? false
    lock.unlock()
    // NB: read outside the lock, as the version is (``begin``); kept only if no input came
    // meanwhile.
    let position = access.position()
    guard position.inFlight.isEmpty || forced else {
      lock.lock()
      folds?.busy(lines: entries.count)
      lock.unlock()
      return
    }
    let version = storeVersion
    let clock = access.now().saturatingSubtract(origin)
    guard let state = try? inner.stateJSON() else { return }
    let checkpoint = JournalCheckpoint(
      version: version, state: state, clock: clock, position: position)
    lock.lock()
    defer { lock.unlock() }
    guard nextSequence == mark, folds != nil else { return }
    // NB: the version once the last input was applied, as a checkpoint's; written into the
    // inputs that wait for it.
    fill(version, before: mark)
    folds?.add(checkpoint, at: entries.count)
    if let drop = folds?.overflow(lines: entries.count), drop > 0 { entries.dropFirst(drop) }
  }

  /// A replay from a checkpoint: this store starts where `checkpoint` left its recorded one,
  /// and its journal, with the recorded one's `header` line, at the same checkpoint.
  func start(at checkpoint: JournalCheckpoint, header: [UInt8]) throws(StoreError) {
    access.restore(checkpoint.position)
    if checkpoint.clock > 0 { _ = try access.advance(checkpoint.clock) }
    alignVersion(to: checkpoint.version)
    lock.lock()
    self.header = header
    var folds = self.folds ?? JournalFolds(limit: 0)
    folds.checkpoint = checkpoint
    self.folds = folds
    lock.unlock()
  }

  /// Journals the date sampled during the input given last from outside a callback, before it
  /// (a replay sets the date, then gives the input).
  private func noteDate(_ milliseconds: Int64) {
    lock.lock()
    defer { lock.unlock() }
    insertLine(isInput: false, before: waitingAnswer ?? outerInput) {
      $0 += Array("{\"date\":\(milliseconds)".utf8)
    }
  }

  /// A replay's `date` line: the date of the inputs that follow, journaled again.
  func replayDate(_ milliseconds: Int64) {
    access.date.replay(milliseconds)
    note(Array("{\"date\":\(milliseconds)".utf8))
  }

  /// Journals a shared key's change the store took from outside (another store, a file): an
  /// input line, `{"shared":"host:dice.history","value":[4,2]}`.
  ///
  /// NB: a store takes outside changes before the input of the call that finds them (they wait
  /// in its inbox, which a call empties first): the line goes before the input in progress, if
  /// any, so that a replay applies them in the same order; taken outside any input (a poll of
  /// a manual clock), it goes last.
  private func noteShared(_ key: SharedKey, _ json: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    // NB: with no input in progress it goes last, and no version is written into the inputs
    // before it: the store's version is counted when it is read (``noteRead()``), and they
    // share the next one read with this line, as inputs no read came between do (a replay to
    // it applies them all).
    insertLine(isInput: true, before: inProgress.first) {
      $0 += Array("{\"shared\":".utf8) + JournalFormat.string(key.description)
      $0 += Array(",\"value\":".utf8) + JournalFormat.compact(json)
    }
  }


  /// Applies a replayed `shared` line, recording it.
  func applyShared(_ key: SharedKey, json: [UInt8]) throws(StoreError) {
    var line = Array("{\"shared\":".utf8) + JournalFormat.string(key.description)
    line += Array(",\"value\":".utf8) + JournalFormat.compact(json)
    try recording(line) { () throws(StoreError) in try access.applyShared(key, json) }
  }

  func noteRequest(_ info: HostRequestInfo) {
    var line = Array("{\"request\":{\"id\":\(info.id),\"name\":".utf8)
    line += JournalFormat.string(info.name)
    line += Array(",\"kind\":\"\(info.kind.rawValue)\",\"payload\":".utf8)
    line += JournalFormat.compact(info.payload)
    line.append(UInt8(ascii: "}"))
    note(line)
  }

  /// Runs a callback of the store, marking this thread as inside it. `version`: a subscriber's,
  /// told of that version (the subscribers of one notification are one run: the inputs they
  /// give are applied together once they all returned).
  func inCallback(subscriberOf version: UInt64? = nil, _ body: () -> Void) {
    lock.lock()
    let outer = run
    if let version, let last = subscribersRun, last.version == version, last.run == runs {
      run = last.run
    } else {
      runs &+= 1
      run = runs
      subscribersRun = version.map { (runs, $0) }
    }
    lock.unlock()
    let previous = callbackThread.exchange(currentThreadID(), ordering: .acquiringAndReleasing)
    body()
    callbackThread.store(previous, ordering: .releasing)
    lock.lock()
    run = outer
    lock.unlock()
  }

  private func recordingHandler() -> HostRequestHandler {
    HostRequestHandler(
      onRequest: { [weak self] info in
        guard let self else { return }
        self.noteRequest(info)
        self.lock.lock()
        let handler = self.hostHandler
        self.lock.unlock()
        self.inCallback {
          if let handler {
            handler.onRequest(info)
          } else if info.kind != .fireAndForget {
            // NB: what the kernel says of a request it cannot deliver.
            try? self.fail(
              info.id, message: "no handler for \"\(info.name)\": the host has not set one")
          }
        }
      },
      onCancel: { [weak self] id in
        guard let self else { return }
        self.note(Array("{\"cancelled\":\(id)".utf8))
        self.lock.lock()
        let handler = self.hostHandler
        self.lock.unlock()
        if let handler { self.inCallback { handler.onCancel(id) } }
      })
  }

  // MARK: - Replays

  /// Ends a replay: requests and answers go as the host asked, and the requests the journal
  /// left unanswered wait for it.
  func endReplay(requests: RequestDelivery, answers: AnswerDelivery, pending: [HostRequestInfo]) {
    access.setDelivery(requests, answers)
    access.date.setReplaying(false)
    lock.lock()
    answersOnHostThread = answers == .hostThread
    leftovers = pending
    hasLeftovers.store(!pending.isEmpty, ordering: .releasing)
    queued = requests == .queued
    lock.unlock()
    if requests == .callback { try? inner.setRequestHandler(recordingHandler()) }
  }

  /// Makes the version read now `recorded`, the journal's (replays): the inputs replayed so far
  /// carry it.
  func alignVersion(to recorded: UInt64) {
    lock.lock()
    let mark = nextSequence
    lock.unlock()
    versionOffset.store(recorded &- inner.version, ordering: .releasing)
    lock.lock()
    fill(recorded, before: mark)
    lock.unlock()
  }

  /// Moves a manual clock to `nanoseconds` since the store was made, firing the timers due
  /// (a replay's `clock` and `at`); recorded as a `clock` input.
  ///
  /// NB: a move to the time the clock shows still fires the timers due then: a line's `from`
  /// set the clock without firing them (``replayFrom(_:)``), as the recorded store fired them
  /// only after the input.
  func moveClock(to nanoseconds: Int64) throws(StoreError) {
    let now = access.now()
    guard access.clock == .manual, nanoseconds >= now else { return }
    _ = try recording(Array("{\"clock\":\(nanoseconds)".utf8)) { () throws(StoreError) in
      try access.advance(nanoseconds - now)
    }
  }

  /// Sets a manual clock to `nanoseconds` since the store was made without firing the timers
  /// due (never backward): a replayed line's `from`, the time the recorded store read first
  /// during that input. The next input's line keeps it as its own `from`.
  func replayFrom(_ nanoseconds: Int64) {
    guard access.clock == .manual else { return }
    access.setNow(nanoseconds)
    lock.lock()
    replayedFrom = nanoseconds
    lock.unlock()
  }
}
