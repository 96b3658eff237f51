import StoreKernel
import Testing

extension FailureReporter {
  /// Reports test-store failures as swift-testing issues at the failing call.
  public static let swiftTesting = FailureReporter { failure in
    Issue.record(
      Comment(rawValue: failure.message),
      sourceLocation: SourceLocation(
        fileID: failure.fileID, filePath: failure.filePath, line: failure.line,
        column: failure.column))
  }
}
