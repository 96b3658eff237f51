import JSON
import StoreKernel
import Testing

// Issue 35: navigation that matches upstream. Upstream's navigation tests
// (PresentationReducerTests, StackReducerTests, IfLetReducerTests, TestStoreTests), translated
// to libtca's API, found these defects: one test per defect, each the smallest scenario that
// showed it. A test that passes reports no failure through its test store (see `failures`).

// MARK: - Features used by these tests

/// A screen with one effect: a second on the clock, then `.response`, cancellable by
/// `CancelID.effect`. Identifiable, so that a parent can tell two of them apart.
struct Worker: Reducer {
  struct State: Equatable, Identifiable, Codable, Sendable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Codable, Sendable {
    case start, stop, response
    /// As `start` and `stop`, from inside a task: `withTaskCancellation`, `Task.cancel`.
    case startInTask, stopInTask
    case setID(Int)
  }
  enum CancelID { case effect }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.response)
      }
      .cancellable(id: CancelID.effect)
    case .stop:
      return .cancel(id: CancelID.effect)
    case .startInTask:
      return .run { [clock] send in
        try await withTaskCancellation(id: CancelID.effect) {
          try await clock.sleep(for: .seconds(1))
        }
        await send(.response)
      }
    case .stopInTask:
      return .run { _ in Task.cancel(id: CancelID.effect) }
    case .response:
      state.count += 1
      return .none
    case let .setID(id):
      state.id = id
      return .none
    }
  }
}

/// Presents a worker, and runs an effect of its own under the worker's cancellation id.
struct Middle: Reducer {
  struct State: Equatable {
    var count = 0
    @PresentationState var worker: Worker.State?
  }
  enum Action: Equatable {
    case start, response, present
    case worker(PresentationAction<Worker.Action>)
  }
  @Dependency(\.clock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.response)
        }
        .cancellable(id: Worker.CancelID.effect)
      case .response:
        state.count += 1
        return .none
      case .present:
        state.worker = Worker.State()
        return .none
      case .worker:
        return .none
      }
    }
    .ifLet(\.$worker, action: Middle.Action.worker) { Worker() }
  }
}

/// Holds children every way libtca has: a presented `Middle` (which presents a worker), a
/// stack of workers, a plain optional worker, and an enum destination. Its `stop` cancels
/// `Worker.CancelID.effect`; `clear` and `replace` change children from the parent.
struct Top: Reducer {
  struct State: Equatable {
    var count = 0
    @PresentationState var middle: Middle.State?
    var path = StackState<Worker.State>()
    var item: Worker.State?
    @PresentationState var destination: Destination.State?
  }
  enum Action: Equatable {
    case start, stop, response, presentMiddle, showItem, pushWorker
    /// For `Outer`: `Top` ignores them.
    case clearBefore, clearAfter, other
    case presentWorker(id: Int)
    case presentAlert
    case middle(PresentationAction<Middle.Action>)
    case path(StackAction<Worker.State, Worker.Action>)
    case item(Worker.Action)
    case destination(PresentationAction<Destination.Action>)
  }

