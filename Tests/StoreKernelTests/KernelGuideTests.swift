// The complete example of docs/kernel.md, kept here so that it compiles and passes.
// NB: keep it in step with the guide.

import StoreKernel
import Testing

public struct Search: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable, BindableState {
    public var query = ""
    public var results: IdentifiedArrayOf<Result> = []
    public var isSearching = false
    public var error: String?

    public init() {}

    // The fields a host may set by name: {"binding":{"set":{"key":"query","value":"bos"}}}
    public static let bindableFields = BindableFields<Self>().field("query", \.query)
  }

  public struct Result: Equatable, Codable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var isStarred = false
  }

  public enum Action: Equatable, Decodable, Sendable, BindableAction {
    case binding(BindingAction<State>)
    case search
    case searchResponse([Result])
    case searchFailed(String)
    case results(IdentifiedActionOf<Row>)
  }

  /// One row of the results, a child feature of its own.
  public struct Row: Reducer, Sendable {
    public enum Action: Equatable, Decodable, Sendable { case starTapped }
    public func reduce(into state: inout Result, action: Action) -> Effect<Action> {
      state.isStarred.toggle()
      return .none
    }
  }

  enum CancelID { case search }

  public init() {}

  public var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.query):
        guard !state.query.isEmpty else {
          state.results = []
          return .cancel(id: CancelID.search)
        }
        return .send(.search).debounce(id: CancelID.search, for: .milliseconds(300))

      case .binding:
        return .none

      case .search:
        state.isSearching = true
        return .request("search.run", payload: state.query, as: [Result].self) {
          .searchResponse($0)
        } failure: {
          .searchFailed($0.message)
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)

      case let .searchResponse(results):
        state.isSearching = false
        state.results = IdentifiedArray(uniqueElements: results)
        return .none

      case let .searchFailed(message):
        state.isSearching = false
        state.error = message
        return .none

      case .results:
        return .none
      }
    }
    .forEach(\.results, action: Action.results) {
      Row()
    }
  }
}

@Test func searching() {
  let store = TestStore(initialState: Search.State(), reducer: Search(), reporter: .swiftTesting)
  store.send(.binding(.set(\.query, "bos"))) { $0.query = "bos" }
  store.advance(by: .milliseconds(300))
  store.receive(.search) { $0.isSearching = true }
  #expect(store.request("search.run").map { try? $0.payload(as: String.self) } == "bos")
  store.respond(to: "search.run", with: [Search.Result(id: 1, title: "Boston")])
  store.receive(.searchResponse([Search.Result(id: 1, title: "Boston")])) {
    $0.isSearching = false
    $0.results = [Search.Result(id: 1, title: "Boston")]
  }
  store.send(.results(.element(id: 1, action: .starTapped))) {
    $0.results[id: 1]?.isStarred = true
  }
  store.finish()
}
