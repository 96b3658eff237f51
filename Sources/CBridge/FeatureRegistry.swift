import JSON
import StoreKernel

/// The features this library was built with.
///
/// NB: the list comes from the library target that links the bridge (`LibTCA` for libtca.so, or
/// a user's own library), through the symbol below: no static initialisers, no registration order.
@_silgen_name("libtca_linked_features")
func linkedFeatures() -> [FeatureDescriptor]

enum FeatureRegistry {
  static let features: [FeatureDescriptor] = linkedFeatures()

  static func feature(named name: String) -> FeatureDescriptor? {
    features.first { $0.name == name }
  }

  /// `[{"name":…,"description":…,"requests":[…],"initialState":{…}}, …]`
  static let catalogJSON: [UInt8] = {
    let entries: [JSONValue] = features.map { feature in
      .object([
        ("name", .string(feature.name)),
        ("description", .string(feature.summary)),
        ("requests", .array(feature.requests.map { .string($0) })),
        ("initialState", (try? JSONParser.parse(feature.initialStateJSON)) ?? .object([])),
      ])
    }
    return JSONWriter.write(.array(entries))
  }()
}
