import CSystem
import JSON
import Synchronization

/// Host requests: starting them, handing them to the host, and taking its answers.
extension StoreCore {
  // MARK: - Host requests

  /// Starts `request` in `region`; with `cancelID`, as the whole body of a `.cancellable(id:)`
  /// effect (registered under the id itself).
  ///
  /// NB: `request` is taken owned: when the effect that carried it was its only holder, the
  /// request becomes its own leaf with that reference (no claim, no retain and release;
  /// docs/benchmarks.md: the effect round trip).
  func startRequest(
    _ request: __owned HostRequest<Action>, in region: Region, sink: ThrottleSink<Action>?,
    done: Completion?, cancelID: CancelID? = nil
  ) {
    let waits = request.kind != .fireAndForget
    // NB: the leaf is made first so that the table of open requests holds it: an answer then
    // reaches it without a lookup of its own on the holder. From here on, `request` is the
    // leaf when the request waits (a copy only if another effect value holds the same one).
    var request = consume request
    if waits {
      if isKnownUniquelyReferenced(&request) {
        request.sink = sink
      } else {
        request = request.claimForLeaf(sink: sink)
      }
    }
    guard !region.isCancelled, let (id, payload) = open(request, waits: waits, sink: sink) else {
      complete(done)
      return
    }
    report(
      "request #\(id) \"\(request.name)\" "
        + payload.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
    let info = HostRequestInfo(id: id, name: request.name, body: payload, kind: request.kind)
    if queuedRequests {
      inbox.push(notice: .request(info))
    } else if request.kind == .oneShot {
      post(.request(info, Unmanaged.passRetained(request)))
    } else {
      post(.request(info, nil))
    }
    guard waits else { return complete(done) }
    request.done = done
    if let cancelID { register(request, id: cancelID) }
    // NB: attached last, handing the region the reference this function owns (one retain and
    // one release fewer per request).
    attach(consume request, to: region)
  }

  /// Opens the request a ``Send/request(_:payload:as:)`` waits on, as a one-shot request in the
  /// region of the `.run` that waits; its end (an answer applied, a failure, cancellation)
  /// resumes the task.
  ///
  /// NB: a leaf of its own beside the task's, not inside it: cancelling the task's region
  /// cancels both, and the region ends when both have.
  func openAwaited(_ awaiter: AwaitedRequest) {
    onHolder { [self] in
      guard !awaiter.isCancelled, !awaiter.leaf.isCancelled, !self.isClosed,
        let region = awaiter.leaf.parent
      else { return awaiter.resume() }
      let request = HostRequest<Action>(
        name: awaiter.name, payload: awaiter.payload, kind: .oneShot,
        answer: { (_, bytes) throws(JSONError) in
          try awaiter.take(bytes)
          return nil
        },
        failure: { failure in
          awaiter.fail(failure)
          return nil
        },
        finished: { nil })
      awaiter.request = request
      self.startRequest(request, in: region, sink: nil, done: .call { awaiter.resume() })
    }
  }

  /// Cancels the request a cancelled task waits on (the host is told, as for any request).
  func cancelAwaited(_ awaiter: AwaitedRequest) {
    onHolder { [self] in
      awaiter.isCancelled = true
      if let request = awaiter.request { self.cancel(request) } else { awaiter.resume() }
    }
  }

  /// Lends `leaf` (the one-shot request whose event is delivered now, with its reference) to an
  /// answer given inside its callback, on this thread (the one delivering); ``endDelivering()``
  /// takes it back if no answer did.
  ///
  /// NB: such an answer finds its request without the table's lock, and takes the event's
  /// reference instead of one of its own (docs/benchmarks.md: the effect round trip).
  func beginDelivering(_ leaf: Unmanaged<EffectNode>?) {
    guard let leaf else { return }
    let request = unsafeDowncast(leaf.takeRetainedValue(), to: HostRequest<Action>.self)
    lane.delivering.pointee = request
  }

  /// Ends what ``beginDelivering(_:)`` lent (the thread delivering).
  func endDelivering() {
    guard requests.isMade else { return }
    lane.delivering.pointee = nil
  }

  /// The request `id` if it is the one whose callback runs on this thread, taken out.
  @inline(__always)
  func takeDelivering(_ id: UInt64) -> HostRequest<Action>? {
    guard dispatch.isCurrentThread, requests.isMade else { return nil }
    let delivering = lane.delivering
    guard delivering.pointee?.id == id else { return nil }
    return delivering.pointee.take()
  }

  /// Gives `request` an id (and, unless fire-and-forget, a place in the table of requests
  /// awaiting answers); or fails it at once, feeding its failure action back, and returns nil.
  func open(
    _ request: HostRequest<Action>, waits: Bool, sink: ThrottleSink<Action>?
  ) -> (id: UInt64, payload: RequestPayload)? {
    // NB: in pull mode a request never fails for want of a handler: it waits to be taken. The
    // payload read where it is: a switch over a tuple of it copied the whole result (an
    // encoding error is seven words).
    if let payload = request.encodedPayload, hasHandler || queuedRequests {
      let id = withRequests { table in
        let id = table.nextID
        table.nextID &+= 1
        if waits {
          request.id = id
          table.open.insert(OpenRequest(leaf: request), for: UInt(id))
        }
        return id
      }
      return (id, payload)
    }
    let message: String
    switch request.payload {
    case let .failure(error):
      message = "the payload of \"\(request.name)\" cannot be encoded: \(error)"
    case .success:
      message = "no handler for \"\(request.name)\": the host has not set one"
    }
    report("request \"\(request.name)\" failed at once: \(message)")
    if let action = request.failure(HostFailure(message)) { emit(action, to: sink) }
    return nil
  }

  /// Checks and decodes an answer on the caller's thread, then queues it for the holder.
  ///
  /// NB: checking here, not when the answer is applied, is what lets `respond` return its error
  /// (unknown id, double answer, wrong shape) to the caller even when another thread holds the
  /// store. An answer of the wrong shape leaves the request waiting for a good one.
  @usableFromInline
  func accept(_ answer: HostAnswer, for id: UInt64) throws(StoreError) {
    guard !isClosed else { throw .closed }
    let request: HostRequest<Action>
    if let delivered = takeDelivering(id) {
      request = delivered
    } else {
      request = try withRequests { (table) throws(StoreError) in try table.openRequest(id) }
    }
    // NB: the request moves into the accepted answer, and that into the table: neither is copied
    // (a retain and a release each; docs/benchmarks.md: the effect round trip).
    // NB: a one-shot answer given inside one of the store's callbacks, with nothing queued before
    // it, waits in the table's one direct slot, counted by the inbox: no lock and no item
    // (docs/benchmarks.md: the effect round trip). It is admitted by the request's state alone: a
    // one-shot request's answers all end it, so whichever sets the state first is the answer. Only
    // the delivering thread fills the slot, and only while the inbox is empty, so the holder has
    // taken the previous one (see `takeDirectAnswer`).
    let direct = request.kind == .oneShot && dispatch.isCurrentThread && inbox.isEmpty
    switch answer {
    case let .value(bytes):
      let ends = request.kind == .oneShot
      let action = try decodedAnswer(bytes, to: request, id: id)
      if direct, !request.admit(ending: true) { throw request.refusal(id) }
      // NB: the action moved out of its optional into the table, not copied (see
      // `FIFO.moveFirst(to:)`): taken inside the closure, not captured by it (a copy, and a
      // retain and a release of what it holds).
      guard action != nil else {
        let accepted = AcceptedAnswer(leaf: consume request, ends: ends)
        return try queue(accepted, for: id, direct: direct) { _ in }
      }
      var pending = consume action
      let accepted = AcceptedAnswer(leaf: consume request, hasAction: true, ends: ends)
      try queue(accepted, for: id, direct: direct) { actions in
        if let action = pending.take() { actions.append(action) }
      }
    case let .failure(message):
      if direct, !request.admit(ending: true) { throw request.refusal(id) }
      let accepted = AcceptedAnswer(leaf: consume request, failure: message)
      try queue(accepted, for: id, direct: direct) { _ in }
    case .complete:
      guard request.kind == .stream else { throw .notAStream(id) }
      try queue(AcceptedAnswer(leaf: consume request, completes: true), for: id, direct: false) {
        _ in
      }
    }
  }

  /// Queues `accepted` for request `id` (`addAction` queues its action, if any) and its
  /// application for the holder: in the direct slot (`direct`: admitted already), or admitted
  /// here under the table's lock.
  @inline(__always)
  func queue(
    _ accepted: consuming AcceptedAnswer, for id: UInt64, direct: Bool,
    _ addAction: (inout FIFO<Action>) -> Void
  ) throws(StoreError) {
    if direct {
      let direct = lane.direct
      addAction(&direct.pointee.actions)
      direct.pointee.answer = consume accepted
      inbox.pushDirectAnswer()
      return
    }
    // NB: behind the lock without a closure, so that `accepted` moves into the table.
    let (table, lock) = requestTable
    csystem_spin_lock(lock)
    guard accepted.leaf.admit(ending: accepted.ends) else {
      csystem_spin_unlock(lock)
      throw accepted.leaf.refusal(id)
    }
    addAction(&table.pointee.acceptedActions)
    table.pointee.accepted.append(accepted)
    csystem_spin_unlock(lock)
    // NB: `applier` is immutable: read without the lock.
    inbox.push(table.pointee.applier.apply)
  }

  /// `bytes` decoded as the answer to `request` (request `id`): its action, if any.
  @inline(__always)
  private func decodedAnswer(
    _ bytes: UnsafeBufferPointer<UInt8>, to request: HostRequest<Action>, id: UInt64
  ) throws(StoreError) -> Action? {
    do throws(JSONError) {
      return try request.answer(request, bytes)
    } catch {
      throw .badAnswer(id, error)
    }
  }

  /// ``accept(_:for:)`` by a thread that holds the store from outside it (pull mode's answers;
  /// ``Store/answer(_:to:)``): with nothing waiting before it, an answer is applied at once, as a
  /// send applies its action — a one-shot request's, and each element, failure or completion of
  /// a stream. Anything else is accepted as `accept` does.
  ///
  /// NB: queued for the holder, such an answer cost a closure, two locks of the inbox and a
  /// second pass through the table (docs/benchmarks.md: pull mode). It is admitted by the
  /// request's state alone, as a direct answer is (see `accept`): a stream's element while the
  /// stream is open, anything that ends a request only once. Another thread answering the same
  /// stream at the same moment queues its answer, applied after this one; answers a thread gives
  /// one after another are applied in that order, since each is applied before its call returns.
  @usableFromInline
  func acceptHeld(_ answer: HostAnswer, for id: UInt64) throws(StoreError) {
    guard !isClosed else { throw .closed }
    guard inbox.isEmpty else { return try accept(answer, for: id) }
    let request = try withRequests { (table) throws(StoreError) in try table.openRequest(id) }
    let oneShot = request.kind == .oneShot
    switch answer {
    case let .value(bytes):
      let action = try decodedAnswer(bytes, to: request, id: id)
      guard request.admit(ending: oneShot) else { throw request.refusal(id) }
      applyNow(request, ends: oneShot, action: action)
    case let .failure(message):
      guard request.admit(ending: true) else { throw request.refusal(id) }
      applyNow(request, failure: message)
    case .complete:
      guard !oneShot else { throw .notAStream(id) }
      guard request.admit(ending: true) else { throw request.refusal(id) }
      applyNow(request, completes: true)
    }
  }

  /// Applies an answer admitted by the holder (``acceptHeld(_:for:)``): `action`, or `failure`,
  /// or a stream's completion; the request ends if the answer `ends` it.
  func applyNow(
    _ leaf: HostRequest<Action>, failure: String? = nil, completes: Bool = false,
    ends: Bool = true, action: consuming Action? = nil
  ) {
    if ends { withRequests { table in table.finish(leaf) } }
    // NB: moved out of the optional into the slot, not copied (a retain and a release of what
    // the action holds).
    guard let action = action.take() else {
      return apply(leaf, failure: failure, completes: completes, ends: ends, action: nil)
    }
    withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
      guard let slot = buffer.baseAddress else { return }
      slot.initialize(to: action)
      apply(leaf, failure: nil, completes: false, ends: ends, action: slot)
    }
  }

