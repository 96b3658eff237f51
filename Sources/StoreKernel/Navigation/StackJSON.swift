import JSON

// The stack types' direct JSON paths (``JSONCodable``), as their Codable conformances: an id is
// an integer; a stack is `{"elements":[{"id":0,"state":…}],"nextID":1}`; an action is the
// synthesized form of its labeled cases, `{"element":{"id":0,"action":…}}`,
// `{"popFrom":{"id":0}}`, `{"push":{"id":1,"state":…}}`. Whatever they decline (an id out of
// range, ids repeated), `init(from:)` reports with its place.

extension StackElementID: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    self.init(generation: try json.integer())
    guard isValid else { throw JSONDeclined() }
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) { json.write(generation) }
}

extension StackState: JSONDecodable where Element: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    var ids: [StackElementID] = []
    var elements: [Element] = []
    if let entries = object.member("elements"), !entries.isNull {
      try entries.forEachElement { (entry) throws(JSONDeclined) in
        let entry = try entry.object()
        ids.append(try entry.decode(StackElementID.self, forKey: "id"))
        elements.append(try entry.decode(Element.self, forKey: "state"))
      }
    }
    let nextID = try object.decodeIfPresent(StackElementID.self, forKey: "nextID")
    guard let stack = StackState(ids: ids, elements: elements, nextID: nextID) else {
      throw JSONDeclined()
    }
    self = stack
  }
}

extension StackState: JSONEncodable where Element: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      try object.array(forKey: "elements") { (array) throws(JSONDeclined) in
        for (id, element) in zip(_ids, _elements) {
          try array.encode(StackEntry(id: id, state: element))
        }
      }
      try object.encode(nextID, forKey: "nextID")
    }
  }
}

/// One element of a stack as written: `{"id":0,"state":…}`.
private struct StackEntry<State: JSONEncodable>: JSONEncodable {
  let id: StackElementID
  let state: State

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      try object.encode(id, forKey: "id")
      try object.encode(state, forKey: "state")
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(id, forKey: .id)
    try container.encode(state, forKey: .state)
  }

  enum Keys: String, CodingKey { case id, state }
}

extension StackAction: JSONDecodable where State: JSONDecodable, Action: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "element":
      let payload = try action.labeled()
      self = .element(
        id: try payload.decode(StackElementID.self, forKey: "id"),
        action: try payload.decode(Action.self, forKey: "action"))
    case "popFrom":
      self = .popFrom(id: try action.labeled().decode(StackElementID.self, forKey: "id"))
    case "push":
      let payload = try action.labeled()
      self = .push(
        id: try payload.decode(StackElementID.self, forKey: "id"),
        state: try payload.decode(State.self, forKey: "state"))
    default:
      throw JSONDeclined()
    }
  }
}

extension StackAction: JSONEncodable where State: JSONEncodable, Action: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case let .element(id, action):
      try json.enumCase("element") { (payload) throws(JSONDeclined) in
        try payload.encode(id, forKey: "id")
        try payload.encode(action, forKey: "action")
      }
    case let .popFrom(id):
      try json.enumCase("popFrom") { (payload) throws(JSONDeclined) in
        try payload.encode(id, forKey: "id")
      }
    case let .push(id, state):
      try json.enumCase("push") { (payload) throws(JSONDeclined) in
        try payload.encode(id, forKey: "id")
        try payload.encode(state, forKey: "state")
      }
    }
  }
}
