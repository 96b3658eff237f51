import JSON

/// A store seen from a host: actions in and state out as JSON bytes, host requests out and
/// answers in, time driven by `poll`/`advance`. The C bridge holds every store through this
/// protocol, whatever its feature's types.
///
/// Every method may be called from any thread; calls into one store are serialized, and a call
/// made from inside a callback of the same store is queued rather than run re-entrantly (see
/// ``Store`` for the runtime semantics). After ``close()`` every throwing method throws
/// `StoreError.closed`.
public protocol HostStore: AnyObject, Sendable {
  /// Decodes `action` and sends it. On a decoding error (`.json`) nothing is sent.
  func send(json action: UnsafeBufferPointer<UInt8>) throws(StoreError)
  /// The current state, encoded; cached per version, so an unchanged state is not re-encoded.
  func stateJSON() throws(StoreError) -> [UInt8]
  /// The state JSON of `version` while the store keeps that version (``VersionHistory``), else
  /// of the current one, with the version it is the JSON of: a pair that always matches (a
  /// subscriber's, whose version other threads' sends may have passed by the time it runs).
  func stateJSON(at version: UInt64) throws(StoreError) -> (version: UInt64, json: [UInt8])
  /// Brings `lent` (the text `tca_store_state_borrow` lends) to the current state: nothing
  /// when it holds the current version, else updated in place or written again
  /// (``LentState``). The caller serializes calls with the same `lent`.
  func lend(into lent: LentState) throws(StoreError)
  /// RFC 6902 JSON Patch (a JSON array) from the state JSON of version `since` to the current
  /// one; `[]` when nothing changed. `.versionGone` when `since` is no longer kept (see
  /// ``VersionHistory``) or is newer than the current version.
  func patch(since: UInt64) throws(StoreError) -> [UInt8]
  /// The part of the state at JSON Pointer `pointer`, as JSON, when it can be found without
  /// scanning the state's text (a parsed tree of the current version is at hand); nil when it
  /// cannot, or when the pointer names nothing (the caller then looks it up in ``stateJSON()``,
  /// which says why).
  func value(at pointer: String) throws(StoreError) -> [UInt8]?
  /// Bumps when the state changes.
  var version: UInt64 { get }

  /// Calls `callback` with the new version at the end of each call that changed the state, on
  /// that call's thread. Returns a token for ``unsubscribe(_:)``.
  func subscribe(_ callback: @escaping @Sendable (UInt64) -> Void) throws(StoreError) -> UInt64
  /// Ends a subscription; false if `token` is not a live one.
  func unsubscribe(_ token: UInt64) -> Bool

  /// Sets where host requests go (nil: nowhere; requests then fail at once).
  func setRequestHandler(_ handler: HostRequestHandler?) throws(StoreError)
  /// Answers request `id` with `json` (one-shot: its answer; stream: one more element).
  func respond(to id: UInt64, json: UnsafeBufferPointer<UInt8>) throws(StoreError)
  /// Fails request `id` with `message` (ends a stream).
  func fail(_ id: UInt64, message: String) throws(StoreError)
  /// Ends stream `id`.
  func complete(_ id: UInt64) throws(StoreError)
  /// Pull mode: the requests and cancellation notices waiting, oldest first, now the host's.
  func takeRequests() throws(StoreError) -> [HostRequestNotice]

  /// Replaces the state with `json` (an inspector's jump, docs/devtools.md): every effect is
  /// cancelled, then the state set and the subscribers told, as a call that changed it.
  /// `.json` if `json` is not a state of the feature (nothing changes).
  func replaceState(json: UnsafeBufferPointer<UInt8>) throws(StoreError)

  /// Runs whatever is due; returns how much ran.
  func poll() throws(StoreError) -> Int
  /// Moves a manual clock by `milliseconds`; `.realClock` on a real-clock store.
  func advance(milliseconds: UInt64) throws(StoreError) -> Int
  /// Milliseconds until the next timer is due (0: due now), nil if none is pending. Rounded up,
  /// so a loop that sleeps this long wakes at or after the deadline.
  var nextDeadlineMilliseconds: UInt64? { get }
  /// A descriptor readable exactly when ``poll()`` would do something; owned by the store.
  func fileDescriptor() throws(StoreError) -> Int32

  /// Descriptions of the effects still running, oldest first (`"a .run effect"`, `"a request
  /// \"numberFact.fetch\""`…): what a test store lists when effects are left in flight.
  func runningEffects() throws(StoreError) -> [String]
  /// Cancels every effect still running, as a test store's `skipInFlightEffects` does (the
  /// host hears of each request in flight); returns how many were running. The store stays
  /// open.
  func cancelEffects() throws(StoreError) -> Int

  /// Cancels every effect (the handler's `onCancel` hears of each request in flight) and ends
  /// the store. Idempotent.
  func close()
  var isClosed: Bool { get }
  /// Whether a host callback unwound out of the store (C++ exception, longjmp): the host must
  /// then refuse every call but `close`. Notices first whether one of this thread's just did.
  var isUnwound: Bool { get }
  /// Binds `context` (unretained; nil unbinds) to the store, for
  /// ``innermostCallbackHostContext()`` to find inside the store's callbacks. The host keeps
  /// what it binds alive until it unbinds it.
  @_spi(Bridge)
  func bindHost(_ context: UnsafeRawPointer?)
}

extension HostStore {
  /// The whole text, each time the version changes (a store with no typed state at hand).
  public func lend(into lent: LentState) throws(StoreError) {
    let version = self.version
    if lent.version == version { return }
    lent.replace(with: try stateJSON(), version: version)
  }
}
