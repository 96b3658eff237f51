import StoreKernel

/// The favorites tab of the match-scores app: the teams the user starred, in the order starred.
/// Teams are starred and unstarred from the teams tab
/// (``MatchScores/Action/favoriteButtonTapped(_:)``); this tab can remove them too.
public struct Favorites: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    /// Shared by every match-scores store of the process (key `matchscores.favorites`): a team
    /// starred in one window is starred in the others. Change it with `$teams.withLock { … }`.
    @Shared(Favorites.teamsKey) public var teams: IdentifiedArrayOf<Team> = []

    public init(teams: IdentifiedArrayOf<Team> = []) {
      _teams = Shared(value: teams, Favorites.teamsKey)
    }

    enum CodingKeys: String, CodingKey { case teams }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      _teams = Shared(
        value: try container.decodeIfPresent(IdentifiedArrayOf<Team>.self, forKey: .teams) ?? [],
        Favorites.teamsKey)
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// Unstars the team with this id (an id not there is ignored).
    case removeButtonTapped(Int)
  }

  /// Where the favorites live: in memory, shared by the process's match-scores stores.
  public static let teamsKey = SharedKey.inMemory("matchscores.favorites")

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .removeButtonTapped(id):
      state.$teams.withLock { _ = $0.remove(id: id) }
      return .none
    }
  }
}
