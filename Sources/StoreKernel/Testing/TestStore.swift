import JSON
import Synchronization

/// A store for tests that makes you describe everything a feature does, as upstream's.
///
///     let store = TestStore(
///       initialState: Counter.State(), reducer: Counter(), reporter: .swiftTesting)
///     store.send(.numberFactButtonTapped) {
///       $0.isNumberFactLoading = true
///     }
///     #expect(try store.request("numberFact.fetch")?.payload(as: Int.self) == 0)
///     store.respond(to: "numberFact.fetch", with: "0 is a good number.")
///     store.receive(.numberFactResponse("0 is a good number.")) {
///       $0.isNumberFactLoading = false
///       $0.numberFact = "0 is a good number."
///     }
///     store.finish()
///
/// (`Tests/FeaturesTests/TestStoreDocExampleTests.swift` runs this example as it is.)
///
/// Exhaustive by default: each `send` and `receive` must describe the whole change to the
/// state; every action fed back by effects must be `receive`d, in order; and at `finish()` (or
/// when the test store goes away unfinished) no effect may still be running. Each failure is
/// reported (see ``FailureReporter``) with a field-by-field diff. With ``exhaustivity`` `.off`,
/// assertions check only what they describe, and unreceived actions and running effects are
/// allowed.
///
/// Its clock is manual (``advance(by:)``), its dependencies are ``Dependencies/test(clock:)``
/// (seed 0, incrementing UUIDs, date 0) unless changed, and it is the host of its requests: see
/// ``requests``, ``respond(to:with:fileID:filePath:line:column:)-(String,_,_,_,_,_)``,
/// ``fail(_:message:fileID:filePath:line:column:)-(String,_,_,_,_,_)``,
/// ``complete(_:fileID:filePath:line:column:)-(String,_,_,_,_)``.
public final class TestStore<State: Equatable, Action> {
  /// Whether assertions must describe everything.
  public enum Exhaustivity: Sendable, Equatable {
    case on
    case off
  }

  public var exhaustivity: Exhaustivity = .on
  private let store: Store<State, Action>
  private let log: ReduceLog<State, Action>
  private let host = HostStub()
  private let reporter: FailureReporter
  private var received: [(action: Action, before: State, after: State)] = []
  private var lastState: State
  private var finished = false
  private let origin: (fileID: String, filePath: String, line: Int, column: Int)

  /// A test store of `reducer` from `initialState`; `withDependencies` changes its dependencies.
  public init<R: Reducer>(
    initialState: State,
    reducer: R,
    reporter: FailureReporter = .default,
    withDependencies: (inout Dependencies) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let clock = StoreClock(kind: .manual)
    var dependencies = Dependencies.test(clock: clock)
    withDependencies(&dependencies)
    dependencies.clock = clock
    let log = ReduceLog<State, Action>()
    self.log = log
    self.reporter = reporter
    self.lastState = initialState
    self.origin = ("\(fileID)", "\(filePath)", Int(line), Int(column))
    self.store = Store(
      initialState: initialState,
      reduce: { state, action in
        let effect = reducer.reduce(into: &state, action: action)
        log.entries.append((action, state))
        return effect
      },
      isEqual: (==), clock: clock, dependencies: dependencies)
    store.core.recordsOrigins = true
    store.setRequestHandler(host.handler)
  }

  deinit {
    if !finished {
      finish(
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line,
        column: origin.column, atDeinit: true)
    }
    store.close()
  }

  /// The current state.
  public var state: State { store.state }

  /// The test store's dependencies.
  public var dependencies: Dependencies { store.dependencies }

  /// The manual clock's current time.
  public var now: StoreClock.Instant { store.clock.now }

  // MARK: - Sending and receiving

