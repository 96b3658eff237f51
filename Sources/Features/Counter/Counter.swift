import StoreKernel

/// The counter of the Composable Architecture's README: a count with two buttons.
///
///     {"count":0}  +  "incrementButtonTapped"  →  {"count":1}
public struct Counter: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    public init(count: Int = 0) { self.count = count }
  }

  public enum Action: Equatable, Codable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .decrementButtonTapped:
      // NB: the count may come from a host's snapshot; at the ends of Int it stays put, never traps.
      state.count = state.count.subtractingReportingOverflow(1).overflow ? state.count : state.count - 1
      return .none
    case .incrementButtonTapped:
      state.count = state.count.addingReportingOverflow(1).overflow ? state.count : state.count + 1
      return .none
    }
  }
}
