import StoreKernel

/// The Composable Architecture's Todos example: an identified list of todos the host adds to,
/// edits, checks off, deletes, moves and filters; completed todos sink to the bottom one second
/// after the last check box toggle.
///
///     "addTodoButtonTapped"
///     {"todos":{"element":{"id":"…","action":{"textFieldChanged":"Milk"}}}}
///     {"todos":{"element":{"id":"…","action":"checkBoxToggled"}}}   → 1 s later: sorted
///     {"filterPicked":"active"}
///
/// The state JSON carries `filteredTodos`, the ids of the todos the view shows under the current
/// filter, in list order; `delete` and `move` take offsets into that list, as a list view
/// reports them.
public struct Todos: Reducer, Sendable {
  /// Which todos the list shows.
  public enum Filter: String, Equatable, Codable, Sendable, CaseIterable {
    case all
    case active
    case completed

    /// Whether the list shows `todo` under this filter.
    public func shows(_ todo: Todo.State) -> Bool {
      switch self {
      case .all: return true
      case .active: return !todo.isComplete
      case .completed: return todo.isComplete
      }
    }
  }

  public struct State: Equatable, Codable, Sendable {
    public var filter: Filter
    public var todos: IdentifiedArrayOf<Todo.State>

    public init(filter: Filter = .all, todos: IdentifiedArrayOf<Todo.State> = []) {
      self.filter = filter
      self.todos = todos
    }

    /// The todos the view shows under ``filter``, in list order. Encoded with the state as their
    /// ids only (the todos themselves are in `todos`), ignored when a snapshot is decoded.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      filter == .all ? todos : todos.filter(filter.shows)
    }

    enum CodingKeys: String, CodingKey {
      case filter, todos, filteredTodos
    }

    // NB: a host's snapshot may name only some fields; the derived `filteredTodos` is ignored.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      filter = try container.decodeIfPresent(Filter.self, forKey: .filter) ?? .all
      todos =
        try container.decodeIfPresent(IdentifiedArrayOf<Todo.State>.self, forKey: .todos) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(filter, forKey: .filter)
      try container.encode(todos, forKey: .todos)
      try container.encode(todos.elements.filter(filter.shows).map(\.id), forKey: .filteredTodos)
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// Adds an empty todo at the top, its id from the store's uuid dependency.
    case addTodoButtonTapped
    /// Removes every completed todo.
    case clearCompletedButtonTapped
    /// Deletes the todos at these offsets of `filteredTodos` (offsets out of range are ignored).
    case delete([Int])
    /// Shows all, active or completed todos.
    case filterPicked(Filter)
    /// Moves the todos at offsets `from` of `filteredTodos` before offset `to` (as a list view's
    /// move: `to` may be the list's length); completed todos sink again 100 ms later.
    case move(from: [Int], to: Int)
    /// Sinks completed todos below active ones, keeping each group's order.
    case sortCompletedTodos
    /// An action of one todo: `{"element":{"id":"…","action":"checkBoxToggled"}}`.
    case todos(IdentifiedActionOf<Todo>)
  }

  enum CancelID { case todoCompletion }

  /// Sinks completed todos one second after the last check box toggle: each toggle restarts
  /// the second, so todos sink once the user stops toggling.
  ///
  /// NB: a debounce on the store's clock, not a `.run` that sleeps: a store timer, no Task to
  /// cancel and start again on every toggle, and the store restarts it in place. Made once: it
  /// holds nothing of the toggle, and making its boxes (and freeing them) on every toggle was
  /// a tenth of the toggle's cost.
  private static let sortAfterToggle: Effect<Action> =
    .send(.sortCompletedTodos).debounce(id: CancelID.todoCompletion, for: .seconds(1))

  @Dependency(\.clock) var clock
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none

      case let .delete(offsets):
        let filtered = state.filteredTodos
        for offset in offsets {
          if let todo = filtered[safe: offset] { state.todos.remove(id: todo.id) }
        }
        return .none

      case let .filterPicked(filter):
        state.filter = filter
        return .none

      case let .move(from: sources, to: destination):
        Todos.move(in: &state, fromOffsets: sources, toOffset: destination)
        return .run { [clock] send in
          try await clock.sleep(for: .milliseconds(100))
          await send(.sortCompletedTodos)
        }

      case .sortCompletedTodos:
        // NB: a list already sorted is left as it is: rebuilding it would make every chunk of
        // the list new, and the next version check and patch O(n) (docs/state-changes.md).
        guard let firstComplete = state.todos.firstIndex(where: \.isComplete),
          state.todos[firstComplete...].contains(where: { !$0.isComplete })
        else { return .none }
        let sorted =
          state.todos.elements.filter { !$0.isComplete } + state.todos.elements.filter(\.isComplete)
        state.todos = IdentifiedArray(uniqueElements: sorted)
        return .none

      case let .todos(.element(id: id, action: .checkBoxToggled)):
        guard state.todos.index(id: id) != nil else { return .none }
        return Todos.sortAfterToggle

      case .todos:
        return .none
      }
    }
    .forEach(
      \.todos,
      action: AnyCasePath(
        embed: Action.todos,
        extract: { if case let .todos(action) = $0 { action } else { nil } })
    ) {
      Todo()
    }
  }

  /// A list view's move, with offsets into what the view shows (`filteredTodos`) mapped to the
  /// whole list. Offsets out of range are ignored and `to` is clamped, so host input never traps.
  static func move(in state: inout State, fromOffsets sources: [Int], toOffset destination: Int) {
    var sources = sources
    var destination = destination
    if state.filter != .all {
      let filtered = state.filteredTodos
      sources = sources.compactMap { filtered[safe: $0].flatMap { state.todos.index(id: $0.id) } }
      destination =
        filtered[safe: destination].flatMap { state.todos.index(id: $0.id) } ?? state.todos.count
    }
    let count = state.todos.count
    let moving = Set(sources.filter { $0 >= 0 && $0 < count }).sorted()
    guard !moving.isEmpty else { return }
    let target = min(max(destination, 0), count)
    let movingSet = Set(moving)
    var rest: [Todo.State] = []
    rest.reserveCapacity(count)
    for (offset, todo) in state.todos.enumerated() where !movingSet.contains(offset) {
      rest.append(todo)
    }
    // NB: `to` counts positions in the list before the move; the moved rows above it no longer
    // take room. 0 ≤ insertion ≤ rest.count.
    let insertion = target - moving.filter { $0 < target }.count
    rest.insert(contentsOf: moving.map { state.todos[$0] }, at: insertion)
    state.todos = IdentifiedArray(uniqueElements: rest)
  }
}

/// One todo of ``Todos``: a description the host edits and a check box.
public struct Todo: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public let id: UUID
    public var description: String
    public var isComplete: Bool

    public init(id: UUID, description: String = "", isComplete: Bool = false) {
      self.id = id
      self.description = description
      self.isComplete = isComplete
    }

    enum CodingKeys: String, CodingKey {
      case id, description, isComplete
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(UUID.self, forKey: .id)
      description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
      isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    case checkBoxToggled
    case textFieldChanged(String)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .checkBoxToggled:
      state.isComplete.toggle()
      return .none
    case let .textFieldChanged(description):
      state.description = description
      return .none
    }
  }
}
