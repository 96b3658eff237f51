import StoreKernel

// The data of the match-scores app, in the JSON shapes of the public NBA API the seed calls
// (balldontlie v1): snake_case members, a `data` array and a `meta` object with paging. The host
// answers `matchScores.fetch…` requests with these documents as the API returns them, and the
// items keep that shape in the state. Members the API may leave out or null are optional or
// default to "" / 0, so a host's answer is not refused for a missing detail; a member of the wrong
// type is.

/// The paging of a list answer: `{"total_pages":2,"current_page":1,"next_page":2,…}`. Every
/// member is optional; `next_page` is null on the last page.
public struct Meta: Equatable, Codable, Sendable {
  public var totalPages: Int?
  public var currentPage: Int?
  public var nextPage: Int?
  public var perPage: Int?
  public var totalCount: Int?

  public init(
    totalPages: Int? = nil, currentPage: Int? = nil, nextPage: Int? = nil, perPage: Int? = nil,
    totalCount: Int? = nil
  ) {
    self.totalPages = totalPages
    self.currentPage = currentPage
    self.nextPage = nextPage
    self.perPage = perPage
    self.totalCount = totalCount
  }

  enum CodingKeys: String, CodingKey {
    case totalPages = "total_pages"
    case currentPage = "current_page"
    case nextPage = "next_page"
    case perPage = "per_page"
    case totalCount = "total_count"
  }
}

/// A page of a list: `{"data":[…],"meta":{…}}` (a missing `meta` is an empty one).
public struct PageResponse<Item: Codable & Equatable & Sendable>: Equatable, Codable, Sendable {
  public var data: [Item]
  public var meta: Meta

  public init(data: [Item], meta: Meta = Meta()) {
    self.data = data
    self.meta = meta
  }

  enum CodingKeys: String, CodingKey { case data, meta }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    data = try container.decode([Item].self, forKey: .data)
    meta = try container.decodeIfPresent(Meta.self, forKey: .meta) ?? Meta()
  }
}

/// The payload of every `matchScores.fetch…` request: the page wanted, from 1: `{"page":2}`.
public struct PageRequest: Equatable, Codable, Sendable {
  public var page: Int
  public init(page: Int) { self.page = page }
}

/// An NBA team: `{"id":2,"abbreviation":"BOS","city":"Boston","conference":"East",
/// "division":"Atlantic","full_name":"Boston Celtics","name":"Celtics"}`.
public struct Team: Equatable, Codable, Sendable, Identifiable {
  public var id: Int
  public var abbreviation: String
  public var city: String
  public var conference: String
  public var division: String
  public var fullName: String
  public var name: String

  public init(
    id: Int, abbreviation: String = "", city: String = "", conference: String = "",
    division: String = "", fullName: String, name: String = ""
  ) {
    self.id = id
    self.abbreviation = abbreviation
    self.city = city
    self.conference = conference
    self.division = division
    self.fullName = fullName
    self.name = name
  }

  enum CodingKeys: String, CodingKey {
    case id, abbreviation, city, conference, division
    case fullName = "full_name"
    case name
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    abbreviation = try container.decodeIfPresent(String.self, forKey: .abbreviation) ?? ""
    city = try container.decodeIfPresent(String.self, forKey: .city) ?? ""
    conference = try container.decodeIfPresent(String.self, forKey: .conference) ?? ""
    division = try container.decodeIfPresent(String.self, forKey: .division) ?? ""
    fullName = try container.decodeIfPresent(String.self, forKey: .fullName) ?? ""
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
  }
}

/// An NBA player: `{"id":237,"first_name":"LeBron","last_name":"James","position":"F",
/// "height_feet":6,"height_inches":8,"weight_pounds":250,"team":{…}}` (heights, weight and team
/// may be null).
public struct Player: Equatable, Codable, Sendable, Identifiable {
  public var id: Int
  public var firstName: String
  public var lastName: String
  public var position: String
  public var heightFeet: Int?
  public var heightInches: Int?
  public var weightPounds: Int?
  public var team: Team?

  public init(
    id: Int, firstName: String, lastName: String, position: String = "",
    heightFeet: Int? = nil, heightInches: Int? = nil, weightPounds: Int? = nil, team: Team? = nil
  ) {
    self.id = id
    self.firstName = firstName
    self.lastName = lastName
    self.position = position
    self.heightFeet = heightFeet
    self.heightInches = heightInches
    self.weightPounds = weightPounds
    self.team = team
  }

  /// "First Last": what the players list searches.
  public var fullName: String { firstName + " " + lastName }

  enum CodingKeys: String, CodingKey {
    case id
    case firstName = "first_name"
    case lastName = "last_name"
    case position
    case heightFeet = "height_feet"
    case heightInches = "height_inches"
    case weightPounds = "weight_pounds"
    case team
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    firstName = try container.decodeIfPresent(String.self, forKey: .firstName) ?? ""
    lastName = try container.decodeIfPresent(String.self, forKey: .lastName) ?? ""
    position = try container.decodeIfPresent(String.self, forKey: .position) ?? ""
    heightFeet = try container.decodeIfPresent(Int.self, forKey: .heightFeet)
    heightInches = try container.decodeIfPresent(Int.self, forKey: .heightInches)
    weightPounds = try container.decodeIfPresent(Int.self, forKey: .weightPounds)
    team = try container.decodeIfPresent(Team.self, forKey: .team)
  }

