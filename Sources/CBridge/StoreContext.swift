#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Bridge) import StoreKernel
import Synchronization

/// What the bridge keeps for each store besides the store itself: its handle, the gate its
/// callbacks pass through, its live subscriptions, and a threaded store's thread.
final class StoreContext: Sendable {
  let handle: StoreHandle
  let store: any HostStore
  let callbacks: CallbackGate
  /// A threaded store's thread (kept with the extras, made for it at once).
  ///
  /// NB: most stores are not threaded: a word of every context was nil (docs/benchmarks.md: memory
  /// per idle store; 64 bytes of context here, an 80-byte malloc chunk with it).
  var runner: Runner? { extras.made?.runner }
  /// What subscriptions and borrows keep, made by the first of them.
  ///
  /// NB: an idle store has neither: made on first use, its three locks (~430 bytes) are not
  /// part of every store's memory (docs/benchmarks.md: memory per idle store).
  private let extras = LazyObject<Extras>()

  /// Each live subscription's flag, by token.
  var subscriptions: Locked<[UInt64: Subscription]> { made.subscriptions }
  /// The state JSON, NUL-terminated, of the version subscribers last got it for.
  var subscriberJSON: Locked<(version: UInt64, json: [UInt8])?> { made.subscriberJSON }

  private var made: Extras { extras.object { Extras(runner: nil) } }

  private final class Extras: Sendable {
    let runner: Runner?
    init(runner: Runner?) { self.runner = runner }
    let subscriptions = Locked<[UInt64: Subscription]>([:])
    let subscriberJSON = Locked<(version: UInt64, json: [UInt8])?>(nil)
    /// The state JSON lent by `tca_store_state_borrow`, NUL-terminated: kept by the context,
    /// updated in place (or written again) by a borrow after a change, freed with the context.
    let borrowed = Locked<LentState>(LentState())
  }

  /// Calls `body` with the store.
  ///
  ///     try target.withStore { (store) throws(StoreError) in try store.send(json: action) }
  ///
  /// NB: a method, not `context.store`: inside it the store is borrowed from `self`, where a
  /// caller holding the context retained and released the store around its call (two atomic
  /// operations, more for a store with a side table: docs/benchmarks.md, "The journal").
  @inline(never)
  func withStore<R, E: Error>(_ body: (any HostStore) throws(E) -> R) throws(E) -> R {
    try body(store)
  }

  init(handle: StoreHandle, store: any HostStore, callbacks: CallbackGate, runner: Runner?) {
    self.handle = handle
    self.store = store
    self.callbacks = callbacks
    if let runner { _ = extras.object { Extras(runner: runner) } }
  }

  /// The state JSON of `version` followed by a NUL, for `tca_state_json_fn`, with the version
  /// it is the JSON of: `version` while the store keeps it, else the current one (the two
  /// always match); encoded once per version. Nil if the state cannot be encoded.
  ///
  /// NB: a subscriber is told of a version at the end of a call, and other threads' sends may
  /// change the state before it runs: the current state would be newer than its version, and a
  /// host patching the pair from that version would apply changes twice.
  func stateForSubscribers(version: UInt64) -> (version: UInt64, json: [UInt8])? {
    if let cached = subscriberJSON.withLock({ $0 }), cached.version == version {
      return cached
    }
    guard var pair = try? store.stateJSON(at: version) else { return nil }
    pair.json.append(0)
    let kept = pair
    subscriberJSON.withLock { cached in
      if (cached?.version ?? 0) <= kept.version { cached = kept }
    }
    return pair
  }

  /// The state JSON, NUL-terminated, and its length, owned by the context: the same pointer
  /// and text while the state is unchanged (no copy); after a change, the same memory updated
  /// in place when the change allows it, else a new text (``LentState``).
  func borrowState() throws(Failure) -> (UnsafePointer<CChar>, Int) {
    // NB: under the lock for the whole update: two borrows at once must not write the text
    // together. The text a host was lent before this call is no longer valid (tca.h). The
    // extras are reached without a retain (`withObject`): a borrow of an unchanged state is
    // a hot read.
    typealias Lent = Result<(UnsafePointer<CChar>, Int), Failure>
    return try extras.withObject({ Extras(runner: nil) }) { (extras) -> Lent in
      do throws(Failure) {
        return .success(try extras.borrowed.withLock { (lent) throws(Failure) in try lend(lent) })
      } catch {
        return .failure(error)
      }
    }.get()
  }

