import JSON

// The counter's direct JSON paths (``JSONCodable``): the same JSON as its Codable conformance,
// without Codable's containers. `tca_store_send` of a counter action decodes through them.

extension Counter.State: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      count: try object.decodeIfPresent(Int.self, forKey: "count") ?? 0,
      numberFact: try object.decodeIfPresent(String.self, forKey: "numberFact"),
      numberFactError: try object.decodeIfPresent(String.self, forKey: "numberFactError"),
      isNumberFactLoading: try object.decodeIfPresent(Bool.self, forKey: "isNumberFactLoading")
        ?? false)
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(count, forKey: "count")
      object.encodeIfPresent(numberFact, forKey: "numberFact")
      object.encodeIfPresent(numberFactError, forKey: "numberFactError")
      object.encode(isNumberFactLoading, forKey: "isNumberFactLoading")
    }
  }
}

extension Counter.Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "decrementButtonTapped":
      try action.noPayload()
      self = .decrementButtonTapped
    case "incrementButtonTapped":
      try action.noPayload()
      self = .incrementButtonTapped
    case "numberFactButtonTapped":
      try action.noPayload()
      self = .numberFactButtonTapped
    case "saveNumberFactButtonTapped":
      try action.noPayload()
      self = .saveNumberFactButtonTapped
    case "numberFactResponse":
      self = .numberFactResponse(try action.payload(String.self))
    case "numberFactFailed":
      self = .numberFactFailed(try action.payload(String.self))
    default:
      throw JSONDeclined()
    }
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .decrementButtonTapped: try json.enumCase("decrementButtonTapped")
    case .incrementButtonTapped: try json.enumCase("incrementButtonTapped")
    case .numberFactButtonTapped: try json.enumCase("numberFactButtonTapped")
    case .saveNumberFactButtonTapped: try json.enumCase("saveNumberFactButtonTapped")
    case let .numberFactResponse(fact): try json.enumCase("numberFactResponse", payload: fact)
    case let .numberFactFailed(message): try json.enumCase("numberFactFailed", payload: message)
    }
  }
}
