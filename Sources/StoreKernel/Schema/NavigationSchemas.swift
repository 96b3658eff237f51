import JSON

// The navigation types' schemas, as docs/wire-format.md ("Navigation") spells their forms. Their
// actions (`PresentationAction`, `StackAction`) and buttons (`ButtonState`) are derived as any
// enum or struct is.

extension PresentationState: JSONSchemaDescribing {
  /// The child's state, or `null`: `{"anyOf":[S,{"type":"null"}]}`, kind `presentation`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    try builder.define(Self.self, kind: "presentation") { () throws(JSONSchemaError) in
      JSONSchemaBuilder.nullable(try builder.schema(for: State.self))
    }
  }
}

extension StackElementID: JSONSchemaDescribing {
  /// An integer from 0 to 2^52 - 1.
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    .object([
      ("type", "integer"), ("minimum", .number("0")),
      ("maximum", .number(String((1 << 52) - 1))),
    ])
  }
}

extension StackState: JSONSchemaDescribing {
  /// `{"elements":[{"id":0,"state":S}],"nextID":1}`, kind `stack`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    try builder.define(Self.self, kind: "stack") { () throws(JSONSchemaError) in
      let id = try builder.schema(for: StackElementID.self)
      let entry: JSONValue = .object([
        ("type", "object"),
        ("properties", .object([("id", id), ("state", try builder.schema(for: Element.self))])),
        ("required", .array(["id", "state"])),
      ])
      return .object([
        ("type", "object"),
        (
          "properties",
          .object([("elements", .object([("type", "array"), ("items", entry)])), ("nextID", id)])
        ),
        ("required", .array(["elements", "nextID"])),
      ])
    }
  }
}

extension AlertState: JSONSchemaDescribing {
  /// `{"title":…,"message":…|null,"buttons":[…]}`, kind `alert`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    try builder.define(Self.self, kind: "alert") { () throws(JSONSchemaError) in
      try alertSchema(builder, ButtonState<Action>.self, visibility: nil)
    }
  }
}

extension ConfirmationDialogState: JSONSchemaDescribing {
  /// An alert's members after `titleVisibility`, kind `dialog`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    try builder.define(Self.self, kind: "dialog") { () throws(JSONSchemaError) in
      try alertSchema(
        builder, ButtonState<Action>.self,
        visibility: try builder.schema(for: ConfirmationDialogStateTitleVisibility.self))
    }
  }
}

/// The object of an alert or (with `visibility`) a dialog whose buttons are `button`s.
private func alertSchema(
  _ builder: JSONSchemaBuilder, _ button: Any.Type, visibility: JSONValue?
) throws(JSONSchemaError) -> JSONValue {
  var properties: [(key: String, value: JSONValue)] = []
  var required: [JSONValue] = []
  if let visibility {
    properties.append(("titleVisibility", visibility))
    required.append("titleVisibility")
  }
  properties += [
    ("title", JSONSchemaBuilder.type("string")),
    ("message", JSONSchemaBuilder.nullable(JSONSchemaBuilder.type("string"))),
    ("buttons", .object([("type", "array"), ("items", try builder.schema(for: button))])),
  ]
  required += ["title", "message", "buttons"]
  return .object([
    ("type", "object"), ("properties", .object(properties)), ("required", .array(required)),
  ])
}

extension NoPayload: JSONSchemaDescribing {
  /// `{}`: an object of no members.
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    .object([("type", "object"), ("properties", .object([])), ("required", .array([]))])
  }
}
