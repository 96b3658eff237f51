import Synchronization

/// A failed test-store assertion: a readable message and the place of the call that failed.
public struct TestFailure: Sendable, CustomStringConvertible {
  public var message: String
  public var fileID: String
  public var filePath: String
  public var line: Int
  public var column: Int
  /// Whether this is a skipped assertion, not a failure: what an exhaustive test store would
  /// have failed on, reported by one with `exhaustivity = .off(showSkippedAssertions: true)`
  /// (and by `skipReceivedActions`/`skipInFlightEffects` in an exhaustive one). A reporter
  /// should show it without failing the test (``swiftTesting`` records a known issue).
  public var isSkippedAssertion = false

  public var description: String {
    "\(fileID):\(line): " + (isSkippedAssertion ? "skipped assertion: " : "") + message
  }
}

/// Where a ``TestStore`` reports its failures.
///
/// The library cannot depend on a test framework, so a test target plugs one in, once:
///
///     import Testing
///     extension FailureReporter {
///       static let swiftTesting = FailureReporter { failure in
///         Issue.record(
///           Comment(rawValue: failure.message),
///           sourceLocation: SourceLocation(
///             fileID: failure.fileID, filePath: failure.filePath,
///             line: failure.line, column: failure.column))
///       }
///     }
///
/// and passes it to each test store (`TestStore(…, reporter: .swiftTesting)`), or sets
/// ``default``. Without one, failures are printed and kept in ``recorded``.
public struct FailureReporter: Sendable {
  public let report: @Sendable (TestFailure) -> Void

  public init(_ report: @escaping @Sendable (TestFailure) -> Void) { self.report = report }

  /// Prints the failure and keeps it in ``recorded``.
  public static let printing = FailureReporter { failure in
    let kind = failure.isSkippedAssertion ? "skipped assertion" : "failure"
    print("TestStore \(kind) at \(failure.fileID):\(failure.line):\n\(failure.message)")
    recordedFailures.withLock { $0.append(failure) }
  }

  /// Keeps failures in `list` only (a test of a test store's own failures).
  public static func collecting(into list: FailureList) -> FailureReporter {
    FailureReporter { failure in list.append(failure) }
  }

  /// The reporter of test stores made without one; ``printing`` unless set.
  public static var `default`: FailureReporter {
    get { defaultReporter.withLock { $0 } }
    set { defaultReporter.withLock { $0 = newValue } }
  }

  /// The failures ``printing`` has reported in this process.
  public static var recorded: [TestFailure] { recordedFailures.withLock { $0 } }
}

private let defaultReporter = Mutex(FailureReporter.printing)
private let recordedFailures = Mutex<[TestFailure]>([])

/// A list of failures, for ``FailureReporter/collecting(into:)``.
public final class FailureList: Sendable {
  private let failures = Mutex<[TestFailure]>([])

  public init() {}

  public var all: [TestFailure] { failures.withLock { $0 } }
  /// The messages of the failures (skipped assertions left out).
  public var messages: [String] { all.filter { !$0.isSkippedAssertion }.map(\.message) }
  /// The messages of the skipped assertions.
  public var skipped: [String] { all.filter(\.isSkippedAssertion).map(\.message) }

  func append(_ failure: TestFailure) { failures.withLock { $0.append(failure) } }
}
