import Features
import StoreKernel
import StoreKernelTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Data

private let hawks = Team(id: 1, abbreviation: "ATL", city: "Atlanta", fullName: "Atlanta Hawks")
private let celtics = Team(id: 2, abbreviation: "BOS", city: "Boston", fullName: "Boston Celtics")
private let nets = Team(id: 3, abbreviation: "BKN", city: "Brooklyn", fullName: "Brooklyn Nets")
private let bulls = Team(id: 5, abbreviation: "CHI", city: "Chicago", fullName: "Chicago Bulls")
private let bucks = Team(
  id: 17, abbreviation: "MIL", city: "Milwaukee", fullName: "Milwaukee Bucks")

private let page1 = PageResponse(
  data: [hawks, celtics, nets],
  meta: Meta(totalPages: 2, currentPage: 1, nextPage: 2, perPage: 3, totalCount: 5))
private let page2 = PageResponse(
  data: [bulls, bucks],
  meta: Meta(totalPages: 2, currentPage: 2, nextPage: nil, perPage: 3, totalCount: 5))

private typealias TeamList = PagedList<Team>

private func teamListStore(
  _ state: TeamList.State = .init()
) -> TestStore<TeamList.State, TeamList.Action> {
  TestStore(initialState: state, reducer: TeamList(), reporter: .swiftTesting)
}

private func loaded(_ teams: [Team], page: Int = 1, totalPages: Int? = 2) -> TeamList.State {
  TeamList.State(
    dataLoadingStatus: .loaded, items: IdentifiedArray(uniqueElements: teams), page: page,
    totalPages: totalPages)
}

// MARK: - Loading and paging

@Test func onAppearFetchesTheFirstPageFromTheHost() throws {
  let store = teamListStore()
  store.send(.onAppear) { $0.dataLoadingStatus = .loading }
  let request = try #require(store.request("matchScores.fetchTeams"))
  #expect(try request.payload(as: PageRequest.self) == PageRequest(page: 1))
  store.respond(to: "matchScores.fetchTeams", with: page1)
  store.receive(.pageLoaded(page: 1, response: page1)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics, nets]
    $0.page = 1
    $0.totalPages = 2
  }
  #expect(store.state.searchResults == [hawks, celtics, nets])
  #expect(store.state.hasMorePages)
  #expect(!store.state.isLoading)
  // Appearing again loads nothing.
  store.send(.onAppear)
  store.finish()
}

@Test func theLastRowAppearingLoadsTheNextPageUntilTheLastPage() {
  let store = teamListStore(loaded([hawks, celtics, nets]))
  // Rows other than the last, and ids not in the list, load nothing.
  store.send(.rowAppeared(1))
  store.send(.rowAppeared(2))
  store.send(.rowAppeared(99))
  store.send(.rowAppeared(3)) { $0.dataLoadingStatus = .loading }
  #expect(
    store.request("matchScores.fetchTeams").map { try? $0.payload(as: PageRequest.self) }
      == PageRequest(page: 2))
  // While a page loads, the last row appearing again asks for nothing more.
  store.send(.rowAppeared(3))
  #expect(store.requests.count == 1)
  store.respond(to: "matchScores.fetchTeams", with: page2)
  store.receive(.pageLoaded(page: 2, response: page2)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics, nets, bulls, bucks]
    $0.page = 2
  }
  #expect(!store.state.hasMorePages)
  // The last page: the last row appearing loads nothing.
  store.send(.rowAppeared(17))
  #expect(store.requestLog.count == 1)
  store.finish()
}

@Test func aFailedFetchSetsTheErrorStatusAndRefreshRecovers() {
  let store = teamListStore()
  store.send(.onAppear) { $0.dataLoadingStatus = .loading }
  store.fail("matchScores.fetchTeams", message: "The Internet connection appears to be offline.")
  store.receive(.pageFailed(page: 1, message: "The Internet connection appears to be offline.")) {
    $0.dataLoadingStatus = .error
    $0.errorMessage = "Could not load teams: The Internet connection appears to be offline."
  }
  #expect(store.state.shouldShowError)
  // onAppear retries only a list that never started; pull-to-refresh retries.
  store.send(.onAppear)
  store.send(.refresh) {
    $0.dataLoadingStatus = .loading
    $0.errorMessage = nil
  }
  store.respond(to: "matchScores.fetchTeams", with: page1)
  store.receive(.pageLoaded(page: 1, response: page1)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics, nets]
    $0.page = 1
    $0.totalPages = 2
  }
  store.finish()
}

