import CSystem
import JSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The inspector (docs/devtools.md): when the process has `TCA_DEVTOOLS=HOST:PORT[/TOKEN]`,
/// every store the C bridge makes records and is connected to it (``DevtoolsStore``).
@_spi(Bridge)
public enum Devtools {
  /// Whether `TCA_DEVTOOLS` names an inspector, read as a store is made: the first value that
  /// does starts the connections' thread, and serves the process from then on. Without the
  /// variable nothing is started, and stores are made as they always are (one `getenv`).
  public static var isOn: Bool {
    guard let value = getenv("TCA_DEVTOOLS"), value.pointee != 0 else { return false }
    return csystem_devtools_start(value) == 0
  }

  /// How many journal lines a store keeps that records only for the inspector (its
  /// `record_limit`; docs/wire-format.md, "Checkpoints"): a jump reaches back that far.
  public static let recordLimit: UInt64 = 10_000

  /// `store` connected to the inspector, if it records (``isOn`` makes stores record); else
  /// `store` itself. `library`: the library's version, for the hello.
  public static func attach(
    _ store: any HostStore, feature: FeatureDescriptor, library: String
  ) -> any HostStore {
    guard isOn, let recording = store as? RecordingStore,
      let connection = csystem_devtools_open()
    else { return store }
    return DevtoolsStore(
      recording, feature: feature, library: library, connection: connection)
  }
}

/// A recording store that an inspector sees and drives (docs/devtools.md, "The protocol").
///
/// It forwards every call to its ``RecordingStore``, and at the end of each of the host's calls
/// (not one made from inside the store's callbacks) it `pump`s: applies the commands the
/// inspector sent (a dispatch is a send; a jump replays the journal to the version asked and
/// makes that state the store's), then queues for the inspector what happened since the last
/// pump: the new journal lines, the actions reduced with their origin, the version with its
/// patch. Commands are applied only there, on the host's thread, so that every callback they
/// lead to runs on a thread that called in; their arrival makes the store's wake descriptor
/// readable, so that an event-loop host calls in (`poll`).
///
/// NB: the connection (CSystem's Devtools.cpp) buffers what is queued, bounded; past the bound
/// lines are dropped and counted, and the next version goes out whole.
final class DevtoolsStore: RecordedHostStore, @unchecked Sendable {
  // NB: `@unchecked Sendable`: the mutable parts are touched only under `pumping`.
  let recording: RecordingStore
  private let feature: FeatureDescriptor
  private let connection: OpaquePointer
  /// The hello without its header and closing brace.
  private let hello: [UInt8]
  private let pumping = PlainLock()
  private var generation: UInt64 = 0
  private var cursor: UInt64?
  private var sentVersion: UInt64 = 0
  private var dropped: UInt64 = 0
  private var wholeStateDue = false
  /// What was queued before the first connection (the store is made before its connection
  /// is): sent after the first hello, so that the inspector sees every version from the first.
  /// Nil once sent, or once past ``backlogLimit`` (the first hello is then followed by the
  /// journal and the whole state).
  private var backlog: [[UInt8]]? = []
  private var backlogBytes = 0
  private static let backlogLimit = 4 << 20
  private let watchedFD = Atomic<Int32>(-1)
  private let closed = Atomic<Bool>(false)
  /// The thread pumping (0: none), and whether the connection was let go.
  private let pumpingThread = Atomic<UInt>(0)
  private var released = false

  private static let count = Atomic<UInt64>(0)

  init(
    _ recording: RecordingStore, feature: FeatureDescriptor, library: String,
    connection: OpaquePointer
  ) {
    self.recording = recording
    self.feature = feature
    self.connection = connection
    let number = Self.count.wrappingAdd(1, ordering: .relaxed).newValue
    let pid = getpid()
    var hello = Array("{\"type\":\"hello\",\"protocol\":1,\"store\":\"\(pid)-\(number)\"".utf8)
    hello += Array(",\"pid\":\(pid),\"feature\":".utf8) + JournalFormat.string(feature.name)
    hello += Array(",\"library\":".utf8) + JournalFormat.string(library)
    hello += Array(",\"schema\":".utf8)
    hello += (try? feature.schemaJSON()).map(JournalFormat.compact) ?? Array("null".utf8)
    hello += Array(",\"header\":".utf8)
    self.hello = hello
    recording.access.reductions.watch()
  }

  deinit { close() }

  // MARK: - The inspector

