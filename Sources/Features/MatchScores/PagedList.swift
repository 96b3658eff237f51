import StoreKernel

/// Where a list's data stands.
public enum DataLoadingStatus: String, Equatable, Codable, Sendable {
  case notStarted
  case loading
  case loaded
  case error
}

/// A list of the match-scores app (teams, players, games): pages fetched from the host, the next
/// page when the last row appears, pull-to-refresh, and a search over what is loaded.
///
///     {"teamList":"onAppear"}                 → matchScores.fetchTeams {"page":1}
///     {"teamList":{"rowAppeared":30}}         → the last row: {"page":2}, if there is one
///     {"teamList":"refresh"}                  → {"page":1} again; the answer replaces the list
///     {"teamList":{"searchQueryChanged":"bos"}}   → 300 ms later, searchResults filtered
///
/// Searching, as the seed's search: `searchQuery` is the search field; 300 ms after the last
/// change (on the store's clock) it becomes `appliedSearchQuery`, which `searchResults` filters
/// by. Clearing the field cancels that pending work and shows the whole list at once.
public struct PagedList<Item: ListItem>: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var dataLoadingStatus: DataLoadingStatus
    /// Every item loaded, in the order the pages gave them.
    public var items: IdentifiedArrayOf<Item>
    /// The last page loaded (0: none yet).
    public var page: Int
    /// How many pages there are, from the last answer's `meta` (nil: none yet).
    public var totalPages: Int?
    /// The search field.
    public var searchQuery: String
    /// The query `searchResults` filters by: `searchQuery` once it has rested for 300 ms.
    public var appliedSearchQuery: String
    /// Why the last fetch failed, as the host said; nil after a success.
    public var errorMessage: String?

    public init(
      dataLoadingStatus: DataLoadingStatus = .notStarted, items: IdentifiedArrayOf<Item> = [],
      page: Int = 0, totalPages: Int? = nil, searchQuery: String = "",
      appliedSearchQuery: String = "", errorMessage: String? = nil
    ) {
      self.dataLoadingStatus = dataLoadingStatus
      self.items = items
      self.page = page
      self.totalPages = totalPages
      self.searchQuery = searchQuery
      self.appliedSearchQuery = appliedSearchQuery
      self.errorMessage = errorMessage
    }

    // Derived values: encoded with the state for the host to draw, ignored when decoding.

    /// What the list shows: every item, or those matching ``appliedSearchQuery`` in the seed's
    /// search order.
    public var searchResults: [Item] {
      appliedSearchQuery.isEmpty ? items.elements : Item.search(items, for: appliedSearchQuery)
    }

    public var isLoading: Bool { dataLoadingStatus == .loading }

    public var shouldShowError: Bool { dataLoadingStatus == .error }

    /// Whether a page after ``page`` is there to load.
    public var hasMorePages: Bool { totalPages.map { page < $0 } ?? false }

    enum CodingKeys: String, CodingKey {
      case dataLoadingStatus, items, page, totalPages, searchQuery, appliedSearchQuery
      case errorMessage, searchResults, isLoading, shouldShowError, hasMorePages
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      dataLoadingStatus =
        try container.decodeIfPresent(DataLoadingStatus.self, forKey: .dataLoadingStatus)
        ?? .notStarted
      items = try container.decodeIfPresent(IdentifiedArrayOf<Item>.self, forKey: .items) ?? []
      page = try container.decodeIfPresent(Int.self, forKey: .page) ?? 0
      totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages)
      searchQuery = try container.decodeIfPresent(String.self, forKey: .searchQuery) ?? ""
      appliedSearchQuery =
        try container.decodeIfPresent(String.self, forKey: .appliedSearchQuery) ?? ""
      errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(dataLoadingStatus, forKey: .dataLoadingStatus)
      try container.encode(items, forKey: .items)
      try container.encode(page, forKey: .page)
      try container.encode(totalPages, forKey: .totalPages)
      try container.encode(searchQuery, forKey: .searchQuery)
      try container.encode(appliedSearchQuery, forKey: .appliedSearchQuery)
      try container.encode(errorMessage, forKey: .errorMessage)
      try container.encode(searchResults, forKey: .searchResults)
      try container.encode(isLoading, forKey: .isLoading)
      try container.encode(shouldShowError, forKey: .shouldShowError)
      try container.encode(hasMorePages, forKey: .hasMorePages)
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// The list appeared: loads the first page if nothing was loaded yet.
    case onAppear
    /// Pull-to-refresh: loads the first page again (cancelling a page under way); its answer
    /// replaces the list.
    case refresh
    /// The row of this item appeared: if it is the last row and there are more pages, loads the
    /// next one.
    case rowAppeared(Int)
    /// The search field changed.
    case searchQueryChanged(String)
    /// The search field rested for 300 ms: the search applies.
    case searchQueryDebounced
    /// The host's answer to the fetch of `page`.
    case pageLoaded(page: Int, response: PageResponse<Item>)
    /// The host failed the fetch of `page`.
    case pageFailed(page: Int, message: String)
  }

  /// How long the search field must rest before the search applies.
  public static var searchDebounce: Duration { .milliseconds(300) }

  /// Cancellation ids of this list (one per item type, so the lists never cancel each other).
  struct CancelID: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case fetch, search }
    let kind: Kind
    let list = ObjectIdentifier(Item.self)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      guard state.dataLoadingStatus == .notStarted else { return .none }
      return load(page: 1, into: &state)

    case .refresh:
      return load(page: 1, into: &state)

    case let .rowAppeared(id):
      guard id == state.items.last?.id, state.dataLoadingStatus != .loading, state.hasMorePages
      else { return .none }
      // NB: page < totalPages here, so page + 1 cannot overflow.
      return load(page: state.page + 1, into: &state)

    case let .searchQueryChanged(query):
      state.searchQuery = query
      guard !query.isEmpty else {
        state.appliedSearchQuery = ""
        return .cancel(id: CancelID(kind: .search))
      }
      return .send(.searchQueryDebounced)
        .debounce(id: CancelID(kind: .search), for: Self.searchDebounce)

    case .searchQueryDebounced:
      state.appliedSearchQuery = state.searchQuery
      return .none

    case let .pageLoaded(page, response):
      if page <= 1 {
        state.items = IdentifiedArray(uniqueElements: response.data)
      } else {
        state.items.append(contentsOf: response.data)
      }
      state.page = page
      // NB: the seed's API gives total_pages; next_page alone (null on the last page) will do.
      state.totalPages =
        response.meta.totalPages ?? response.meta.nextPage.map { max($0, page) } ?? page
      state.dataLoadingStatus = .loaded
      state.errorMessage = nil
      return .none

    case let .pageFailed(_, message):
      state.dataLoadingStatus = .error
      state.errorMessage = "Could not load \(Item.pluralName): \(message)"
      return .none
    }
  }

  private func load(page: Int, into state: inout State) -> Effect<Action> {
    state.dataLoadingStatus = .loading
    state.errorMessage = nil
    return .request(
      Item.fetchRequest, payload: PageRequest(page: page), as: PageResponse<Item>.self
    ) {
      .pageLoaded(page: page, response: $0)
    } failure: {
      .pageFailed(page: page, message: $0.message)
    }
    .cancellable(id: CancelID(kind: .fetch), cancelInFlight: true)
  }
}
