import StoreKernel
import Testing

extension FailureReporter {
  /// Reports test-store failures as swift-testing issues at the failing call, and skipped
  /// assertions as known issues (shown, not failing).
  public static let swiftTesting = FailureReporter { failure in
    let location = SourceLocation(
      fileID: failure.fileID, filePath: failure.filePath, line: failure.line,
      column: failure.column)
    guard failure.isSkippedAssertion else {
      Issue.record(Comment(rawValue: failure.message), sourceLocation: location)
      return
    }
    withKnownIssue(isIntermittent: true) {
      Issue.record(
        Comment(rawValue: "Skipped assertion: " + failure.message), sourceLocation: location)
    }
  }
}
