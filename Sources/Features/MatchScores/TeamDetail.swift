import StoreKernel

/// The team detail screen of the match-scores app, pushed on the root's navigation stack when a
/// team is tapped: the team, and its games, fetched from the host with a request of the
/// screen's own, `matchScores.fetchTeamGames` (`{"team_id":2,"page":1}`, answered with a page
/// of games as `matchScores.fetchGames` is). Popping the screen cancels a fetch under way (the
/// host is told).
///
///     {"path":{"element":{"id":0,"action":{"teamDetail":"onAppear"}}}}
///        → matchScores.fetchTeamGames {"team_id":2,"page":1}
///     {"path":{"element":{"id":0,"action":{"teamDetail":"closeButtonTapped"}}}}
///        → the screen pops itself (dismiss dependency)
public struct TeamDetail: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var team: Team
    public var dataLoadingStatus: DataLoadingStatus
    /// The team's games, from the first page of the host's answer.
    public var games: IdentifiedArrayOf<Game>
    /// Why the last fetch failed, as the host said; nil after a success.
    public var errorMessage: String?

    public init(
      team: Team, dataLoadingStatus: DataLoadingStatus = .notStarted,
      games: IdentifiedArrayOf<Game> = [], errorMessage: String? = nil
    ) {
      self.team = team
      self.dataLoadingStatus = dataLoadingStatus
      self.games = games
      self.errorMessage = errorMessage
    }

    /// Derived: encoded with the state, ignored when decoding.
    public var isLoading: Bool { dataLoadingStatus == .loading }

    enum CodingKeys: String, CodingKey {
      case team, dataLoadingStatus, games, errorMessage, isLoading
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      team = try container.decode(Team.self, forKey: .team)
      dataLoadingStatus =
        try container.decodeIfPresent(DataLoadingStatus.self, forKey: .dataLoadingStatus)
        ?? .notStarted
      games = try container.decodeIfPresent(IdentifiedArrayOf<Game>.self, forKey: .games) ?? []
      errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(team, forKey: .team)
      try container.encode(dataLoadingStatus, forKey: .dataLoadingStatus)
      try container.encode(games, forKey: .games)
      try container.encode(errorMessage, forKey: .errorMessage)
      try container.encode(isLoading, forKey: .isLoading)
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// The screen appeared (the root sends it when it pushes the screen): fetches the team's
    /// games if nothing was loaded yet.
    case onAppear
    /// Fetches the games again, cancelling a fetch under way.
    case refresh
    /// The screen's close button: the screen pops itself.
    case closeButtonTapped
    /// The host's answer to the fetch.
    case gamesLoaded(PageResponse<Game>)
    /// The host failed the fetch.
    case gamesFailed(String)
  }

  /// The host request that fetches a team's games (one-shot).
  public static let fetchGamesRequest = "matchScores.fetchTeamGames"

  /// The payload of ``fetchGamesRequest``: `{"team_id":2,"page":1}`.
  public struct GamesRequest: Equatable, Codable, Sendable {
    public var teamId: Int
    public var page: Int

    public init(teamId: Int, page: Int = 1) {
      self.teamId = teamId
      self.page = page
    }

    enum CodingKeys: String, CodingKey {
      case teamId = "team_id"
      case page
    }
  }

  enum CancelID { case fetch }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      guard state.dataLoadingStatus == .notStarted else { return .none }
      return fetch(&state)

    case .refresh:
      return fetch(&state)

    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }

    case let .gamesLoaded(response):
      state.games = IdentifiedArray(uniqueElements: response.data)
      state.dataLoadingStatus = .loaded
      state.errorMessage = nil
      return .none

    case let .gamesFailed(message):
      state.dataLoadingStatus = .error
      state.errorMessage = "Could not load the games of \(state.team.fullName): \(message)"
      return .none
    }
  }

  private func fetch(_ state: inout State) -> Effect<Action> {
    state.dataLoadingStatus = .loading
    state.errorMessage = nil
    return .request(
      Self.fetchGamesRequest, payload: GamesRequest(teamId: state.team.id),
      as: PageResponse<Game>.self
    ) {
      .gamesLoaded($0)
    } failure: {
      .gamesFailed($0.message)
    }
    .cancellable(id: CancelID.fetch, cancelInFlight: true)
  }
}
