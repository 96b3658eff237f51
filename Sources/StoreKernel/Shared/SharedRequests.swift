/// The payload of `shared.load`: the `.host` key whose saved value the store asks for
/// (docs/wire-format.md, "Shared state").
public struct SharedLoadPayload: Codable, Equatable, Sendable {
  public var key: String
  public init(key: String) { self.key = key }
}

/// The payload of `shared.save`: the `.host` key and its new value.
public struct SharedSavePayload<Value: Codable & Sendable>: Codable, Sendable {
  public var key: String
  public var value: Value
  public init(key: String, value: Value) {
    self.key = key
    self.value = value
  }
}

extension HostRequestDeclaration {
  /// The two requests of a feature's `.host` shared values of type `Value`, for its descriptor's
  /// `requests` (its schema): `shared.load`, answered with the value or `null`, and
  /// `shared.save`.
  public static func sharedState<Value: Codable & Sendable & SendableMetatype>(
    _: Value.Type
  ) -> [HostRequestDeclaration] {
    [
      .oneShot("shared.load", payload: SharedLoadPayload.self, response: Value?.self),
      .fireAndForget("shared.save", payload: SharedSavePayload<Value>.self),
    ]
  }
}
