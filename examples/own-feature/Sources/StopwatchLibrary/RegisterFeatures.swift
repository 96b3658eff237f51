import CBridge
import Features
import Stopwatch
import StoreKernel

/// The features this library offers to hosts: the stopwatch, and the built-in counter, opted into.
/// The C bridge calls this once, on first use; the attribute is how it finds it.
@_silgen_name("libtca_register_features")
public func registerFeatures(_ registry: FeatureRegistry) throws {
  try registry.register(
    name: "stopwatch",
    summary: "A stopwatch with laps, saved by the host.",
    requests: [Stopwatch.save],
    initialState: Stopwatch.State(),
    reducer: Stopwatch()
  )
  try registry.register(contentsOf: BuiltinFeatures.all.filter { $0.name == "counter" })
}
