import CSystem
import Synchronization

/// The table of requests awaiting answers, its lock, and its answer lane.
extension StoreCore {
  /// Runs `body` on the table of requests, behind its lock.
  @inline(__always)
  func withRequests<R, E: Error>(
    _ body: (inout RequestTable<Action>) throws(E) -> R
  ) throws(E) -> R {
    let (table, lock) = requestTable
    csystem_spin_lock(lock)
    defer { csystem_spin_unlock(lock) }
    return try body(&table.pointee)
  }

  /// The table of requests and its lock, made by the first use.
  ///
  /// NB: the addresses taken without retaining their object, which lives as long as the core
  /// (a `ManagedBuffer`'s header and elements do not move). A retained lock, or the body's
  /// result carried out of a closure, cost an answer ~100 instructions more.
  @inline(__always)
  var requestTable: (
    table: UnsafeMutablePointer<RequestTable<Action>>, lock: UnsafeMutablePointer<UInt32>
  ) {
    requests.withObject({ [unowned(unsafe) self] in
      // NB: made here, in code specialized for the store's action, and once per store: an
      // answer queues this function (a retain), not a closure of its own (an allocation).
      // Unowned: the table is the core's, and the function leaves it only for the inbox, which
      // the core empties when it closes.
      RequestTableStorage.make(RequestTable(applyAnswer: { self.applyAcceptedAnswer() }))
    }) { storage in
      storage.withUnsafeMutablePointers { ($0, $1) }
    }
  }

  /// An accepted answer, waiting in the table of requests for the holder: an answer (its action,
  /// if any, waits in `RequestTable.acceptedActions`), a failure, or a stream's completion.
  ///
  /// NB: the action kept in a queue of actions (destroyed by the queue's storage), not in an
  /// `Action?` here: a feature's action made by a reabstraction thunk (a child's answer mapped
  /// into the parent's action) can leave bytes of the enum unset, and the specialized code
  /// destroying an `Action?` held in a struct read them (valgrind: "conditional jump depends on
  /// uninitialised value").
  struct AcceptedAnswer {
    let leaf: HostRequest<Action>
    var hasAction = false
    var failure: String? = nil
    var completes = false
    var ends = true
  }

  /// The table's lane (see ``AnswerLane``), read without an access to the table.
  ///
  /// NB: the lane's reference is loaded from the table's first word (``RequestTable/lane``),
  /// not read as `table.pointee.lane`: that read is an access to the whole table, which a
  /// thread holding its lock may be changing (a race for the thread sanitizer, though no field
  /// is shared).
  @inline(__always)
  var lane: AnswerLane<Action> {
    UnsafeRawPointer(requestTable.table).load(as: AnswerLane<Action>.self)
  }

}

/// What a host said about a request.
@usableFromInline
enum HostAnswer {
  case value(UnsafeBufferPointer<UInt8>)
  case failure(String)
  case complete
}

/// Requests waiting for answers, readable from any thread (behind `StoreCore.requests`' lock).
struct RequestTable<Action>: @unchecked Sendable {
  /// What passes between threads without the lock (see ``AnswerLane``).
  ///
  /// NB: first, at offset 0, where `StoreCore.lane` loads it (a test checks the offset).
  let lane = AnswerLane<Action>.make()
  var nextID: UInt64 = 1
  /// By id (ids are handed out 1 apart, from 1).
  var open = TokenTable<OpenRequest<Action>>(spacing: 0)
  /// Answers accepted from any thread, waiting for the holder, oldest first; the actions of
  /// those that have one, in the same order.
  var accepted = FIFO<StoreCore<Action>.AcceptedAnswer>()
  var acceptedActions = FIFO<Action>()
  /// Applies the oldest accepted answer (see ``StoreCore/accept(_:for:)``).
  let applier: AnswerApplier<Action>
  /// Pull mode: the requests cancelled whose `{"cancelled":id}` notices wait to be taken, by id,
  /// kept here (and in `open`) until then: their ids still take answers (see `StoreCore.cancel`).
  ///
  /// NB: last, so that the fields the answer path reads keep their places.
  var cancelledWaiting: [UInt64: HostRequest<Action>] = [:]

  init(applyAnswer: @escaping () -> Void) { self.applier = AnswerApplier(apply: applyAnswer) }

  /// The request `id` names, if it still takes answers (a first look: the answer is admitted
  /// once decoded).
  @inline(__always)
  func openRequest(_ id: UInt64) throws(StoreError) -> HostRequest<Action> {
    guard let request = open[UInt(id)],
      request.leaf.answerState.load(ordering: .acquiring) == HostRequest<Action>.open
    else { throw refusal(of: id) }
    return request.leaf
  }

