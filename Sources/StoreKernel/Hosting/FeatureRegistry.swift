import JSON
import Synchronization

/// The features a library built on libtca's C bridge offers to hosts.
///
/// A library registers its features in one function, which the C bridge calls once, on first use
/// (the first `tca_features` or `tca_store_new`), and never again:
///
///     @_silgen_name("libtca_register_features")
///     public func registerFeatures(_ registry: FeatureRegistry) throws {
///       try registry.register(
///         name: "stopwatch", summary: "A stopwatch with laps.",
///         requests: ["stopwatch.save"],
///         initialState: Stopwatch.State(), reducer: Stopwatch()
///       )
///     }
///
/// NB: the function is found by its symbol name at link time, not by a static initialiser, so
/// nothing depends on the order libraries are loaded. A library that links the bridge without
/// defining it fails to link (`-z defs`).
public final class FeatureRegistry: Sendable {
  /// Why a registration was refused.
  public enum Error: Swift.Error, Equatable, CustomStringConvertible, Sendable {
    /// Another feature of this library already has the name.
    case duplicateName(String)
    /// The name is empty.
    case invalidName(String)
    /// The registry was already in use by hosts: features are registered before first use only.
    case registrationAfterFirstUse(String)
    /// The feature's schema cannot be derived from its types (the feature, and which type and
    /// why).
    case schemaUnavailable(String, JSONSchemaError)

    public var description: String {
      switch self {
      case let .duplicateName(name):
        return "a feature named \"\(name)\" is already registered"
      case let .invalidName(name):
        return "\"\(name)\" is not a valid feature name (it must not be empty)"
      case let .registrationAfterFirstUse(name):
        return "cannot register \"\(name)\": features are registered before first use only"
      case let .schemaUnavailable(name, error):
        return "feature \"\(name)\": \(error)"
      }
    }
  }

  private struct Contents {
    var features: [FeatureDescriptor] = []
    var isSealed = false
  }

  private let contents = Mutex(Contents())

  public init() {}

  /// Registers a feature made elsewhere, such as one of libtca's built-in features. Its schema
  /// is derived here: a type that cannot be derived (docs/schema.md) refuses the registration,
  /// naming the type and why.
  public func register(_ feature: FeatureDescriptor) throws(Error) {
    do throws(JSONSchemaError) {
      _ = try feature.schemaJSON()
    } catch {
      throw .schemaUnavailable(feature.name, error)
    }
    try add(feature)
  }

  /// Registers features whose schemas are known to derive, such as libtca's built-in ones (each
  /// derived by their tests): a schema is then derived on first use, not here.
  ///
  /// NB: deriving the four built-in features' schemas at registration cost every process ~10 ms
  /// at its first `tca_store_new` (docs/schema.md, "When a schema is derived").
  public func register(derivingSchemasOnFirstUse features: [FeatureDescriptor]) throws(Error) {
    for feature in features { try add(feature) }
  }

  private func add(_ feature: FeatureDescriptor) throws(Error) {
    try contents.withLock { (contents) throws(Error) in
      guard !contents.isSealed else { throw .registrationAfterFirstUse(feature.name) }
      guard !feature.name.isEmpty else { throw .invalidName(feature.name) }
      guard !contents.features.contains(where: { $0.name == feature.name }) else {
        throw .duplicateName(feature.name)
      }
      contents.features.append(feature)
    }
  }

  /// Registers each of `features`, in order, stopping at the first refused.
  public func register(contentsOf features: [FeatureDescriptor]) throws(Error) {
    for feature in features { try register(feature) }
  }

  /// Registers a feature: its name for hosts, a one-line description, the names of the host
  /// requests it may make, its default state and its reducer.
  public func register<R: Reducer & Sendable>(
    name: String,
    summary: String,
    requests: [String] = [],
    initialState: R.State,
    reducer: R
  ) throws(Error) where R.State: Codable & Equatable & Sendable, R.Action: Decodable {
    try register(
      FeatureDescriptor(
        name: name, summary: summary, requests: requests, initialState: initialState,
        reducer: reducer))
  }

  /// Registers a feature whose host requests are declared with their kinds and types.
  @_disfavoredOverload
  public func register<R: Reducer & Sendable>(
    name: String,
    summary: String,
    requests: [HostRequestDeclaration],
    initialState: R.State,
    reducer: R
  ) throws(Error) where R.State: Codable & Equatable & Sendable, R.Action: Decodable {
    try register(
      FeatureDescriptor(
        name: name, summary: summary, requests: requests, initialState: initialState,
        reducer: reducer))
  }

  /// The features registered, in order.
  public var features: [FeatureDescriptor] { contents.withLock { $0.features } }

  /// Refuses every later registration; returns the features registered.
  public func seal() -> [FeatureDescriptor] {
    contents.withLock { contents in
      contents.isSealed = true
      return contents.features
    }
  }
}
