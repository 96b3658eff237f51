import JSON

/// A feature as a host sees it: a name, a description, its schema, and a way to make a store for
/// it.
///
///     FeatureDescriptor(
///       name: "counter", summary: "A count with two buttons.",
///       requests: [.oneShot("numberFact.fetch", payload: Int.self, response: String.self)],
///       initialState: Counter.State(), reducer: Counter()
///     )
///
/// Requests may be given by name only (`requests: ["numberFact.fetch"]`): the schema then says
/// nothing of what they carry.
public struct FeatureDescriptor: Sendable {
  public let name: String
  public let summary: String
  /// The names of the host requests the feature may make (`"numberFact.fetch"`).
  public let requests: [String]
  /// The host requests the feature may make, with what they carry where declared.
  public let requestDeclarations: [HostRequestDeclaration]
  /// The default state, encoded.
  public let initialStateJSON: [UInt8]
  @usableFromInline let schema: FeatureSchemaCache
  @usableFromInline let make:
    @Sendable (UnsafeBufferPointer<UInt8>?, StoreOptions) throws(JSONError) -> any HostStore
  @usableFromInline let canonical:
    @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> [UInt8]

  /// A feature whose host requests are known by name only.
  @inlinable
  public init<R: Reducer & Sendable>(
    name: String,
    summary: String,
    requests: [String] = [],
    initialState: R.State,
    reducer: R
  ) where R.State: Codable & Equatable & Sendable, R.Action: Decodable {
    self.init(
      name: name, summary: summary, requests: requests.map(HostRequestDeclaration.named),
      initialState: initialState, reducer: reducer)
  }

  /// A feature whose host requests are declared with their kinds and types (``oneShot``…).
  // NB: inlinable so that the store and its JSON paths are made where the feature's types are
  // known (see `JSONStore`): its stores' `send` is then specialized, not generic. Disfavored,
  // so that `requests: []` still means the names-only form.
  @inlinable @_disfavoredOverload
  public init<R: Reducer & Sendable>(
    name: String,
    summary: String,
    requests: [HostRequestDeclaration],
    initialState: R.State,
    reducer: R
  ) where R.State: Codable & Equatable & Sendable, R.Action: Decodable {
    self.name = name
    self.summary = summary
    self.requests = requests.map(\.name)
    self.requestDeclarations = requests
    self.schema = FeatureSchemaCache { () throws(JSONSchemaError) in
      try FeatureSchema.document(
        feature: name, state: R.State.self, action: R.Action.self, requests: requests)
    }
    let initialStateJSON = (try? JSONEncoder().encode(initialState)) ?? Array("{}".utf8)
    self.initialStateJSON = initialStateJSON
    let coding = FeatureCoding<R.State, R.Action>()
    let paths = JSONStorePaths(coding: coding)
    self.canonical = { (action) throws(JSONError) in
      try canonicalizeAction(action, coding: coding)
    }
    self.make = { (saved, options) throws(JSONError) -> any HostStore in
      let state: R.State
      if let saved {
        // NB: members the snapshot leaves out take the initial state's values, whatever
        // decoder the State has (docs/wire-format.md, "Snapshots"). The snapshot is completed
        // only once its decoder missed a member: a whole snapshot, and one refused for any other
        // reason, cost no parse of their own (a 100 MB snapshot stays within its memory bound).
        do throws(JSONError) {
          state = try JSONDecoder().decode(R.State.self, from: saved)
        } catch {
          guard error.kind == .shape, error.message.hasPrefix("missing member"),
            let completed = PartialSnapshot.completed(saved, initialState: initialStateJSON)
          else { throw error }
          state = try JSONDecoder().decode(R.State.self, from: completed)
        }
      } else {
        state = initialState
      }
      if options.record {
        return try makeRecordingStore(
          feature: name, state: state, reducer: reducer, paths: paths, options: options)
      }
      let store: Store<R.State, R.Action>
      if let trace = options.trace {
        store = Store(
          initialState: state, reducer: reducer._printChanges(to: trace),
          clock: options.clock, seed: options.seed, withDependencies: options.sharedDependencies)
        store.setTrace(trace)
      } else {
        store = Store(
          initialState: state, reducer: reducer, clock: options.clock, seed: options.seed,
          withDependencies: options.sharedDependencies)
      }
      store.setDelivery(requests: options.requests, answers: options.answers)
      return hosting(store, paths: paths)
    }
  }

  /// The feature's schema document (docs/schema.md), derived from its types on first use.
  public func schemaJSON() throws(JSONSchemaError) -> [UInt8] {
    try schema.json()
  }

  /// Makes a store, from `state` (JSON) if given, else from the default state. Members `state`
  /// leaves out, at any depth, take the default state's values (``PartialSnapshot``).
  public func makeStore(
    state: UnsafeBufferPointer<UInt8>?, options: StoreOptions = StoreOptions()
  ) throws(JSONError) -> any HostStore {
    try make(state, options)
  }

  /// `action` (JSON in any form the feature's stores accept) in its canonical form: decoded,
  /// then encoded. Two actions are the same exactly when their canonical forms are.
  ///
  ///     "incrementButtonTapped"  →  {"incrementButtonTapped":{}}
  public func canonicalAction(_ action: UnsafeBufferPointer<UInt8>) throws(JSONError) -> [UInt8] {
    try canonical(action)
  }
}
