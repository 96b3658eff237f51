// The Codable types the benchmarks encode and decode: a todo list in the shape of the Composable
// Architecture's Todos example (Int ids instead of UUIDs: the library has no Foundation).

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
