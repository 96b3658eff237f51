import JSON

/// The journal's format (docs/wire-format.md, "Journals"): JSON Lines, a header first.
enum JournalFormat {
  /// `tcaJournal` in the header line.
  static let version = 1

  /// `text` as a JSON string.
  static func string(_ text: String) -> [UInt8] {
    JSONWriter.write(.string(text))
  }

  private static let sendPrefix: [UInt8] = Array("{\"send\":".utf8)

  /// Appends a send line's start: `{"send":` and the action as the host sent it, on one line.
  @inline(__always)
  static func appendSend(_ action: UnsafeBufferPointer<UInt8>, to line: inout [UInt8]) {
    line.append(contentsOf: sendPrefix)
    // NB: a newline ends a journal line: an action written over several lines is rewritten.
    if action.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
      line += compact(Array(action))
    } else {
      line.append(contentsOf: action)
    }
  }

  /// `json` on one line (a journal line holds no newline); as it is if it does not parse.
  static func compact(_ json: [UInt8]) -> [UInt8] {
    guard json.contains(UInt8(ascii: "\n")) || json.contains(UInt8(ascii: "\r")) else {
      return json
    }
    return (try? JSONWriter.write(JSONParser.parse(json))) ?? json
  }
}

/// Why a journal could not be replayed: the line (1-based) and what went wrong there.
public struct JournalError: Error, Sendable, CustomStringConvertible {
  public let line: Int
  public let error: StoreError
  /// Said instead of the error's own description (nil: none).
  let note: String?

  public init(line: Int, _ error: StoreError) {
    self.line = line
    self.error = error
    self.note = nil
  }

  init(line: Int, _ error: StoreError, note: String) {
    self.line = line
    self.error = error
    self.note = note
  }

  init(line: Int, shape message: String) {
    self.init(line: line, .json(JSONError(.shape, message)))
  }

  public var description: String { "journal line \(line): \(note ?? error.description)" }
}

/// The header of a journal: what its store was made with.
public struct JournalHeader: Sendable {
  public let feature: String
  public let clock: StoreClock.Kind
  public let seed: UInt64
  public let state: [UInt8]

  /// Reads the first line of `journal`.
  public init(of journal: UnsafeBufferPointer<UInt8>) throws(JournalError) {
    let lines = JournalReplay.lines(journal)
    guard let first = lines.first else {
      throw JournalError(line: 1, shape: "the journal is empty: it starts with a header line")
    }
    let value = try JournalReplay.parse(first.bytes, line: 1)
    guard case let .number(format)? = value["tcaJournal"] else {
      throw JournalError(
        line: 1, shape: "not a journal header: it has no \"tcaJournal\" format version")
    }
    guard format == "\(JournalFormat.version)" else {
      throw JournalError(
        line: 1,
        shape: "journal format \(format.prefix(20)) is not one this library reads "
          + "(\(JournalFormat.version))")
    }
    guard case let .string(feature)? = value["feature"] else {
      throw JournalError(line: 1, shape: "the header has no \"feature\" string")
    }
    switch value["clock"] {
    case .string("real")?: clock = .real
    case .string("manual")?: clock = .manual
    default: throw JournalError(line: 1, shape: "the header's \"clock\" is not real or manual")
    }
    guard case let .number(seedText)? = value["seed"], let seed = UInt64(seedText) else {
      throw JournalError(line: 1, shape: "the header has no \"seed\" (an unsigned integer)")
    }
    guard let state = value["state"] else {
      throw JournalError(line: 1, shape: "the header has no \"state\"")
    }
    // NB: a recorded store starts at version 0, and a replay from there; a journal that says
    // otherwise was not written by a store.
    if let version = value["version"], version != .number("0") {
      throw JournalError(
        line: 1,
        shape: "the header's \"version\" is \(JournalReplay.excerpt(version)): a journal starts at "
          + "version 0")
    }
    self.feature = feature
    self.seed = seed
    self.state = JSONWriter.write(state)
  }
}

