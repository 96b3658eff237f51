import JSON

/// A feature as a host sees it: a name, a description, and a way to make a store for it.
///
///     FeatureDescriptor(
///       name: "counter", summary: "A count with two buttons.",
///       initialState: Counter.State(), reducer: Counter()
///     )
public struct FeatureDescriptor: Sendable {
  public let name: String
  public let summary: String
  /// The names of the host requests the feature may make (`"numberFact.fetch"`).
  public let requests: [String]
  /// The default state, encoded.
  public let initialStateJSON: [UInt8]
  private let makeStore: @Sendable (UnsafeBufferPointer<UInt8>?) throws(JSONError) -> any HostStore

  public init<R: Reducer & Sendable>(
    name: String,
    summary: String,
    requests: [String] = [],
    initialState: R.State,
    reducer: R
  ) where R.State: Codable & Sendable, R.Action: Decodable {
    self.name = name
    self.summary = summary
    self.requests = requests
    self.initialStateJSON = (try? JSONEncoder().encode(initialState)) ?? Array("{}".utf8)
    self.makeStore = { (saved) throws(JSONError) -> any HostStore in
      let state = try saved.map { (bytes) throws(JSONError) in
        try JSONDecoder().decode(R.State.self, from: bytes)
      } ?? initialState
      return JSONStore(store: Store(initialState: state, reducer: reducer))
    }
  }

  /// Makes a store, from `state` (JSON) if given, else from the default state.
  public func makeStore(state: UnsafeBufferPointer<UInt8>?) throws(JSONError) -> any HostStore {
    try makeStore(state)
  }
}