@Test func aFailedNextPageKeepsTheListAndTheLastRowRetries() {
  let store = teamListStore(loaded([hawks, celtics, nets]))
  store.send(.rowAppeared(3)) { $0.dataLoadingStatus = .loading }
  store.fail("matchScores.fetchTeams", message: "timeout")
  store.receive(.pageFailed(page: 2, message: "timeout")) {
    $0.dataLoadingStatus = .error
    $0.errorMessage = "Could not load teams: timeout"
  }
  store.send(.rowAppeared(3)) {
    $0.dataLoadingStatus = .loading
    $0.errorMessage = nil
  }
  store.respond(to: "matchScores.fetchTeams", with: page2)
  store.receive(.pageLoaded(page: 2, response: page2)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics, nets, bulls, bucks]
    $0.page = 2
  }
  store.finish()
}

@Test func pullToRefreshCancelsThePageInFlightAndReplacesTheList() throws {
  let store = teamListStore(loaded([hawks, celtics, nets]))
  store.send(.rowAppeared(3)) { $0.dataLoadingStatus = .loading }
  let nextPage = try #require(store.request("matchScores.fetchTeams"))
  store.send(.refresh)
  #expect(store.cancelledRequests == [nextPage.id])
  let refresh = try #require(store.request("matchScores.fetchTeams"))
  #expect(try refresh.payload(as: PageRequest.self) == PageRequest(page: 1))
  let fresh = PageResponse(data: [celtics], meta: Meta(totalPages: 1))
  store.respond(to: "matchScores.fetchTeams", with: fresh)
  store.receive(.pageLoaded(page: 1, response: fresh)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [celtics]
    $0.totalPages = 1
  }
  store.finish()
}

@Test func pagingFollowsNextPageWhenTotalPagesIsMissing() {
  let store = teamListStore()
  let first = PageResponse(data: [hawks], meta: Meta(nextPage: 2))
  let last = PageResponse(data: [celtics], meta: Meta(nextPage: nil))
  store.send(.pageLoaded(page: 1, response: first)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks]
    $0.page = 1
    $0.totalPages = 2
  }
  store.send(.rowAppeared(1)) { $0.dataLoadingStatus = .loading }
  store.respond(to: "matchScores.fetchTeams", with: last)
  store.receive(.pageLoaded(page: 2, response: last)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics]
    $0.page = 2
  }
  #expect(!store.state.hasMorePages)
  store.finish()
}

@Test func pageNumbersFromTheHostNeverTrap() {
  let store = teamListStore()
  let huge = PageResponse(data: [hawks, hawks], meta: Meta(totalPages: .max, nextPage: .min))
  store.send(.pageLoaded(page: .max, response: huge)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks]
    $0.page = .max
    $0.totalPages = .max
  }
  // page == totalPages == Int.max: no next page to ask for.
  store.send(.rowAppeared(1))
  store.send(.pageLoaded(page: .min, response: PageResponse(data: [celtics]))) {
    $0.items = [celtics]
    $0.page = .min
    $0.totalPages = .min
  }
  store.send(.pageFailed(page: .min, message: "")) {
    $0.dataLoadingStatus = .error
    $0.errorMessage = "Could not load teams: "
  }
  store.finish()
}

// MARK: - Search

@Test func searchAppliesAfterTheFieldRestsAndFiltersAndSortsAsTheSeed() {
  let store = teamListStore(loaded([hawks, celtics, nets, bulls, bucks]))
  store.send(.searchQueryChanged("b")) { $0.searchQuery = "b" }
  store.advance(by: .milliseconds(200))
  store.send(.searchQueryChanged("B")) { $0.searchQuery = "B" }
  store.advance(by: .milliseconds(299))
  store.advance(by: .milliseconds(1))
  store.receive(.searchQueryDebounced) { $0.appliedSearchQuery = "B" }
  // Case-insensitive on the full name, sorted by it in descending order (the seed's `>`).
  #expect(store.state.searchResults == [bucks, bulls, nets, celtics])
  store.send(.searchQueryChanged("BOS")) { $0.searchQuery = "BOS" }
  store.advance(by: .milliseconds(300))
  store.receive(.searchQueryDebounced) { $0.appliedSearchQuery = "BOS" }
  #expect(store.state.searchResults == [celtics])
  store.send(.searchQueryChanged("zz")) { $0.searchQuery = "zz" }
  store.advance(by: .milliseconds(300))
  store.receive(.searchQueryDebounced) { $0.appliedSearchQuery = "zz" }
  #expect(store.state.searchResults.isEmpty)
  store.finish()
}

