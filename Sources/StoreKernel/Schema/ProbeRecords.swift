import JSON

/// What a probe saw one value's `init(from:)` read, or its `encode(to:)` write: the container
/// it asked for, and in it the members (in order), elements or single value, each with its
/// schema or a nested record.
final class ValueRecord {
  enum Form {
    /// Nothing was read: any JSON value is accepted.
    case untouched
    case keyed(KeyedRecord)
    case unkeyed(UnkeyedRecord)
    case single(MemberRecord)
  }

  var form = Form.untouched
  /// Why the type's shape cannot be told (set where a probe cannot throw, as `allKeys`).
  var failure: String?

  /// The keyed container's record (made on first use; a later container of another kind gets
  /// one of its own that nothing reads).
  func keyed<Key: CodingKey>(_: Key.Type) -> KeyedRecord {
    if case let .keyed(record) = form { return record }
    let record = KeyedRecord(Key.self)
    if case .untouched = form { form = .keyed(record) }
    return record
  }

  func unkeyed() -> UnkeyedRecord {
    if case let .unkeyed(record) = form { return record }
    let record = UnkeyedRecord()
    if case .untouched = form { form = .unkeyed(record) }
    return record
  }

  func single() -> MemberRecord {
    if case let .single(record) = form { return record }
    let record = MemberRecord()
    if case .untouched = form { form = .single(record) }
    return record
  }

  /// The member `name` of the keyed container, if one was read.
  func keyedMember(_ name: String) -> MemberRecord? {
    guard case let .keyed(record) = form else { return nil }
    return record.lookup(name)
  }
}

/// The members of a keyed container, in the order they were first read.
final class KeyedRecord {
  /// The key type has `_0` and no `_1`: its value may be given bare (docs/wire-format.md).
  let acceptsBarePayload: Bool
  private(set) var entries: [(name: String, member: MemberRecord)] = []
  private var positions: [String: Int] = [:]
  /// `allKeys` was read at the root: an enum, whose cases these are.
  var listsKeys = false
  var caseNames: [String] = []

  init<Key: CodingKey>(_: Key.Type) {
    acceptsBarePayload = Key(stringValue: "_0") != nil && Key(stringValue: "_1") == nil
  }

  func member(_ name: String) -> MemberRecord {
    if let member = lookup(name) { return member }
    let member = MemberRecord()
    positions[name] = entries.count
    entries.append((name, member))
    return member
  }

  func lookup(_ name: String) -> MemberRecord? {
    positions[name].map { entries[$0].member }
  }
}

/// One member, element or single value.
final class MemberRecord {
  /// Its schema, for a value decoded (or encoded) whole.
  var schema: JSONValue?
  /// What was read of it through a nested container.
  var nested: ValueRecord?
  /// It may be left out (`decodeIfPresent`, `contains`, `encodeIfPresent`).
  var isOptional = false
  /// It may be `null` (`decodeIfPresent`, `decodeNil`, `encodeNil`).
  var isNullable = false
}

/// The elements of an unkeyed container, in order.
final class UnkeyedRecord {
  var items: [MemberRecord] = []
  /// `isAtEnd` was read: a list of any length (else a fixed sequence, as a tuple's).
  var asksForEnd = false
}

/// The schemas that records describe (docs/schema.md, "Structs" and "Actions").
enum ProbeSchemas {
  static func schema(of record: ValueRecord) -> JSONValue {
    switch record.form {
    case .untouched: return true
    case let .keyed(keyed): return objectSchema(read: keyed, written: nil)
    case let .unkeyed(unkeyed): return arraySchema(unkeyed)
    case let .single(member): return schema(of: member)
    }
  }

  static func schema(of member: MemberRecord) -> JSONValue {
    let schema = member.nested.map(schema(of:)) ?? member.schema ?? true
    return member.isNullable ? JSONSchemaBuilder.nullable(schema) : schema
  }

  static func arraySchema(_ record: UnkeyedRecord) -> JSONValue {
    let items = record.items.map(schema(of:))
    if record.asksForEnd || items.isEmpty {
      var distinct: [JSONValue] = []
      for item in items where !distinct.contains(item) { distinct.append(item) }
      let union: JSONValue =
        distinct.count == 1
        ? distinct[0] : distinct.isEmpty ? true : .object([("anyOf", .array(distinct))])
      return .object([("type", "array"), ("items", union)])
    }
    return .object([
      ("type", "array"), ("prefixItems", .array(items)),
      ("minItems", .number(String(items.count))),
    ])
  }

