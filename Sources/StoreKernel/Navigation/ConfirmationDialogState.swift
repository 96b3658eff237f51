/// A confirmation dialog (an action sheet) as data: as ``AlertState``, with a say on whether the
/// host shows the title.
///
///     state.dialog = ConfirmationDialogState(
///       titleVisibility: .visible, title: "Share the roll?",
///       buttons: [
///         ButtonState(action: .shareTapped, label: "Share"),
///         ButtonState(role: .cancel, label: "Cancel"),
///       ])
///
/// Wire form: `{"titleVisibility":"visible","title":"Share the roll?","message":null,
/// "buttons":[…]}` (buttons as ``ButtonState``).
public struct ConfirmationDialogState<Action>: _EphemeralState, Identifiable {
  /// Which dialog this is, as ``AlertState/id``: ignored by `==` and `hash`, not on the wire.
  public let id: UUID
  public var titleVisibility: ConfirmationDialogStateTitleVisibility
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic, title: String,
    message: String? = nil, buttons: [ButtonState<Action>] = []
  ) {
    self.init(
      id: .nextEphemeralID(), titleVisibility: titleVisibility, title: title, message: message,
      buttons: buttons)
  }

  init(
    id: UUID, titleVisibility: ConfirmationDialogStateTitleVisibility, title: String,
    message: String?, buttons: [ButtonState<Action>]
  ) {
    self.id = id
    self.titleVisibility = titleVisibility
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The dialog with its buttons' actions transformed (the same dialog: its id is kept).
  public func map<T>(_ transform: (Action) -> T) -> ConfirmationDialogState<T> {
    ConfirmationDialogState<T>(
      id: id, titleVisibility: titleVisibility, title: title, message: message,
      buttons: buttons.map { $0.map(transform) })
  }
}

/// Whether a host shows a confirmation dialog's title, as SwiftUI's `Visibility`.
public enum ConfirmationDialogStateTitleVisibility: String, Equatable, Hashable, Codable,
  Sendable
{
  /// As the platform does by default.
  case automatic
  case visible
  case hidden
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: ConfirmationDialogState, rhs: ConfirmationDialogState) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(titleVisibility)
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomReflectable {
  /// The dialog without its id (what a test store's diffs show).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "titleVisibility": titleVisibility, "title": title, "message": message as Any,
        "buttons": buttons,
      ], displayStyle: .struct)
  }
}

extension ConfirmationDialogState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case titleVisibility, title, message, buttons }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      titleVisibility: try container.decodeIfPresent(
        ConfirmationDialogStateTitleVisibility.self, forKey: .titleVisibility) ?? .automatic,
      title: try container.decode(String.self, forKey: .title),
      message: try container.decodeIfPresent(String.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? [])
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(titleVisibility, forKey: .titleVisibility)
    try container.encode(title, forKey: .title)
    try container.encode(message, forKey: .message)
    try container.encode(buttons, forKey: .buttons)
  }
}
