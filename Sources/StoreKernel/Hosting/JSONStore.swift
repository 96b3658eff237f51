import JSON

/// A store of a feature as hosts drive it: `store`, with actions decoded from JSON and the
/// state encoded to JSON, by the feature's `paths`.
@usableFromInline
func hosting<State: Codable & Equatable, Action: Decodable>(
  _ store: Store<State, Action>, paths: JSONStorePaths<State, Action>
) -> any HostStore {
  JSONStore(store: store, paths: paths)
}

/// The hot paths of a feature's host stores: decoding and sending an action, reading the
/// version, answering a request and encoding the state. Made once per feature and shared by its
/// stores.
///
/// NB: formed where the feature's types are known (``FeatureDescriptor``, inlinable), so that
/// these closures are specialized there and use the types' direct JSON paths (``JSONCodable``)
/// when they have them. ``JSONStore``'s own methods are generic and run unspecialized: through
/// them, even reading an optional `State` looks its type up at run time. The closures take the
/// store as an argument rather than capturing it: per feature, not per store (docs/benchmarks.md:
/// memory per idle store; capturing cost each store five closures and two context allocations).
@usableFromInline
final class JSONStorePaths<State: Codable & Equatable, Action: Decodable>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: the closures capture only the coders (see ``FeatureCoding``).
  @usableFromInline let coding: FeatureCoding<State, Action>
  @usableFromInline let send:
    (Store<State, Action>, UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void
  @usableFromInline let version: (Store<State, Action>) -> UInt64
  @usableFromInline let answer:
    (Store<State, Action>, UInt64, HostAnswer) throws(StoreError) -> Void
  @usableFromInline let encodeState: (Store<State, Action>) throws(StoreError) -> EncodedState
  /// `Store.advance(by:)` and `Store.poll()`: the effects they run (a timer that lands, an
  /// answer applied) reduce actions, as a send does.
  @usableFromInline let advance: (Store<State, Action>, Duration) throws(StoreError) -> Int
  @usableFromInline let poll: (Store<State, Action>) -> Int

  @inlinable
  init(coding: FeatureCoding<State, Action>) {
    self.coding = coding
    send = { [decodeAction = coding.decodeAction] (store, action) throws(StoreError) in
      guard !store.isClosed else { throw .closed }
      // NB: decode before entering the store: a bad action changes nothing and blocks no one.
      let decoded: Action
      do throws(JSONError) {
        decoded = try decodeAction(action)
      } catch {
        throw .json(ActionErrorHint.guided(error, action: action))
      }
      store.send(decoded)
    }
    version = { store in store.version }
    // NB: answers go through a closure formed here too, so that the request bookkeeping they
    // reach (`StoreCore.accept`, `apply`, `finish`) runs specialized, not generic.
    answer = { (store, id, answer) throws(StoreError) in try store.answer(answer, to: id) }
    // NB: formed here, the store's clock and effects run specialized: unspecialized, each reach
    // into the store's generic record looked its type up at run time (docs/benchmarks.md,
    // "Dice on the direct path").
    advance = { (store, duration) throws(StoreError) in try store.advance(by: duration) }
    poll = { store in store.poll() }
    encodeState = { [encode = coding.encodeState] (store) throws(StoreError) in
      // NB: encode outside the store's lock, from a copy (copy-on-write: no deep copy).
      let (state, version) = store.stateAndVersion
      do throws(JSONError) {
        return EncodedState(version: version, json: try encode(state))
      } catch {
        throw .json(error)
      }
    }
  }
}

/// How a feature's actions are decoded and its states encoded, by the paths their types have
/// (``JSONCodable`` or Codable): made once per feature and shared by its stores.
@usableFromInline
struct FeatureCoding<State: Encodable, Action: Decodable>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: the functions capture only coders (Sendable values) and an
  // atomic length hint.
  @usableFromInline let decodeAction: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Action
  @usableFromInline let encodeState: (State) throws(JSONError) -> [UInt8]

  @inlinable
  init() {
    decodeAction = JSONDecoder().decoding(Action.self)
    encodeState = JSONEncoder().encoding(State.self)
  }
}

/// A state as JSON, and the version it is the JSON of.
@usableFromInline
struct EncodedState {
  let version: UInt64
  let json: [UInt8]

  @usableFromInline
  init(version: UInt64, json: [UInt8]) {
    self.version = version
    self.json = json
  }
}

/// What a ``JSONStore`` keeps of its state's JSON between calls, behind its lock.
struct JSONStoreCaches {
  /// The state JSON of the last version encoded.
  var state: EncodedState?
  /// Parsed state JSON of the last two versions patched from or to, for `patch(since:)`
  /// (newest last).
  ///
  /// NB: two: a host that patches after each change finds the old tree here; more would hold
  /// a parsed copy of a large state per version (tens of MB at 100,000 todos).
  var trees: [(version: UInt64, tree: JSONValue)] = []
  /// How many `value(at:)` calls asked for this version's state (see there).
  var lookups: (version: UInt64, count: Int) = (0, 0)
}

