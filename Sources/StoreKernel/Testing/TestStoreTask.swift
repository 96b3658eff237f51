/// The effects one ``TestStore/send(_:assert:fileID:filePath:line:column:)`` started: cancel
/// them, or assert that they have finished.
///
///     let task = store.send(.startTimer)
///     store.advance(by: .seconds(1))
///     store.receive(.tick) { $0.ticks = 1 }
///     task.cancel()
///     store.finish()
///
/// Only the effects of the sent action's own reduction are covered: effects of actions they feed
/// back belong to those actions.
public final class TestStoreTask {
  private let running: () -> [String]
  private let cancelEffects: () -> Void
  private let poll: () -> Void
  private let report: (String, String, String, Int, Int) -> Void

  /// Whether ``cancel()`` was called.
  public private(set) var isCancelled = false

  init(
    running: @escaping () -> [String], cancel: @escaping () -> Void,
    poll: @escaping () -> Void,
    report: @escaping (String, String, String, Int, Int) -> Void
  ) {
    self.running = running
    self.cancelEffects = cancel
    self.poll = poll
    self.report = report
  }

  /// Whether some of the effects are still running.
  public var isRunning: Bool { !running().isEmpty }

  /// Cancels the effects (telling the host of their requests in flight).
  public func cancel() {
    isCancelled = true
    cancelEffects()
  }

  /// Runs what is due, then asserts that the effects have finished.
  ///
  /// NB: the test store's clock is manual and it is the host: nothing finishes by waiting. Advance
  /// the clock and answer requests first; this checks that doing so ended the effects.
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    poll()
    let left = running()
    guard !left.isEmpty else { return }
    report(
      "Expected the effects of this send to finish, but "
        + "\(left.count) \(left.count == 1 ? "is" : "are") still running:\n"
        + left.map { "  - " + $0 }.joined(separator: "\n"),
      "\(fileID)", "\(filePath)", Int(line), Int(column))
  }
}
