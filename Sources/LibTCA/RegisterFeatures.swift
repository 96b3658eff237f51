import Features
import StoreKernel

/// The features of libtca.so: every built-in one. The C bridge calls this once, on first use.
///
/// NB: their schemas are derived on first use (tca_feature_schema), not at registration: the
/// tests derive each one (Tests/c/test_schema.c, FeaturesTests' SchemaTests).
@_silgen_name("libtca_register_features")
public func registerFeatures(_ registry: FeatureRegistry) throws {
  try registry.register(derivingSchemasOnFirstUse: BuiltinFeatures.all)
}
