import JSON
import StoreKernel

// The todos feature's direct JSON paths (``JSONCodable``): the same JSON as its Codable
// conformances, without Codable's containers. `tca_store_send` of a todos action and
// `tca_store_state` of its state go through them; the kernel's `UUID`, `IdentifiedArray` and
// `IdentifiedAction` have their own.

// NB: the raw value, as its Codable conformance (JSONCodable's default for String enums).
extension Todos.Filter: JSONCodable {}

extension Todos.State: JSONCodable {
  /// As `init(from:)`: missing or `null` members take their defaults; `filteredTodos` (derived)
  /// is not read.
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      filter: try object.decodeIfPresent(Todos.Filter.self, forKey: "filter") ?? .all,
      todos: try object.decodeIfPresent(IdentifiedArrayOf<Todo.State>.self, forKey: "todos")
        ?? [])
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      try object.encode(filter, forKey: "filter")
      try object.encode(todos, forKey: "todos")
      // NB: `filteredTodos` is the ids of the todos shown, written as they are picked: the
      // todos are in `todos` already (a derived value does not repeat the state, issue 16).
      let filter = self.filter
      try object.array(forKey: "filteredTodos") { (array) throws(JSONDeclined) in
        // NB: under "all", every id, each chunk's text kept from the last encoding.
        if filter == .all { return try todos.encodeIDs(into: &array) }
        for todo in todos where filter.shows(todo) { try array.encode(todo.id) }
      }
    }
  }
}

extension Todos.Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    // NB: the cases are tried in order: a todo's own action (the check box, the text field),
    // by far the most frequent, first.
    switch action {
    case "todos":
      // NB: the element action given bare is an object (`{"todos":{"element":…}}`), read as
      // the payload itself since it has no `_0` member, as `init(from:)` reads it.
      self = .todos(try action.payload(IdentifiedActionOf<Todo>.self))
    case "addTodoButtonTapped":
      try action.noPayload()
      self = .addTodoButtonTapped
    case "clearCompletedButtonTapped":
      try action.noPayload()
      self = .clearCompletedButtonTapped
    case "delete":
      self = .delete(try action.payload([Int].self))
    case "filterPicked":
      self = .filterPicked(try action.payload(Todos.Filter.self))
    case "move":
      let payload = try action.labeled()
      self = .move(
        from: try payload.decode([Int].self, forKey: "from"),
        to: try payload.decode(Int.self, forKey: "to"))
    case "sortCompletedTodos":
      try action.noPayload()
      self = .sortCompletedTodos
    default:
      throw JSONDeclined()
    }
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .addTodoButtonTapped: try json.enumCase("addTodoButtonTapped")
    case .clearCompletedButtonTapped: try json.enumCase("clearCompletedButtonTapped")
    case let .delete(offsets): try json.enumCase("delete", payload: offsets)
    case let .filterPicked(filter): try json.enumCase("filterPicked", payload: filter)
    case let .move(from, to):
      try json.enumCase("move") { (payload) throws(JSONDeclined) in
        try payload.encode(from, forKey: "from")
        payload.encode(to, forKey: "to")
      }
    case .sortCompletedTodos: try json.enumCase("sortCompletedTodos")
    case let .todos(action): try json.enumCase("todos", payload: action)
    }
  }
}

extension Todo.State: JSONCodable {
  /// As `init(from:)`: `id` is required; a missing or `null` description or check box takes
  /// its default.
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      id: try object.decode(UUID.self, forKey: "id"),
      description: try object.decodeIfPresent(String.self, forKey: "description") ?? "",
      isComplete: try object.decodeIfPresent(Bool.self, forKey: "isComplete") ?? false)
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      try object.encode(id, forKey: "id")
      object.encode(description, forKey: "description")
      object.encode(isComplete, forKey: "isComplete")
    }
  }
}

extension Todo.Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "checkBoxToggled":
      try action.noPayload()
      self = .checkBoxToggled
    case "textFieldChanged":
      self = .textFieldChanged(try action.payload(String.self))
    default:
      throw JSONDeclined()
    }
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .checkBoxToggled: try json.enumCase("checkBoxToggled")
    case let .textFieldChanged(description):
      try json.enumCase("textFieldChanged", payload: description)
    }
  }
}

extension Todos.State: JSONPatchable {
  /// The filter when it changed, each todo that changed in place (by walking the list's
  /// chunks: O(changed · log n)), and `filteredTodos` only when it can have changed: under
  /// "all" it is every id, so it is the same while the list's ids are.
  public func patch(
    from old: Todos.State, at path: String, into operations: inout [JSONValue]
  ) throws(JSONError) {
    try StatePatch.member(old.filter, filter, at: path + "/filter", into: &operations)
    try todos.patch(from: old.todos, at: path + "/todos", into: &operations)
    if filter == .all, old.filter == .all, todos.sharesIDs(with: old.todos) { return }
    let before = old.todos.filter(old.filter.shows).ids
    let after = todos.filter(filter.shows).ids
    try StatePatch.member(before, after, at: path + "/filteredTodos", into: &operations)
  }
}

extension Todos.State: JSONPointable {
  /// A todo (`/todos/3`) or a value inside one (`/todos/3/isComplete`), encoded alone; anything
  /// else is looked up in the state's text.
  public func json(at tokens: ArraySlice<String>) -> [UInt8]? {
    guard tokens.first == "todos", tokens.count > 1 else { return nil }
    return todos.json(at: tokens.dropFirst())
  }
}
