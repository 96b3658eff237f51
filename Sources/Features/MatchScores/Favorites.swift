import StoreKernel

/// The favorites tab of the match-scores app: the teams the user starred, in the order starred.
/// Teams are starred and unstarred from the teams tab
/// (``MatchScores/Action/favoriteButtonTapped(_:)``); this tab can remove them too.
public struct Favorites: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var teams: IdentifiedArrayOf<Team>

    public init(teams: IdentifiedArrayOf<Team> = []) { self.teams = teams }

    enum CodingKeys: String, CodingKey { case teams }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      teams = try container.decodeIfPresent(IdentifiedArrayOf<Team>.self, forKey: .teams) ?? []
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// Unstars the team with this id (an id not there is ignored).
    case removeButtonTapped(Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .removeButtonTapped(id):
      state.teams.remove(id: id)
      return .none
    }
  }
}