@Test func clearingTheSearchCancelsTheSearchInFlightAndShowsEverythingAtOnce() {
  let store = teamListStore(
    TeamList.State(
      dataLoadingStatus: .loaded, items: [hawks, celtics], page: 1, totalPages: 1,
      searchQuery: "bo", appliedSearchQuery: "bo"))
  #expect(store.state.searchResults == [celtics])
  store.send(.searchQueryChanged("bos")) { $0.searchQuery = "bos" }
  store.advance(by: .milliseconds(100))
  store.send(.searchQueryChanged("")) {
    $0.searchQuery = ""
    $0.appliedSearchQuery = ""
  }
  #expect(store.state.searchResults == [hawks, celtics])
  store.advance(by: .seconds(1))
  store.finish()
}

@Test func aSearchCoversPagesLoadedWhileItIsApplied() {
  let store = teamListStore(
    TeamList.State(
      dataLoadingStatus: .loaded, items: [hawks, celtics, nets], page: 1, totalPages: 2,
      searchQuery: "bu", appliedSearchQuery: "bu"))
  #expect(store.state.searchResults.isEmpty)
  store.send(.rowAppeared(3)) { $0.dataLoadingStatus = .loading }
  store.respond(to: "matchScores.fetchTeams", with: page2)
  store.receive(.pageLoaded(page: 2, response: page2)) {
    $0.dataLoadingStatus = .loaded
    $0.items = [hawks, celtics, nets, bulls, bucks]
    $0.page = 2
  }
  #expect(store.state.searchResults == [bulls, bucks].sorted { $0.fullName > $1.fullName })
  store.finish()
}

@Test func playersAreSearchedByFullNameAndGamesByTeamOrDate() {
  let lebron = Player(id: 237, firstName: "LeBron", lastName: "James", team: hawks)
  let steph = Player(id: 115, firstName: "Stephen", lastName: "Curry")
  let jaylen = Player(id: 57, firstName: "Jaylen", lastName: "Brown")
  let players = PagedList<Player>.State(
    items: [lebron, steph, jaylen], appliedSearchQuery: "E")
  #expect(players.searchResults == [steph, lebron, jaylen])
  #expect(
    PagedList<Player>.State(items: [lebron, steph], appliedSearchQuery: "lebron j").searchResults
      == [lebron])

  let first = Game(
    id: 1, date: "2018-10-16", homeTeam: celtics, homeTeamScore: 105, visitorTeam: hawks,
    visitorTeamScore: 87)
  let second = Game(
    id: 2, date: "2019-02-09", homeTeam: bulls, homeTeamScore: 99, visitorTeam: celtics,
    visitorTeamScore: 101)
  let games = PagedList<Game>.State(items: [first, second], appliedSearchQuery: "celtics")
  #expect(games.searchResults == [first, second])
  #expect(
    PagedList<Game>.State(items: [first, second], appliedSearchQuery: "2019-02").searchResults
      == [second])
  #expect(
    PagedList<Game>.State(items: [first, second], appliedSearchQuery: "HAWKS").searchResults
      == [first])
}

// MARK: - The root: tabs, favorites, the lists side by side

private func matchScoresStore(
  _ state: MatchScores.State = .init()
) -> TestStore<MatchScores.State, MatchScores.Action> {
  TestStore(initialState: state, reducer: MatchScores(), reporter: .swiftTesting)
}

@Test func tabsAreSelected() {
  let store = matchScoresStore()
  for tab in [MatchScores.Tab.games, .players, .favorites, .teams] {
    store.send(.tabSelected(tab)) { $0.selectedTab = tab }
  }
  store.send(.tabSelected(.teams))
  store.finish()
}

