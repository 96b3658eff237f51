import JSON
import StoreKernel
import Testing

// MARK: - Features used by these tests

/// A child screen with a timer and a host request, that can close itself.
struct Ticker: Reducer {
  struct State: Equatable, Codable, Sendable {
    var ticks = 0
    var fact: String?
  }
  enum Action: Equatable, Codable, Sendable {
    case startTimer, tick, fetchFact, factLoaded(String), closeButtonTapped
  }
  @Dependency(\.clock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    case .fetchFact:
      return .request("fact.fetch", payload: state.ticks, as: String.self) {
        .factLoaded($0)
      } failure: {
        .factLoaded($0.message)
      }
    case let .factLoaded(fact):
      state.fact = fact
      return .none
    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}

/// Presents a ticker sheet and an alert.
struct Sheets: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 3
    @PresentationState var sheet: Ticker.State?
    @PresentationState var alert: AlertState<Action.Alert>?
  }
  enum Action: Equatable, Codable, Sendable {
    case showSheet, hideSheet, resetButtonTapped
    case sheet(PresentationAction<Ticker.Action>)
    case alert(PresentationAction<Alert>)

    enum Alert: Equatable, Codable, Sendable { case confirmReset, keep }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .showSheet:
        state.sheet = Ticker.State()
        return .none
      case .hideSheet:
        state.sheet = nil
        return .none
      case .resetButtonTapped:
        state.alert = AlertState(
          title: "Reset the count?", message: "It goes back to 0.",
          buttons: [
            ButtonState(role: .destructive, action: .confirmReset, label: "Reset"),
            ButtonState(action: .keep) { "Keep" },
            ButtonState(role: .cancel, label: "Cancel"),
          ])
        return .none
      case .alert(.presented(.confirmReset)):
        state.count = 0
        return .none
      case .alert, .sheet:
        return .none
      }
    }
    .ifLet(\.$sheet, action: Action.sheet) { Ticker() }
    .ifLet(\.$alert, action: Action.alert)
  }
}

