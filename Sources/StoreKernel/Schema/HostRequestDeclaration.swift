import JSON

/// A host request a feature may make, declared with what it carries: its kind, its payload's
/// type and its answer's, so that the feature's schema (docs/schema.md) says what the host
/// receives and what it must answer.
///
///     FeatureDescriptor(
///       name: "counter", summary: "…",
///       requests: [.oneShot("numberFact.fetch", payload: Int.self, response: String.self)],
///       initialState: Counter.State(), reducer: Counter())
///
/// A request given by name only (`requests: ["numberFact.fetch"]`) is ``named(_:)``: its schema
/// says nothing of its payload or answer (`"x-tca-undeclared": true`).
public struct HostRequestDeclaration: Sendable {
  /// What the request is called: `"numberFact.fetch"`.
  public let name: String
  /// How the host answers it; nil for a request declared by name only.
  public let kind: HostRequestKind?
  /// The schemas of the payload and of the answer (of each element, for a stream).
  let describe: @Sendable (JSONSchemaBuilder) throws(JSONSchemaError) -> (JSONValue, JSONValue?)

  init(
    name: String, kind: HostRequestKind?,
    describe:
      @escaping @Sendable (JSONSchemaBuilder) throws(JSONSchemaError) -> (
        JSONValue, JSONValue?
      )
  ) {
    self.name = name
    self.kind = kind
    self.describe = describe
  }

  /// A request answered once (`Effect.request`): `response` is the answer's type.
  public static func oneShot<
    Payload: Encodable & SendableMetatype, Response: Decodable & SendableMetatype
  >(
    _ name: String, payload: Payload.Type = NoPayload.self, response: Response.Type
  ) -> HostRequestDeclaration {
    HostRequestDeclaration(name: name, kind: .oneShot) { (builder) throws(JSONSchemaError) in
      (try builder.schema(for: Payload.self), try builder.schema(for: Response.self))
    }
  }

  /// A request answered any number of times, then completed (`Effect.stream`): `element` is
  /// each answer's type.
  public static func stream<
    Payload: Encodable & SendableMetatype, Element: Decodable & SendableMetatype
  >(
    _ name: String, payload: Payload.Type = NoPayload.self, element: Element.Type
  ) -> HostRequestDeclaration {
    HostRequestDeclaration(name: name, kind: .stream) { (builder) throws(JSONSchemaError) in
      (try builder.schema(for: Payload.self), try builder.schema(for: Element.self))
    }
  }

  /// A request that takes no answer (`Effect.fireAndForget`).
  public static func fireAndForget<Payload: Encodable & SendableMetatype>(
    _ name: String, payload: Payload.Type = NoPayload.self
  ) -> HostRequestDeclaration {
    HostRequestDeclaration(name: name, kind: .fireAndForget) { (builder) throws(JSONSchemaError) in
      (try builder.schema(for: Payload.self), nil)
    }
  }

  /// A request known by its name only: any payload, any answer.
  public static func named(_ name: String) -> HostRequestDeclaration {
    HostRequestDeclaration(name: name, kind: nil) { _ in (true, true) }
  }

  /// `{"kind":…,"payload":P,"response":R}` (docs/schema.md).
  func schema(in builder: JSONSchemaBuilder) throws(JSONSchemaError) -> JSONValue {
    let (payload, response) = try describe(builder)
    guard let kind else {
      return .object([("payload", payload), ("response", true), ("x-tca-undeclared", true)])
    }
    var members: [(key: String, value: JSONValue)] = [
      ("kind", .string(kind.rawValue)), ("payload", payload),
    ]
    if let response { members.append(("response", response)) }
    return .object(members)
  }
}