/// Rebuilds a store from a journal (``RecordingStore``), up to a version: time travel.
///
///     let store = try JournalReplay.replay(journal, to: 3, feature: counter)
///
/// The store is made as the journal's header says, on a manual clock, and every input line is
/// given to it in order, until the first whose version is past `version`: actions are sent,
/// answers given, the clock moved (a real clock's `at` times become manual moves). It makes no
/// host requests: the journal answers them. The replayed store records, so its own journal
/// holds the replayed inputs and goes on.
///
/// Each line's version is checked against what the replay computes (``Versions``): a journal
/// edited into inconsistency is refused, naming the line, rather than replayed to states its
/// versions do not name.
public enum JournalReplay {
  struct Line {
    let number: Int
    let bytes: UnsafeBufferPointer<UInt8>
  }

  static func lines(_ journal: UnsafeBufferPointer<UInt8>) -> [Line] {
    var lines: [Line] = []
    var start = 0
    var number = 1
    let newline = UInt8(ascii: "\n")
    for index in 0...journal.count {
      guard index == journal.count || journal[index] == newline else { continue }
      let slice = UnsafeBufferPointer(rebasing: journal[start..<index])
      if slice.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) {
        lines.append(Line(number: number, bytes: slice))
      }
      start = index + 1
      number += 1
    }
    return lines
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(JournalError)
    -> JSONValue
  {
    do throws(JSONError) {
      return try JSONParser.parse(bytes)
    } catch {
      throw JournalError(line: line, .json(error))
    }
  }

  /// A store of `descriptor` (the journal header's feature) replayed from `journal` up to
  /// `version` (`UInt64.max`: to the end), then delivering requests and answers as `options`
  /// say; its unanswered requests wait for the host (its first take, or its handler).
  public static func replay(
    _ journal: UnsafeBufferPointer<UInt8>, to version: UInt64,
    feature descriptor: FeatureDescriptor, options: StoreOptions
  ) throws(JournalError) -> any HostStore {
    let header = try JournalHeader(of: journal)
    guard header.feature == descriptor.name else {
      throw JournalError(
        line: 1,
        shape: "the journal is of feature \"\(header.feature)\", not \"\(descriptor.name)\"")
    }
    var replayOptions = options
    replayOptions.clock = .manual
    replayOptions.seed = header.seed
    replayOptions.requests = .queued
    replayOptions.answers = .anyThread
    replayOptions.record = true
    let all = lines(journal)
    let checkpoint = try Self.checkpoint(in: all, to: version)
    // NB: shared values of its own: the journal has every change that came from outside
    // (`shared` lines), and a replay must change no other store, nor read or write a file.
    replayOptions.sharedRegistry = SharedRegistry(performsFileIO: false, asksHost: true)
    let made: any HostStore
    do throws(JSONError) {
      made = try (checkpoint?.state ?? header.state).withUnsafeBufferPointer {
        (state) throws(JSONError) in
        try descriptor.makeStore(state: state, options: replayOptions)
      }
    } catch {
      throw JournalError(line: 1, .json(error))
    }
    guard let store = made as? RecordingStore else {
      throw JournalError(line: 1, .system("the replayed store does not record"))
    }
    var pending: [HostRequestInfo] = []
    store.access.date.setReplaying(true)
    var versions = Versions(version: checkpoint?.version ?? 0, changes: store.inner.version)
    do throws(JournalError) {
      if let checkpoint, let first = all.first {
        do throws(StoreError) {
          try store.start(at: checkpoint, header: Array(first.bytes))
        } catch {
          throw JournalError(line: 2, error)
        }
        versions = Versions(version: checkpoint.version, changes: store.inner.version)
      }
      for line in all.dropFirst(checkpoint == nil ? 1 : 2) {
        let value = try parse(line.bytes, line: line.number)
        guard value["request"] == nil, value["cancelled"] == nil else { continue }
        guard value["checkpoint"] == nil else {
          throw JournalError(
            line: line.number, shape: "a checkpoint comes only right after the header")
        }
        if let date = value["date"] {
          guard case let .number(text) = date, let milliseconds = Int64(text) else {
            throw JournalError(
              line: line.number, shape: "\"date\" is not a number of milliseconds")
          }
          store.replayDate(milliseconds)
          continue
        }
        guard case let .number(versionText)? = value["version"] else {
          throw JournalError(line: line.number, shape: "an input line has no \"version\"")
        }
        let lineVersion = try versions.check(versionText, line: line.number)
        guard lineVersion <= version else { break }
        try versions.enter(lineVersion, line: line.number, in: store)
        do throws(StoreError) {
          // NB: a poll gives the store no input: its `from` is only where its `at` starts.
          if value["poll"] == nil, let nanoseconds = try time(value, "from") {
            store.replayFrom(nanoseconds)
          }
          try apply(value, to: store, line: line.number, pending: &pending)
          // NB: aligned before the clock moves, and again after: the clock's move is an input
          // of its own in the replayed store's journal, and both carry the line's version.
          store.alignVersion(to: lineVersion)
          if let nanoseconds = try time(value, "at") {
            try store.moveClock(to: nanoseconds)
            store.alignVersion(to: lineVersion)
          }
          try takeRequests(from: store, into: &pending)
        } catch {
          throw JournalError(line: line.number, error)
        }
      }
      try versions.end(in: store)
    } catch {
      store.close()
      throw error
    }
    store.endReplay(requests: options.requests, answers: options.answers, pending: pending)
    return store
  }