@Test func eachTabsListFetchesWithItsOwnRequest() throws {
  let store = matchScoresStore()
  store.send(.teamList(.onAppear)) { $0.teamList.dataLoadingStatus = .loading }
  store.send(.gameList(.onAppear)) { $0.gameList.dataLoadingStatus = .loading }
  store.send(.playerList(.onAppear)) { $0.playerList.dataLoadingStatus = .loading }
  #expect(
    store.requests.map(\.name)
      == ["matchScores.fetchTeams", "matchScores.fetchGames", "matchScores.fetchPlayers"])
  for request in store.requests {
    #expect(try request.payload(as: PageRequest.self) == PageRequest(page: 1))
  }
  // Refreshing one list cancels nothing of the others.
  let teams = try #require(store.request("matchScores.fetchTeams"))
  store.send(.teamList(.refresh))
  #expect(store.cancelledRequests == [teams.id])
  let steph = Player(id: 115, firstName: "Stephen", lastName: "Curry")
  let players = PageResponse(data: [steph], meta: Meta(totalPages: 1))
  store.respond(to: "matchScores.fetchPlayers", with: players)
  store.receive(.playerList(.pageLoaded(page: 1, response: players))) {
    $0.playerList.dataLoadingStatus = .loaded
    $0.playerList.items = [steph]
    $0.playerList.page = 1
    $0.playerList.totalPages = 1
  }
  store.fail("matchScores.fetchGames", message: "HTTP 500")
  store.receive(.gameList(.pageFailed(page: 1, message: "HTTP 500"))) {
    $0.gameList.dataLoadingStatus = .error
    $0.gameList.errorMessage = "Could not load games: HTTP 500"
  }
  store.respond(to: "matchScores.fetchTeams", with: page1)
  store.receive(.teamList(.pageLoaded(page: 1, response: page1))) {
    $0.teamList.dataLoadingStatus = .loaded
    $0.teamList.items = [hawks, celtics, nets]
    $0.teamList.page = 1
    $0.teamList.totalPages = 2
  }
  // Searching one list leaves the others alone, and clearing it cancels only its own search.
  store.send(.teamList(.searchQueryChanged("nets"))) { $0.teamList.searchQuery = "nets" }
  store.send(.playerList(.searchQueryChanged("cu"))) { $0.playerList.searchQuery = "cu" }
  store.send(.teamList(.searchQueryChanged(""))) { $0.teamList.searchQuery = "" }
  store.advance(by: .milliseconds(300))
  store.receive(.playerList(.searchQueryDebounced)) { $0.playerList.appliedSearchQuery = "cu" }
  store.finish()
}

@Test func favoritesAreToggledOnTeamsAndRemovedFromTheirTab() {
  let store = matchScoresStore(MatchScores.State(teamList: loaded([hawks, celtics, nets])))
  store.send(.favoriteButtonTapped(2)) { $0.favorites.$teams.withLock { $0 = [celtics] } }
  store.send(.favoriteButtonTapped(1)) { $0.favorites.$teams.withLock { $0 = [celtics, hawks] } }
  store.send(.favoriteButtonTapped(2)) { $0.favorites.$teams.withLock { $0 = [hawks] } }
  // A team that is not loaded cannot be starred.
  store.send(.favoriteButtonTapped(99))
  store.send(.favorites(.removeButtonTapped(1))) { $0.favorites.$teams.withLock { $0 = [] } }
  store.send(.favorites(.removeButtonTapped(1)))
  // A starred team stays starred when the list reloads without it, and can still be unstarred.
  store.send(.favoriteButtonTapped(3)) { $0.favorites.$teams.withLock { $0 = [nets] } }
  store.send(.teamList(.pageLoaded(page: 1, response: PageResponse(data: [hawks])))) {
    $0.teamList.items = [hawks]
    $0.teamList.totalPages = 1
  }
  store.send(.favoriteButtonTapped(3)) { $0.favorites.$teams.withLock { $0 = [] } }
  store.finish()
}

// MARK: - As a host sees it

