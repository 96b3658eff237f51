import JSON
import StoreKernel
import Testing

// MARK: - Features used by these tests

struct Counter: Reducer {
  struct State: Equatable, Codable, Sendable { var count = 0 }
  enum Action: Equatable, Codable, Sendable { case increment, decrement, set(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case let .set(value): state.count = value
    }
    return .none
  }
}

/// A parent with a body: a scoped child, a logger of its own, a conditional reducer.
struct Parent: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var log: [String] = []
  }
  enum Action: Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
    case note(String)
  }
  var logsRight = true

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Action.left) { Counter() }
    Scope(
      state: \.right,
      action: AnyCasePath(
        embed: Action.right, extract: { if case let .right(action) = $0 { action } else { nil } })
    ) {
      Counter()
    }
    Reduce { state, action in
      if case let .note(text) = action { state.log.append(text) }
      return .none
    }
    if logsRight {
      Reduce { state, action in
        if case .right = action { state.log.append("right") }
        return .none
      }
    }
  }
}

@Test func bodyComposesScopesInOrder() {
  let store = TestStore(initialState: Parent.State(), reducer: Parent(), reporter: .swiftTesting)
  store.send(.left(.increment)) { $0.left.count = 1 }
  store.send(.right(.increment)) {
    $0.right.count = 1
    $0.log = ["right"]
  }
  store.send(.note("hi")) { $0.log.append("hi") }
  store.finish()

  let quiet = TestStore(
    initialState: Parent.State(), reducer: Parent(logsRight: false), reporter: .swiftTesting)
  quiet.send(.right(.decrement)) { $0.right.count = -1 }
}

@Test func combineReducersEmptyReducerAndArrays() {
  struct Many: Reducer {
    var body: some Reducer<Int, Int> {
      CombineReducers {
        EmptyReducer()
        for step in 1...3 {
          Reduce { state, action in
            state += action * step
            return .none
          }
        }
      }
    }
  }
  let store = Store(initialState: 0, reducer: Many())
  store.send(1)
  #expect(store.state == 6)
}

@Test func scopeOnAnEnumStateRunsOnlyInItsCase() {
  enum State: Equatable { case counting(Counter.State), idle }
  enum Action: Equatable { case counter(Counter.Action), stop }
  struct Feature: Reducer {
    var body: some Reducer<State, Action> {
      Scope(state: AnyCasePath(State.counting), action: Action.counter) { Counter() }
      Reduce { state, action in
        if action == .stop { state = .idle }
        return .none
      }
    }
  }
  let store = TestStore(
    initialState: State.counting(Counter.State()), reducer: Feature(), reporter: .swiftTesting)
  store.send(.counter(.increment)) { $0 = .counting(Counter.State(count: 1)) }
  store.send(.stop) { $0 = .idle }
  store.send(.counter(.increment))
}

@Test func casePathsFromTheBareCase() {
  enum Action: Equatable { case a(Int), b(Int), c(String), d }
  let toA = AnyCasePath(Action.a)
  #expect(toA.extract(from: .a(1)) == 1)
  #expect(toA.extract(from: .b(2)) == nil)  // same payload type, other case
  #expect(toA.extract(from: .c("x")) == nil)
  #expect(toA.extract(from: .d) == nil)
  #expect(toA.embed(3) == .a(3))
  enum Labeled: Equatable { case element(id: Int, action: String) }
  let toElement = AnyCasePath(Labeled.element)
  #expect(toElement.extract(from: .element(id: 1, action: "x"))! == (1, "x"))
}

// MARK: - ifLet

struct Timer: Reducer {
  struct State: Equatable, Identifiable { var id = 0; var ticks = 0 }
  enum Action: Equatable { case start, tick, stopLocally }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer")
    case .tick:
      state.ticks += 1
      return .none
    case .stopLocally:
      return .cancel(id: "timer")
    }
  }
}