  /// Takes the answer counted by the inbox (``Inbox/pushDirectAnswer()``), if any, and applies
  /// it (holder).
  ///
  /// NB: the slot is emptied before the count is taken back: the delivering thread fills it
  /// again only once it finds the inbox empty.
  func takeDirectAnswer() -> Bool {
    guard inbox.hasDirectAnswer else { return false }
    let direct = lane.direct
    guard let accepted = direct.pointee.answer.take() else {
      // NB: cannot happen (the slot is filled before it is counted); the count is taken back
      // so that the store is not left with work it can never find.
      inbox.returnDirectAnswer()
      return true
    }
    withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
      guard let slot = buffer.baseAddress else { return }
      let moved = accepted.hasAction && direct.pointee.actions.moveFirst(to: slot)
      inbox.returnDirectAnswer()
      if accepted.ends {
        withRequests { table in table.finish(accepted.leaf) }
      }
      apply(
        accepted.leaf, failure: accepted.failure, completes: accepted.completes,
        ends: accepted.ends, action: moved ? slot : nil)
    }
    return true
  }

  /// Applies the oldest accepted answer (holder). A request cancelled since takes it silently.
  func applyAcceptedAnswer() {
    // NB: the answer's action is moved out of the table into this slot, not into an `Action?`
    // (see `FIFO.moveFirst(to:)`); every path below moves it out again.
    withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
      guard let slot = buffer.baseAddress else { return }
      // NB: the answer's fields taken apart as it leaves the table: the request moves out of
      // it (copied out of a whole answer kept alive, it was retained and released once more).
      typealias Taken = (
        leaf: HostRequest<Action>, failure: String?, completes: Bool, ends: Bool, moved: Bool
      )
      let taken = withRequests { table -> Taken? in
        guard let accepted = table.accepted.popFirst() else { return nil }
        let moved = accepted.hasAction && table.acceptedActions.moveFirst(to: slot)
        // NB: removed here, under the same lock, if it is the answer that ends the request (a
        // request cancelled since is already gone; ids are never reused).
        if accepted.ends { table.finish(accepted.leaf) }
        return (accepted.leaf, accepted.failure, accepted.completes, accepted.ends, moved)
      }
      guard let (leaf, failure, completes, ends, moved) = consume taken else { return }
      apply(leaf, failure: failure, completes: completes, ends: ends, action: moved ? slot : nil)
    }
  }

  /// Applies an answer taken out of the table: `action` (moved out here), or `failure`, or a
  /// stream's completion; then finishes the request if the answer ends it.
  @inline(__always)
  func apply(
    _ leaf: HostRequest<Action>, failure: String?, completes: Bool, ends: Bool,
    action: UnsafeMutablePointer<Action>?
  ) {
    // NB: a leaf cancelled (so finished) since the answer was accepted has no parent: its
    // action is dropped.
    guard leaf.parent != nil else {
      action?.deinitialize(count: 1)
      return
    }
    if let action {
      emit(action.move(), to: leaf.sink)
    } else if let message = failure {
      report("request #\(leaf.id) \"\(leaf.name)\" failed: \(JSONError.quoted(message))")
      if let action = leaf.failure(HostFailure(message)) { emit(action, to: leaf.sink) }
    } else if completes {
      if let action = leaf.finished() { emit(action, to: leaf.sink) }
    }
    guard ends else { return }
    finish(leaf)
  }
}
