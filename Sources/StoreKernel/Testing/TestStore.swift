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
/// allowed; `.off(showSkippedAssertions: true)` reports what an exhaustive store would have
/// failed on as skipped assertions (known issues, not failures).
///
/// ``state`` is the state as of the last assertion (`send`, `receive`, skipping received
/// actions), as upstream: actions fed back but not yet received do not show in it.
///
/// Its clock is manual (``advance(by:)``), its dependencies are ``Dependencies/test(clock:)``
/// (seed 0, incrementing UUIDs, date 0) unless changed, and it is the host of its requests: see
/// ``requests``, ``respond(to:with:fileID:filePath:line:column:)-(String,_,_,_,_,_)``,
/// ``fail(_:message:fileID:filePath:line:column:)-(String,_,_,_,_,_)``,
/// ``complete(_:fileID:filePath:line:column:)-(String,_,_,_,_)``.
public final class TestStore<State: Equatable, Action> {
  /// Whether assertions must describe everything.
  public enum Exhaustivity: Sendable, Equatable {
    /// Every change, received action and running effect must be asserted.
    case on
    /// Assertions check what they describe; with `showSkippedAssertions`, what an exhaustive
    /// store would have failed on is reported as skipped (``TestFailure/isSkippedAssertion``).
    case off(showSkippedAssertions: Bool)

    /// Non-exhaustive, skipped assertions not shown.
    public static var off: Self { .off(showSkippedAssertions: false) }
  }

  public var exhaustivity: Exhaustivity = .on
  /// Whether the feature dismissed itself: a `dismiss()` (``DismissEffect``) from an effect of
  /// the feature at the root, as upstream. Its effects were then cancelled, and a later `send`
  /// fails.
  public private(set) var isDismissed = false
  let store: Store<State, Action>
  private let log: ReduceLog<State, Action>
  let host = HostStub()
  private let reporter: FailureReporter
  private var received: [Received] = []
  /// The actual state after the last action reduced.
  private var lastState: State
  /// The state as of the last assertion (``state``), and the sequence number of its action.
  private var assertedState: State
  private var assertedSequence = 0
  private var sequence = 0
  private var finished = false
  private let origin: (fileID: String, filePath: String, line: Int, column: Int)
  /// Which send the next action reduced belongs to (its effects are then cancellable by it).
  private let marker = SendMarker()
  /// The dependencies ``withDependencies(_:operation:)`` sets for the actions it reduces.
  let overrides = DependencyOverrides()
  private var sends = 0

