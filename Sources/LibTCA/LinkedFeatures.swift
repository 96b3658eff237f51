import Features
import StoreKernel

/// The features of libtca.so: the built-in ones. The C bridge reads this list on first use.
@_silgen_name("libtca_linked_features")
public func libtcaLinkedFeatures() -> [FeatureDescriptor] {
  BuiltinFeatures.all
}
