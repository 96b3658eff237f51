import Features
import StoreKernel
import Synchronization
import StoreKernelTesting
import Testing

private func diceStore(
  _ state: Dice.State = .init(), seed: UInt64 = 42
) -> TestStore<Dice.State, Dice.Action> {
  TestStore(
    initialState: state, reducer: Dice(), reporter: .swiftTesting,
    withDependencies: { $0.random = RandomSource(seed: seed) })
}

/// The faces a store seeded with `seed` rolls, in order.
private func faces(seed: UInt64, count: Int) -> [Int] {
  let random = RandomSource(seed: seed)
  return (0..<count).map { _ in random.int(in: 1...6) }
}

private func history(_ rolls: [Int]) -> Dice.Destination.State {
  .history(DiceHistory.State(rolls: rolls))
}

@Test func aRollAnimatesAtOnceAndLands500msLaterOnAFaceFromTheRandomSource() throws {
  let store = diceStore()
  let face = faces(seed: 42, count: 1)[0]
  store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
  store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = 360 }
  let haptic = try #require(store.requestLog.first)
  #expect(haptic.name == "haptics.impact")
  #expect(haptic.kind == .fireAndForget)
  #expect(try haptic.payload(as: Dice.Haptic.self) == Dice.Haptic(style: "medium"))
  #expect(store.requests.isEmpty)
  store.advance(by: .milliseconds(499))
  store.advance(by: .milliseconds(1))
  store.receive(.internal(.rollCompleted(face))) {
    $0.isRolling = false
    $0.currentRoll = face
    $0.$rollHistory.withLock { $0 = [face] }
  }
  store.finish()
}

@Test func aTapWhileRollingIsIgnored() {
  let store = diceStore()
  let face = faces(seed: 42, count: 1)[0]
  store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
  store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = 360 }
  store.advance(by: .milliseconds(300))
  store.send(.view(.rollButtonTapped))
  #expect(store.requestLog.count == 1)
  store.advance(by: .milliseconds(200))
  store.receive(.internal(.rollCompleted(face))) {
    $0.isRolling = false
    $0.currentRoll = face
    $0.$rollHistory.withLock { $0 = [face] }
  }
  store.advance(by: .seconds(1))
  store.finish()
}

@Test func theHistoryIsNewestFirstAndThePreviewShowsTheLastFive() {
  let store = diceStore(seed: 7)
  let rolled = faces(seed: 7, count: 7)
  for (index, face) in rolled.enumerated() {
    store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
    store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = Double(360 * (index + 1)) }
    store.advance(by: .milliseconds(500))
    store.receive(.internal(.rollCompleted(face))) {
      $0.isRolling = false
      $0.currentRoll = face
      $0.$rollHistory.withLock { $0.insert(face, at: 0) }
    }
  }
  #expect(store.state.rollHistory == rolled.reversed())
  #expect(store.state.lastFiveRolls == Array(rolled.reversed().prefix(5)))
  #expect(store.requestLog.count == 7)
  store.finish()
}

@Test func undoRemovesTheLastRollAndShowsTheOneBefore() {
  let store = diceStore(Dice.State(currentRoll: 3, rollHistory: [3, 5]))
  store.send(.view(.undoLastRoll)) {
    $0.$rollHistory.withLock { $0 = [5] }
    $0.currentRoll = 5
  }
  store.send(.view(.undoLastRoll)) {
    $0.$rollHistory.withLock { $0 = [] }
    $0.currentRoll = nil
  }
  store.send(.view(.undoLastRoll))
  store.finish()
}

@Test func resetClearsTheHistory() {
  let store = diceStore(Dice.State(currentRoll: 2, rollHistory: [2, 6, 1]))
  store.send(.view(.resetHistory)) {
    $0.$rollHistory.withLock { $0 = [] }
    $0.currentRoll = nil
  }
  store.finish()
}

