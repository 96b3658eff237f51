import JSON

// The alert types' direct JSON paths (``JSONCodable``), as their Codable conformances:
// `{"title":…,"message":…,"buttons":[{"label":…,"role":…,"action":…}]}`, a dialog with
// `titleVisibility` first.

extension ButtonStateRole: JSONCodable {}
extension ConfirmationDialogStateTitleVisibility: JSONCodable {}

extension ButtonState: JSONDecodable where Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      role: try object.decodeIfPresent(ButtonStateRole.self, forKey: "role"),
      action: try object.decodeIfPresent(Action.self, forKey: "action"),
      label: try object.decode(String.self, forKey: "label"))
  }
}

extension ButtonState: JSONEncodable where Action: JSONCodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(label, forKey: "label")
      try object.encode(role, forKey: "role")
      try object.encode(action, forKey: "action")
    }
  }
}

extension AlertState: JSONDecodable where Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      title: try object.decode(String.self, forKey: "title"),
      message: try object.decodeIfPresent(String.self, forKey: "message"),
      buttons: try object.decodeIfPresent([ButtonState<Action>].self, forKey: "buttons") ?? [])
  }
}

extension AlertState: JSONEncodable where Action: JSONCodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(title, forKey: "title")
      try object.encode(message, forKey: "message")
      try object.encode(buttons, forKey: "buttons")
    }
  }
}

extension ConfirmationDialogState: JSONDecodable where Action: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      titleVisibility: try object.decodeIfPresent(
        ConfirmationDialogStateTitleVisibility.self, forKey: "titleVisibility") ?? .automatic,
      title: try object.decode(String.self, forKey: "title"),
      message: try object.decodeIfPresent(String.self, forKey: "message"),
      buttons: try object.decodeIfPresent([ButtonState<Action>].self, forKey: "buttons") ?? [])
  }
}

extension ConfirmationDialogState: JSONEncodable where Action: JSONCodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      try object.encode(titleVisibility, forKey: "titleVisibility")
      object.encode(title, forKey: "title")
      try object.encode(message, forKey: "message")
      try object.encode(buttons, forKey: "buttons")
    }
  }
}