  /// The screens `Top` presents in `destination`.
  struct Destination: Reducer {
    enum State: Equatable {
      case worker(Worker.State)
      case alert(AlertState<Alert>)
    }
    enum Action: Equatable {
      case worker(Worker.Action)
      case alert(Alert)
    }
    enum Alert: Equatable { case again, ok }

    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(
          AnyCasePath(Top.Destination.State.worker), action: Top.Destination.Action.worker
        ) { Worker() }
    }
  }

  static let alert = AlertState<Destination.Alert>(
    title: "Again?",
    buttons: [ButtonState(action: .again, label: "Again"), ButtonState(action: .ok, label: "OK")])
  @Dependency(\.clock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.response)
        }
        .cancellable(id: Worker.CancelID.effect)
      case .stop:
        return .cancel(id: Worker.CancelID.effect)
      case .response:
        state.count += 1
        return .none
      case .presentMiddle:
        state.middle = Middle.State()
        return .none
      case .showItem:
        state.item = Worker.State()
        return .none
      case .pushWorker:
        state.path.append(Worker.State())
        return .none
      case let .presentWorker(id):
        state.destination = .worker(Worker.State(id: id))
        return .none
      case .presentAlert, .destination(.presented(.alert(.again))):
        state.destination = .alert(
          AlertState(
            title: "Again?",
            buttons: [
              ButtonState(action: .again, label: "Again"), ButtonState(action: .ok, label: "OK"),
            ]))
        return .none
      case .middle, .path, .item, .destination, .clearBefore, .clearAfter, .other:
        return .none
      }
    }
    .ifLet(\.$middle, action: Top.Action.middle) { Middle() }
    .forEach(\.path, action: Top.Action.path) { Worker() }
    .ifLet(\.item, action: Top.Action.item) { Worker() }
    .ifLet(\.$destination, action: Top.Action.destination) { Destination() }
  }
}

/// Runs `body` on a test store of `reducer` from `state`, and expects no failure from it (nor
/// from its `finish()`).
private func expectNoFailures<R: Reducer>(
  _ state: R.State, _ reducer: R, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestStore<R.State, R.Action>) -> Void
) where R.State: Equatable {
  let messages = failures(state, reducer, body)
  #expect(messages == [], sourceLocation: sourceLocation)
}

/// ``expectNoFailures(_:_:sourceLocation:_:)`` for `Top`.
private func expectNoFailures(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestStore<Top.State, Top.Action>) -> Void
) {
  expectNoFailures(Top.State(), Top(), sourceLocation: sourceLocation, body)
}

// MARK: - 1. A parent's `.cancel(id:)` reaches its children's effects of that id

@Test func aParentsCancelReachesPresentedChildrenAndGrandchildren() {
  expectNoFailures { store in
    store.send(.presentMiddle) { $0.middle = Middle.State() }
    store.send(.middle(.presented(.present))) { $0.middle?.worker = Worker.State() }
    store.send(.middle(.presented(.start)))
    store.send(.middle(.presented(.worker(.presented(.start)))))
    store.send(.stop)
    // Both effects were cancelled: a second passes with nothing received.
    store.advance(by: .seconds(1))
  }
}

@Test func aParentsCancelReachesStackElementsAndIfLetChildren() {
  expectNoFailures { store in
    store.send(.pushWorker) { $0.path.append(Worker.State()) }
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.showItem) { $0.item = Worker.State() }
    store.send(.item(.start))
    store.send(.presentWorker(id: 0)) { $0.destination = .worker(Worker.State()) }
    store.send(.destination(.presented(.worker(.start))))
    store.send(.stop)
    store.advance(by: .seconds(1))
  }
}

@Test func aChildsCancelStillReachesOnlyItsOwnEffects() {
  expectNoFailures { store in
    store.send(.start)
    store.send(.presentMiddle) { $0.middle = Middle.State() }
    store.send(.middle(.presented(.present))) { $0.middle?.worker = Worker.State() }
    store.send(.middle(.presented(.start)))
    store.send(.middle(.presented(.worker(.presented(.start)))))
    // The worker cancels its own effect; its parent's and grandparent's of the same id run on.
    store.send(.middle(.presented(.worker(.presented(.stop)))))
    store.advance(by: .seconds(1))
    store.receive(.response) { $0.count = 1 }
    store.receive(.middle(.presented(.response))) { $0.middle?.count = 1 }
    // The middle screen's cancel reaches its worker's effects, not its parent's.
    store.send(.middle(.presented(.worker(.presented(.start)))))
    store.send(.start)
    store.send(.middle(.presented(.start)))
    store.send(.middle(.presented(.worker(.presented(.stop)))))
    store.advance(by: .seconds(1))
    store.receive(.response) { $0.count = 2 }
    store.receive(.middle(.presented(.response))) { $0.middle?.count = 2 }
  }
}