/// A navigation stack of tickers.
struct Navigator: Reducer {
  struct State: Equatable, Codable, Sendable {
    var path = StackState<Ticker.State>()
  }
  enum Action: Equatable, Codable, Sendable {
    case pushTicker
    case path(StackAction<Ticker.State, Ticker.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .pushTicker:
        state.path.append(Ticker.State())
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

// MARK: - Presentation

@Test func aPresentedChildDismissesItselfAndItsEffectsEnd() {
  let store = TestStore(initialState: Sheets.State(), reducer: Sheets(), reporter: .swiftTesting)
  store.send(.showSheet) { $0.sheet = Ticker.State() }
  store.send(.sheet(.presented(.startTimer)))
  store.advance(by: .seconds(1))
  store.receive(.sheet(.presented(.tick))) { $0.sheet?.ticks = 1 }
  store.send(.sheet(.presented(.closeButtonTapped)))
  store.receive(.sheet(.dismiss)) { $0.sheet = nil }
  // The timer was cancelled with the sheet: no tick comes, and nothing is left running.
  store.advance(by: .seconds(5))
  store.finish()
}

@Test func dismissingFromTheHostCancelsTheChildsRequests() {
  let store = TestStore(initialState: Sheets.State(), reducer: Sheets(), reporter: .swiftTesting)
  store.send(.showSheet) { $0.sheet = Ticker.State() }
  store.send(.sheet(.presented(.fetchFact)))
  let request = store.request("fact.fetch")
  #expect(request != nil)
  store.send(.sheet(.dismiss)) { $0.sheet = nil }
  #expect(store.cancelledRequests == [request?.id].compactMap { $0 })
  // Nothing presented: child actions and a second dismissal are ignored.
  store.send(.sheet(.presented(.tick)))
  store.send(.sheet(.dismiss))
  store.finish()
}

@Test func theParentSettingTheChildToNilCancelsItsEffects() {
  let store = TestStore(initialState: Sheets.State(), reducer: Sheets(), reporter: .swiftTesting)
  store.send(.showSheet) { $0.sheet = Ticker.State() }
  store.send(.sheet(.presented(.startTimer)))
  store.advance(by: .seconds(1))
  store.receive(.sheet(.presented(.tick))) { $0.sheet?.ticks = 1 }
  // Presenting a child of the same identity again (same case, no id) keeps its effects.
  store.send(.showSheet) { $0.sheet = Ticker.State() }
  store.advance(by: .seconds(1))
  store.receive(.sheet(.presented(.tick))) { $0.sheet?.ticks = 1 }
  store.send(.hideSheet) { $0.sheet = nil }
  store.advance(by: .seconds(5))
  store.finish()
}

@Test func theDismissDependencyAtTheRootDismissesTheTestStore() {
  let store = TestStore(
    initialState: Ticker.State(), reducer: Ticker(), reporter: .swiftTesting)
  store.send(.startTimer)
  store.send(.closeButtonTapped)
  #expect(store.isDismissed)
  store.finish()
}

// MARK: - Alerts

@Test func anAlertButtonsActionReachesTheParentAndTheAlertGoesAway() {
  let store = TestStore(initialState: Sheets.State(), reducer: Sheets(), reporter: .swiftTesting)
  let alert = AlertState<Sheets.Action.Alert>(
    title: "Reset the count?", message: "It goes back to 0.",
    buttons: [
      ButtonState(role: .destructive, action: .confirmReset, label: "Reset"),
      ButtonState(action: .keep, label: "Keep"),
      ButtonState(role: .cancel, label: "Cancel"),
    ])
  store.send(.resetButtonTapped) { $0.alert = alert }
  store.send(.alert(.presented(.confirmReset))) {
    $0.count = 0
    $0.alert = nil
  }
  store.send(.resetButtonTapped) { $0.alert = alert }
  store.send(.alert(.presented(.keep))) { $0.alert = nil }
  store.send(.resetButtonTapped) { $0.alert = alert }
  store.send(.alert(.dismiss)) { $0.alert = nil }
  store.finish()
}

@Test func anAlertIsPlainJSONAndATappedButtonsActionComesBackAsJSON() throws {
  let store = Store(initialState: Sheets.State(), reducer: Sheets())
  store.send(.resetButtonTapped)
  let json = String(decoding: try JSONEncoder().encode(store.state.alert), as: UTF8.self)
  #expect(
    json
      == #"{"title":"Reset the count?","message":"It goes back to 0.","buttons":["#
      + #"{"label":"Reset","role":"destructive","action":{"confirmReset":{}}},"#
      + #"{"label":"Keep","role":null,"action":{"keep":{}}},"#
      + #"{"label":"Cancel","role":"cancel","action":null}]}"#)
  // A host sends the tapped button's action back under "presented".
  let tapped = #"{"alert":{"presented":{"confirmReset":{}}}}"#
  store.send(try JSONDecoder().decode(Sheets.Action.self, from: Array(tapped.utf8)))
  #expect(store.state.count == 0)
  #expect(store.state.alert == nil)
  let dialog = ConfirmationDialogState<Sheets.Action.Alert>(
    titleVisibility: .visible, title: "Keep it?",
    buttons: [ButtonState(action: .keep, label: "Keep")])
  #expect(
    String(decoding: try JSONEncoder().encode(dialog), as: UTF8.self)
      == #"{"titleVisibility":"visible","title":"Keep it?","message":null,"#
      + #""buttons":[{"label":"Keep","role":null,"action":{"keep":{}}}]}"#)
}

@Test func anAlertCaseOfAnEnumDestinationGoesAwayAfterItsButton() {
  struct Screens: Reducer {
    struct State: Equatable {
      @PresentationState var destination: Destination?
    }
    enum Destination: Equatable {
      case alert(AlertState<Int>)
      case ticker(Ticker.State)
    }
    enum Action: Equatable {
      case showAlert, showTicker
      case destination(PresentationAction<Int>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .showAlert:
          let button = ButtonState(action: 1) { "A" }
          state.destination = .alert(AlertState(title: "T", buttons: [button]))
        case .showTicker:
          state.destination = .ticker(Ticker.State())
        case .destination:
          break
        }
        return .none
      }
      .ifLet(\.$destination, action: Action.destination) { EmptyReducer() }
    }
  }
  let store = TestStore(initialState: Screens.State(), reducer: Screens(), reporter: .swiftTesting)
  store.send(.showAlert) {
    $0.destination = .alert(AlertState(title: "T", buttons: [ButtonState(action: 1, label: "A")]))
  }
  store.send(.destination(.presented(1))) { $0.destination = nil }
  // Any other screen stays after its actions.
  store.send(.showTicker) { $0.destination = .ticker(Ticker.State()) }
  store.send(.destination(.presented(1)))
  store.finish()
}

// MARK: - Stacks

@Test func poppingAnElementCancelsItsEffects() {
  let store = TestStore(
    initialState: Navigator.State(), reducer: Navigator(), reporter: .swiftTesting)
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  store.send(.path(.element(id: 0, action: .startTimer)))
  store.send(.path(.element(id: 1, action: .startTimer)))
  store.send(.path(.element(id: 1, action: .fetchFact)))
  let request = store.request("fact.fetch")
  store.advance(by: .seconds(1))
  store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
  store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.ticks = 1 }
  store.send(.path(.popFrom(id: 1))) { _ = $0.path.popLast() }
  #expect(store.cancelledRequests == [request?.id].compactMap { $0 })
  // Element 0 still ticks; element 1's timer is gone.
  store.advance(by: .seconds(1))
  store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 2 }
  // Popping from the bottom pops everything above it too.
  store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  store.advance(by: .seconds(5))
  store.finish()
}

