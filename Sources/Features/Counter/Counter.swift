import StoreKernel

/// The counter of the Composable Architecture's README: a count with two buttons, and a number
/// fact about the count that the host fetches (`numberFact.fetch`, payload: the count, answer: a
/// string).
///
///     {"count":0,…}  +  "incrementButtonTapped"   →  {"count":1,…}
///     "numberFactButtonTapped"  →  host request numberFact.fetch 1  →  host answers "1 is…"
///                                                                   →  {"numberFact":"1 is…",…}
///
/// `"saveNumberFactButtonTapped"` does it in one `.run` effect that awaits two host requests: it
/// fetches a fact (`numberFact.fetch`), asks the host to save it (`numberFact.save`, payload: the
/// fact, answer: `true`), then shows it; either failure shows as `numberFactError`.
public struct Counter: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    /// The last fact fetched, until the next fetch starts.
    public var numberFact: String?
    /// Why the last fetch failed, readable as it is; nil while a fetch runs or after a success.
    public var numberFactError: String?
    public var isNumberFactLoading = false

    public init(
      count: Int = 0, numberFact: String? = nil, numberFactError: String? = nil,
      isNumberFactLoading: Bool = false
    ) {
      self.count = count
      self.numberFact = numberFact
      self.numberFactError = numberFactError
      self.isNumberFactLoading = isNumberFactLoading
    }

    // NB: a host's snapshot may name only some fields (`{"count":5}`); the rest take defaults.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
      numberFact = try container.decodeIfPresent(String.self, forKey: .numberFact)
      numberFactError = try container.decodeIfPresent(String.self, forKey: .numberFactError)
      isNumberFactLoading =
        try container.decodeIfPresent(Bool.self, forKey: .isNumberFactLoading) ?? false
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
    case numberFactButtonTapped
    case saveNumberFactButtonTapped
    case numberFactResponse(String)
    case numberFactFailed(String)
  }

  /// The host request that fetches a fact.
  public static let fetchNumberFact = "numberFact.fetch"
  /// The host request that saves a fact (`saveNumberFactButtonTapped`).
  public static let saveNumberFact = "numberFact.save"

  enum CancelID { case numberFact }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .decrementButtonTapped:
      // NB: the count may come from a host's snapshot; at the ends of Int it stays put, never traps.
      let (lower, overflow) = state.count.subtractingReportingOverflow(1)
      if !overflow { state.count = lower }
      return .none

    case .incrementButtonTapped:
      let (higher, overflow) = state.count.addingReportingOverflow(1)
      if !overflow { state.count = higher }
      return .none

    case .numberFactButtonTapped:
      state.isNumberFactLoading = true
      state.numberFact = nil
      state.numberFactError = nil
      return .request(Counter.fetchNumberFact, payload: state.count, as: String.self) {
        .numberFactResponse($0)
      } failure: {
        .numberFactFailed($0.message)
      }
      .cancellable(id: CancelID.numberFact, cancelInFlight: true)

    case .saveNumberFactButtonTapped:
      state.isNumberFactLoading = true
      state.numberFact = nil
      state.numberFactError = nil
      return .run { [count = state.count] send in
        let fact: String = try await send.request(Counter.fetchNumberFact, payload: count)
        _ = try await send.request(Counter.saveNumberFact, payload: fact, as: Bool.self)
        await send(.numberFactResponse(fact))
      } catch: { error, send in
        await send(.numberFactFailed("\(error)"))
      }
      .cancellable(id: CancelID.numberFact, cancelInFlight: true)

    case let .numberFactResponse(fact):
      state.isNumberFactLoading = false
      state.numberFact = fact
      return .none

    case let .numberFactFailed(message):
      state.isNumberFactLoading = false
      state.numberFactError = "Could not load a number fact: \(message)"
      return .none
    }
  }
}
