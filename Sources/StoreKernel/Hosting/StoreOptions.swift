/// How a host wants a feature's store made (the C API's `tca_options`).
public struct StoreOptions: Sendable {
  /// The store's clock: `.real` (monotonic) or `.manual` (moved by `advance`).
  public var clock: StoreClock.Kind
  /// The random seed; nil for one from the system.
  public var seed: UInt64?
  /// Where to write each action and the state change it caused, and each host request
  /// (`TCA_TRACE=1` → ``TraceSink/standardError``); nil for nowhere.
  public var trace: TraceSink?

  public init(clock: StoreClock.Kind = .real, seed: UInt64? = nil, trace: TraceSink? = nil) {
    self.clock = clock
    self.seed = seed
    self.trace = trace
  }
}