  // NB: nulls written out, as the API writes them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(firstName, forKey: .firstName)
    try container.encode(lastName, forKey: .lastName)
    try container.encode(position, forKey: .position)
    try container.encode(heightFeet, forKey: .heightFeet)
    try container.encode(heightInches, forKey: .heightInches)
    try container.encode(weightPounds, forKey: .weightPounds)
    try container.encode(team, forKey: .team)
  }
}

/// An NBA game: `{"id":1,"date":"2018-10-16T00:00:00.000Z","home_team":{…},
/// "home_team_score":105,"period":4,"postseason":false,"season":2018,"status":"Final",
/// "time":" ","visitor_team":{…},"visitor_team_score":87}`.
public struct Game: Equatable, Codable, Sendable, Identifiable {
  public var id: Int
  public var date: String
  public var homeTeam: Team
  public var homeTeamScore: Int
  public var period: Int
  public var postseason: Bool
  public var season: Int
  public var status: String
  public var time: String?
  public var visitorTeam: Team
  public var visitorTeamScore: Int

  public init(
    id: Int, date: String, homeTeam: Team, homeTeamScore: Int, period: Int = 0,
    postseason: Bool = false, season: Int = 0, status: String = "", time: String? = nil,
    visitorTeam: Team, visitorTeamScore: Int
  ) {
    self.id = id
    self.date = date
    self.homeTeam = homeTeam
    self.homeTeamScore = homeTeamScore
    self.period = period
    self.postseason = postseason
    self.season = season
    self.status = status
    self.time = time
    self.visitorTeam = visitorTeam
    self.visitorTeamScore = visitorTeamScore
  }

  enum CodingKeys: String, CodingKey {
    case id, date
    case homeTeam = "home_team"
    case homeTeamScore = "home_team_score"
    case period, postseason, season, status, time
    case visitorTeam = "visitor_team"
    case visitorTeamScore = "visitor_team_score"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    date = try container.decodeIfPresent(String.self, forKey: .date) ?? ""
    homeTeam = try container.decode(Team.self, forKey: .homeTeam)
    homeTeamScore = try container.decodeIfPresent(Int.self, forKey: .homeTeamScore) ?? 0
    period = try container.decodeIfPresent(Int.self, forKey: .period) ?? 0
    postseason = try container.decodeIfPresent(Bool.self, forKey: .postseason) ?? false
    season = try container.decodeIfPresent(Int.self, forKey: .season) ?? 0
    status = try container.decodeIfPresent(String.self, forKey: .status) ?? ""
    time = try container.decodeIfPresent(String.self, forKey: .time)
    visitorTeam = try container.decode(Team.self, forKey: .visitorTeam)
    visitorTeamScore = try container.decodeIfPresent(Int.self, forKey: .visitorTeamScore) ?? 0
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(date, forKey: .date)
    try container.encode(homeTeam, forKey: .homeTeam)
    try container.encode(homeTeamScore, forKey: .homeTeamScore)
    try container.encode(period, forKey: .period)
    try container.encode(postseason, forKey: .postseason)
    try container.encode(season, forKey: .season)
    try container.encode(status, forKey: .status)
    try container.encode(time, forKey: .time)
    try container.encode(visitorTeam, forKey: .visitorTeam)
    try container.encode(visitorTeamScore, forKey: .visitorTeamScore)
  }
}

/// An item of a ``PagedList``: how to fetch a page of them and how the list searches them.
public protocol ListItem: Equatable, Codable, Sendable, Identifiable where ID == Int {
  /// The host request that fetches a page (payload ``PageRequest``, answer ``PageResponse``).
  static var fetchRequest: String { get }
  /// What the items are called in an error message: "teams".
  static var pluralName: String { get }
  /// The items that match `query` (not empty), in the order the list shows them.
  static func search(_ items: IdentifiedArrayOf<Self>, for query: String) -> [Self]
}

extension ListItem {
  /// The seed's team search: the items whose `name` contains the query, ignoring case, sorted
  /// by that name, lower-cased, in descending order (`>`, as the seed sorts); ties by id.
  static func searchByName(
    _ items: IdentifiedArrayOf<Self>, for query: String, name: (Self) -> String
  ) -> [Self] {
    let query = query.lowercased()
    return items.elements
      .map { (key: name($0).lowercased(), item: $0) }
      .filter { $0.key.contains(query) }
      .sorted { $0.key != $1.key ? $0.key > $1.key : $0.item.id < $1.item.id }
      .map(\.item)
  }
}

extension Team: ListItem {
  public static let fetchRequest = "matchScores.fetchTeams"
  public static let pluralName = "teams"
  public static func search(_ items: IdentifiedArrayOf<Team>, for query: String) -> [Team] {
    searchByName(items, for: query, name: \.fullName)
  }
}

extension Player: ListItem {
  public static let fetchRequest = "matchScores.fetchPlayers"
  public static let pluralName = "players"
  public static func search(_ items: IdentifiedArrayOf<Player>, for query: String) -> [Player] {
    searchByName(items, for: query, name: \.fullName)
  }
}

extension Game: ListItem {
  public static let fetchRequest = "matchScores.fetchGames"
  public static let pluralName = "games"
  /// The seed's game search: either team's full name or the date contains the query, ignoring
  /// case; the list's order is kept.
  public static func search(_ items: IdentifiedArrayOf<Game>, for query: String) -> [Game] {
    let query = query.lowercased()
    return items.elements.filter {
      $0.homeTeam.fullName.lowercased().contains(query)
        || $0.visitorTeam.fullName.lowercased().contains(query)
        || $0.date.lowercased().contains(query)
    }
  }
}
