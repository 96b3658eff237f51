import JSON
import StoreKernel

@c public func tca_feature_schema(
  _ feature: UnsafePointer<CChar>?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_feature_schema") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    try schema(try text(of: feature, "feature"), outJSON, outLength)
  }
}

@c public func tca_feature_schema_n(
  _ feature: UnsafePointer<CChar>?,
  _ featureLength: UInt,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_feature_schema_n") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    try schema(try text(of: feature, length: featureLength, "feature"), outJSON, outLength)
  }
}

/// Delivers the schema document of the feature named `name` (docs/schema.md).
private func schema(
  _ name: String,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) throws(Failure) {
  let feature = try LinkedFeatures.feature(named: name)
  guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
  let json: [UInt8]
  do throws(JSONSchemaError) {
    // NB: derived when the feature was registered; this reads what was kept.
    json = try feature.schemaJSON()
  } catch {
    throw Failure(.unknownFeature, "feature \(JSONError.quoted(name)): \(error)")
  }
  try deliver(json, to: outJSON, length: outLength)
}
