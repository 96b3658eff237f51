/// A store's host requests: who gets them (a handler, or the host's takes in pull mode), and the
/// host's answers, checked on the caller's thread and applied by the holder.
extension Store {
  /// Sets where host requests go (nil: none; a request made without a handler fails at once, its
  /// failure action saying so, and is written to the trace). If another thread is inside a
  /// callback of the store, waits for it to return.
  public func setRequestHandler(_ handler: HostRequestHandler?) {
    locked { core.setHandler(handler.map(HandlerBox.init)) }
    core.dispatch.waitForOtherThread(untilIdle: false)
  }

  /// Sets how host requests reach the host and where answers from other threads are applied
  /// (``StoreOptions``); called once, before the store is shared.
  @usableFromInline
  func setDelivery(requests: RequestDelivery, answers: AnswerDelivery) {
    locked {
      core.queuedRequests = requests == .queued
      core.answersOnHostThread = answers == .hostThread
    }
  }

  /// Pull mode: the requests and cancellation notices waiting, oldest first, now the caller's.
  /// A cancelled request takes answers (which change nothing) until its notice is taken here.
  public func takeRequests() -> [HostRequestNotice] {
    let notices = core.inbox.takeNotices()
    core.endCancelled(in: notices)
    return notices
  }

  /// Writes the store's trace of host requests to `sink` (nil: nowhere).
  public func setTrace(_ sink: TraceSink?) {
    locked { core.trace = sink }
  }

  /// Answers request `id` with `json`, decoded as the request's response type (semantic 2).
  ///
  /// Throws, changing nothing, if the store made no such request, the request has finished, a
  /// one-shot request already has its answer, or the JSON does not decode (the request then
  /// still waits for a good answer).
  public func respond(to id: UInt64, json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    try answer(.value(json), to: id)
  }

  /// Applies a host's answer to request `id` (``respond(to:json:)``, ``fail(_:message:)``,
  /// ``complete(_:)``).
  ///
  /// NB: inlinable so that a feature's host store (``hosting(_:coding:)``) runs the request
  /// bookkeeping specialized for its actions.
  ///
  /// NB: from outside the store, with nothing waiting and the store free, the call takes the
  /// store first and applies the answer itself, as a send applies its action: queued for the
  /// holder, it cost a closure, two locks of the inbox and a second pass through the table
  /// (docs/benchmarks.md: pull mode).
  @inlinable
  func answer(_ answer: HostAnswer, to id: UInt64) throws(StoreError) {
    // NB: inside the store (a callback), or with answers left for the host's next call, the
    // answer is only queued: that call, or the host's next one, applies it.
    if core.isInsideOnCurrentThread || core.answersOnHostThread {
      return try core.accept(answer, for: id)
    }
    if core.inbox.isEmpty, core.gate.tryLock() {
      let previous = _enterHeld()
      defer { _finishHeld(previous) }
      return try core.acceptHeld(answer, for: id)
    }
    try core.accept(answer, for: id)
    processAnswers()
  }

  /// Begins a call that has taken the store (``answer(_:to:)``).
  @usableFromInline
  func _enterHeld() -> UnsafeMutableRawPointer? {
    let previous = enter()
    hot.pointee.ranInCall = 0
    return previous
  }

  /// Ends a call that took the store (``answer(_:to:)``): runs what it left, then lets go,
  /// delivering its events as a send does.
  @usableFromInline
  func _finishHeld(_ previous: UnsafeMutableRawPointer?) {
    finishCall()
    leave(previous)
    guard core.hasOutgoing || !core.inbox.isEmpty else { return core.gate.unlock() }
    dispatchHeld()
  }

  /// Answers request `id` with `json`.
  public func respond(to id: UInt64, json: [UInt8]) throws(StoreError) {
    try json.withUnsafeBufferPointer { (buffer) throws(StoreError) in
      try respond(to: id, json: buffer)
    }
  }

  /// Fails request `id` (ends a stream too): its failure action gets `message`.
  public func fail(_ id: UInt64, message: String) throws(StoreError) {
    try answer(.failure(message), to: id)
  }

  /// Ends stream `id`.
  public func complete(_ id: UInt64) throws(StoreError) {
    try answer(.complete, to: id)
  }

  /// Applies the answers queued, taking the store (``answer(_:to:)``, from outside it, with
  /// answers applied by the call that gives them).
  @usableFromInline
  func processAnswers() {
    _ = hold {}
  }
}
