import JSON
import Synchronization

/// A recording store's ``HostStore`` side: each input the host gives is journaled around the
/// inner store's own (a line written first, dropped if the input fails), and each read notes
/// the version the host saw (``noteRead()``).
extension RecordingStore {
  /// NB: the line keeps the action as the host sent it, checked by the store's decode (a send
  /// that fails drops its line), on one line; no second decode nor an encode
  /// (docs/benchmarks.md, "The journal").
  func send(json action: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    deliverLeftovers()
    guard access.reductions.isActive else {
      try recording({ JournalFormat.appendSend(action, to: &$0) }) { () throws(StoreError) in
        try inner.send(json: action)
      }
      return
    }
    let canonical: [UInt8]
    do throws(JSONError) {
      canonical = try access.canonicalAction(action)
    } catch {
      // NB: the store's own error, with its hints.
      try inner.send(json: action)
      return
    }
    access.reductions.hostWillSend(canonical)
    do {
      try recording({ JournalFormat.appendSend(action, to: &$0) }) { () throws(StoreError) in
        try inner.send(json: action)
      }
    } catch {
      access.reductions.hostSendFailed(canonical)
      throw error
    }
  }

  func stateJSON() throws(StoreError) -> [UInt8] {
    noteRead()
    return try inner.stateJSON()
  }

  func stateJSON(at version: UInt64) throws(StoreError) -> (version: UInt64, json: [UInt8]) {
    noteRead()
    let offset = versionOffset.load(ordering: .acquiring)
    let (inner, json) = try inner.stateJSON(at: version &- offset)
    return (inner &+ offset, json)
  }
  func lend(into lent: LentState) throws(StoreError) {
    noteRead()
    try inner.lend(into: lent)
  }

  /// The host's read of the version (``noteRead()``).
  var version: UInt64 {
    noteRead()
    return storeVersion
  }

  /// The version, as the journal's lines count it.
  var storeVersion: UInt64 { inner.version &+ versionOffset.load(ordering: .acquiring) }

  /// NB: the versions a host sees are the journal's (``versionOffset`` apart from the kernel's,
  /// which a replay may bump more often): `since` is translated there, and back in the error.
  func patch(since: UInt64) throws(StoreError) -> [UInt8] {
    noteRead()
    let offset = versionOffset.load(ordering: .acquiring)
    do throws(StoreError) {
      return try inner.patch(since: since &- offset)
    } catch {
      guard case let .versionGone(_, oldest, current) = error else { throw error }
      throw .versionGone(since, oldest: oldest &+ offset, current: current &+ offset)
    }
  }

  func value(at pointer: String) throws(StoreError) -> [UInt8]? {
    noteRead()
    return try inner.value(at: pointer)
  }

  func subscribe(_ callback: @escaping @Sendable (UInt64) -> Void) throws(StoreError) -> UInt64 {
    try inner.subscribe { [weak self] version in
      guard let self else { return callback(version) }
      let shown = version &+ self.versionOffset.load(ordering: .acquiring)
      self.noteNotified(shown)
      self.inCallback(subscriberOf: version) { callback(shown) }
    }
  }

  func unsubscribe(_ token: UInt64) -> Bool { inner.unsubscribe(token) }

  func setRequestHandler(_ handler: HostRequestHandler?) throws(StoreError) {
    guard !inner.isClosed else { throw .closed }
    lock.lock()
    hostHandler = handler
    lock.unlock()
  }

  /// In callback mode, gives the requests a replay left unanswered to the host's handler: at
  /// the first `send`, `poll` or `advance` once one is set, so a host has the time to set up
  /// what answers them.
  @inline(__always)
  private func deliverLeftovers() {
    if hasLeftovers.load(ordering: .acquiring) { deliverWaiting() }
  }

  private func deliverWaiting() {
    lock.lock()
    guard !queued, !leftovers.isEmpty, let handler = hostHandler else {
      lock.unlock()
      return
    }
    let waiting = leftovers
    leftovers = []
    hasLeftovers.store(false, ordering: .releasing)
    lock.unlock()
    for info in waiting { inCallback { handler.onRequest(info) } }
  }

  func respond(to id: UInt64, json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    let value: [UInt8]
    do throws(JSONError) {
      value = JSONWriter.write(try JSONParser.parse(json))
    } catch {
      throw .badAnswer(id, error)
    }
    try recording(Array("{\"respond\":\(id),\"value\":".utf8) + value, isAnswer: true) {
      () throws(StoreError) in
      try inner.respond(to: id, json: json)
    }
  }

  func fail(_ id: UInt64, message: String) throws(StoreError) {
    let line = Array("{\"fail\":\(id),\"message\":".utf8) + JournalFormat.string(message)
    try recording(line, isAnswer: true) { () throws(StoreError) in
      try inner.fail(id, message: message)
    }
  }

  func complete(_ id: UInt64) throws(StoreError) {
    try recording(Array("{\"complete\":\(id)".utf8), isAnswer: true) {
      () throws(StoreError) in
      try inner.complete(id)
    }
  }

  func takeRequests() throws(StoreError) -> [HostRequestNotice] {
    let taken = try inner.takeRequests()
    lock.lock()
    let waiting = leftovers
    leftovers = []
    hasLeftovers.store(false, ordering: .releasing)
    lock.unlock()
    for notice in taken {
      switch notice {
      case let .request(info): noteRequest(info)
      case let .cancelled(id): note(Array("{\"cancelled\":\(id)".utf8))
      }
    }
    return waiting.map(HostRequestNotice.request) + taken
  }

  func poll() throws(StoreError) -> Int {
    deliverLeftovers()
    // NB: on a manual clock a poll only applies answers, which are recorded as given.
    guard access.clock == .real else { return try inner.poll() }
    let sequence = begin(isPoll: true) { $0 += Array("{\"poll\":true".utf8) }
    do {
      let ran = try inner.poll()
      // NB: a poll that ran nothing is no input (a game loop polls every frame).
      settle(sequence, failed: ran == 0)
      return ran
    } catch {
      settle(sequence, failed: true)
      throw error
    }
  }

  func advance(milliseconds: UInt64) throws(StoreError) -> Int {
    deliverLeftovers()
    guard access.clock == .manual else { return try inner.advance(milliseconds: milliseconds) }
    return try recording(Array("{\"advance\":\(milliseconds)".utf8), isAdvance: true) {
      () throws(StoreError) in try inner.advance(milliseconds: milliseconds)
    }
  }

  var nextDeadlineMilliseconds: UInt64? { inner.nextDeadlineMilliseconds }

  func fileDescriptor() throws(StoreError) -> Int32 { try inner.fileDescriptor() }

  func runningEffects() throws(StoreError) -> [String] { try inner.runningEffects() }

  /// NB: an input (`{"cancelEffects":true}`): the effects a replay would otherwise leave running
  /// would take the journal's later answers.
  func cancelEffects() throws(StoreError) -> Int {
    deliverLeftovers()
    return try recording(Array("{\"cancelEffects\":true".utf8)) { () throws(StoreError) in
      try inner.cancelEffects()
    }
  }

  func close() { inner.close() }

  var isClosed: Bool { inner.isClosed }

  var isUnwound: Bool { inner.isUnwound }

  // NB: the callbacks are the inner store's: found there, they lead to the context holding
  // this store, through which answers are recorded.
  func bindHost(_ context: UnsafeRawPointer?) { inner.bindHost(context) }
}