@Test func aChildsTaskCancellationIDsAreTheChilds() {
  expectNoFailures { store in
    store.send(.pushWorker) { $0.path.append(Worker.State()) }
    store.send(.pushWorker) { $0.path.append(Worker.State()) }
    store.send(.path(.element(id: 0, action: .startInTask)))
    store.send(.path(.element(id: 1, action: .startInTask)))
    // The second element's `Task.cancel(id:)` reaches its own work only.
    store.send(.path(.element(id: 1, action: .stopInTask)))
    store.advance(by: .seconds(1))
    store.receive(.path(.element(id: 0, action: .response))) { $0.path[id: 0]?.count = 1 }
    // The parent's `.cancel(id:)` reaches the elements' work.
    store.send(.path(.element(id: 0, action: .startInTask)))
    store.send(.stop)
    store.advance(by: .seconds(1))
  }
}

// MARK: - 2. A child that changes its own identity ends the effects of the old one

@Test func aPresentedChildThatChangesItsIdentityEndsItsOldEffects() {
  expectNoFailures { store in
    store.send(.presentWorker(id: 0)) { $0.destination = .worker(Worker.State(id: 0)) }
    store.send(.destination(.presented(.worker(.start))))
    store.send(.destination(.presented(.worker(.setID(1))))) {
      $0.destination = .worker(Worker.State(id: 1))
    }
    store.advance(by: .seconds(1))
  }
}

// MARK: - 3. An enum destination's identity includes its payload's id

@Test func replacingAnEnumDestinationsChildOfAnotherIDEndsTheFirstsEffects() {
  expectNoFailures { store in
    store.send(.presentWorker(id: 0)) { $0.destination = .worker(Worker.State(id: 0)) }
    store.send(.destination(.presented(.worker(.start))))
    store.send(.presentWorker(id: 1)) { $0.destination = .worker(Worker.State(id: 1)) }
    store.advance(by: .seconds(1))
  }
}

// MARK: - 4, 5. Children removed by another reducer of the body

/// `Top` between two reducers that remove its children: `clearBefore` before its navigation
/// operators see the action, `clearAfter` after.
struct Outer: Reducer {
  var body: some Reducer<Top.State, Top.Action> {
    Reduce { state, action in
      if action == .clearBefore {
        state.middle = nil
        state.path.removeAll()
      }
      return .none
    }
    Top()
    Reduce { state, action in
      if action == .clearAfter {
        state.middle = nil
        state.path.removeAll()
      }
      return .none
    }
  }
}

@Test func aPresentedChildSetToNilByAnotherReducerHasItsEffectsCancelled() {
  expectNoFailures(Top.State(), Outer()) { store in
    store.send(.presentMiddle) { $0.middle = Middle.State() }
    store.send(.middle(.presented(.start)))
    store.send(.clearBefore) { $0.middle = nil }
    store.advance(by: .seconds(1))

    store.send(.presentMiddle) { $0.middle = Middle.State() }
    store.send(.middle(.presented(.start)))
    store.send(.clearAfter) { $0.middle = nil }
    // NB: as upstream, the next action through the `ifLet` sees the child gone.
    store.send(.other)
    store.advance(by: .seconds(1))
  }
}

@Test func stackElementsRemovedByAnotherReducerHaveTheirEffectsCancelled() {
  expectNoFailures(Top.State(), Outer()) { store in
    store.send(.pushWorker) { $0.path.append(Worker.State()) }
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.clearBefore) { $0.path.removeAll() }
    store.advance(by: .seconds(1))

    store.send(.pushWorker) { $0.path.append(Worker.State()) }
    store.send(.path(.element(id: 1, action: .start)))
    store.send(.clearAfter) { $0.path.removeAll() }
    store.send(.other)
    store.advance(by: .seconds(1))
  }
}

// MARK: - 6. StackState's == compares ids and elements

