// The Codable types the benchmarks encode and decode: a todo list in the shape of the Composable
// Architecture's Todos example (Int ids instead of UUIDs: the library has no Foundation).

import JSON

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

/// `count` todos, about 70 bytes of JSON each; a few carry non-ASCII text and escapes.
func makeTodos(_ count: Int) -> TodosState {
  let chores = ["Buy milk and bread", "Call the plumber", "Water the plants", "Pay the bills",
                "Walk the dog", "Book the flights", "Fix the bike", "Read a chapter"]
  var state = TodosState()
  state.todos.reserveCapacity(count)
  for id in 0..<count {
    var text = "\(chores[id % chores.count]) (item \(id))"
    if id % 10 == 3 { text += " at the café" }
    if id % 25 == 7 { text += " \"soon\"\t!" }
    state.todos.append(Todo(description: text, id: id, isComplete: id % 3 == 0))
  }
  return state
}

// MARK: - Direct JSON conformances
//
// NB: written as a feature's author adopts `JSONCodable` for hot types (docs/own-features.md);
// the bench measures each workload both through these and through Codable alone.

extension Todo: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      description: try object.decode(String.self, forKey: "description"),
      id: try object.decode(Int.self, forKey: "id"),
      isComplete: try object.decode(Bool.self, forKey: "isComplete"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(description, forKey: "description")
      object.encode(id, forKey: "id")
      object.encode(isComplete, forKey: "isComplete")
    }
  }
}

extension Filter: JSONCodable {}

extension TodosState: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      editMode: try object.decode(Bool.self, forKey: "editMode"),
      filter: try object.decode(Filter.self, forKey: "filter"),
      todos: try object.decode([Todo].self, forKey: "todos"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(editMode, forKey: "editMode")
      try object.encode(filter, forKey: "filter")
      try object.encode(todos, forKey: "todos")
    }
  }
}

extension TodosAction: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "addTodoButtonTapped":
      try action.noPayload()
      self = .addTodoButtonTapped
    case "clearCompletedButtonTapped":
      try action.noPayload()
      self = .clearCompletedButtonTapped
    case "delete":
      self = .delete(id: try action.labeled().decode(Int.self, forKey: "id"))
    case "filterPicked":
      self = .filterPicked(try action.payload(Filter.self))
    case "move":
      let payload = try action.labeled()
      self = .move(
        from: try payload.decode(Int.self, forKey: "from"),
        to: try payload.decode(Int.self, forKey: "to"))
    case "toggle":
      self = .toggle(id: try action.labeled().decode(Int.self, forKey: "id"))
    default:
      throw JSONDeclined()
    }
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .addTodoButtonTapped: try json.enumCase("addTodoButtonTapped")
    case .clearCompletedButtonTapped: try json.enumCase("clearCompletedButtonTapped")
    case let .delete(id):
      try json.enumCase("delete") { (payload) throws(JSONDeclined) in
        payload.encode(id, forKey: "id")
      }
    case let .filterPicked(filter): try json.enumCase("filterPicked", payload: filter)
    case let .move(from, to):
      try json.enumCase("move") { (payload) throws(JSONDeclined) in
        payload.encode(from, forKey: "from")
        payload.encode(to, forKey: "to")
      }
    case let .toggle(id):
      try json.enumCase("toggle") { (payload) throws(JSONDeclined) in
        payload.encode(id, forKey: "id")
      }
    }
  }
}