  /// Sends `action` and asserts the change it makes: `updateStateToExpectedResult` gets the state
  /// before (exhaustive) and must turn it into the state after.
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    collectReceived()
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          "Must handle \(plural(received.count, "received action")) before sending an action:\n"
            + list(received.map { describe($0.action) }) + "\n\nUnhandled actions must be "
            + "asserted with receive(_:), or skipped with skipReceivedActions().", place)
      }
      received.removeAll()
    }
    let before = lastState
    store.send(action)
    let entries = log.take()
    guard let first = entries.first else {
      fail("The action was not processed: the store is closed.", place)
      return
    }
    lastState = first.state
    assertState(before: before, after: first.state, updateStateToExpectedResult, place)
    for entry in entries.dropFirst() { record(entry) }
  }

  /// Asserts that the next action fed back by an effect is `expected`, and the change it made.
  public func receive(
    _ expected: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) where Action: Equatable {
    receive(
      description: describe(expected), matching: { $0 == expected },
      updateStateToExpectedResult, Place(fileID, filePath, line, column))
  }

  /// Asserts that the next action fed back by an effect is of the case `toCase`
  /// (`store.receive(Action.numberFactResponse)`), and the change it made.
  public func receive<Value>(
    _ toCase: @escaping @Sendable (Value) -> Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let casePath = AnyCasePath(toCase)
    receive(
      description: "an action of the expected case",
      matching: { casePath.extract(from: $0) != nil },
      updateStateToExpectedResult, Place(fileID, filePath, line, column))
  }

  private func receive(
    description: String, matching: (Action) -> Bool,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?, _ place: Place
  ) {
    collectReceived()
    guard !received.isEmpty else {
      fail(
        "Expected to receive \(description), but received none."
          + inFlightNote(), place)
      return
    }
    if exhaustivity == .on {
      let next = received.removeFirst()
      if !matching(next.action) {
        fail(
          "Received unexpected action (- expected, + received):\n"
            + "- \(description)\n+ \(describe(next.action))", place)
      }
      assertState(before: next.before, after: next.after, updateStateToExpectedResult, place)
      return
    }
    while !received.isEmpty {
      let next = received.removeFirst()
      if matching(next.action) {
        assertState(before: next.before, after: next.after, updateStateToExpectedResult, place)
        return
      }
    }
    fail("Expected to receive \(description), but never did.", place)
  }

  /// Moves the manual clock forward, firing due timers in deadline order.
  public func advance(by duration: Duration) {
    _ = try? store.advance(by: duration)
    collectReceived()
  }

  /// Drops the actions received but not yet asserted.
  public func skipReceivedActions() {
    collectReceived()
    received.removeAll()
  }

  /// Cancels every effect still running (telling this host of its requests in flight).
  public func skipInFlightEffects() {
    store.cancelAllEffects()
    collectReceived()
  }

  /// Asserts that every received action was asserted and no effect is still running.
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    finish(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column),
      atDeinit: false)
  }

  private func finish(fileID: String, filePath: String, line: Int, column: Int, atDeinit: Bool) {
    finished = true
    let place = Place(fileID: fileID, filePath: filePath, line: line, column: column)
    guard exhaustivity == .on else { return }
    collectReceived()
    let when =
      atDeinit ? "before the test store went away (it was never finished)" : "before the test ends"
    if !received.isEmpty {
      fail(
        "Must handle \(plural(received.count, "received action")) \(when):\n"
          + list(received.map { describe($0.action) }), place)
    }
    let running = store.inFlightEffects()
    if !running.isEmpty {
      fail(
        "\(plural(running.count, "effect")) still running \(when):\n" + list(running)
          + "\n\nAnswer, fail or complete host requests, advance the clock past timers, "
          + "or call skipInFlightEffects().", place)
    }
  }

  // MARK: - The host's side

  /// The host requests in flight, oldest first.
  public var requests: [HostRequestInfo] { host.pending }

  /// Every host request made, oldest first (fire-and-forget ones included).
  public var requestLog: [HostRequestInfo] { host.made }

  /// The ids of the requests the store cancelled, in order.
  public var cancelledRequests: [UInt64] { host.cancelled }

  /// The oldest request in flight named `name`.
  public func request(_ name: String) -> HostRequestInfo? {
    host.pending.first { $0.name == name }
  }

  /// Answers the oldest request in flight named `name` with `value` (encoded as JSON, then
  /// decoded as the request's response type, as a host's answer would be).
  public func respond<T: Encodable>(
    to name: String, with value: T,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place) { () throws(StoreError) in
      try store.respond(to: request.id, json: try encode(value))
    }
  }

  /// Answers request `id` with `value`.
  public func respond<T: Encodable>(
    to id: UInt64, with value: T,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    let request = host.pending.first { $0.id == id }
    answer(request, place, id: id) { () throws(StoreError) in
      try store.respond(to: id, json: try encode(value))
    }
  }

  /// Fails the oldest request in flight named `name`.
  public func fail(
    _ name: String, message: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place, ends: true) { () throws(StoreError) in
      try store.fail(request.id, message: message)
    }
  }

  /// Fails request `id`.
  public func fail(
    _ id: UInt64, message: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let request = host.pending.first { $0.id == id }
    answer(request, Place(fileID, filePath, line, column), id: id, ends: true) {
      () throws(StoreError) in try store.fail(id, message: message)
    }
  }

  /// Completes the oldest stream in flight named `name`.
  public func complete(
    _ name: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place, ends: true) { () throws(StoreError) in try store.complete(request.id) }
  }

  /// Completes stream `id`.
  public func complete(
    _ id: UInt64,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let request = host.pending.first { $0.id == id }
    answer(request, Place(fileID, filePath, line, column), id: id, ends: true) {
      () throws(StoreError) in try store.complete(id)
    }
  }

  private func request(named name: String, _ place: Place) -> HostRequestInfo? {
    guard let request = request(name) else {
      let pending = host.pending.map { "#\($0.id) \"\($0.name)\"" }
      fail(
        "No request \"\(name)\" is in flight"
          + (pending.isEmpty ? "." : "; in flight: " + pending.joined(separator: ", ")), place)
      return nil
    }
    return request
  }

  private func answer(
    _ request: HostRequestInfo?, _ place: Place, id: UInt64? = nil, ends: Bool = false,
    _ body: () throws(StoreError) -> Void
  ) {
    do throws(StoreError) {
      try body()
      if let request, ends || request.kind == .oneShot { host.remove(request.id) }
    } catch {
      fail("The store refused the answer: \(error)", place)
    }
    collectReceived()
  }

  // MARK: - Helpers

  private struct Place {
    var fileID: String
    var filePath: String
    var line: Int
    var column: Int

    init(fileID: String, filePath: String, line: Int, column: Int) {
      self.fileID = fileID
      self.filePath = filePath
      self.line = line
      self.column = column
    }

    init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
      self.init(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
  }

  private func collectReceived() {
    for entry in log.take() { record(entry) }
  }

  private func record(_ entry: (action: Action, state: State)) {
    received.append((entry.action, lastState, entry.state))
    lastState = entry.state
  }

  private func assertState(
    before: State, after: State, _ update: ((inout State) throws -> Void)?, _ place: Place
  ) {
    var expected = exhaustivity == .on ? before : after
    do {
      try update?(&expected)
    } catch {
      fail("The assertion closure threw \(error).", place)
      return
    }
    guard expected != after else { return }
    let diff = Dump.diff(Dump.lines(of: expected), Dump.lines(of: after)) ?? []
    let headline =
      update == nil && exhaustivity == .on
      ? "State changed but no assertion was given (- before, + after):"
      : "State change does not match expectation (- expected, + actual):"
    fail(headline + "\n" + diff.map { "  " + $0 }.joined(separator: "\n"), place)
  }

  private func inFlightNote() -> String {
    let running = store.inFlightEffects()
    guard !running.isEmpty else { return "" }
    return " Still running:\n" + list(running)
  }

  private func describe(_ action: Action) -> String {
    Dump.text(of: action, qualifyEnum: true)
  }

  private func fail(_ message: String, _ place: Place) {
    reporter.report(
      TestFailure(
        message: message, fileID: place.fileID, filePath: place.filePath, line: place.line,
        column: place.column))
  }
}

