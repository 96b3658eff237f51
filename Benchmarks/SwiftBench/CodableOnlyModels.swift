// The todo list of Models.swift declared only Codable, as any feature's types are: the
// JSONCodablePlugin (applied to this target) writes their direct JSON paths at build time. The
// rows marked "Codable only" measure these; the same JSON as the hand-written conformances.

/// The types of Models.swift, without a line of JSON code.
enum CodableOnly {
  struct Todo: Codable, Equatable {
    var description: String
    var id: Int
    var isComplete: Bool
  }

  enum Filter: String, Codable {
    case all, active, completed
  }

  struct TodosState: Codable, Equatable {
    var editMode = false
    var filter = Filter.all
    var todos: [Todo] = []
  }

  enum TodosAction: Codable, Equatable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    case delete(id: Int)
    case filterPicked(Filter)
    case move(from: Int, to: Int)
    case toggle(id: Int)
  }
}

extension CodableOnly.TodosState {
  /// The same state as `state`.
  init(_ state: TodosState) {
    self.init(
      editMode: state.editMode,
      filter: CodableOnly.Filter(rawValue: state.filter.rawValue) ?? .all,
      todos: state.todos.map {
        CodableOnly.Todo(description: $0.description, id: $0.id, isComplete: $0.isComplete)
      })
  }
}
