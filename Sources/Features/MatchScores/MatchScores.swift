import StoreKernel

/// The match-scores app of matchscores-tca-readme.md: a root feature with tabs (teams, games,
/// players, favorites), each tab a child feature scoped from the root. The lists' data comes from
/// the host: `matchScores.fetchTeams`, `matchScores.fetchGames` and `matchScores.fetchPlayers`,
/// each with the page wanted (`{"page":1}`) and answered with the NBA API's JSON (`data` and
/// `meta`); see ``PagedList``. Tapping a team pushes its detail (``TeamDetail``) on the
/// navigation stack `path`, a ``StackState``.
///
///     {"tabSelected":"players"}
///     {"teamList":"onAppear"}  → matchScores.fetchTeams {"page":1}  → host answers the page
///     {"favoriteButtonTapped":2}   → the Celtics are starred (again: unstarred)
///     {"teamTapped":2}   → path: the Celtics' detail (id 0); matchScores.fetchTeamGames
///     {"path":{"popFrom":{"id":0}}}   → popped; its fetch is cancelled
public struct MatchScores: Reducer, Sendable {
  public enum Tab: String, Equatable, Codable, Sendable, CaseIterable {
    case teams
    case games
    case players
    case favorites
  }

  public struct State: Equatable, Codable, Sendable {
    public var selectedTab: Tab
    public var teamList: PagedList<Team>.State
    public var gameList: PagedList<Game>.State
    public var playerList: PagedList<Player>.State
    public var favorites: Favorites.State
    /// The screens pushed over the tabs, bottom first.
    public var path: StackState<Path.State>

    public init(
      selectedTab: Tab = .teams, teamList: PagedList<Team>.State = .init(),
      gameList: PagedList<Game>.State = .init(), playerList: PagedList<Player>.State = .init(),
      favorites: Favorites.State = .init(), path: StackState<Path.State> = .init()
    ) {
      self.selectedTab = selectedTab
      self.teamList = teamList
      self.gameList = gameList
      self.playerList = playerList
      self.favorites = favorites
      self.path = path
    }

    enum CodingKeys: String, CodingKey {
      case selectedTab, teamList, gameList, playerList, favorites, path
    }

    // NB: a host's snapshot may name only some tabs; the rest start afresh.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      selectedTab = try container.decodeIfPresent(Tab.self, forKey: .selectedTab) ?? .teams
      teamList =
        try container.decodeIfPresent(PagedList<Team>.State.self, forKey: .teamList) ?? .init()
      gameList =
        try container.decodeIfPresent(PagedList<Game>.State.self, forKey: .gameList) ?? .init()
      playerList =
        try container.decodeIfPresent(PagedList<Player>.State.self, forKey: .playerList)
        ?? .init()
      favorites = try container.decodeIfPresent(Favorites.State.self, forKey: .favorites) ?? .init()
      path = try container.decodeIfPresent(StackState<Path.State>.self, forKey: .path) ?? .init()
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    case tabSelected(Tab)
    /// The star of the team with this id: stars a loaded team, or unstars a starred one.
    case favoriteButtonTapped(Int)
    case teamList(PagedList<Team>.Action)
    case gameList(PagedList<Game>.Action)
    case playerList(PagedList<Player>.Action)
    case favorites(Favorites.Action)
    /// The team with this id was tapped (in the teams or favorites tab): pushes its detail and
    /// fetches its games. An id neither loaded nor starred does nothing.
    case teamTapped(Int)
    /// The navigation stack: the screens' actions, and the host's pushes and pops.
    case path(StackAction<Path.State, Path.Action>)
  }

  public init() {}

  // NB: case paths spelled out: the lists' actions go through them on every keystroke and page.
  public var body: some Reducer<State, Action> {
    Scope(
      state: \.teamList,
      action: AnyCasePath<Action, PagedList<Team>.Action>(
        embed: Action.teamList,
        extract: { if case let .teamList(action) = $0 { action } else { nil } })
    ) {
      PagedList<Team>()
    }
    Scope(
      state: \.gameList,
      action: AnyCasePath<Action, PagedList<Game>.Action>(
        embed: Action.gameList,
        extract: { if case let .gameList(action) = $0 { action } else { nil } })
    ) {
      PagedList<Game>()
    }
    Scope(
      state: \.playerList,
      action: AnyCasePath<Action, PagedList<Player>.Action>(
        embed: Action.playerList,
        extract: { if case let .playerList(action) = $0 { action } else { nil } })
    ) {
      PagedList<Player>()
    }
    Scope(
      state: \.favorites,
      action: AnyCasePath<Action, Favorites.Action>(
        embed: Action.favorites,
        extract: { if case let .favorites(action) = $0 { action } else { nil } })
    ) {
      Favorites()
    }
    Reduce { state, action in
      switch action {
      case let .tabSelected(tab):
        state.selectedTab = tab
        return .none

      case let .favoriteButtonTapped(id):
        let team = state.teamList.items[id: id]
        guard team != nil || state.favorites.teams[id: id] != nil else { return .none }
        state.favorites.$teams.withLock { teams in
          if teams.remove(id: id) == nil, let team { teams.append(team) }
        }
        return .none

      case let .teamTapped(id):
        guard let team = state.teamList.items[id: id] ?? state.favorites.teams[id: id] else {
          return .none
        }
        state.path.append(.teamDetail(TeamDetail.State(team: team)))
        guard let pushed = state.path.ids.last else { return .none }
        return .send(.path(.element(id: pushed, action: .teamDetail(.onAppear))))

      case .teamList, .gameList, .playerList, .favorites, .path:
        return .none
      }
    }
    .forEach(
      \.path,
      action: AnyCasePath<Action, StackAction<Path.State, Path.Action>>(
        embed: Action.path,
        extract: { if case let .path(action) = $0 { action } else { nil } })
    ) {
      Path()
    }
  }
}
