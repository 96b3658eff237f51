import JSON

// The stopwatch's actions read and written directly (docs/own-features.md, step 3): the same
// JSON as their Codable conformance, without Codable's containers, so `tca_store_send` of a
// stopwatch action skips them.

extension Stopwatch.Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "startTapped":
      try action.noPayload()
      self = .startTapped
    case "stopTapped":
      try action.noPayload()
      self = .stopTapped
    case "lapTapped":
      try action.noPayload()
      self = .lapTapped
    case "resetTapped":
      try action.noPayload()
      self = .resetTapped
    case "saveTapped":
      try action.noPayload()
      self = .saveTapped
    case "ticked":
      try action.noPayload()
      self = .ticked
    case "saved":
      self = .saved(try action.payload(String.self))
    case "saveFailed":
      self = .saveFailed(try action.payload(String.self))
    default:
      throw JSONDeclined()
    }
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .startTapped: try json.enumCase("startTapped")
    case .stopTapped: try json.enumCase("stopTapped")
    case .lapTapped: try json.enumCase("lapTapped")
    case .resetTapped: try json.enumCase("resetTapped")
    case .saveTapped: try json.enumCase("saveTapped")
    case .ticked: try json.enumCase("ticked")
    case let .saved(place): try json.enumCase("saved", payload: place)
    case let .saveFailed(message): try json.enumCase("saveFailed", payload: message)
    }
  }
}