@Test func anElementPopsItselfWithTheDismissDependency() {
  let store = TestStore(
    initialState: Navigator.State(), reducer: Navigator(), reporter: .swiftTesting)
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  store.send(.path(.element(id: 0, action: .closeButtonTapped)))
  store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  store.finish()
}

@Test func stackIDsAreNeverReused() {
  let store = TestStore(
    initialState: Navigator.State(), reducer: Navigator(), reporter: .swiftTesting)
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  #expect(store.state.path.ids == [0, 1])
  store.send(.path(.popFrom(id: 1))) { _ = $0.path.popLast() }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  #expect(store.state.path.ids == [0, 2])
  // A host's push of an id given out before is ignored; a fresh one is taken, and the next
  // id follows it.
  store.send(.path(.push(id: 1, state: Ticker.State(ticks: 9))))
  store.send(.path(.push(id: 2, state: Ticker.State(ticks: 9))))
  store.send(.path(.push(id: 7, state: Ticker.State(ticks: 7)))) {
    $0.path.push(Ticker.State(ticks: 7), id: 7)
  }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  #expect(store.state.path.ids == [0, 2, 7, 8])
  #expect(store.state.path.nextID == 9)
  // Actions for ids not on the stack are ignored.
  store.send(.path(.element(id: 1, action: .tick)))
  store.send(.path(.popFrom(id: 1)))
  // Emptied, the stack still goes on from where it was.
  store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  store.send(.pushTicker) { $0.path.append(Ticker.State()) }
  #expect(store.state.path.ids == [9])
  store.finish()
}

@Test func stackStateEditsKeepIDsApartFromPositions() {
  var stack: StackState<Int> = [10, 11, 12, 13]
  stack[id: 1] = nil
  #expect(stack.ids == [0, 2, 3] && Array(stack) == [10, 12, 13])
  stack[id: 2] = 22
  stack[id: 9] = 99
  #expect(Array(stack) == [10, 22, 13])
  stack.removeLast()
  stack.append(14)
  #expect(stack.ids == [0, 2, 4])
  stack.removeLast(5)
  #expect(stack.isEmpty && stack.nextID == 5)
  #expect(!stack.push(1, id: 4) && stack.push(1, id: 5) && stack.ids == [5])
  #expect(stack.pop(to: 5) && !stack.pop(to: 6) && !stack.pop(from: 6))
}