  /// An object: the members `written` writes, in its order (`required` unless written with
  /// `encodeIfPresent`), then those only read (not required); without `written`, those read
  /// (`required` unless read with `decodeIfPresent` or after `contains`).
  ///
  /// NB: no `additionalProperties`: members a type does not know are ignored when it is read
  /// (docs/wire-format.md).
  static func objectSchema(read: KeyedRecord?, written: KeyedRecord?) -> JSONValue {
    var properties: [(key: String, value: JSONValue)] = []
    var required: [JSONValue] = []
    if let written {
      for (name, member) in written.entries {
        var schema: JSONValue
        if member.schema == nil && member.nested == nil {
          // NB: `encodeNil` only: the type is what is read there.
          let read = read?.lookup(name).map(schema(of:)) ?? JSONSchemaBuilder.type("null")
          schema = JSONSchemaBuilder.nullable(read)
        } else {
          schema = self.schema(of: member)
        }
        properties.append((name, schema))
        if !member.isOptional { required.append(.string(name)) }
      }
      for (name, member) in read?.entries ?? [] where written.lookup(name) == nil {
        properties.append((name, schema(of: member)))
      }
    } else if let read {
      for (name, member) in read.entries {
        properties.append((name, schema(of: member)))
        if !member.isOptional { required.append(.string(name)) }
      }
    }
    return .object([
      ("type", "object"), ("properties", .object(properties)), ("required", .array(required)),
    ])
  }

  /// One case of an action-shaped enum, from what its `init(from:)` read of the case's member
  /// (docs/schema.md, "Actions").
  static func caseSchema(name: String, member: MemberRecord?) -> JSONValue {
    guard let member else { return noPayloadCase(name, payload: true) }
    guard let nested = member.nested, case let .keyed(payload) = nested.form else {
      // NB: a hand-written `init(from:)` that decodes the case's value directly:
      // `{"teamDetail":{…}}`.
      let schema = schema(of: member)
      return caseObject(name, schema, payload: [(nil, schema)])
    }
    if payload.entries.isEmpty {
      return noPayloadCase(name, payload: .object([("type", "object")]))
    }
    if payload.acceptsBarePayload, payload.entries.count == 1, payload.entries[0].name == "_0" {
      let value = payload.entries[0].member
      let schema = schema(of: value)
      let synthesized: JSONValue = .object([
        ("type", "object"), ("properties", .object([("_0", schema)])),
        ("required", .array(value.isOptional ? [] : ["_0"])),
      ])
      return caseObject(
        name, .object([("anyOf", .array([schema, synthesized]))]), payload: [(nil, schema)])
    }
    let labels = payload.entries.map { entry -> (String?, JSONValue) in
      (isPosition(entry.name) ? nil : entry.name, schema(of: entry.member))
    }
    return caseObject(name, objectSchema(read: payload, written: nil), payload: labels)
  }

  /// A case without payload: its bare name, or the synthesized `{"NAME":{}}`.
  private static func noPayloadCase(_ name: String, payload: JSONValue) -> JSONValue {
    .object([
      ("x-tca-case", .string(name)),
      (
        "anyOf",
        .array([
          .object([("const", .string(name))]),
          .object([
            ("type", "object"), ("properties", .object([(name, payload)])),
            ("required", .array([.string(name)])),
          ]),
        ])
      ),
    ])
  }

  /// `{"NAME": value}`, with the payload's labels and schemas for generators.
  private static func caseObject(
    _ name: String, _ value: JSONValue, payload: [(String?, JSONValue)]
  ) -> JSONValue {
    .object([
      ("x-tca-case", .string(name)), ("type", "object"),
      ("properties", .object([(name, value)])), ("required", .array([.string(name)])),
      (
        "x-tca-payload",
        .array(
          payload.map { label, schema in
            .object([("label", label.map(JSONValue.string) ?? .null), ("schema", schema)])
          })
      ),
    ])
  }

  /// `_0`, `_1`…: an unlabeled position.
  private static func isPosition(_ name: String) -> Bool {
    name.count > 1 && name.first == "_" && name.dropFirst().allSatisfy(\.isASCII)
      && name.dropFirst().allSatisfy(\.isNumber)
  }
}
