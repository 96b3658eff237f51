import JSON

// The element action's direct JSON paths (``JSONCodable``): the synthesized form of its one
// labeled case, `{"element":{"id":…,"action":…}}`, as its Codable conformance.

extension IdentifiedAction: JSONDecodable where ID: JSONDecodable, Action: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "element":
      // NB: a bare `"element"` has no payload: `labeled()` declines it, as `init(from:)`
      // fails on it (missing member "id").
      let payload = try action.labeled()
      self = .element(
        id: try payload.decode(ID.self, forKey: "id"),
        action: try payload.decode(Action.self, forKey: "action"))
    default:
      throw JSONDeclined()
    }
  }
}

extension IdentifiedAction: JSONEncodable where ID: JSONEncodable, Action: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case let .element(id, action):
      try json.enumCase("element") { (payload) throws(JSONDeclined) in
        try payload.encode(id, forKey: "id")
        try payload.encode(action, forKey: "action")
      }
    }
  }
}
