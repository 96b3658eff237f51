import JSON

// The presentation types' direct JSON paths (``JSONCodable``), as their Codable conformances:
// the state is the child's state or `null`; the action is `{"dismiss":{}}` or
// `{"presented":{"_0":…}}` (and the host's shorthands `"dismiss"`, `{"presented":…}`).

extension PresentationState: JSONDecodable where State: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    self.init(wrappedValue: json.isNull ? nil : try State(json: json))
  }
}

extension PresentationState: JSONEncodable where State: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try wrappedValue.encode(json: json)
  }
}

extension PresentationAction: JSONDecodable where Action: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "dismiss":
      try action.noPayload()
      self = .dismiss
    case "presented":
      self = .presented(try action.payload(Action.self))
    default:
      throw JSONDeclined()
    }
  }
}

extension PresentationAction: JSONEncodable where Action: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .dismiss: try json.enumCase("dismiss")
    case let .presented(action): try json.enumCase("presented", payload: action)
    }
  }
}
