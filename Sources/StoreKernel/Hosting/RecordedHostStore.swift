/// A store made with ``StoreOptions/record``, as the C bridge sees it.
public protocol RecordedHostStore: HostStore {
  /// The journal as JSON Lines (docs/wire-format.md, "Journals").
  func journal() -> [UInt8]
  /// Starts keeping the actions reduced (or stops, dropping those kept).
  func logReductions(_ on: Bool)
  var logsReductions: Bool { get }
  /// The reductions kept since the last take, as a JSON array (``ReductionLog``).
  func takeReductions() -> [UInt8]
}