/// A ``Store`` whose state and actions are Codable, driven with JSON: the ``HostStore`` of every
/// feature (made by ``hosting(_:coding:)``).
final class JSONStore<State: Codable & Equatable, Action: Decodable>: HostStore, @unchecked Sendable
{
  // NB: `@unchecked Sendable`: the store serializes itself; the cache is behind its own lock.
  let store: Store<State, Action>
  private let paths: JSONStorePaths<State, Action>
  /// `paths.send`, kept here: loaded through `paths` in this generic class's unspecialized code,
  /// each send paid ~60 instructions more (the two references retained and released).
  private let sendJSON:
    (Store<State, Action>, UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void
  // NB: behind a pthread mutex, not a `Mutex`: ThreadSanitizer sees pthread mutexes, not
  // Mutex's futex, and reported the cache's reads and writes from different threads as races
  // (`make sanitize`). Made by the first read that caches: an idle store keeps neither the
  // caches nor a mutex for them (docs/benchmarks.md: memory per idle store).
  @inline(__always)
  private func withCaches<R>(_ body: (inout JSONStoreCaches) -> R) -> R {
    caches.withObject({ Guarded.make(JSONStoreCaches()) }) { guarded in guarded.withLock(body) }
  }
  private let caches = LazyObject<Guarded<JSONStoreCaches>>()

  init(store: Store<State, Action>, paths: JSONStorePaths<State, Action>) {
    self.store = store
    self.paths = paths
    self.sendJSON = paths.send
  }

  deinit { store.close() }

  func send(json action: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    try sendJSON(store, action)
  }

  func stateJSON() throws(StoreError) -> [UInt8] {
    let version = paths.version(store)
    if let cached = withCaches({ $0.state }), cached.version == version { return cached.json }
    let encoded = try paths.encodeState(store)
    withCaches { caches in
      if (caches.state?.version ?? 0) <= encoded.version { caches.state = encoded }
    }
    return encoded.json
  }

  func stateJSON(at version: UInt64) throws(StoreError) -> (version: UInt64, json: [UInt8]) {
    if let cached = withCaches({ $0.state }), cached.version == version {
      return (version, cached.json)
    }
    // NB: the state of `version` and the current one read together, then encoded outside the
    // store's lock (copy-on-write: no deep copy).
    let (old, state, current) = store.states(since: version)
    let encoded: EncodedState
    do throws(JSONError) {
      if let old, version < current {
        encoded = EncodedState(version: version, json: try paths.coding.encodeState(old))
      } else {
        encoded = EncodedState(version: current, json: try paths.coding.encodeState(state))
      }
    } catch {
      throw .json(error)
    }
    withCaches { caches in
      if (caches.state?.version ?? 0) <= encoded.version { caches.state = encoded }
    }
    return (encoded.version, encoded.json)
  }

  var version: UInt64 { paths.version(store) }

  func lend(into lent: LentState) throws(StoreError) {
    guard !store.isClosed else { throw .closed }
    if lent.version == paths.version(store) { return }
    // NB: from a copy of the state (copy-on-write), outside the store's lock.
    let (state, version) = store.stateAndVersion
    if lent.version == version { return }
    let encoder = JSONEncoder()
    if lent.update(to: state, version: version, encoder: encoder) { return }
    // NB: a write that fails leaves the layout half made: the text is then of no version, and
    // the next lend writes it whole.
    lent.version = nil
    do throws(JSONError) {
      lent.replace(with: try encoder.encode(state, layout: lent.layout), version: version)
    } catch {
      throw .json(error)
    }
  }

  func patch(since: UInt64) throws(StoreError) -> [UInt8] {
    guard !store.isClosed else { throw .closed }
    let (old, state, version) = store.states(since: since)
    if since == version { return Array("[]".utf8) }
    guard since < version, let old else {
      throw .versionGone(since, oldest: store.oldestKeptVersion, current: version)
    }
    // NB: a state that patches itself (``JSONPatchable``) costs what changed; any other is
    // encoded and parsed (each version once, see `trees`) and the trees are diffed.
    if let patchable = state as? any JSONPatchable {
      do throws(JSONError) {
        if let operations = try Self.operations(from: old, to: patchable) {
          return JSONWriter.write(.array(operations))
        }
      } catch {
        throw .json(error)
      }
    }
    let oldTree = try tree(of: old, at: since)
    let newTree = try tree(of: state, at: version)
    return JSONWriter.write(.array(JSONPatch.diff(from: oldTree, to: newTree)))
  }

  /// The operations from `old` to `new`, made by `new`'s type (nil if `old` is not of it).
  private static func operations<P: JSONPatchable>(
    from old: State, to new: P
  ) throws(JSONError) -> [JSONValue]? {
    guard let old = old as? P else { return nil }
    var operations: [JSONValue] = []
    try new.patch(from: old, at: "", into: &operations)
    return operations
  }

  func value(at pointer: String) throws(StoreError) -> [UInt8]? {
    guard !store.isClosed else { throw .closed }
    let version = paths.version(store)
    var tree = withCaches { caches in caches.trees.last { $0.version == version }?.tree }
    // NB: a state that follows pointers itself (``JSONPointable``) encodes only the value it
    // finds, changed or not; a parsed tree, when there is one, is cheaper still.
    if tree == nil, let tokens = JSONPointer.tokens(pointer) {
      let (state, _) = store.stateAndVersion
      if let pointable = state as? any JSONPointable, let found = pointable.json(at: tokens[...]) {
        return found
      }
    }
    if tree == nil {
      // NB: a tree costs a parse of the whole state: made at the second lookup of a version, so
      // a host that gets one value per change pays only the text scan, and one that reads many
      // values of an unchanged state pays the parse once and then each lookup by its depth.
      let again = withCaches { caches -> Bool in
        if caches.lookups.version == version {
          caches.lookups.count += 1
        } else {
          caches.lookups = (version, 1)
        }
        return caches.lookups.count >= 2
      }
      guard again else { return nil }
      let (state, current) = store.stateAndVersion
      guard current == version else { return nil }
      tree = try self.tree(of: state, at: version)
    }
    guard let tree, let found = JSONPointer.value(at: pointer, in: tree) else { return nil }
    return JSONWriter.write(found)
  }

  /// The parsed state JSON of `version`, from the cache or encoded from `state` (and kept).
  private func tree(of state: State, at version: UInt64) throws(StoreError) -> JSONValue {
    if let cached = withCaches({ caches in caches.trees.last { $0.version == version } }) {
      return cached.tree
    }
    let tree: JSONValue
    do throws(JSONError) {
      let json: [UInt8]
      if let cached = withCaches({ $0.state }), cached.version == version {
        json = cached.json
      } else {
        json = try paths.coding.encodeState(state)
        withCaches { caches in
          if (caches.state?.version ?? 0) <= version {
            caches.state = EncodedState(version: version, json: json)
          }
        }
      }
      tree = try JSONParser.parse(json)
    } catch {
      throw .json(error)
    }
    withCaches { caches in
      if !caches.trees.contains(where: { $0.version == version }) {
        caches.trees.append((version, tree))
        caches.trees.sort { $0.version < $1.version }
        if caches.trees.count > 2 { caches.trees.removeFirst() }
      }
    }
    return tree
  }

  func subscribe(_ callback: @escaping @Sendable (UInt64) -> Void) throws(StoreError) -> UInt64 {
    guard !store.isClosed else { throw .closed }
    return store.subscribe(callback)
  }

  func unsubscribe(_ token: UInt64) -> Bool { store.unsubscribe(token) }

  func setRequestHandler(_ handler: HostRequestHandler?) throws(StoreError) {
    guard !store.isClosed else { throw .closed }
    store.setRequestHandler(handler)
  }

  func respond(to id: UInt64, json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    try paths.answer(store, id, .value(json))
  }

  func fail(_ id: UInt64, message: String) throws(StoreError) {
    try paths.answer(store, id, .failure(message))
  }

  func complete(_ id: UInt64) throws(StoreError) {
    try paths.answer(store, id, .complete)
  }

  func takeRequests() throws(StoreError) -> [HostRequestNotice] {
    guard !store.isClosed else { throw .closed }
    return store.takeRequests()
  }

  func poll() throws(StoreError) -> Int {
    guard !store.isClosed else { throw .closed }
    return paths.poll(store)
  }

  func advance(milliseconds: UInt64) throws(StoreError) -> Int {
    let (nanoseconds, overflow) = Int64(clamping: milliseconds).multipliedReportingOverflow(
      by: 1_000_000)
    return try paths.advance(store, .nanoseconds(overflow ? .max : nanoseconds))
  }

  var nextDeadlineMilliseconds: UInt64? {
    guard let deadline = store.nextDeadline else { return nil }
    let nanoseconds = UInt64(max(0, deadline.saturatingNanoseconds))
    return nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
  }

  func fileDescriptor() throws(StoreError) -> Int32 { try store.fileDescriptor() }

  func runningEffects() throws(StoreError) -> [String] {
    guard !store.isClosed else { throw .closed }
    return store.inFlightEffects()
  }

  func cancelEffects() throws(StoreError) -> Int {
    guard !store.isClosed else { throw .closed }
    let running = store.inFlightEffects().count
    store.cancelAllEffects()
    return running
  }

  func close() { store.close() }

  var isClosed: Bool { store.isClosed }

  var isUnwound: Bool { store.isUnwound }

  func bindHost(_ context: UnsafeRawPointer?) {
    store.core.dispatch.hostContext.store(UInt(bitPattern: context), ordering: .releasing)
  }
}