  /// The state JSON for `tca_store_state`, compact, in memory from `malloc` and the host's,
  /// and its length; nil when the store's own cached encoding serves better
  /// (``HostStore/stateJSON()``: a state without chunked values, once lent).
  ///
  /// NB: a state with chunked values (identified arrays) is copied from the lent text, which a
  /// change updates in place (O(what changed)), without its slack: a borrow and one copy, where
  /// encoding it whole again cost 5-10x a copy (docs/benchmarks.md: the scale table). The text
  /// lent by `tca_store_state_borrow` may move (tca.h: it is valid until the next call).
  func copyState() throws(Failure) -> (UnsafeMutablePointer<CChar>, Int)? {
    typealias Copied = Result<(UnsafeMutablePointer<CChar>, Int)?, Failure>
    return try extras.withObject({ Extras(runner: nil) }) { (extras) -> Copied in
      do throws(Failure) {
        return .success(
          try extras.borrowed.withLock { (lent) throws(Failure) in
            // NB: the first copy lends, to learn whether the state has chunked values.
            guard lent.version == nil || lent.hasChunks else { return nil }
            _ = try lend(lent)
            guard let (text, count) = lent.compactCopy() else {
              throw Failure(.noMemory, "out of memory for a copy of the state")
            }
            return (UnsafeMutableRawPointer(text).assumingMemoryBound(to: CChar.self), count)
          })
      } catch {
        return .failure(error)
      }
    }.get()
  }

  private func lend(_ lent: LentState) throws(Failure) -> (UnsafePointer<CChar>, Int) {
    do throws(StoreError) {
      try store.lend(into: lent)
    } catch {
      throw Failure(error)
    }
    if let size = lent.unallocated {
      throw Failure(.noMemory, "out of memory for \(size) bytes of state")
    }
    guard let text = lent.text else { throw Failure(.noMemory, "no state text") }
    return (UnsafeRawPointer(text.pointer).assumingMemoryBound(to: CChar.self), text.count)
  }

  deinit { store.bindHost(nil) }

  /// Closes the store and retires its callbacks (tca_store_free); the handle is already gone.
  func free() {
    // NB: first: from here on, an answer given inside one of the store's callbacks (on any
    // thread) looks its handle up in the table, and finds it gone (`Handles.withStore`).
    store.bindHost(nil)
    if store.isUnwound {
      // NB: a callback unwound out of the store: none is called again, and its dead dispatch is
      // waited for by nothing.
      callbacks.retire()
      runner?.stop(join: true)
      store.close()
      return
    }
    if callbacks.isRunningOnCurrentThread {
      // NB: from inside one of the store's callbacks, the store is held by this thread (or by a
      // thread waiting for this one): it cannot be closed or joined here. Silence the callbacks
      // now; the kernel closes the store when the outer call ends, and the thread stops itself.
      callbacks.retire()
      runner?.stop(join: false)
      store.close()
      return
    }
    runner?.stop(join: true)
    // NB: closing waits for a call in progress, then tells the host of each request in flight
    // (its cancel callback, on this thread); only then are the callbacks retired.
    store.close()
    callbacks.retire()
  }
}

/// A live subscription: cleared by `tca_store_unsubscribe` before the kernel forgets it, so a
/// subscriber removed from inside another's callback is not called in that same round.
final class Subscription: Sendable {
  let isActive = Atomic<Bool>(true)
  /// The newest version a state subscriber was given ahead of its notification (0: none), when
  /// the version it was told of was no longer kept: notifications up to it are skipped, so that
  /// no version is given twice (tca.h).
  let givenAhead = Atomic<UInt64>(0)
}

/// The door every callback of a store goes through to reach the host.
///
/// NB: it knows which thread is running a callback of the store (callbacks of one store never run
/// two at once), so `tca_store_free` can tell a call from inside a callback, and it is shut for
/// good when the store is freed. It holds nothing of the store: the kernel's closures keep it
/// without a reference cycle.
final class CallbackGate: Sendable {
  /// The thread running one of the store's callbacks (0 if none), with bit 0 set once retired.
  ///
  /// NB: one word for both (`pthread_self()` is the address of the thread's control block, so
  /// bit 0 is free): the gate is then 24 bytes, a 32-byte malloc chunk rather than 48
  /// (docs/benchmarks.md: memory per idle store).
  private let state = Atomic<UInt>(0)
  private static let retired: UInt = 1

  /// Runs `body` (a call of the host's function) unless the store has been freed.
  ///
  /// NB: loads and stores, not exchanges (two atomic operations per callback; docs/benchmarks.md:
  /// the effect round trip). A store's callbacks run on one thread at a time (the one delivering
  /// its events, or nested on it), and `retire` comes from that thread (a free inside a
  /// callback) or after the store's close, which waits for the thread delivering to be done.
  @inline(__always)
  func run(_ body: () -> Void) {
    let previous = state.load(ordering: .acquiring)
    guard previous & Self.retired == 0 else { return }
    state.store(currentThread(), ordering: .releasing)
    body()
    // NB: back to the thread before, keeping a retirement made meanwhile (from the callback).
    let now = state.load(ordering: .acquiring)
    state.store(previous | (now & Self.retired), ordering: .releasing)
  }

  var isRunningOnCurrentThread: Bool {
    state.load(ordering: .acquiring) & ~Self.retired == currentThread()
  }

  func retire() { state.bitwiseOr(Self.retired, ordering: .releasing) }
}

/// A store's handle, as callbacks pass it to the host: a token, never dereferenced (Handles).
struct StoreHandle: Sendable, Hashable {
  let token: UInt
  var pointer: OpaquePointer? { OpaquePointer(bitPattern: token) }
}

@inline(__always)
func currentThread() -> UInt { UInt(pthread_self()) }