private func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

private func list(_ items: [String]) -> String {
  items.map { "  - " + $0.replacingNewlines(with: "\n    ") }.joined(separator: "\n")
}

private func encode<T: Encodable>(_ value: T) throws(StoreError) -> [UInt8] {
  do throws(JSONError) {
    return try JSONEncoder().encode(value)
  } catch {
    throw .json(error)
  }
}

extension String {
  fileprivate func replacingNewlines(with replacement: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// The actions a test store's reducer ran, with the state after each.
final class ReduceLog<State, Action>: @unchecked Sendable {
  // NB: touched only by the test's thread (which holds the store while reducing).
  var entries: [(action: Action, state: State)] = []

  func take() -> [(action: Action, state: State)] {
    defer { entries.removeAll() }
    return entries
  }
}

/// The test store's host: records requests and cancellations.
private final class HostStub: Sendable {
  private struct Record {
    var made: [HostRequestInfo] = []
    var pending: [HostRequestInfo] = []
    var cancelled: [UInt64] = []
  }

  private let record = Mutex(Record())

  var made: [HostRequestInfo] { record.withLock { $0.made } }
  var pending: [HostRequestInfo] { record.withLock { $0.pending } }
  var cancelled: [UInt64] { record.withLock { $0.cancelled } }

  var handler: HostRequestHandler {
    HostRequestHandler(
      onRequest: { [self] request in
        record.withLock {
          $0.made.append(request)
          if request.kind != .fireAndForget { $0.pending.append(request) }
        }
      },
      onCancel: { [self] id in
        record.withLock {
          $0.cancelled.append(id)
          $0.pending.removeAll { $0.id == id }
        }
      })
  }

  func remove(_ id: UInt64) {
    record.withLock { $0.pending.removeAll { $0.id == id } }
  }
}