@Test func anEmptiedStackEqualsAnEmptyStack() {
  var stack = StackState([1, 2])
  stack.removeAll()
  #expect(stack == StackState())
  #expect(stack.hashValue == StackState<Int>().hashValue)
  // The ids still count: the same elements under other ids differ.
  var other = StackState<Int>()
  other.append(0)
  other.append(1)
  other.pop(from: 0)
  other.append(1)
  #expect(other != StackState([1]))
  // And the stack still goes on from where it was.
  stack.append(3)
  #expect(stack.ids == [2])
}

// MARK: - 7. The plain `ifLet` dismisses an alert after its action

/// An alert in a plain optional, run by the plain `ifLet`.
struct PlainAlert: Reducer {
  struct State: Equatable {
    var alert: AlertState<Top.Destination.Alert>?
  }
  enum Action: Equatable {
    case tap
    case alert(Top.Destination.Alert)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.again), .tap:
        state.alert = AlertState(title: "Hello")
        return .none
      case .alert(.ok):
        return .none
      }
    }
    .ifLet(\.alert, action: PlainAlert.Action.alert) { EmptyReducer() }
  }
}

@Test func thePlainIfLetDismissesAnAlertAfterItsAction() {
  expectNoFailures(PlainAlert.State(), PlainAlert()) { store in
    store.send(.tap) { $0.alert = AlertState(title: "Hello") }
    store.send(.alert(.ok)) { $0.alert = nil }
    // A button that puts up a new alert (equal to the first) leaves that one up.
    store.send(.tap) { $0.alert = AlertState(title: "Hello") }
    store.send(.alert(.again))
    store.send(.alert(.ok)) { $0.alert = nil }
  }
  // An alert needs no reducer of its own: `ifLet(\.alert, action:)`.
  let reducer = Reduce<PlainAlert.State, PlainAlert.Action> { _, _ in .none }
    .ifLet(\.alert, action: PlainAlert.Action.alert)
  let store = Store(
    initialState: PlainAlert.State(alert: AlertState(title: "Hi")), reducer: reducer)
  store.send(.alert(.ok))
  #expect(store.state.alert == nil)
}

// MARK: - 8. An alert in an enum destination is dismissed only by its own actions

@Test func anAlertCaseIsNotDismissedByAnotherCasesAction() {
  expectNoFailures { store in
    store.send(.presentAlert) { $0.destination = .alert(Top.alert) }
    // An action of the worker case (not presented): the alert stays.
    store.send(.destination(.presented(.worker(.start))))
    store.send(.destination(.presented(.alert(.ok)))) { $0.destination = nil }
  }
}

// MARK: - 9. An alert has an identity of its own

@Test func anAlertsButtonThatPresentsAnEqualAlertLeavesItPresented() {
  expectNoFailures { store in
    store.send(.presentAlert) { $0.destination = .alert(Top.alert) }
    // The button presents a new alert, equal to the first: it is not dismissed.
    store.send(.destination(.presented(.alert(.again))))
    store.send(.destination(.presented(.alert(.ok)))) { $0.destination = nil }
  }
}

@Test func eachAlertHasAnIDThatEqualityAndTheWireIgnore() throws {
  let first = AlertState<Int>(title: "T", buttons: [ButtonState(action: 1, label: "A")])
  let second = AlertState<Int>(title: "T", buttons: [ButtonState(action: 1, label: "A")])
  #expect(first.id != second.id)
  #expect(first == second && first.hashValue == second.hashValue)
  let copy = first
  #expect(copy.id == first.id && first.map { $0 + 1 }.id == first.id)
  // Off the wire: the JSON is as before, and a decoded alert is a new one.
  let json = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
  #expect(json == #"{"title":"T","message":null,"buttons":[{"label":"A","role":null,"action":1}]}"#)
  let decoded = try JSONDecoder().decode(AlertState<Int>.self, from: Array(json.utf8))
  #expect(decoded == first && decoded.id != first.id)
  let dialog = ConfirmationDialogState<Int>(title: "T")
  #expect(dialog == ConfirmationDialogState<Int>(title: "T"))
  #expect(dialog.id != ConfirmationDialogState<Int>(title: "T").id)
}

// MARK: - 10. A feature can present itself

