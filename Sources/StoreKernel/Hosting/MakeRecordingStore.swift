import JSON

/// An action's canonical JSON, nil if its type is not `Encodable`.
func canonicalJSON<Action>(of action: Action) -> [UInt8]? {
  guard let encodable = action as? any Encodable else { return nil }
  return try? JSONEncoder().encode(encodable)
}

/// `action` decoded, then encoded (``FeatureDescriptor/canonicalAction(_:)``); an action type
/// that is not `Encodable` gives the JSON as it came, on one line.
@usableFromInline
func canonicalizeAction<State, Action>(
  _ action: UnsafeBufferPointer<UInt8>, coding: FeatureCoding<State, Action>
) throws(JSONError) -> [UInt8] {
  let decoded = try coding.decodeAction(action)
  if let json = canonicalJSON(of: decoded) { return json }
  return JSONWriter.write(try JSONParser.parse(action))
}

/// A recording store of `reducer` from `state` (``StoreOptions/record``): its reducer also
/// feeds the ``ReductionLog``, and a ``RecordingStore`` journals what the host gives it.
@usableFromInline
func makeRecordingStore<R: Reducer & Sendable>(
  feature: String, state: R.State, reducer: R, paths: JSONStorePaths<R.State, R.Action>,
  options: StoreOptions
) throws(JSONError) -> any HostStore
where R.State: Codable & Equatable & Sendable, R.Action: Decodable {
  // NB: a journal replays only with the seed its store used.
  let seed = options.seed ?? UInt64.random(in: 1...UInt64.max)
  let log = ReductionLog()
  let date = JournalDate()
  let logged = Reduce<R.State, R.Action> { state, action in
    let effect = reducer.reduce(into: &state, action: action)
    if log.isActive {
      log.reduced(action: canonicalJSON(of: action)) {
        (try? paths.coding.encodeState(state)) ?? Array("null".utf8)
      }
    }
    return effect
  }
  let store: Store<R.State, R.Action>
  if let trace = options.trace {
    store = Store(
      initialState: state, reducer: logged._printChanges(to: trace), clock: options.clock,
      seed: seed, withDependencies: {
        $0.date = date.generator
        options.sharedDependencies(&$0)
      })
    store.setTrace(trace)
  } else {
    store = Store(
      initialState: state, reducer: logged, clock: options.clock, seed: seed,
      withDependencies: {
        $0.date = date.generator
        options.sharedDependencies(&$0)
      })
  }
  store.setDelivery(requests: options.requests, answers: options.answers)
  let access = RecordingAccess(
    feature: feature, clock: options.clock, seed: seed,
    now: { [store] in store.clock.nowNanoseconds },
    clockReads: options.clock == .real ? store.clock.recordReads() : nil,
    setNow: { [store] nanoseconds in store.clock.setManualNow(nanoseconds) },
    advance: { [store] (nanoseconds) throws(StoreError) in
      try store.advance(by: .nanoseconds(nanoseconds))
    },
    setDelivery: { [store] requests, answers in
      store.setDelivery(requests: requests, answers: answers)
    },
    canonicalAction: { (action) throws(JSONError) in
      try canonicalizeAction(action, coding: paths.coding)
    },
    reductions: log,
    position: { [store] in store.journalPosition() },
    restore: { [store] position in store.restore(position) },
    limit: options.recordLimit, date: date,
    applyShared: { [store] (key, json) throws(StoreError) in
      try store.applyShared(key, json: json)
    },
    observeShared: { [store] observer in store.observeShared(observer) })
  do throws(StoreError) {
    return try RecordingStore(
      inner: hosting(store, paths: paths), access: access, requests: options.requests,
      answers: options.answers)
  } catch {
    store.close()
    if case let .json(json) = error { throw json }
    throw JSONError(.unencodable, "the store cannot be recorded: \(error)")
  }
}