@Test func resetDuringARollCancelsIt() {
  let store = diceStore(Dice.State(currentRoll: 4, rollHistory: [4]))
  store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
  store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = 360 }
  store.advance(by: .milliseconds(250))
  store.send(.view(.resetHistory)) {
    $0.isRolling = false
    $0.$rollHistory.withLock { $0 = [] }
    $0.currentRoll = nil
  }
  store.advance(by: .seconds(1))
  // The button works again: a new roll lands on the source's first face (the cancelled roll
  // never drew one).
  let face = faces(seed: 42, count: 1)[0]
  store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
  store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = 720 }
  store.advance(by: .milliseconds(500))
  store.receive(.internal(.rollCompleted(face))) {
    $0.isRolling = false
    $0.currentRoll = face
    $0.$rollHistory.withLock { $0 = [face] }
  }
  store.finish()
}

@Test func aRollResultThatIsNotAFaceIsIgnored() {
  let store = diceStore()
  store.send(.internal(.rollCompleted(0)))
  store.send(.internal(.rollCompleted(7)))
  store.send(.internal(.rollCompleted(.min)))
  store.send(.internal(.rollCompleted(6))) {
    $0.currentRoll = 6
    $0.$rollHistory.withLock { $0 = [6] }
  }
  store.finish()
}

@Test func startAnimationTurnsTheDieOnceMore() {
  let store = diceStore(Dice.State(rollAnimationAngle: 720))
  store.send(.internal(.startAnimation)) { $0.rollAnimationAngle = 1080 }
  store.finish()
}

@Test func theFullHistoryScreenIsPresentedAndDismissed() {
  let store = diceStore(Dice.State(currentRoll: 1, rollHistory: [1, 2]))
  store.send(.view(.viewFullHistoryTapped)) { $0.destination = history([1, 2]) }
  // The screen's own close button: the screen dismisses itself (the dismiss dependency).
  store.send(.destination(.presented(.history(.closeButtonTapped))))
  store.receive(.destination(.dismiss)) { $0.destination = nil }
  // A child action with nothing presented is ignored.
  store.send(.destination(.presented(.history(.closeButtonTapped))))
  store.send(.view(.viewFullHistoryTapped)) { $0.destination = history([1, 2]) }
  // The host's dismissal (a back button, a swipe).
  store.send(.destination(.dismiss)) { $0.destination = nil }
  store.send(.destination(.dismiss))
  store.finish()
}

@Test func thePresentedHistoryFollowsRollsUndoAndReset() {
  let store = diceStore(Dice.State(currentRoll: 1, rollHistory: [1]))
  let face = faces(seed: 42, count: 1)[0]
  store.send(.view(.viewFullHistoryTapped)) { $0.destination = history([1]) }
  store.send(.view(.rollButtonTapped)) { $0.isRolling = true }
  store.receive(.internal(.startAnimation)) { $0.rollAnimationAngle = 360 }
  store.advance(by: .milliseconds(500))
  store.receive(.internal(.rollCompleted(face))) {
    $0.isRolling = false
    $0.currentRoll = face
    $0.$rollHistory.withLock { $0 = [face, 1] }
    $0.destination = history([face, 1])
  }
  store.send(.view(.undoLastRoll)) {
    $0.currentRoll = 1
    $0.$rollHistory.withLock { $0 = [1] }
    $0.destination = history([1])
  }
  store.send(.view(.resetHistory)) {
    $0.currentRoll = nil
    $0.$rollHistory.withLock { $0 = [] }
    $0.destination = history([])
  }
  store.finish()
}

@Test func theResetButtonAsksWithAnAlertWhoseResetButtonResets() {
  let store = diceStore(Dice.State(currentRoll: 1, rollHistory: [1, 2]))
  let alert = AlertState<Dice.Action.Alert>(
    title: "Reset the history?", message: "All 2 rolls are forgotten.",
    buttons: [
      ButtonState(role: .destructive, action: .confirmReset, label: "Reset"),
      ButtonState(role: .cancel, label: "Cancel"),
    ])
  store.send(.view(.resetButtonTapped)) { $0.alert = alert }
  // Cancel: the host dismisses; nothing else changes.
  store.send(.alert(.dismiss)) { $0.alert = nil }
  store.send(.view(.resetButtonTapped)) { $0.alert = alert }
  store.send(.alert(.presented(.confirmReset))) {
    $0.alert = nil
    $0.currentRoll = nil
    $0.$rollHistory.withLock { $0 = [] }
  }
  // No alert showing: its buttons do nothing.
  store.send(.alert(.presented(.confirmReset)))
  store.send(.view(.resetButtonTapped)) {
    $0.alert = AlertState(
      title: "Reset the history?", message: "There are no rolls yet.",
      buttons: alert.buttons)
  }
  store.send(.alert(.dismiss)) { $0.alert = nil }
  store.finish()
}