/// A folder browser: each folder opens a subfolder of its own kind, as deep as the user goes,
/// and a folder can close itself.
struct Folder: Reducer {
  struct State: Equatable, Codable, Sendable {
    var name: String
    var opened = 0
    @PresentationState var subfolder: State?
  }
  enum Action: Equatable, Codable, Sendable {
    case open(String)
    case close
    case subfolder(PresentationAction<Action>)
  }
  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .open(name):
        state.opened += 1
        state.subfolder = State(name: name)
        return .none
      case .close:
        return .run { [dismiss] _ in await dismiss() }
      case .subfolder:
        return .none
      }
    }
    .ifLet(\.$subfolder, action: Folder.Action.subfolder) { Folder() }
  }
}

@Test func aFeatureThatPresentsItselfRunsInAStore() {
  let store = Store(initialState: Folder.State(name: "/"), reducer: Folder())
  store.send(.open("a"))
  store.send(.subfolder(.presented(.open("b"))))
  store.send(.subfolder(.presented(.subfolder(.presented(.open("c"))))))
  #expect(store.state.subfolder?.subfolder?.subfolder?.name == "c")
  #expect(store.state.subfolder?.opened == 1)
  // The middle folder closes itself: it and what it showed go.
  store.send(.subfolder(.presented(.subfolder(.presented(.close)))))
  #expect(store.state.subfolder?.name == "a")
  #expect(store.state.subfolder?.subfolder == nil)
}

