@testable import StoreKernel
import JSON
import Testing

/// `.request(…).cancellable(id:)` keeps its cancellation in the request (no box around it), and
/// an id whose type has no stored data (`enum CancelID { case search }`) is its type alone
/// (docs/benchmarks.md: the effect round trip). These check that both behave exactly as the boxed
/// forms: an effect value kept and reused, made cancellable twice, mapped into a parent's action,
/// scoped to a child, and ids compared, hashed and described.
struct KeptEffects: Reducer {
  struct State: Equatable, Sendable {
    var answers: [String] = []
  }
  enum Action: Equatable, Sendable {
    /// The same request value, once plain and once cancellable by `Lookup.id`.
    case plainAndCancellable
    /// The same request value made cancellable by "first" and by "second".
    case twoIDs
    /// A request cancellable by `Lookup.id`, mapped through `child`.
    case mapped
    /// A request cancellable by `Lookup.id` in place of the one in flight.
    case replace
    case cancel(String)
    case cancelUnit
    case answer(String)
    indirect case child(Action)
  }

  enum Lookup: Hashable, Sendable { case id }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .plainAndCancellable:
      let lookup = Self.lookup()
      return .merge(lookup, lookup.cancellable(id: Lookup.id))
    case .twoIDs:
      let lookup = Self.lookup()
      return .merge(lookup.cancellable(id: "first"), lookup.cancellable(id: "second"))
    case .mapped:
      return Self.lookup().cancellable(id: Lookup.id).map { .child($0) }
    case .replace:
      return Self.lookup().cancellable(id: Lookup.id, cancelInFlight: true)
    case let .cancel(id):
      return .cancel(id: id)
    case .cancelUnit:
      return .cancel(id: Lookup.id)
    case let .answer(text):
      state.answers.append(text)
      return .none
    case let .child(.answer(text)):
      state.answers.append("child: " + text)
      return .none
    case .child:
      return .none
    }
  }

  static func lookup() -> Effect<Action> {
    .request("lookup", as: String.self) { .answer($0) } failure: { _ in nil }
  }
}

private func makeStore() -> (Store<KeptEffects.State, KeptEffects.Action>, FakeHost) {
  FakeHost.serving(KeptEffects(), from: KeptEffects.State())
}

