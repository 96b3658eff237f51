import JSON

/// A type that gives its own JSON Schema instead of having it derived from its `init(from:)`
/// (docs/schema.md).
///
/// Adopt it for a type whose `init(from:)` validates its input so that the derivation's probe
/// value fails (registration then says so), or whose wire form its `init(from:)` cannot show
/// (several forms, keys that are not an enum). A generic type asks the builder for its
/// parameters' schemas; a named type puts itself in `$defs` with
/// ``JSONSchemaBuilder/define(_:kind:_:)``:
///
///     extension Temperature: JSONSchemaDescribing {
///       public static func jsonSchema(
///         in builder: JSONSchemaBuilder
///       ) throws(JSONSchemaError) -> JSONValue {
///         .object([("type", "number"), ("minimum", .number("-273.15"))])
///       }
///     }
public protocol JSONSchemaDescribing {
  /// The type's JSON Schema (2020-12): inline, or a `$ref` into the builder's `$defs`.
  static func jsonSchema(in builder: JSONSchemaBuilder) throws(JSONSchemaError) -> JSONValue
}

/// Why a schema cannot be derived: the type, and the reason.
///
///     cannot derive a schema for Foo.Bar: its init(from:) threw "at /: …" for a probe value;
///     make it JSONSchemaDescribing
public struct JSONSchemaError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The Swift type, without its module: `Foo.Bar`.
  public var typeName: String
  public var reason: String
  /// The type whose value is missing, for a derivation that met a type it is deriving before
  /// any value of it was made (a recursive type: tried again once one is).
  var awaiting: ObjectIdentifier?

  public init(typeName: String, reason: String) {
    self.typeName = typeName
    self.reason = reason
  }

  public init(_ type: Any.Type, _ reason: String) {
    self.init(typeName: JSONSchemaNames.title(of: type), reason: reason)
  }

  public var description: String { "cannot derive a schema for \(typeName): \(reason)" }
}

// MARK: - Scalars

extension Bool: JSONSchemaDescribing {
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    JSONSchemaBuilder.type("boolean")
  }
}

extension String: JSONSchemaDescribing {
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    JSONSchemaBuilder.type("string")
  }
}

extension Double: JSONSchemaDescribing {
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    JSONSchemaBuilder.type("number")
  }
}

extension Float: JSONSchemaDescribing {
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    JSONSchemaBuilder.type("number")
  }
}

extension Int: JSONSchemaDescribing {}
extension Int8: JSONSchemaDescribing {}
extension Int16: JSONSchemaDescribing {}
extension Int32: JSONSchemaDescribing {}
extension Int64: JSONSchemaDescribing {}
extension UInt: JSONSchemaDescribing {}
extension UInt8: JSONSchemaDescribing {}
extension UInt16: JSONSchemaDescribing {}
extension UInt32: JSONSchemaDescribing {}
extension UInt64: JSONSchemaDescribing {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: JSONSchemaDescribing {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: JSONSchemaDescribing {}

extension FixedWidthInteger where Self: JSONSchemaDescribing {
  /// `{"type":"integer"}` with the type's bounds below 64 bits (a 64-bit integer's bounds are
  /// past what many hosts' JSON numbers hold exactly, so they are left out), `minimum` 0 for
  /// an unsigned one.
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    var schema: [(key: String, value: JSONValue)] = [("type", "integer")]
    if bitWidth < 64 {
      schema.append(("minimum", .number(String(Self.min))))
      schema.append(("maximum", .number(String(Self.max))))
    } else if !isSigned {
      schema.append(("minimum", .number("0")))
    }
    return .object(schema)
  }
}

// MARK: - Standard library containers

extension Optional: JSONSchemaDescribing {
  /// `{"anyOf":[W, {"type":"null"}]}`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    JSONSchemaBuilder.nullable(try builder.schema(for: Wrapped.self))
  }
}

extension Array: JSONSchemaDescribing {
  /// `{"type":"array","items":E}`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    .object([("type", "array"), ("items", try builder.schema(for: Element.self))])
  }
}

extension ContiguousArray: JSONSchemaDescribing {
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    .object([("type", "array"), ("items", try builder.schema(for: Element.self))])
  }
}

extension Set: JSONSchemaDescribing {
  /// `{"type":"array","items":E,"uniqueItems":true}`.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    .object([
      ("type", "array"), ("items", try builder.schema(for: Element.self)), ("uniqueItems", true),
    ])
  }
}

extension Dictionary: JSONSchemaDescribing {
  /// An object for `String` and `Int` keys (an `Int` key's member name is the key in decimal),
  /// as the standard library's Codable writes it; any other key: an array of keys and values
  /// in turn.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    let value = try builder.schema(for: Value.self)
    if Key.self == String.self {
      return .object([("type", "object"), ("additionalProperties", value)])
    }
    if Key.self == Int.self {
      return .object([
        ("type", "object"), ("propertyNames", .object([("pattern", "^-?[0-9]+$")])),
        ("additionalProperties", value),
      ])
    }
    let key = try builder.schema(for: Key.self)
    return .object([("type", "array"), ("items", .object([("anyOf", .array([key, value]))]))])
  }
}

// MARK: - StoreKernel's own types

extension UUID: JSONSchemaDescribing {
  /// `{"type":"string","format":"uuid"}`: the 36-character form, either case.
  public static func jsonSchema(in builder: JSONSchemaBuilder) -> JSONValue {
    .object([
      ("type", "string"), ("format", "uuid"),
      ("pattern", "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"),
    ])
  }
}

extension IdentifiedArray: JSONSchemaDescribing {
  /// `{"type":"array","items":E,"x-tca-identified":true}`: the elements in order; the
  /// annotation says their ids differ (a repeated id is refused when it is read).
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    .object([
      ("type", "array"), ("items", try builder.schema(for: Element.self)),
      ("x-tca-identified", true),
    ])
  }
}
