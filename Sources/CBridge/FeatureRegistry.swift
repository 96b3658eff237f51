import JSON
import StoreKernel

/// Registers the features of the library that links the bridge: `LibTCA` for libtca.so, or a
/// user's own library (docs/own-features.md). Defined there, found here by its symbol name.
@_silgen_name("libtca_register_features")
func registerLinkedFeatures(_ registry: FeatureRegistry) throws

/// The features this library offers, registered once on first use.
enum LinkedFeatures {
  /// The features, or why registering them failed.
  private static let registered: Result<[FeatureDescriptor], Failure> = {
    let registry = FeatureRegistry()
    do {
      try registerLinkedFeatures(registry)
      return .success(registry.seal())
    } catch {
      _ = registry.seal()
      return .failure(
        Failure(.unknownFeature, "registering this library's features failed: \(error)"))
    }
  }()

  static func all() throws(Failure) -> [FeatureDescriptor] {
    try registered.get()
  }

  static func feature(named name: String) throws(Failure) -> FeatureDescriptor {
    let features = try all()
    guard let feature = features.first(where: { $0.name == name }) else {
      let known = features.map(\.name).joined(separator: ", ")
      throw Failure(
        .unknownFeature, "no feature named \(JSONError.quoted(name)) (this library has: \(known))")
    }
    return feature
  }

  /// `[{"name":…,"description":…,"requests":[…],"initialState":{…}}, …]`
  static func catalogJSON() throws(Failure) -> [UInt8] {
    try catalog.get()
  }

  private static let catalog: Result<[UInt8], Failure> = registered.map { features in
    let entries: [JSONValue] = features.map { feature in
      .object([
        ("name", .string(feature.name)),
        ("description", .string(feature.summary)),
        ("requests", .array(feature.requests.map { .string($0) })),
        ("initialState", (try? JSONParser.parse(feature.initialStateJSON)) ?? .object([])),
      ])
    }
    return JSONWriter.write(.array(entries))
  }
}