  private struct Received {
    var action: Action
    var before: State
    var after: State
    var sequence: Int
  }

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
    dependencies.issueReporter = IssueReporter { message, fileID, filePath, line, column in
      reporter.report(
        TestFailure(
          message: message, fileID: fileID, filePath: filePath, line: line, column: column))
    }
    // NB: shared values of its own, in memory: a test sees no other store's, no file, and no
    // `shared.load` request (its initial state holds the values it starts from).
    dependencies[SharedRegistryKey.self] = SharedRegistry(performsFileIO: false, asksHost: false)
    withDependencies(&dependencies)
    let log = ReduceLog<State, Action>()
    let marker = self.marker
    let overrides = self.overrides
    self.log = log
    self.reporter = reporter
    self.lastState = initialState
    self.assertedState = initialState
    self.origin = ("\(fileID)", "\(filePath)", Int(line), Int(column))
    self.store = Store(
      initialState: initialState,
      reduce: { state, action in
        var effect: Effect<Action>
        if let update = overrides.update {
          // NB: as a `.dependency` reducer: the reduction sees them through the thread's box,
          // the effects it returns (which may outlive the operation) through their own.
          var changed = Dependencies.current
          update(&changed)
          let box = DependencyContext.derived(changed)
          effect = DependencyContext.with(box) { reducer.reduce(into: &state, action: action) }
          effect = effect.withDependencies(box)
        } else {
          effect = reducer.reduce(into: &state, action: action)
        }
        log.entries.append((action, state))
        if let id = marker.take() { effect = effect.cancellable(id: id) }
        return effect
      },
      isEqual: (==), clock: clock, dependencies: dependencies)
    store.core.recordsOrigins = true
    store.core.issueHandler = { [reporter, origin] issue, place, effectOrigin in
      let message: String
      switch issue {
      case let .unhandledError(error):
        message =
          "An \"Effect.run\" returned from \"\(place?.description ?? "?")\" threw an unhandled "
          + "error:\n\n    \(error)\n\nAll errors other than cancellation must be handled, by "
          + "the \"catch\" parameter of \"Effect.run\" or by a \"do\" block."
      case let .sentAfterCompletion(action):
        message =
          "An action was sent from a completed effect:\n\n  Action:\n    \(action)\n\n"
          + "  Effect returned from:\n    \(effectOrigin ?? "?")\n\nAvoid sending actions with "
          + "the \"send\" argument of \"Effect.run\" after the effect has completed: this "
          + "happens when \"send\" escapes into an unstructured context."
      }
      reporter.report(
        TestFailure(
          message: message, fileID: place?.fileID ?? origin.fileID,
          filePath: place?.filePath ?? origin.filePath, line: place?.line ?? origin.line,
          column: place?.column ?? origin.column))
    }
    store.setRequestHandler(host.handler)
    // NB: as upstream: the effects are cancelled without a report (the feature ended them).
    store.core.rootDismissal = { [weak self] in
      guard let self else { return }
      self.isDismissed = true
      for child in self.store.core.root.orderedChildren { self.store.core.cancel(child) }
    }
  }

  deinit {
    if !finished {
      finish(
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line,
        column: origin.column, atDeinit: true)
    }
    store.close()
  }

  /// The state as of the last assertion: the last `send`, the last `receive`, or the last
  /// received action skipped. Actions fed back by effects but not yet received are not in it;
  /// inside the closure of a `send` or `receive`, neither is the action it asserts (as
  /// upstream).
  public var state: State { assertedState }

  /// The test store's dependencies.
  public var dependencies: Dependencies { store.dependencies }

  /// The manual clock's current time.
  public var now: StoreClock.Instant { store.clock.now }

  // MARK: - Sending and receiving

  /// Sends `action` and asserts the change it makes: `updateStateToExpectedResult` gets the state
  /// before (exhaustive) and must turn it into the state after.
  ///
  /// Returns the effects this send started, to cancel or to wait for (``TestStoreTask``).
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> TestStoreTask {
    let place = Place(fileID, filePath, line, column)
    collectReceived()
    guard !isDismissed else {
      fail("Can't send action to dismissed test store.", place)
      return TestStoreTask(
        running: { [] }, cancel: {}, poll: {}, report: { _, _, _, _, _ in })
    }
    if !received.isEmpty {
      reportHelper(
        "Must handle \(plural(received.count, "received action")) before sending an action:\n"
          + list(received.map { describe($0.action) }) + "\n\nUnhandled actions must be "
          + "asserted with receive(_:), or skipped with skipReceivedActions().", place)
      // NB: exhaustive stores keep them, as upstream: a later `receive` still finds them.
      if exhaustivity != .on { dropReceived() }
    }
    sends += 1
    let id = SendID(number: sends)
    marker.pending = id
    let before = lastState
    store.send(action)
    marker.pending = nil
    let entries = log.take()
    let task = TestStoreTask(
      running: { [weak self] in self?.store.inFlightEffects(id: CancelID(id)) ?? [] },
      cancel: { [weak self] in
        self?.store.cancelEffects(id: CancelID(id))
        self?.collectReceived()
      },
      poll: { [weak self] in
        self?.store.poll()
        self?.collectReceived()
      },
      report: { [weak self] message, fileID, filePath, line, column in
        self?.fail(
          message, Place(fileID: fileID, filePath: filePath, line: line, column: column))
      })
    guard let first = entries.first else {
      fail("The action was not processed: the store is closed.", place)
      return task
    }
    sequence += 1
    lastState = first.state
    // NB: asserted first, as upstream: inside the closure, `state` is still the state before.
    assertState(before: before, after: first.state, updateStateToExpectedResult, place)
    markAsserted(first.state, sequence)
    for entry in entries.dropFirst() { record(entry) }
    return task
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

  /// Asserts that the next action fed back by an effect is of the case `toCase` with the
  /// associated value `value` (`store.receive(Action.numberFactResponse, "0 is a good number.")`),
  /// and the change it made. For an action that is not `Equatable`, as upstream's
  /// `receive(\.numberFactResponse, "…")`.
  public func receive<Value: Equatable>(
    _ toCase: @escaping @Sendable (Value) -> Action, _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let casePath = AnyCasePath(toCase)
    receive(
      description: describe(toCase(value)),
      matching: { casePath.extract(from: $0) == value },
      updateStateToExpectedResult, Place(fileID, filePath, line, column))
  }

  /// Asserts that the next action fed back by an effect satisfies `isMatching`, and the change
  /// it made.
  ///
  ///     store.receive({ if case .searchResponse = $0 { true } else { false } }) {
  ///       $0.isSearching = false
  ///     }
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    receive(
      description: "an action matching the predicate", matching: isMatching,
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
      // NB: a wrong action is one mistake: its state is not checked too.
      if matching(next.action) {
        assertState(before: next.before, after: next.after, updateStateToExpectedResult, place)
      } else {
        fail(
          "Received unexpected action (- expected, + received):\n"
            + "- \(description)\n+ \(describe(next.action))", place)
      }
      markAsserted(next.after, next.sequence)
      return
    }
    // NB: a receive that finds nothing consumes nothing: the actions stay for the next ones.
    guard let index = received.firstIndex(where: { matching($0.action) }) else {
      fail("Expected to receive \(description), but never did.", place)
      return
    }
    if index > 0 {
      reportHelper(
        "\(plural(index, "received action")) skipped:\n"
          + list(received[..<index].map { describe($0.action) }), place)
    }
    let next = received[index]
    received.removeFirst(index + 1)
    assertState(before: next.before, after: next.after, updateStateToExpectedResult, place)
    markAsserted(next.after, next.sequence)
  }

  /// Asserts the current state: `updateStateToExpectedResult` must leave it as it is.
  ///
  ///     store.exhaustivity = .off
  ///     store.send(.child(.closeButtonTapped))
  ///     store.skipReceivedActions()
  ///     store.assert {
  ///       $0.child = nil
  ///     }
  ///
  /// Most useful when not exhaustive, after skipping actions: it checks only what it describes.
  public func assert(
    _ updateStateToExpectedResult: (inout State) throws -> Void,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    collectReceived()
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      assertState(
        before: assertedState, after: assertedState, update,
        Place(fileID, filePath, line, column), mustChange: false)
    }
  }

  /// Moves the manual clock forward, firing due timers in deadline order.
  public func advance(by duration: Duration) {
    _ = try? store.advance(by: duration)
    collectReceived()
  }

  /// Drops the actions received but not yet asserted; the state is then as of the last one.
  ///
  /// With `strict` (the default), there must be some to skip. The skipped actions are reported
  /// as skipped assertions (``TestFailure/isSkippedAssertion``), unless not exhaustive and not
  /// showing them.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    collectReceived()
    guard !received.isEmpty else {
      if strict { fail("There were no received actions to skip.", place) }
      return
    }
    reportSkipped(
      "\(plural(received.count, "received action")) \(received.count == 1 ? "was" : "were") "
        + "skipped:\n" + list(received.map { describe($0.action) }), place)
    dropReceived()
  }

  /// Cancels every effect still running (telling this host of its requests in flight).
  ///
  /// With `strict` (the default), some must be running. The cancelled effects are reported as
  /// skipped assertions, unless not exhaustive and not showing them.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    let running = store.inFlightEffects()
    guard !running.isEmpty else {
      if strict { fail("There were no in-flight effects to skip.", place) }
      return
    }
    reportSkipped(
      "\(plural(running.count, "in-flight effect")) \(running.count == 1 ? "was" : "were") "
        + "cancelled:\n" + list(running), place)
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
    collectReceived()
    let when =
      atDeinit ? "before the test store went away (it was never finished)" : "before the test ends"
    if !received.isEmpty {
      reportHelper(
        "Must handle \(plural(received.count, "received action")) \(when):\n"
          + list(received.map { describe($0.action) }), place)
    }
    let running = store.inFlightEffects()
    if !running.isEmpty {
      reportHelper(
        "\(plural(running.count, "effect")) still running \(when):\n" + list(running)
          + "\n\nAnswer, fail or complete host requests, advance the clock past timers, "
          + "or call skipInFlightEffects().", place)
    }
  }

  // MARK: - Helpers

  struct Place {
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

  func collectReceived() {
    for entry in log.take() { record(entry) }
  }

  private func record(_ entry: (action: Action, state: State)) {
    sequence += 1
    received.append(
      Received(action: entry.action, before: lastState, after: entry.state, sequence: sequence))
    lastState = entry.state
  }

  /// Makes `state` the asserted state, unless a later one already is.
  private func markAsserted(_ state: State, _ sequence: Int) {
    guard sequence > assertedSequence else { return }
    assertedState = state
    assertedSequence = sequence
  }

  private func dropReceived() {
    if let last = received.last { markAsserted(last.after, last.sequence) }
    received.removeAll()
  }

  private func assertState(
    before: State, after: State, _ update: ((inout State) throws -> Void)?, _ place: Place,
    mustChange: Bool = true
  ) {
    let exhaustive = exhaustivity == .on
    var expected = exhaustive ? before : after
    do {
      try update?(&expected)
    } catch {
      fail("The assertion closure threw \(error).", place)
      return
    }
    if expected != after {
      let headline =
        update == nil && exhaustive
        ? "State changed but no assertion was given (- before, + after):"
        : "State change does not match expectation (- expected, + actual):"
      fail(headline + "\n" + diff(expected, after), place)
      return
    }
    if exhaustivity == .off(showSkippedAssertions: true) {
      // NB: what an exhaustive store would have said, as a skipped assertion.
      var exhaustiveExpected = before
      var updated = true
      do { try update?(&exhaustiveExpected) } catch { updated = false }
      if updated, exhaustiveExpected != after {
        reportSkipped(
          (update == nil
            ? "State changed but no assertion was given (- before, + after):\n"
            : "State change does not match expectation (- expected, + actual):\n")
            + diff(exhaustiveExpected, after), place)
        return
      }
    }
    // NB: upstream's "expected state equality must modify" rule: a closure given for an action
    // that changed nothing is a mistake (omit it).
    if mustChange, update != nil, before == after {
      reportHelper(
        "Expected state to change, but no change occurred.\n\nThe trailing closure made no "
          + "observable modifications to state. If no change to state is expected, omit the "
          + "trailing closure.", place)
    }
  }

  private func diff(_ expected: State, _ actual: State) -> String {
    let lines = Dump.diff(Dump.lines(of: expected), Dump.lines(of: actual)) ?? []
    return lines.map { "  " + $0 }.joined(separator: "\n")
  }

  /// A failure when exhaustive; else a skipped assertion if shown, or nothing.
  private func reportHelper(_ message: String, _ place: Place) {
    switch exhaustivity {
    case .on: fail(message, place)
    case .off(showSkippedAssertions: true): reportSkipped(message, place)
    case .off(showSkippedAssertions: false): break
    }
  }

  /// A skipped assertion: reported as such when exhaustive or showing them.
  private func reportSkipped(_ message: String, _ place: Place) {
    guard exhaustivity != .off(showSkippedAssertions: false) else { return }
    var failure = failure(message, place)
    failure.isSkippedAssertion = true
    reporter.report(failure)
  }

  private func inFlightNote() -> String {
    let running = store.inFlightEffects()
    guard !running.isEmpty else { return "" }
    return " Still running:\n" + list(running)
  }

  private func describe(_ action: Action) -> String {
    Dump.text(of: action, qualifyEnum: true)
  }

  func fail(_ message: String, _ place: Place) {
    reporter.report(failure(message, place))
  }

  private func failure(_ message: String, _ place: Place) -> TestFailure {
    TestFailure(
      message: message, fileID: place.fileID, filePath: place.filePath, line: place.line,
      column: place.column)
  }
}

private func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

private func list(_ items: [String]) -> String {
  items.map { "  - " + $0.replacingNewlines(with: "\n    ") }.joined(separator: "\n")
}


extension String {
  fileprivate func replacingNewlines(with replacement: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// Which `TestStore.send` the next action reduced comes from.
final class SendMarker: @unchecked Sendable {
  // NB: touched only by the test's thread (which holds the store while reducing).
  var pending: SendID?

  func take() -> SendID? {
    defer { pending = nil }
    return pending
  }
}

/// The cancellation id of the effects of one `TestStore.send`.
struct SendID: Hashable, Sendable {
  let number: Int
}

extension Store {
  /// Cancels the effects running under `id` (the store stays open).
  func cancelEffects(id: CancelID) {
    if core.isHeldByCurrentThread {
      core.cancel(id: id)
    } else {
      _ = hold { core.cancel(id: id) }
    }
  }

  /// Descriptions of the effects still running under `id`.
  func inFlightEffects(id: CancelID) -> [String] {
    locked {
      core.liveLeaves(in: core.nodes(for: id)).map { leaf in
        leaf.summary + (leaf.origin.map { ", started by \($0)" } ?? "")
      }
    }
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
final class HostStub: Sendable {
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
