/// An alert as data: a title, a message, and buttons whose actions come back to the parent when
/// tapped. Present it through ``PresentationState`` (alone, or as a case of an enum destination)
/// and run it with `ifLet` (no reducer of its own); it is dismissed after any of its buttons'
/// actions.
///
///     @PresentationState var alert: AlertState<Action.Alert>?
///     case alert(PresentationAction<Alert>)
///     …
///     case .resetButtonTapped:
///       state.alert = AlertState(
///         title: "Reset the history?", message: "Every roll is forgotten.",
///         buttons: [
///           ButtonState(role: .destructive, action: .confirmReset, label: "Reset"),
///           ButtonState(role: .cancel, label: "Cancel"),
///         ])
///     case .alert(.presented(.confirmReset)):
///       …
///     body: Reduce { … }.ifLet(\.$alert, action: Action.alert)
///
/// Wire form (docs/wire-format.md): `{"title":"Reset the history?","message":"…",
/// "buttons":[{"label":"Reset","role":"destructive","action":{"confirmReset":{}}},…]}`; a host
/// draws it and sends back the tapped button's action (see ``ButtonState``).
public struct AlertState<Action>: _EphemeralState, Identifiable {
  /// Which alert this is: each alert made gets its own (copies and ``map(_:)`` keep it), so
  /// that an alert a button puts up in place of its own is a new presentation, not dismissed
  /// with the old one, even when equal to it. As upstream: `==` and `hash` ignore it, and it is
  /// not on the wire (a decoded alert is a new one).
  public let id: UUID
  public var title: String
  /// The text under the title (nil: none).
  public var message: String?
  /// The buttons, in the order a host should lay them out. None: the host shows an OK button
  /// that dismisses.
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.init(id: .nextEphemeralID(), title: title, message: message, buttons: buttons)
  }

  init(id: UUID, title: String, message: String?, buttons: [ButtonState<Action>]) {
    self.id = id
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The alert with its buttons' actions transformed (the same alert: its id is kept).
  public func map<T>(_ transform: (Action) -> T) -> AlertState<T> {
    AlertState<T>(
      id: id, title: title, message: message, buttons: buttons.map { $0.map(transform) })
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: AlertState, rhs: AlertState) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomReflectable {
  /// The alert without its id (what a test store's diffs show).
  public var customMirror: Mirror {
    Mirror(
      self, children: ["title": title, "message": message as Any, "buttons": buttons],
      displayStyle: .struct)
  }
}

extension AlertState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case title, message, buttons }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(String.self, forKey: .title),
      message: try container.decodeIfPresent(String.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? [])
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(title, forKey: .title)
    try container.encode(message, forKey: .message)
    try container.encode(buttons, forKey: .buttons)
  }
}