  /// The checkpoint the journal starts at (its second line), if any, and if the replay may start
  /// there: `version` is not older, and nothing was in flight when it was taken.
  static func checkpoint(in lines: [Line], to version: UInt64) throws(JournalError)
    -> JournalCheckpoint?
  {
    guard lines.count > 1 else { return nil }
    let line = lines[1]
    let value = try parse(line.bytes, line: line.number)
    guard value["checkpoint"] != nil else { return nil }
    let checkpoint = try JournalCheckpoint(value, line: line.number)
    var newest = checkpoint.version
    if let last = lines.last, last.number != line.number,
      let value = try? parse(last.bytes, line: last.number),
      case let .number(text)? = value["version"], let lastVersion = UInt64(text)
    {
      newest = max(newest, lastVersion)
    }
    guard version >= checkpoint.version else {
      throw JournalError(
        line: line.number,
        .versionGone(version, oldest: checkpoint.version, current: newest),
        note: "version \(version) is older than the journal's checkpoint: its older lines were "
          + "folded (record_limit), and it replays to versions \(checkpoint.version) to \(newest)")
    }
    guard checkpoint.position.inFlight.isEmpty else {
      let list = checkpoint.position.inFlight.prefix(3).joined(separator: "; ")
      throw JournalError(
        line: line.number,
        .versionGone(version, oldest: newest &+ 1, current: newest),
        note: "the journal starts at a checkpoint (version \(checkpoint.version)) taken with "
          + "effects in flight (\(list)), which a replay cannot rebuild; a later checkpoint, "
          + "taken at rest, will start it")
    }
    return checkpoint
  }

  /// Takes the replayed store's notices into `pending`, the requests still open (which the
  /// replayed store hands to its host at the end).
  private static func takeRequests(
    from store: RecordingStore, into pending: inout [HostRequestInfo]
  ) throws(StoreError) {
    for notice in try store.takeRequests() {
      switch notice {
      case let .request(info):
        if info.kind != .fireAndForget { pending.append(info) }
      case let .cancelled(id):
        pending.removeAll { $0.id == id }
      }
    }
  }