struct Host: Reducer {
  struct State: Equatable {
    var timer: Timer.State?
    var timers: IdentifiedArrayOf<Timer.State> = []
  }
  enum Action: Equatable {
    case timer(Timer.Action)
    case timers(IdentifiedActionOf<Timer>)
    case present, dismiss, add(Int), remove(Int)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present: state.timer = Timer.State()
      case .dismiss: state.timer = nil
      case let .add(id): state.timers.append(Timer.State(id: id))
      case let .remove(id): state.timers.remove(id: id)
      case .timer, .timers: break
      }
      return .none
    }
    .ifLet(\.timer, action: Action.timer) { Timer() }
    .forEach(\.timers, action: Action.timers) { Timer() }
  }
}

@Test func ifLetCancelsTheChildsEffectsWhenItGoesNil() {
  let store = TestStore(initialState: Host.State(), reducer: Host(), reporter: .swiftTesting)
  store.send(.present) { $0.timer = Timer.State() }
  store.send(.timer(.start))
  store.advance(by: .seconds(1))
  store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
  store.send(.dismiss) { $0.timer = nil }
  store.advance(by: .seconds(5))
  // A child action with no child state is ignored.
  store.send(.timer(.tick))
  store.finish()
}

@Test func forEachAddressesElementsByIDAndCancelsRemovedOnes() {
  let store = TestStore(initialState: Host.State(), reducer: Host(), reporter: .swiftTesting)
  store.send(.add(1)) { $0.timers = [Timer.State(id: 1)] }
  store.send(.add(2)) { $0.timers.append(Timer.State(id: 2)) }
  store.send(.timers(.element(id: 1, action: .start)))
  store.send(.timers(.element(id: 2, action: .start)))
  store.advance(by: .seconds(1))
  store.receive(.timers(.element(id: 1, action: .tick))) { $0.timers[id: 1]?.ticks = 1 }
  store.receive(.timers(.element(id: 2, action: .tick))) { $0.timers[id: 2]?.ticks = 1 }
  // Each element's cancel ids are its own: stopping 2 leaves 1 running.
  store.send(.timers(.element(id: 2, action: .stopLocally)))
  store.advance(by: .seconds(1))
  store.receive(.timers(.element(id: 1, action: .tick))) { $0.timers[id: 1]?.ticks = 2 }
  // Removing element 1 cancels its timer.
  store.send(.remove(1)) { $0.timers.remove(id: 1) }
  store.advance(by: .seconds(3))
  // An action for an id that is not there is ignored.
  store.send(.timers(.element(id: 9, action: .tick)))
  store.finish()
}

// MARK: - ifCaseLet

@Test func ifCaseLetCancelsWhenTheCaseChanges() {
  enum State: Equatable { case running(Timer.State), off }
  enum Action: Equatable { case running(Timer.Action), turnOff }
  struct Feature: Reducer {
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .turnOff { state = .off }
        return .none
      }
      .ifCaseLet(AnyCasePath(State.running), action: Action.running) { Timer() }
    }
  }
  let store = TestStore(
    initialState: State.running(Timer.State()), reducer: Feature(), reporter: .swiftTesting)
  store.send(.running(.start))
  store.advance(by: .seconds(1))
  store.receive(.running(.tick)) { $0 = .running(Timer.State(ticks: 1)) }
  store.send(.turnOff) { $0 = .off }
  store.advance(by: .seconds(2))
  store.finish()
}

// MARK: - onChange

@Test func onChangeRunsWhenTheValueChanges() {
  struct Feature: Reducer {
    struct State: Equatable { var count = 0; var changes: [String] = [] }
    var body: some Reducer<State, Counter.Action> {
      Scope(state: \.count, action: AnyCasePath(embed: { $0 }, extract: { $0 })) {
        Reduce<Int, Counter.Action> { count, action in
          var counter = Counter.State(count: count)
          _ = Counter().reduce(into: &counter, action: action)
          count = counter.count
          return .none
        }
      }
      .onChange(of: { $0.count }) { old, new in
        Reduce { state, _ in
          state.changes.append("\(old)→\(new)")
          return .none
        }
      }
    }
  }
  let store = TestStore(initialState: Feature.State(), reducer: Feature(), reporter: .swiftTesting)
  store.send(.increment) {
    $0.count = 1
    $0.changes = ["0→1"]
  }
  store.send(.set(1))
  store.send(.set(5)) {
    $0.count = 5
    $0.changes.append("1→5")
  }
}