@Test func matchScoresActionsInTheHostsForms() throws {
  let forms: [(String, MatchScores.Action)] = [
    (#"{"tabSelected":"players"}"#, .tabSelected(.players)),
    (#"{"favoriteButtonTapped":2}"#, .favoriteButtonTapped(2)),
    (#"{"favorites":{"removeButtonTapped":2}}"#, .favorites(.removeButtonTapped(2))),
    (#"{"teamList":"onAppear"}"#, .teamList(.onAppear)),
    (#"{"gameList":"refresh"}"#, .gameList(.refresh)),
    (#"{"playerList":{"rowAppeared":246}}"#, .playerList(.rowAppeared(246))),
    (#"{"teamList":{"searchQueryChanged":"bos"}}"#, .teamList(.searchQueryChanged("bos"))),
    (#"{"teamList":"searchQueryDebounced"}"#, .teamList(.searchQueryDebounced)),
    (
      #"{"teamList":{"pageFailed":{"page":1,"message":"offline"}}}"#,
      .teamList(.pageFailed(page: 1, message: "offline"))
    ),
    (
      #"{"teamList":{"pageLoaded":{"page":1,"response":{"data":[{"id":2,"full_name":"Boston Celtics"}]}}}}"#,
      .teamList(
        .pageLoaded(
          page: 1, response: PageResponse(data: [Team(id: 2, fullName: "Boston Celtics")])))
    ),
  ]
  for (text, action) in forms {
    #expect(try decode(MatchScores.Action.self, text) == action, "\(text)")
    #expect(try decode(MatchScores.Action.self, json(action)) == action)
  }
  for bad in [
    #"{"tabSelected":"stats"}"#, #"{"teamList":"jump"}"#, #"{"favoriteButtonTapped":"2"}"#,
  ] {
    #expect(throws: (any Error).self, "\(bad)") { try decode(MatchScores.Action.self, bad) }
  }
}

@Test func listStateJSONCarriesDerivedValuesAndSnapshotsIgnoreThem() throws {
  let state = TeamList.State(
    dataLoadingStatus: .loaded, items: [hawks, celtics], page: 1, totalPages: 2,
    searchQuery: "bos", appliedSearchQuery: "bos")
  let teamJSON = { (team: Team) in
    #"{"id":\#(team.id),"abbreviation":"\#(team.abbreviation)","city":"\#(team.city)","#
      + #""conference":"","division":"","full_name":"\#(team.fullName)","name":""}"#
  }
  #expect(
    try json(state)
      == #"{"dataLoadingStatus":"loaded","items":[\#(teamJSON(hawks)),\#(teamJSON(celtics))],"#
      + #""page":1,"totalPages":2,"searchQuery":"bos","appliedSearchQuery":"bos","#
      + #""errorMessage":null,"searchResults":[\#(teamJSON(celtics))],"isLoading":false,"#
      + #""shouldShowError":false,"hasMorePages":true}"#)
  #expect(try decode(TeamList.State.self, json(state)) == state)
  #expect(
    try decode(TeamList.State.self, #"{"searchResults":9,"isLoading":true,"page":3}"#)
      == TeamList.State(page: 3))
  #expect(try decode(MatchScores.State.self, "{}") == MatchScores.State())
  #expect(
    try decode(MatchScores.State.self, #"{"selectedTab":"games","favorites":{}}"#)
      == MatchScores.State(selectedTab: .games))
  let root = MatchScores.State(teamList: state, favorites: Favorites.State(teams: [celtics]))
  #expect(try decode(MatchScores.State.self, json(root)) == root)
  #expect(throws: (any Error).self) {
    try decode(TeamList.State.self, #"{"dataLoadingStatus":"done"}"#)
  }
}

@Test func playersAndGamesKeepTheAPIsShapeInTheState() throws {
  let player = Player(id: 434, firstName: "Jayson", lastName: "Tatum", position: "F")
  #expect(
    try json(player)
      == #"{"id":434,"first_name":"Jayson","last_name":"Tatum","position":"F","#
      + #""height_feet":null,"height_inches":null,"weight_pounds":null,"team":null}"#)
  let game = Game(
    id: 1, date: "2018-10-16T00:00:00.000Z", homeTeam: hawks, homeTeamScore: 105, period: 4,
    season: 2018, status: "Final", time: " ", visitorTeam: celtics, visitorTeamScore: 87)
  #expect(try decode(Game.self, json(game)) == game)
  #expect(try decode(Player.self, json(player)) == player)
  #expect(throws: (any Error).self) { try decode(Game.self, #"{"id":1}"#) }
  #expect(throws: (any Error).self) { try decode(Team.self, #"{"full_name":"x"}"#) }
}

/// The fixture at Tests/fixtures/matchscores/`name`, as the C and Python tests read it.
private func fixture(_ name: String) throws -> String {
  var path = "\(#filePath)"
  for _ in 0..<2 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
  let file = try #require(fopen(path + "/fixtures/matchscores/" + name, "r"))
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

@Test func theFixturesDecodeAsTheAPIsPages() throws {
  let teams1 = try decode(PageResponse<Team>.self, fixture("teams_page1.json"))
  let teams2 = try decode(PageResponse<Team>.self, fixture("teams_page2.json"))
  #expect(teams1.data.count == 15 && teams2.data.count == 15)
  #expect(
    teams1.meta == Meta(totalPages: 2, currentPage: 1, nextPage: 2, perPage: 15, totalCount: 30))
  #expect(teams2.meta.nextPage == nil)
  let players = try decode(PageResponse<Player>.self, fixture("players_page1.json"))
  #expect(players.data.first?.team?.fullName == "Milwaukee Bucks")
  let games = try decode(PageResponse<Game>.self, fixture("games_page1.json"))
  #expect(games.data.count == 4)
}

@Test func aHostDrivesMatchScoresWithTheFixtures() throws {
  let host = try HostHarness("matchscores")
  try host.send(#"{"teamList":"onAppear"}"#)
  #expect(try host.get("/teamList/isLoading") == "true")
  var request = try host.lastRequest("matchScores.fetchTeams")
  #expect(request.payload == #"{"page":1}"#)
  try host.respond(request.id, fixture("teams_page1.json"))
  #expect(try host.get("/teamList/dataLoadingStatus") == #""loaded""#)
  #expect(try host.get("/teamList/items/14/full_name") == #""Memphis Grizzlies""#)
  try host.send(#"{"teamList":{"rowAppeared":15}}"#)
  request = try host.lastRequest("matchScores.fetchTeams")
  #expect(request.payload == #"{"page":2}"#)
  try host.respond(request.id, fixture("teams_page2.json"))
  #expect(try host.get("/teamList/hasMorePages") == "false")
  #expect(try host.get("/teamList/items/29/abbreviation") == #""WAS""#)
  try host.send(#"{"teamList":{"searchQueryChanged":"new"}}"#)
  try host.advance(milliseconds: 300)
  #expect(try host.get("/teamList/searchResults/0/full_name") == #""New York Knicks""#)
  #expect(try host.get("/teamList/searchResults/1/full_name") == #""New Orleans Pelicans""#)
  try host.send(#"{"favoriteButtonTapped":20}"#)
  #expect(try host.get("/favorites/teams/0/name") == #""Knicks""#)

  try host.send(#"{"tabSelected":"players"}"#)
  try host.send(#"{"playerList":"onAppear"}"#)
  try host.fail(try host.lastRequest("matchScores.fetchPlayers").id, "offline")
  #expect(try host.get("/playerList/shouldShowError") == "true")
  try host.send(#"{"playerList":"refresh"}"#)
  try host.respond(
    try host.lastRequest("matchScores.fetchPlayers").id, fixture("players_page1.json"))
  #expect(try host.get("/playerList/errorMessage") == "null")
  #expect(try host.get("/playerList/items/1/last_name") == #""Curry""#)

  try host.send(#"{"gameList":"onAppear"}"#)
  try host.respond(try host.lastRequest("matchScores.fetchGames").id, fixture("games_page1.json"))
  #expect(try host.get("/gameList/items/0/home_team/full_name") == #""Boston Celtics""#)
  #expect(try host.get("/gameList/hasMorePages") == "false")
}

// MARK: - The team detail, pushed on the stack

private let celticsGame = Game(
  id: 1, date: "2018-10-16", homeTeam: celtics, homeTeamScore: 105, visitorTeam: nets,
  visitorTeamScore: 87)

private func detail(_ team: Team, loading: Bool = true) -> MatchScores.Path.State {
  .teamDetail(TeamDetail.State(team: team, dataLoadingStatus: loading ? .loading : .notStarted))
}

@Test func tappingATeamPushesItsDetailWhichFetchesItsGames() throws {
  let store = matchScoresStore(MatchScores.State(teamList: loaded([hawks, celtics, nets])))
  store.send(.teamTapped(2)) { $0.path.append(.teamDetail(TeamDetail.State(team: celtics))) }
  store.receive(.path(.element(id: 0, action: .teamDetail(.onAppear)))) {
    $0.path[id: 0] = detail(celtics)
  }
  let request = try #require(store.request("matchScores.fetchTeamGames"))
  #expect(
    try request.payload(as: TeamDetail.GamesRequest.self)
      == TeamDetail.GamesRequest(teamId: 2, page: 1))
  let games = PageResponse(data: [celticsGame], meta: Meta(totalPages: 1))
  store.respond(to: "matchScores.fetchTeamGames", with: games)
  store.receive(.path(.element(id: 0, action: .teamDetail(.gamesLoaded(games))))) {
    $0.path[id: 0] = .teamDetail(
      TeamDetail.State(team: celtics, dataLoadingStatus: .loaded, games: [celticsGame]))
  }
  // A team neither loaded nor starred pushes nothing.
  store.send(.teamTapped(99))
  store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  store.finish()
}

@Test func poppingTheTeamDetailCancelsItsFetch() throws {
  let store = matchScoresStore(
    MatchScores.State(
      teamList: loaded([hawks, celtics]), favorites: Favorites.State(teams: [nets])))
  store.send(.teamTapped(1)) { $0.path.append(.teamDetail(TeamDetail.State(team: hawks))) }
  store.receive(.path(.element(id: 0, action: .teamDetail(.onAppear)))) {
    $0.path[id: 0] = detail(hawks)
  }
  // A starred team is found in the favorites tab.
  store.send(.teamTapped(3)) { $0.path.append(.teamDetail(TeamDetail.State(team: nets))) }
  store.receive(.path(.element(id: 1, action: .teamDetail(.onAppear)))) {
    $0.path[id: 1] = detail(nets)
  }
  let fetches = store.requests.filter { $0.name == "matchScores.fetchTeamGames" }.map(\.id)
  #expect(fetches.count == 2)
  store.send(.path(.popFrom(id: 1))) { _ = $0.path.popLast() }
  #expect(store.cancelledRequests == [fetches[1]])
  // The Hawks' screen closes itself: its fetch is cancelled too.
  store.send(.path(.element(id: 0, action: .teamDetail(.closeButtonTapped))))
  store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  #expect(store.cancelledRequests == [fetches[1], fetches[0]])
  // The next screen gets a new id.
  store.send(.teamTapped(2)) { $0.path.append(.teamDetail(TeamDetail.State(team: celtics))) }
  #expect(store.state.path.ids == [2])
  store.receive(.path(.element(id: 2, action: .teamDetail(.onAppear)))) {
    $0.path[id: 2] = detail(celtics)
  }
  store.fail("matchScores.fetchTeamGames", message: "offline")
  store.receive(.path(.element(id: 2, action: .teamDetail(.gamesFailed("offline"))))) {
    $0.path[id: 2] = .teamDetail(
      TeamDetail.State(
        team: celtics, dataLoadingStatus: .error,
        errorMessage: "Could not load the games of Boston Celtics: offline"))
  }
  store.finish()
}

@Test func aHostPushesAndPopsTheTeamDetail() throws {
  let host = try HostHarness("matchscores")
  #expect(try host.get("/path") == #"{"elements":[],"nextID":0}"#)
  try host.send(#"{"teamList":"onAppear"}"#)
  try host.respond(try host.lastRequest("matchScores.fetchTeams").id, fixture("teams_page1.json"))
  try host.send(#"{"teamTapped":2}"#)
  #expect(try host.get("/path/elements/0/id") == "0")
  #expect(try host.get("/path/elements/0/state/teamDetail/team/name") == #""Celtics""#)
  #expect(try host.get("/path/elements/0/state/teamDetail/isLoading") == "true")
  let request = try host.lastRequest("matchScores.fetchTeamGames")
  #expect(request.payload == #"{"team_id":2,"page":1}"#)
  try host.respond(request.id, fixture("games_page1.json"))
  #expect(try host.get("/path/elements/0/state/teamDetail/games/0/id") == "47179")
  // The host's own push, of an id never used, and its pop.
  let team = try host.get("/teamList/items/0")
  try host.send(#"{"path":{"push":{"id":5,"state":{"teamDetail":{"team":\#(team)}}}}}"#)
  #expect(try host.get("/path/nextID") == "6")
  try host.send(#"{"path":{"element":{"id":5,"action":{"teamDetail":"onAppear"}}}}"#)
  let second = try host.lastRequest("matchScores.fetchTeamGames")
  try host.send(#"{"path":{"popFrom":{"id":5}}}"#)
  #expect(host.cancelled == [second.id])
  try host.send(#"{"path":{"popFrom":{"id":0}}}"#)
  #expect(try host.get("/path") == #"{"elements":[],"nextID":6}"#)
}