  private static func apply(
    _ value: JSONValue, to store: RecordingStore, line: Int, pending: inout [HostRequestInfo]
  ) throws(StoreError) {
    // NB: an answer the recorded store accepted while its request was open, then dropped because
    // an input applied before it cancelled the request (both given in one callback), finds the
    // request finished here: it changed nothing there either.
    func answering(_ id: UInt64, _ body: () throws(StoreError) -> Void) throws(StoreError) {
      do {
        try body()
      } catch .finishedRequest(id) {
        return
      } catch .unknownRequest(id) {
        // NB: a request the recorded store made at its first turn (a `.host` key's
        // `shared.load`), which a call the journal does not keep (a poll) ran there: the replay
        // runs that turn now, then gives the answer.
        guard try store.poll() > 0 else { throw .unknownRequest(id) }
        try takeRequests(from: store, into: &pending)
        do {
          try body()
        } catch .finishedRequest(id) {
          return
        }
      }
    }
    func id(_ key: String) throws(StoreError) -> UInt64 {
      guard case let .number(text)? = value[key], let id = UInt64(text) else {
        throw .json(JSONError(.shape, "\"\(key)\" is not a request id"))
      }
      return id
    }
    if let action = value["send"] {
      // NB: rewritten from the parsed line: one form of the action, whatever spacing it had.
      try JSONWriter.write(action).withUnsafeBufferPointer { (bytes) throws(StoreError) in
        try store.send(json: bytes)
      }
    } else if value["respond"] != nil {
      let request = try id("respond")
      guard let answer = value["value"] else {
        throw .json(JSONError(.shape, "a respond line has no \"value\""))
      }
      try answering(request) { () throws(StoreError) in
        try JSONWriter.write(answer).withUnsafeBufferPointer { (bytes) throws(StoreError) in
          try store.respond(to: request, json: bytes)
        }
      }
      if let index = pending.firstIndex(where: { $0.id == request }),
        pending[index].kind == .oneShot
      {
        pending.remove(at: index)
      }
    } else if value["fail"] != nil {
      let request = try id("fail")
      guard case let .string(message)? = value["message"] else {
        throw .json(JSONError(.shape, "a fail line has no \"message\" string"))
      }
      try answering(request) { () throws(StoreError) in try store.fail(request, message: message) }
      pending.removeAll { $0.id == request }
    } else if value["complete"] != nil {
      let request = try id("complete")
      try answering(request) { () throws(StoreError) in try store.complete(request) }
      pending.removeAll { $0.id == request }
    } else if case let .number(text)? = value["advance"] {
      guard let milliseconds = UInt64(text) else {
        throw .json(JSONError(.shape, "\"advance\" is not a number of milliseconds"))
      }
      _ = try store.advance(milliseconds: milliseconds)
    } else if case let .number(text)? = value["clock"] {
      guard let nanoseconds = Int64(text) else {
        throw .json(JSONError(.shape, "\"clock\" is not a number of nanoseconds"))
      }
      try store.moveClock(to: nanoseconds)
    } else if case let .number(text)? = value["jump"] {
      guard let target = UInt64(text), let state = value["state"] else {
        throw .json(JSONError(.shape, "a jump line has no version and \"state\""))
      }
      try JSONWriter.write(state).withUnsafeBufferPointer { (bytes) throws(StoreError) in
        try store.jump(to: target, state: bytes)
      }
    } else if value["cancelEffects"] != nil {
      _ = try store.cancelEffects()
    } else if case let .string(name)? = value["shared"] {
      guard let key = SharedKey(description: name), let json = value["value"] else {
        throw .json(JSONError(.shape, "a shared line needs a key (kind:name) and a \"value\""))
      }
      try store.applyShared(key, json: JSONWriter.write(json))
    } else if value["poll"] == nil {
      throw .json(JSONError(.shape, "not an input this library knows"))
    }
  }

  /// A real-clock line's `from` or `at`: the first or the last time its call read the clock
  /// (nil: none).
  private static func time(_ value: JSONValue, _ key: String) throws(StoreError) -> Int64? {
    guard let field = value[key] else { return nil }
    guard case let .number(text) = field, let nanoseconds = Int64(text) else {
      throw .json(JSONError(.shape, "\"\(key)\" is not a number of nanoseconds"))
    }
    return nanoseconds
  }

  /// `value`'s JSON, cut short for a message.
  static func excerpt(_ value: JSONValue) -> String {
    let text = String(decoding: JSONWriter.write(value), as: UTF8.self)
    return text.count > 24 ? String(text.prefix(24)) + "…" : text
  }