// MARK: - Binding

struct Settings: Reducer {
  struct Audio: Equatable, Codable, Sendable, BindableState {
    var volume = 5
    static let bindableFields = BindableFields<Self>().field("volume", \.volume)
  }
  struct State: Equatable, Codable, Sendable, BindableState {
    var searchQuery = ""
    var isOn = false
    var audio = Audio()
    var searches = 0
    static let bindableFields = BindableFields<Self>()
      .field("searchQuery", \.searchQuery)
      .field("isOn", \.isOn)
      .nested("audio", \.audio)
  }
  enum Action: Equatable, Decodable, Sendable, BindableAction {
    case binding(BindingAction<State>)
    case reset
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.searchQuery):
        state.searches += 1
        return .none
      case .binding: return .none
      case .reset:
        state = State()
        return .none
      }
    }
  }
}

@Test func bindingActionsSetFieldsByName() throws {
  let store = TestStore(
    initialState: Settings.State(), reducer: Settings(), reporter: .swiftTesting)
  store.send(.binding(.set(\.searchQuery, "bos"))) {
    $0.searchQuery = "bos"
    $0.searches = 1
  }
  store.send(.binding(.set(\.isOn, true))) { $0.isOn = true }

  // From the host, as JSON.
  let decode = { (json: String) throws(JSONError) in
    try JSONDecoder().decode(Settings.Action.self, from: Array(json.utf8))
  }
  let fromHost = try decode(#"{"binding":{"set":{"key":"searchQuery","value":"nyc"}}}"#)
  #expect(fromHost == .binding(.set(\.searchQuery, "nyc")))
  store.send(fromHost) {
    $0.searchQuery = "nyc"
    $0.searches = 2
  }
  let nested = try decode(#"{"binding":{"set":{"key":"audio.volume","value":9}}}"#)
  store.send(nested) { $0.audio.volume = 9 }

  // Unknown keys and wrong value types are shape errors naming the place.
  do {
    _ = try decode(#"{"binding":{"set":{"key":"nope","value":1}}}"#)
    Issue.record("decoded an unknown key")
  } catch {
    #expect(error.kind == .shape)
    #expect(error.description.contains("no bindable field \"nope\""))
  }
  do {
    _ = try decode(#"{"binding":{"set":{"key":"isOn","value":"yes"}}}"#)
    Issue.record("decoded a string as a Bool")
  } catch {
    #expect(error.kind == .shape)
    #expect(error.path.hasSuffix("/value"))
  }
  // And it encodes back to the same form.
  let encoded = try JSONEncoder().encode(BindingAction<Settings.State>.set(\.isOn, true))
  #expect(String(decoding: encoded, as: UTF8.self) == #"{"set":{"key":"isOn","value":true}}"#)
}

// MARK: - _printChanges

@Test func printChangesWritesTheActionAndAFieldDiff() {
  let lines = Recorder<String>()
  let sink = TraceSink { lines.append($0) }
  let store = Store(initialState: Parent.State(), reducer: Parent()._printChanges(to: sink))
  store.send(.left(.increment))
  store.send(.note("x"))
  store.send(.left(.set(1)))
  let output = lines.all
  #expect(output.count == 3)
  #expect(
    output[0] == """
      received action:
        Parent.Action.left(.increment)
        Parent.State(
          left: Counter.State(
      -     count: 0
      +     count: 1
          )
          right: Counter.State(
            count: 0
          … (2 unchanged)
        )
      """)
  #expect(output[1].contains("-   log: []\n+   log: [\"x\"]"))
  #expect(output[2].hasSuffix("(No state changes)"))
}