@Test func aRequestValueUsedPlainlyAndMadeCancellableIsTwoEffects() throws {
  let (store, host) = makeStore()
  store.send(.plainAndCancellable)
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  // Only the second start is cancellable: the plain one keeps running.
  store.send(.cancelUnit)
  #expect(host.cancels.all == [ids[1]])
  try store.respond(to: ids[0], json: Array(json: #""plain""#))
  #expect(store.state.answers == ["plain"])
}

@Test func aRequestValueMadeCancellableTwiceHasBothIDs() throws {
  let (store, host) = makeStore()
  store.send(.twoIDs)
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  store.send(.cancel("second"))
  #expect(host.cancels.all == [ids[1]])
  store.send(.cancel("first"))
  #expect(host.cancels.all == [ids[1], ids[0]])
}

@Test func aMappedCancellableRequestKeepsItsID() throws {
  let (store, host) = makeStore()
  store.send(.mapped)
  store.send(.mapped)
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  try store.respond(to: ids[0], json: Array(json: #""one""#))
  #expect(store.state.answers == ["child: one"])
  store.send(.cancelUnit)
  #expect(host.cancels.all == [ids[1]])
}

@Test func aUnitIDReplacesTheRequestInFlight() throws {
  let (store, host) = makeStore()
  store.send(.replace)
  store.send(.replace)
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 2)
  #expect(host.cancels.all == [ids[0]])
  #expect(throws: StoreError.finishedRequest(ids[0])) {
    try store.respond(to: ids[0], json: Array(json: #""old""#))
  }
  try store.respond(to: ids[1], json: Array(json: #""new""#))
  #expect(store.state.answers == ["new"])
}

/// Rows of a list, each with a lookup cancellable by the same unit id: `forEach` namespaces each
/// row's ids, so a row's lookup replaces only its own, and removing a row cancels only its own.
struct LookupRow: Reducer {
  struct State: Equatable, Identifiable, Sendable { var id = 0; var answers: [String] = [] }
  enum Action: Equatable, Sendable { case lookup, answer(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .lookup:
      return .request("lookup", as: String.self) { .answer($0) } failure: { _ in nil }
        .cancellable(id: KeptEffects.Lookup.id, cancelInFlight: true)
    case let .answer(text):
      state.answers.append(text)
      return .none
    }
  }
}

struct LookupList: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArrayOf<LookupRow.State> = [] }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<LookupRow>)
    case remove(Int)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case let .remove(id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { LookupRow() }
  }
}

@Test func eachRowsCancellableRequestIsItsOwn() throws {
  let (store, host) = FakeHost.serving(
    LookupList(), from: LookupList.State(rows: [LookupRow.State(id: 1), LookupRow.State(id: 2)]))
  store.send(.rows(.element(id: 1, action: .lookup)))
  store.send(.rows(.element(id: 2, action: .lookup)))
  #expect(host.cancels.all.isEmpty)
  store.send(.rows(.element(id: 1, action: .lookup)))
  let ids = host.requests.all.map(\.id)
  try #require(ids.count == 3)
  #expect(host.cancels.all == [ids[0]])
  try store.respond(to: ids[1], json: Array(json: #""two""#))
  #expect(store.state.rows[id: 2]?.answers == ["two"])
  store.send(.remove(1))
  #expect(host.cancels.all == [ids[0], ids[2]])
}

private enum OneCase: Hashable, Sendable { case only }
private enum OtherCase: Hashable, Sendable { case only }
private struct NoData: Hashable, Sendable {}

@Test func unitIDsAreTheirTypes() {
  #expect(CancelID(OneCase.only) == CancelID(OneCase.only))
  #expect(CancelID(OneCase.only).hashValue == CancelID(OneCase.only).hashValue)
  #expect(CancelID(OneCase.only) != CancelID(OtherCase.only))
  #expect(CancelID(OneCase.only) != CancelID(NoData()))
  #expect(CancelID(OneCase.only) != CancelID("only"))
  #expect(CancelID("only") != CancelID(OneCase.only))
  #expect(CancelID(OneCase.only).box == nil)
  #expect(CancelID(1).box != nil)
  #expect(CancelID(OneCase.only).description == "only")
  #expect(CancelID(NoData()).description == "NoData()")
  var table: [CancelID: Int] = [:]
  table[CancelID(OneCase.only)] = 1
  table[CancelID(OtherCase.only)] = 2
  table[CancelID(NoData())] = 3
  #expect(table[CancelID(OneCase.only)] == 1)
  #expect(table[CancelID(OtherCase.only)] == 2)
  #expect(table[CancelID(NoData())] == 3)
  // Scoped to a namespace, a unit id is still told apart from another.
  let namespace = CancelID("child")
  let (one, other) = (CancelID(OneCase.only), CancelID(OtherCase.only))
  #expect(one.scoped(to: namespace) == one.scoped(to: namespace))
  #expect(one.scoped(to: namespace) != other.scoped(to: namespace))
}


/// The registry of ids against a `Dictionary`: inserts, replacements and removals (of a given
/// node, which may or may not be the one registered) in random order, over ids of no
/// data (compared by type), boxed ids made again for each use (equal values in different
/// boxes), and several ids live at once (the dictionary behind the slot).
@Test func theCancelRegistryAgreesWithADictionary() {
  var generator = SystemRandomNumberGenerator()
  let makers: [() -> CancelID] = [
    { CancelID(OneCase.only) }, { CancelID(OtherCase.only) }, { CancelID(NoData()) },
    { CancelID("a") }, { CancelID("b") }, { CancelID(1) }, { CancelID(Int8(1)) },
  ]
  for _ in 0..<50 {
    var registry = CancelRegistry()
    var model: [CancelID: EffectNode] = [:]
    for _ in 0..<200 {
      guard let make = makers.randomElement(using: &generator) else { continue }
      let id = make()
      switch Int.random(in: 0..<4, using: &generator) {
      case 0, 1:
        let node = EffectNode()
        node.cancelID = id
        #expect(registry.updateValue(node, forKey: id) === model.updateValue(node, forKey: id))
      default:
        // The node registered under the id three times in four, another node of the id
        // otherwise (which leaves the registry as it is).
        let stranger = EffectNode()
        stranger.cancelID = id
        let registered = Int.random(in: 0..<4, using: &generator) > 0
        let node = registered ? model[id] ?? stranger : stranger
        registry.remove(node, forKey: id)
        if model[id] === node { model[id] = nil }
      }
      for make in makers { #expect(registry[make()] === model[make()]) }
    }
  }
}