  /// Runs `body` (a host's call), then pumps unless the call came from inside the store.
  @inline(__always)
  private func call<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
    if recording.isInsideCallback { return try body() }
    do {
      let result = try body()
      pump()
      return result
    } catch {
      pump()
      throw error
    }
  }

  /// Applies the inspector's commands, then queues what happened (see the type's
  /// documentation). Returns how many commands ran.
  @discardableResult
  private func pump() -> Int {
    // NB: one pump at a time; a call that finds another thread pumping leaves it the work.
    guard pumping.tryLock() else { return 0 }
    pumpingThread.store(currentThreadID(), ordering: .relaxed)
    defer {
      if closed.load(ordering: .acquiring) { release() }
      pumpingThread.store(0, ordering: .relaxed)
      pumping.unlock()
    }
    guard !recording.isClosed else { return 0 }
    csystem_devtools_clear_wake(connection)
    let now = csystem_devtools_generation(connection)
    if now == 0 {
      if backlog != nil { forward() }
      return 0
    }
    if now != generation {
      let first = generation == 0
      generation = now
      csystem_devtools_begin(connection, now)
      put(hello + recording.headerLine + [UInt8(ascii: "}")])
      if first, let waiting = backlog {
        backlog = nil
        for line in waiting { put(line) }
      } else {
        backlog = nil
        cursor = nil
        sentVersion = 0
        dropped = 0
        wholeStateDue = true
      }
    }
    var ran = 0
    var length = 0
    while let line = csystem_devtools_take(connection, &length) {
      let bytes = Array(UnsafeBufferPointer(start: line, count: length))
      free(line)
      // NB: what happened before the command goes before its answer.
      forward()
      let ack = command(bytes)
      forward()
      put(ack)
      ran += 1
    }
    forward()
    return ran
  }

  /// Queues a line; counts it when the buffer is full.
  private func put(_ line: [UInt8]) {
    if generation == 0 {
      guard backlog != nil else { return }
      backlogBytes += line.count
      if backlogBytes > Self.backlogLimit {
        backlog = nil
      } else {
        backlog?.append(line)
      }
      return
    }
    let status = line.withUnsafeBufferPointer { bytes in
      csystem_devtools_put(connection, bytes.baseAddress, bytes.count)
    }
    if status == 2 {
      dropped &+= 1
      wholeStateDue = true
    }
  }

  /// Queues the journal lines, reductions and version since the last time.
  private func forward() {
    if dropped > 0 {
      let count = dropped
      dropped = 0
      put(Array("{\"type\":\"dropped\",\"count\":\(count)}".utf8))
      if dropped > 0 {
        dropped &+= count
        return
      }
    }
    let (lines, last) = recording.lines(after: cursor)
    cursor = last
    for line in lines { put(Array("{\"type\":\"entry\",\"line\":".utf8) + line + [0x7D]) }
    let (reductions, lost) = recording.access.reductions.takeWatched()
    if lost > 0 {
      dropped &+= UInt64(lost)
      wholeStateDue = true
    }
    let version = recording.version
    let sequential = version &- sentVersion == UInt64(reductions.count)
    for (index, reduction) in reductions.enumerated() {
      let at = sequential ? sentVersion &+ UInt64(index) &+ 1 : version
      put(
        Array("{\"type\":\"reduction\",".utf8) + reduction.dropFirst()
          + Array(",\"version\":\(at)}".utf8))
    }
    guard version != sentVersion || wholeStateDue else { return }
    var message = Array("{\"type\":\"version\",\"version\":\(version)".utf8)
    if !wholeStateDue, let patch = try? recording.patch(since: sentVersion) {
      message += Array(",\"patch\":".utf8) + JournalFormat.compact(patch)
    } else if let state = try? recording.stateJSON() {
      // NB: version 0 is the header's state: a version message of it would be refused.
      guard version != 0 else {
        wholeStateDue = false
        return
      }
      message += Array(",\"state\":".utf8) + JournalFormat.compact(state)
    } else {
      return
    }
    message.append(0x7D)
    wholeStateDue = false
    sentVersion = version
    put(message)
  }

  /// Applies one command line of the inspector; returns its ack.
  ///
  /// NB: the line is a stranger's: anything but a known command with members of the right
  /// types is answered `ok:false`; nothing in it is evaluated.
  private func command(_ line: [UInt8]) -> [UInt8] {
    let value: JSONValue
    do throws(JSONError) {
      value = try JSONParser.parse(line)
    } catch {
      return ack(nil, error: "the command is not JSON: \(error)")
    }
    let id = value["id"]
    do throws(StoreError) {
      switch value["type"] {
      case .string("dispatch")?:
        guard let action = value["action"] else {
          return ack(id, error: "a dispatch has no \"action\"")
        }
        try JSONWriter.write(action).withUnsafeBufferPointer { (bytes) throws(StoreError) in
          try recording.send(json: bytes)
        }
      case .string("jump")?:
        guard case let .number(text)? = value["version"], let target = UInt64(text) else {
          return ack(id, error: "a jump's \"version\" is not a version (0 or more)")
        }
        let current = recording.version
        guard target <= current else {
          return ack(id, error: "no version \(target): the store is at version \(current)")
        }
        try jump(to: target)
      default:
        let kind = value["type"].map(JournalReplay.excerpt) ?? "none"
        return ack(id, error: "unknown command type \(kind)")
      }
    } catch {
      return ack(id, error: "\(error)")
    }
    return ack(id, error: nil)
  }

  /// The state becomes the one the journal replays to at `target`: the store's own when it
  /// still keeps that version (``VersionHistory``), else a replay's.
  private func jump(to target: UInt64) throws(StoreError) {
    if let kept = try? recording.stateJSON(at: target), kept.version == target {
      return try kept.json.withUnsafeBufferPointer { (bytes) throws(StoreError) in
        try recording.jump(to: target, state: bytes)
      }
    }
    let journal = recording.journal()
    let replayed: any HostStore
    do throws(JournalError) {
      replayed = try journal.withUnsafeBufferPointer { (text) throws(JournalError) in
        try JournalReplay.replay(
          text, to: target, feature: feature,
          options: StoreOptions(requests: .queued, answers: .anyThread))
      }
    } catch {
      throw .system("the journal does not replay to version \(target): \(error)")
    }
    defer { replayed.close() }
    let state = try replayed.stateJSON()
    try state.withUnsafeBufferPointer { (bytes) throws(StoreError) in
      try recording.jump(to: target, state: bytes)
    }
  }

  private func ack(_ id: JSONValue?, error: String?) -> [UInt8] {
    var line = Array("{\"type\":\"ack\",\"id\":".utf8)
    line += JSONWriter.write(id ?? .null)
    if let error {
      let short = error.count > 300 ? String(error.prefix(300)) + "…" : error
      line += Array(",\"ok\":false,\"error\":".utf8) + JournalFormat.string(short)
    } else {
      line += Array(",\"ok\":true".utf8)
    }
    line.append(0x7D)
    return line
  }

  // MARK: - RecordedHostStore

  func journal() -> [UInt8] { recording.journal() }
  func logReductions(_ on: Bool) { recording.logReductions(on) }
  var logsReductions: Bool { recording.logsReductions }
  func takeReductions() -> [UInt8] { recording.takeReductions() }

  // MARK: - HostStore

  func send(json action: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    try call { () throws(StoreError) in try recording.send(json: action) }
  }

  func stateJSON() throws(StoreError) -> [UInt8] { try recording.stateJSON() }

  func stateJSON(at version: UInt64) throws(StoreError) -> (version: UInt64, json: [UInt8]) {
    try recording.stateJSON(at: version)
  }

  func lend(into lent: LentState) throws(StoreError) { try recording.lend(into: lent) }

  func patch(since: UInt64) throws(StoreError) -> [UInt8] { try recording.patch(since: since) }

  func value(at pointer: String) throws(StoreError) -> [UInt8]? {
    try recording.value(at: pointer)
  }

  var version: UInt64 { recording.version }

  func subscribe(_ callback: @escaping @Sendable (UInt64) -> Void) throws(StoreError) -> UInt64 {
    try recording.subscribe(callback)
  }

  func unsubscribe(_ token: UInt64) -> Bool { recording.unsubscribe(token) }

  func setRequestHandler(_ handler: HostRequestHandler?) throws(StoreError) {
    try recording.setRequestHandler(handler)
  }

  func respond(to id: UInt64, json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    try call { () throws(StoreError) in try recording.respond(to: id, json: json) }
  }

  func fail(_ id: UInt64, message: String) throws(StoreError) {
    try call { () throws(StoreError) in try recording.fail(id, message: message) }
  }

  func complete(_ id: UInt64) throws(StoreError) {
    try call { () throws(StoreError) in try recording.complete(id) }
  }

  func takeRequests() throws(StoreError) -> [HostRequestNotice] {
    try call { () throws(StoreError) in try recording.takeRequests() }
  }

  func poll() throws(StoreError) -> Int {
    if recording.isInsideCallback { return try recording.poll() }
    let commands = pump()
    return try call { () throws(StoreError) in try recording.poll() } + commands
  }

  func advance(milliseconds: UInt64) throws(StoreError) -> Int {
    try call { () throws(StoreError) in try recording.advance(milliseconds: milliseconds) }
  }

  func runningEffects() throws(StoreError) -> [String] { try recording.runningEffects() }

  func cancelEffects() throws(StoreError) -> Int {
    try call { () throws(StoreError) in try recording.cancelEffects() }
  }

  var nextDeadlineMilliseconds: UInt64? { recording.nextDeadlineMilliseconds }

  /// The store's wake descriptor, which the connection's also makes readable (a command waits).
  func fileDescriptor() throws(StoreError) -> Int32 {
    let fd = try recording.fileDescriptor()
    if watchedFD.load(ordering: .acquiring) != fd, csystem_devtools_watch(connection, fd) == 0 {
      watchedFD.store(fd, ordering: .releasing)
    }
    return fd
  }

  func close() {
    guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // NB: commands are never applied from inside a callback (a free from a subscriber).
    if !recording.isInsideCallback { pump() }
    recording.close()
    // NB: from inside a pump (a command's callback freed the store), that pump lets the
    // connection go when it ends; it must not go while the pump still uses it.
    if pumpingThread.load(ordering: .relaxed) == currentThreadID() { return }
    pumping.lock()
    // NB: what closing did (the requests it cancelled) goes out too.
    if generation != 0 { forward() }
    release()
    pumping.unlock()
  }

  /// Lets the connection go (under `pumping`): it sends what it holds, then the thread frees it.
  private func release() {
    guard !released else { return }
    released = true
    csystem_devtools_close(connection)
  }

  var isClosed: Bool { recording.isClosed }

  var isUnwound: Bool { recording.isUnwound }

  func bindHost(_ context: UnsafeRawPointer?) { recording.bindHost(context) }
}