  /// Why request `id` takes no answer: it is not open, or an answer that ends it was accepted.
  @inline(never)
  func refusal(of id: UInt64) -> StoreError {
    guard let request = open[UInt(id)] else {
      return id > 0 && id < nextID ? .finishedRequest(id) : .unknownRequest(id)
    }
    return request.leaf.refusal(id)
  }

  /// Ends `leaf` (holder, under the lock): out of the table of open requests, and refusing any
  /// later answer.
  mutating func finish(_ leaf: HostRequest<Action>) {
    _ = open.remove(UInt(leaf.id))
    leaf.answerState.store(HostRequest<Action>.finished, ordering: .releasing)
  }
}

/// The table of a store's requests (in the header, at a fixed address) and its lock word (the one
/// element; see `csystem_spin_lock`).
final class RequestTableStorage<Action>: ManagedBuffer<RequestTable<Action>, UInt32> {
  static func make(_ table: RequestTable<Action>) -> RequestTableStorage {
    // NB: `create` makes an instance of the class it is called on; the downcast only restores
    // the static type.
    let storage = unsafeDowncast(
      create(minimumCapacity: 1) { _ in table }, to: RequestTableStorage.self)
    storage.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
    return storage
  }

  // NB: the table frees its lane itself, not the core: two threads that first use the table at
  // once each make one, and the one whose copy loses (``LazyObject/keep(_:)``) drops it here.
  deinit {
    withUnsafeMutablePointerToHeader { $0.pointee.lane.destroy() }
  }
}

/// What the thread delivering a store's events and the thread holding it hand each other
/// without the table's lock: the request whose callback runs, and the one answer given inside a
/// callback while nothing else waited.
///
/// NB: each behind a pointer of its own, made and freed with the table: neither is part of the
/// table (an access to it under the lock would overlap), nor of one object (the two are touched
/// by different threads at once, which the thread sanitizer would report as overlapping
/// accesses), nor a class's property (a dynamic exclusivity check at each access).
struct AnswerLane<Action> {
  /// The one-shot request whose callback runs now (see `StoreCore.beginDelivering`).
  ///
  /// NB: the thread delivering the store's events alone touches it.
  let delivering: UnsafeMutablePointer<HostRequest<Action>?>
  /// The one answer accepted directly inside a callback, and its action if it has one.
  ///
  /// NB: behind the inbox's count of direct answers: filled by the thread delivering while the
  /// count is 0, emptied by the holder before it takes the count back.
  let direct: UnsafeMutablePointer<DirectAnswer<Action>>

  static func make() -> AnswerLane {
    let delivering = UnsafeMutablePointer<HostRequest<Action>?>.allocate(capacity: 1)
    delivering.initialize(to: nil)
    let direct = UnsafeMutablePointer<DirectAnswer<Action>>.allocate(capacity: 1)
    direct.initialize(to: DirectAnswer())
    return AnswerLane(delivering: delivering, direct: direct)
  }

  /// Frees both (the table's storage, as it goes).
  func destroy() {
    delivering.deinitialize(count: 1)
    delivering.deallocate()
    direct.deinitialize(count: 1)
    direct.deallocate()
  }
}

/// See ``AnswerLane/direct``.
struct DirectAnswer<Action> {
  var answer: StoreCore<Action>.AcceptedAnswer?
  var actions = FIFO<Action>()
}

/// What applies the oldest accepted answer (see ``StoreCore/accept(_:for:)``).
///
/// NB: a struct around the function, so that it leaves the table's lock as the generic result
/// of `withRequests` without a reabstraction thunk (a closure allocated per answer).
struct AnswerApplier<Action> {
  let apply: () -> Void
}

struct OpenRequest<Action>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: of `leaf`, other threads read only its request fields
  // (immutable), `id` (set before the leaf enters the table) and `answerState` (atomic); the
  // holder alone touches the rest.
  /// The request, which is also its place in the store's effects.
  ///
  /// NB: not retained: the leaf's region keeps it, and it leaves this table (under its lock)
  /// before it is finished (cancelled, or its last answer applied) and let go; a request
  /// cancelled in pull mode stays, kept by `RequestTable.cancelledWaiting`. Other threads take
  /// their own reference under the lock (docs/benchmarks.md: the effect round trip).
  unowned(unsafe) let leaf: HostRequest<Action>
}