@Test func aFeatureThatPresentsItselfRunsThroughJSON() throws {
  let folders = FeatureDescriptor(
    name: "folders", summary: "A folder browser.", initialState: Folder.State(name: "/"),
    reducer: Folder())
  let store = try folders.makeStore(state: nil)
  func send(_ json: String) throws {
    let bytes = Array(json.utf8)
    try bytes.withUnsafeBufferPointer { (buffer) throws(StoreError) in
      try store.send(json: buffer)
    }
  }
  func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
  /// The value at `pointer`, as `tca_store_get` finds it: from the store, else in its text.
  func get(_ pointer: String) throws -> String? {
    if let found = try store.value(at: pointer) { return text(found) }
    return text(try JSONPointer.lookup(pointer, in: try store.stateJSON()))
  }

  #expect(text(try store.stateJSON()) == #"{"name":"/","opened":0,"subfolder":null}"#)
  try send(#"{"open":"a"}"#)
  try send(#"{"subfolder":{"presented":{"open":"b"}}}"#)
  let version = store.version
  #expect(try get("/subfolder/subfolder/name") == #""b""#)
  try send(#"{"subfolder":{"presented":{"subfolder":{"presented":{"open":"c"}}}}}"#)
  #expect(
    text(try store.patch(since: version))
      == #"[{"op":"replace","path":"/subfolder/subfolder/opened","value":1},"#
      + #"{"op":"replace","path":"/subfolder/subfolder/subfolder","#
      + #""value":{"name":"c","opened":0,"subfolder":null}}]"#)
  // The host's back button on the second folder.
  try send(#"{"subfolder":{"presented":{"subfolder":"dismiss"}}}"#)
  #expect(try get("/subfolder/subfolder") == "null")
  #expect(try get("/subfolder/name") == #""a""#)
  // A snapshot of nested folders is read back as it was written.
  let snapshot = Array(
    #"{"name":"/","opened":1,"subfolder":{"name":"x","opened":0,"subfolder":null}}"#.utf8)
  let restored = try snapshot.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try folders.makeStore(state: buffer)
  }
  #expect(text(try restored.stateJSON()) == text(snapshot))
}

// MARK: - 11. A presented child in a memberwise initializer

@Test func aStatesMemberwiseInitializerTakesThePresentedChildsState() {
  let presenting = Top.State(middle: Middle.State(count: 2))
  #expect(presenting.middle?.count == 2)
  #expect(Top.State().middle == nil)
  #expect(Middle.State(worker: Worker.State(id: 3)).worker?.id == 3)
}

// MARK: - 12. Copies of a PresentationState are equal without comparing their children

@Test func copiesOfAPresentationStateAreEqualWithoutComparingTheChild() {
  // NB: NaN is not equal to itself: only the shortcut makes a copy equal.
  let presentation = PresentationState(wrappedValue: Double.nan)
  let copy = presentation
  #expect(presentation == copy)
  #expect(presentation != PresentationState(wrappedValue: Double.nan))
  var changed = copy
  changed.wrappedValue = .nan
  #expect(changed != presentation)
}

// MARK: - The root feature's `dismiss()`

/// A feature that runs a timer and can close itself, at the root of a store or presented.
struct Closable: Reducer {
  struct State: Equatable, Codable, Sendable {
    var ticks = 0
    @PresentationState var child: State?
  }
  enum Action: Equatable, Codable, Sendable {
    case start, tick, close, closeFromTask, closeInCancellable, present
    case child(PresentationAction<Action>)
  }
  @Dependency(\.clock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      case .tick:
        state.ticks += 1
        return .none
      case .close:
        return .run { [dismiss] _ in await dismiss() }
      case .closeFromTask:
        // NB: a task of its own: it finds no presentation's dismissal.
        return .run { [dismiss] _ in await Task { await dismiss() }.value }
      case .closeInCancellable:
        return .run { [dismiss] _ in
          try await withTaskCancellation(id: "close") { await dismiss() }
        }
      case .present:
        state.child = State()
        return .none
      case .child:
        return .none
      }
    }
    .ifLet(\.$child, action: Closable.Action.child) { Closable() }
  }
}

@Test func aRootDismissalDismissesTheTestStore() {
  let list = FailureList()
  let store = TestStore(
    initialState: Closable.State(), reducer: Closable(), reporter: .collecting(into: list))
  store.send(.start)
  #expect(!store.isDismissed)
  store.send(.close)
  #expect(store.isDismissed)
  // Its effects were cancelled (no tick comes), and it takes no more actions.
  store.advance(by: .seconds(1))
  store.send(.start)
  store.finish()
  #expect(list.messages == ["Can't send action to dismissed test store."])
}

@Test func aRootDismissalReachesTheHostAsARequest() {
  let store = Store(initialState: Closable.State(), reducer: Closable(), clock: .manual)
  let requests = Recorder<HostRequestInfo>()
  store.setRequestHandler(HostRequestHandler(onRequest: { requests.append($0) }))
  // A presented child's dismissals are its parent's business, from its effect or from a task
  // inside it: the host hears nothing.
  store.send(.present)
  store.send(.child(.presented(.closeInCancellable)))
  #expect(store.state.child == nil)
  store.send(.present)
  store.send(.child(.presented(.closeFromTask)))
  #expect(requests.all.isEmpty)
  // The root feature's: the host is asked to close what shows it.
  store.send(.close)
  #expect(requests.all.map(\.name) == ["dismiss"])
  #expect(requests.all.map(\.kind) == [.fireAndForget])
  #expect(
    requests.all.first.map { String(decoding: $0.payload, as: UTF8.self) } == "{}")
}

// MARK: - 13. Inside `send`'s assertion, `store.state` is the state before the action

@Test func theAssertionClosureSeesTheStateBeforeTheAction() {
  enum Action { case a, b, c }
  let reducer = Reduce<Int, Action> { count, action in
    count += 1
    return action == .a ? .merge(.send(.b), .send(.c)) : .none
  }
  expectNoFailures(0, reducer) { store in
    var seen: [Int] = []
    store.send(.a) {
      $0 = 1
      seen.append(store.state)
    }
    seen.append(store.state)
    store.receive({ $0 == .b }) {
      $0 = 2
      seen.append(store.state)
    }
    seen.append(store.state)
    store.receive({ $0 == .c }) {
      $0 = 3
      seen.append(store.state)
    }
    seen.append(store.state)
    #expect(seen == [0, 1, 1, 2, 2, 3])
  }
}
