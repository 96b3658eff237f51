/// A button of an alert or a confirmation dialog: a label, a role, and the action a tap sends.
///
///     ButtonState(role: .destructive, action: .confirmReset, label: "Reset")
///     ButtonState(role: .cancel, label: "Cancel")   // no action: the tap only dismisses
///
/// Wire form: `{"label":"Reset","role":"destructive","action":{"confirmReset":{}}}`, with
/// `"role":null` for a plain button and `"action":null` for one that only dismisses. A host that
/// draws it sends, when it is tapped, `{"presented":<action>}` to the alert's presentation
/// action (`{"alert":{"presented":{"confirmReset":{}}}}`), or `"dismiss"` for a button without
/// an action.
public struct ButtonState<Action> {
  /// What the button says.
  public var label: String
  /// How a host should style it (nil: a plain button).
  public var role: ButtonStateRole?
  /// The action a tap sends (nil: the tap only dismisses).
  public var action: Action?

  public init(role: ButtonStateRole? = nil, action: Action? = nil, label: String) {
    self.label = label
    self.role = role
    self.action = action
  }

  /// A button whose label is given last, as upstream writes it: `ButtonState(…) { "Reset" }`.
  public init(role: ButtonStateRole? = nil, action: Action? = nil, label: () -> String) {
    self.init(role: role, action: action, label: label())
  }

  /// The button with its action transformed (`nil` stays `nil`).
  public func map<T>(_ transform: (Action) -> T) -> ButtonState<T> {
    ButtonState<T>(role: role, action: action.map(transform), label: label)
  }
}

/// The role of a ``ButtonState``, as SwiftUI's `ButtonRole`.
public enum ButtonStateRole: String, Equatable, Hashable, Codable, Sendable {
  /// Cancels: the host draws it as its platform draws a cancel button.
  case cancel
  /// Destroys data: the host draws it as a warning (red).
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case label, role, action }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    label = try container.decode(String.self, forKey: .label)
    role = try container.decodeIfPresent(ButtonStateRole.self, forKey: .role)
    action = try container.decodeIfPresent(Action.self, forKey: .action)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(label, forKey: .label)
    try container.encode(role, forKey: .role)
    try container.encode(action, forKey: .action)
  }
}