  /// What a replay checks of the journal's versions, line by line.
  ///
  /// A recorded store's version bumps when a call changed its state; an input line carries the
  /// version once it was applied (``RecordingStore``). Lines that share a version are a run: the
  /// inputs given together inside one callback, or inputs that changed nothing. So:
  /// - a line's version is never below the line before it (the header's is 0);
  /// - a run that raises the version by n changed the state at least n times as the replay
  ///   applies it (the replay gives each input a call of its own, and may see more changes than
  ///   the recorded store, which applied a callback's inputs together, but never fewer);
  /// - the lines that keep the header's version, 0, end in the header's state.
  ///
  /// NB: so every version names one state, and the replayed store's own journal, whose lines
  /// carry the versions checked here, replays to the same states. `UInt64.max` is refused too:
  /// it is `TCA_VERSION_NONE`, which no live store reports (and the rule above keeps a replay
  /// from reaching it: a version is at most the number of changes replayed).
  struct Versions {
    /// The version of the run in progress, and its first input line (0: none yet).
    private var run: (version: UInt64, line: Int) = (0, 0)
    /// The line a version comes from: the run's first input line, or the header (line 1).
    private var runLine: Int { max(run.line, 1) }
    /// The version before the run, and the replayed store's own version then.
    private var base: (version: UInt64, changes: UInt64)

    init(version: UInt64 = 0, changes: UInt64) {
      base = (version, changes)
      run = (version, 0)
    }

    /// The version of an input line (`text`, its `"version"` member), if it may follow the
    /// lines before it.
    func check(_ text: String, line: Int) throws(JournalError) -> UInt64 {
      guard let version = UInt64(text) else {
        throw JournalError(
          line: line, shape: "\"version\" \(text.prefix(24)) is not a state version (0 or more)")
      }
      guard version != .max else {
        throw JournalError(
          line: line,
          shape: "\"version\" \(version) is TCA_VERSION_NONE, which names no state")
      }
      guard version >= run.version else {
        throw JournalError(
          line: line,
          shape: "\"version\" \(version) is below the \(run.version) of line \(runLine): "
            + "versions never go back")
      }
      return version
    }

    /// An input line of `version` (checked) is about to be applied: the run before it ends
    /// there if it raises the version.
    mutating func enter(_ version: UInt64, line: Int, in store: RecordingStore) throws(JournalError)
    {
      guard version > run.version else {
        if run.line == 0 { run.line = line }
        return
      }
      try end(in: store)
      run = (version, line)
    }

    /// Checks the run in progress against the replayed store, where it ends.
    mutating func end(in store: RecordingStore) throws(JournalError) {
      let changes = store.inner.version &- base.changes
      let raised = run.version - base.version
      if raised > changes {
        throw JournalError(
          line: runLine,
          shape: "\"version\" \(run.version) is \(raised) above the \(base.version) before it, "
            + "but the inputs since changed the state \(changes) "
            + (changes == 1 ? "time" : "times"))
      }
      if raised == 0 && changes > 0 && !Self.unchanged(store, since: base.changes) {
        throw JournalError(
          line: runLine,
          shape: "\"version\" \(run.version) is the version before it, but the inputs since "
            + "changed the state")
      }
      base = (run.version, store.inner.version)
    }

    /// Whether the replayed store's state is the one it had at its own version `changes`.
    ///
    /// NB: compared as JSON values (an object's members in any order); a version the store no
    /// longer keeps (16 changes back) cannot be compared, and passes.
    private static func unchanged(_ store: RecordingStore, since changes: UInt64) -> Bool {
      guard let then = try? store.inner.stateJSON(at: changes), then.version == changes,
        let now = try? store.inner.stateJSON(), let old = try? JSONParser.parse(then.json),
        let new = try? JSONParser.parse(now)
      else { return true }
      return same(old, new)
    }

    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
      switch (a, b) {
      case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
      case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        return x.allSatisfy { member in
          y.first { $0.key == member.key }.map { same(member.value, $0.value) } ?? false
        }
      default: return a == b
      }
    }
  }
}
