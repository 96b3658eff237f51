import Features
import StoreKernel

/// The features of libtca.so: every built-in one. The C bridge calls this once, on first use.
@_silgen_name("libtca_register_features")
public func registerFeatures(_ registry: FeatureRegistry) throws {
  try registry.register(contentsOf: BuiltinFeatures.all)
}