@Test func stackStateKeepsItsNextIDThroughJSON() throws {
  var stack = StackState<Ticker.State>([Ticker.State(ticks: 1), Ticker.State(ticks: 2)])
  stack.pop(from: 1)
  let json = String(decoding: try JSONEncoder().encode(stack), as: UTF8.self)
  #expect(json == #"{"elements":[{"id":0,"state":{"ticks":1}}],"nextID":2}"#)
  let back = try JSONDecoder().decode(StackState<Ticker.State>.self, from: Array(json.utf8))
  #expect(back == stack)
  // Without nextID: one past the largest id.
  let bare = try JSONDecoder().decode(
    StackState<Ticker.State>.self,
    from: Array(#"{"elements":[{"id":4,"state":{"ticks":0}}]}"#.utf8))
  #expect(bare.ids == [4] && bare.nextID == 5)
  // Repeated ids, a nextID at or below an id, ids out of range: errors, never a trap.
  for bad in [
    #"{"elements":[{"id":1,"state":{"ticks":0}},{"id":1,"state":{"ticks":0}}]}"#,
    #"{"elements":[{"id":3,"state":{"ticks":0}}],"nextID":3}"#,
    #"{"elements":[{"id":-1,"state":{"ticks":0}}]}"#,
    #"{"elements":[{"id":4503599627370496,"state":{"ticks":0}}]}"#,
    #"{"elements":[],"nextID":9223372036854775807}"#,
  ] {
    #expect(throws: JSONError.self, "\(bad)") {
      try JSONDecoder().decode(StackState<Ticker.State>.self, from: Array(bad.utf8))
    }
  }
}

@Test func navigationActionsReadTheWireForms() throws {
  func decode(_ text: String) throws -> Navigator.Action {
    try JSONDecoder().decode(Navigator.Action.self, from: Array(text.utf8))
  }
  #expect(
    try decode(#"{"path":{"element":{"id":0,"action":"tick"}}}"#)
      == .path(.element(id: 0, action: .tick)))
  #expect(try decode(#"{"path":{"popFrom":{"id":3}}}"#) == .path(.popFrom(id: 3)))
  #expect(
    try decode(#"{"path":{"push":{"id":4,"state":{"ticks":2}}}}"#)
      == .path(.push(id: 4, state: Ticker.State(ticks: 2))))
  func decodeSheets(_ text: String) throws -> Sheets.Action {
    try JSONDecoder().decode(Sheets.Action.self, from: Array(text.utf8))
  }
  #expect(try decodeSheets(#"{"sheet":"dismiss"}"#) == .sheet(.dismiss))
  #expect(try decodeSheets(#"{"sheet":{"dismiss":{}}}"#) == .sheet(.dismiss))
  #expect(
    try decodeSheets(#"{"sheet":{"presented":"tick"}}"#) == .sheet(.presented(.tick)))
  let popJSON = try JSONEncoder().encode(Navigator.Action.path(.popFrom(id: 3)))
  #expect(String(decoding: popJSON, as: UTF8.self) == #"{"path":{"_0":{"popFrom":{"id":3}}}}"#)
}

@Test func navigationTypesDirectJSONPathsMatchCodable() throws {
  typealias Alert = AlertState<Int>
  func same<T: JSONCodable & Equatable>(_ type: T.Type, _ texts: [String]) throws {
    for text in texts {
      let bytes = Array(text.utf8)
      let direct = Result { () throws(JSONError) in try JSONDecoder().decode(type, from: bytes) }
      let codable = Result { () throws(JSONError) in
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
          try JSONDecoder().decodeThroughCodable(type, from: buffer)
        }
      }
      #expect(direct == codable, "\(text)")
      if case let .success(value) = direct {
        #expect(
          try JSONEncoder().encode(value) == (try JSONEncoder().encodeThroughCodable(value)),
          "\(text)")
      }
    }
  }
  try same(
    StackState<Int>.self,
    [
      #"{"elements":[{"id":0,"state":5},{"id":2,"state":6}],"nextID":4}"#, #"{}"#,
      #"{"elements":[{"id":1,"state":5},{"id":1,"state":6}]}"#, #"{"elements":[{"id":-2}]}"#,
    ])
  try same(
    StackAction<Int, Int>.self,
    [
      #"{"element":{"id":0,"action":3}}"#, #"{"popFrom":{"id":1}}"#,
      #"{"push":{"id":2,"state":7}}"#, #""popFrom""#, #"{"push":{"id":-1,"state":7}}"#,
    ])
  try same(
    PresentationAction<Int>.self,
    [#""dismiss""#, #"{"dismiss":{}}"#, #"{"presented":4}"#, #"{"presented":{"_0":4}}"#, "3"])
  try same(PresentationState<Int>.self, ["null", "5", #""x""#])
  try same(
    Alert.self,
    [
      #"{"title":"T","message":null,"buttons":[{"label":"A","role":"cancel","action":null}]}"#,
      #"{"title":"T","buttons":[{"label":"A","action":2}]}"#,
      #"{"title":"T","buttons":[{"label":"A","role":"loud"}]}"#,
    ])
  try same(
    ConfirmationDialogState<Int>.self,
    [#"{"title":"T"}"#, #"{"titleVisibility":"hidden","title":"T","buttons":[]}"#])
}

// MARK: - Scoped stores

@Test func scopedStoresShareTheParentsRuntime() throws {
  let store = Store(
    initialState: Sheets.State(), reducer: Sheets(), clock: .manual)
  #expect(store.scope(state: \.$sheet, action: Sheets.Action.sheet) == nil)
  store.send(.showSheet)
  let sheet = try #require(store.scope(state: \.$sheet, action: Sheets.Action.sheet))
  sheet.send(.startTimer)
  _ = try store.advance(by: .seconds(2))
  #expect(sheet.state.ticks == 2)
  #expect(store.state.sheet?.ticks == 2)
  let ticks = sheet.scope(state: \.ticks, action: { (_: Void) in .tick })
  ticks.send(())
  #expect(ticks.state == 3)
  #expect(ticks.version == store.version)
  sheet.send(.closeButtonTapped)
  #expect(store.state.sheet == nil)
  // Dismissed: the scope reads the last state it saw; the timer is gone with the sheet.
  #expect(sheet.state.ticks == 3)
  #expect(try store.advance(by: .seconds(5)) == 0)
  let whole = store.scope(state: \.count, action: { (_: Void) in .resetButtonTapped })
  whole.send(())
  #expect(store.state.alert?.title == "Reset the count?")
}