@Test func theHistoryScreenNumbersItsEntriesNewestFirst() {
  let screen = DiceHistory.State(rolls: [6, 2, 5])
  #expect(screen.entries.map(\.number) == [3, 2, 1])
  #expect(screen.entries.map(\.value) == [6, 2, 5])
  let dismissals = Mutex(0)
  let store = TestStore(
    initialState: screen, reducer: DiceHistory(), reporter: .swiftTesting,
    withDependencies: { $0.dismiss = DismissEffect { dismissals.withLock { $0 += 1 } } })
  store.send(.closeButtonTapped)
  #expect(dismissals.withLock { $0 } == 1)
  store.finish()
}

// MARK: - As a host sees it

@Test func diceActionsInTheHostsForms() throws {
  let forms: [(String, Dice.Action)] = [
    (#""rollButtonTapped""#, .view(.rollButtonTapped)),
    (#"{"rollButtonTapped":{}}"#, .view(.rollButtonTapped)),
    (#"{"view":"rollButtonTapped"}"#, .view(.rollButtonTapped)),
    (#"{"view":{"_0":{"rollButtonTapped":{}}}}"#, .view(.rollButtonTapped)),
    (#""undoLastRoll""#, .view(.undoLastRoll)),
    (#""resetHistory""#, .view(.resetHistory)),
    (#""resetButtonTapped""#, .view(.resetButtonTapped)),
    (#"{"alert":{"presented":{"confirmReset":{}}}}"#, .alert(.presented(.confirmReset))),
    (#"{"alert":{"presented":"confirmReset"}}"#, .alert(.presented(.confirmReset))),
    (#"{"alert":"dismiss"}"#, .alert(.dismiss)),
    (#""viewFullHistoryTapped""#, .view(.viewFullHistoryTapped)),
    (#"{"view":"viewFullHistoryTapped"}"#, .view(.viewFullHistoryTapped)),
    (#"{"rollCompleted":4}"#, .internal(.rollCompleted(4))),
    (#"{"internal":{"rollCompleted":4}}"#, .internal(.rollCompleted(4))),
    (#""startAnimation""#, .internal(.startAnimation)),
    (#"{"internal":"startAnimation"}"#, .internal(.startAnimation)),
    (#"{"destination":"dismiss"}"#, .destination(.dismiss)),
    (
      #"{"destination":{"presented":{"history":"closeButtonTapped"}}}"#,
      .destination(.presented(.history(.closeButtonTapped)))
    ),
  ]
  for (text, action) in forms {
    #expect(try decode(Dice.Action.self, text) == action, "\(text)")
    #expect(try decode(Dice.Action.self, json(action)) == action)
  }
  for bad in [#""jump""#, #"{"view":"jump"}"#, #"{"rollCompleted":"four"}"#, "[]", "{}"] {
    #expect(throws: (any Error).self, "\(bad)") { try decode(Dice.Action.self, bad) }
  }
}

@Test func diceStateJSONCarriesThePreviewAndSnapshotsIgnoreDerivedValues() throws {
  #expect(
    try json(Dice.State())
      == #"{"currentRoll":null,"isRolling":false,"rollHistory":[],"rollAnimationAngle":0,"#
      + #""destination":null,"alert":null,"lastFiveRolls":[]}"#)
  let state = Dice.State(
    currentRoll: 3, rollHistory: [3, 1, 4, 1, 5, 9 - 3], rollAnimationAngle: 2160,
    destination: history([3, 1]))
  #expect(
    try json(state)
      == #"{"currentRoll":3,"isRolling":false,"rollHistory":[3,1,4,1,5,6],"#
      + #""rollAnimationAngle":2160,"destination":{"history":{"rolls":[3,1],"#
      + #""entries":[{"number":2,"value":3},{"number":1,"value":1}]}},"alert":null,"#
      + #""lastFiveRolls":[3,1,4,1,5]}"#)
  #expect(try decode(Dice.State.self, json(state)) == state)
  #expect(try decode(Dice.State.self, "{}") == Dice.State())
  #expect(
    try decode(
      Dice.State.self,
      #"{"rollHistory":[2],"lastFiveRolls":"x","destination":{"history":{"entries":0}}}"#)
      == Dice.State(rollHistory: [2], destination: history([])))
  #expect(throws: (any Error).self) { try decode(Dice.State.self, #"{"destination":{}}"#) }
}

@Test func aHostDrivesTheDice() throws {
  let host = try HostHarness("dice", seed: 7)
  let rolled = faces(seed: 7, count: 2)
  try host.send(#""rollButtonTapped""#)
  #expect(try host.get("/isRolling") == "true")
  #expect(try host.get("/rollAnimationAngle") == "360")
  let haptic = try host.lastRequest("haptics.impact")
  #expect(haptic.payload == #"{"style":"medium"}"#)
  #expect(host.store.nextDeadlineMilliseconds == 500)
  try host.advance(milliseconds: 500)
  #expect(try host.get("/currentRoll") == "\(rolled[0])")
  try host.send(#"{"view":"rollButtonTapped"}"#)
  try host.advance(milliseconds: 500)
  #expect(try host.get("/lastFiveRolls") == "[\(rolled[1]),\(rolled[0])]")
  try host.send(#""viewFullHistoryTapped""#)
  #expect(try host.get("/destination/history/rolls") == "[\(rolled[1]),\(rolled[0])]")
  try host.send(#"{"destination":"dismiss"}"#)
  #expect(try host.get("/destination") == "null")
  try host.send(#""undoLastRoll""#)
  #expect(try host.get("/rollHistory") == "[\(rolled[0])]")
  try host.send(#""resetHistory""#)
  #expect(try host.get("/currentRoll") == "null")
  #expect(host.requests.filter { $0.name == "haptics.impact" }.count == 2)
  // The history is the host's: loaded at the first turn, saved after each change.
  #expect(host.requests.first?.name == "shared.load")
  #expect(
    host.requests.first.map { String(decoding: $0.payload, as: UTF8.self) }
      == #"{"key":"dice.history"}"#)
  let saves = host.requests.filter { $0.name == "shared.save" }.map {
    String(decoding: $0.payload, as: UTF8.self)
  }
  #expect(
    saves == [
      #"{"key":"dice.history","value":[\#(rolled[0])]}"#,
      #"{"key":"dice.history","value":[\#(rolled[1]),\#(rolled[0])]}"#,
      #"{"key":"dice.history","value":[\#(rolled[0])]}"#,
      #"{"key":"dice.history","value":[]}"#,
    ])
}

@Test func theDiceHistoryComesFromTheHost() throws {
  let host = try HostHarness("dice")
  try host.send(#""undoLastRoll""#)
  let load = try host.lastRequest("shared.load")
  try host.respond(load.id, "[6,2]")
  #expect(try host.get("/rollHistory") == "[6,2]")
  #expect(try host.get("/lastFiveRolls") == "[6,2]")
  try host.send(#""undoLastRoll""#)
  #expect(try host.get("/rollHistory") == "[2]")
}

@Test func diceActionErrorsNameThePlaceInTheFormTheHostMeant() throws {
  let host = try HostHarness("dice")
  let errors: [(String, String)] = [
    (#"{"rollCompleted":"x"}"#, "at /rollCompleted"),
    (#"{"view":"jump"}"#, "at /view"),
    (#"{"internal":{"rollCompleted":"x"}}"#, "at /internal/rollCompleted"),
    (#""jump""#, "at /"),
  ]
  for (action, place) in errors {
    do {
      try host.send(action)
      Issue.record("\(action) was accepted")
    } catch {
      #expect("\(error)".hasPrefix(place), "\(action): \(error)")
    }
  }
  // Every view and internal case name is known to the shorthand.
  for name in ["rollButtonTapped", "undoLastRoll", "resetHistory", "viewFullHistoryTapped"] {
    #expect(
      try decode(Dice.Action.self, "\"\(name)\"")
        == decode(Dice.Action.self, #"{"view":"\#(name)"}"#))
  }
  #expect(try decode(Dice.Action.self, #""startAnimation""#) == .internal(.startAnimation))
}
