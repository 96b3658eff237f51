/// A dependency's endpoint for tests that must not be called: calling it fails the test store
/// running it, then returns `placeholder`. As swift-dependencies' `unimplemented`.
///
///     struct NumberFactClient: Sendable {
///       var fetch: @Sendable (Int) -> String
///       static let testValue = NumberFactClient(
///         fetch: unimplemented("NumberFactClient.fetch", placeholder: "")
///       )
///     }
///
/// In a ``TestStore`` the call is a failure ("Unimplemented: …"), at the place the endpoint was
/// made; in a ``Store`` or outside any store it is reported nowhere.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  let place = UnimplementedPlace(description, fileID, filePath, line, column)
  return { (_: repeat each Argument) in
    place.report()
    return placeholder()
  }
}

/// A throwing endpoint that must not be called: calling it fails the test store running it,
/// then throws ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  let place = UnimplementedPlace(description, fileID, filePath, line, column)
  return { (_: repeat each Argument) in
    place.report()
    throw UnimplementedFailure(description: description)
  }
}

/// An `async` endpoint that must not be called: fails the test store, returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  let place = UnimplementedPlace(description, fileID, filePath, line, column)
  return { (_: repeat each Argument) in
    place.report()
    return placeholder()
  }
}

/// An `async` throwing endpoint that must not be called: fails the test store, then throws
/// ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  let place = UnimplementedPlace(description, fileID, filePath, line, column)
  return { (_: repeat each Argument) in
    place.report()
    throw UnimplementedFailure(description: description)
  }
}

/// What a throwing `unimplemented(…)` endpoint throws.
public struct UnimplementedFailure: Error, Sendable, CustomStringConvertible {
  public let description: String

  public init(description: String) { self.description = description }
}

/// Where an unimplemented endpoint was made, and what it reports.
private struct UnimplementedPlace: Sendable {
  let description: String
  let fileID: String
  let filePath: String
  let line: Int
  let column: Int

  init(
    _ description: String, _ fileID: StaticString, _ filePath: StaticString, _ line: UInt,
    _ column: UInt
  ) {
    self.description = description
    self.fileID = "\(fileID)"
    self.filePath = "\(filePath)"
    self.line = Int(line)
    self.column = Int(column)
  }

  /// Tells the store running this call, if it reports issues (a test store).
  func report() {
    guard let reporter = Dependencies.current.issueReporter else { return }
    let name = description.isEmpty ? "an endpoint" : "\"\(description)\""
    reporter.report(
      "Unimplemented: \(name) was called.\n\nA dependency made with unimplemented(…) must not "
        + "be called in this test: override it with withDependencies.",
      fileID, filePath, line, column)
  }
}
