import JSON

/// Builds the JSON Schemas (2020-12) of Swift types for a feature's schema document
/// (docs/schema.md): scalars and arrays inline, every named struct, enum and navigation type in
/// `$defs`, referred to by `{"$ref":"#/$defs/NAME"}`.
///
///     let builder = JSONSchemaBuilder()
///     let state = try builder.schema(for: Counter.State.self)  // {"$ref":"#/$defs/Counter.State"}
///     let defs = builder.definitions(reachableFrom: [state])
///
/// A type that describes itself (``JSONSchemaDescribing``) is asked; any other `Decodable` type
/// is derived from its `init(from:)`, run against a probing decoder (``SchemaProbeDecoder``), and
/// from its `encode(to:)` of the value that made (the members it always writes are `required`).
/// Each type is derived once; a type asked for while it is being derived gets its `$ref`, so
/// recursive types work. Not thread-safe: one builder makes one document.
public final class JSONSchemaBuilder {
  /// A `$defs` entry: the type, its key and title, and its schema once derived.
  struct Definition {
    let type: Any.Type
    let key: String
    let title: String
    var schema: JSONValue?
    /// How many `$ref`s to it were handed out.
    var references = 0
    /// Made inline after all (a type whose `init(from:)` reads a single value).
    var isDropped = false
  }

  private var definitions: [Definition] = []
  private var indexes: [ObjectIdentifier: Int] = [:]
  private var indexesByKey: [String: Int] = [:]
  /// Derived types that are not in `$defs` (wrappers of one value).
  private var inline: [ObjectIdentifier: JSONValue] = [:]
  /// A value of each type derived or decoded so far: what a probe's `decode` returns.
  private var samples: [ObjectIdentifier: Any] = [:]

  public init() {}

  // MARK: - Schemas

  /// The schema of `type`: inline, or a `$ref` to its `$defs` entry.
  public func schema(for type: Any.Type) throws(JSONSchemaError) -> JSONValue {
    if let describing = type as? any JSONSchemaDescribing.Type {
      return try describing.jsonSchema(in: self)
    }
    let id = ObjectIdentifier(type)
    if let index = indexes[id] { return reference(index) }
    if let schema = inline[id] { return schema }
    if let decodable = type as? any Decodable.Type { return try derive(decodable) }
    throw JSONSchemaError(type, "it is not Decodable; make it Codable or JSONSchemaDescribing")
  }

  /// The schema of the type of `value`, which is only `Encodable` perhaps: derived from what
  /// `value` writes if nothing else says.
  public func schema<T: Encodable>(of value: T) throws(JSONSchemaError) -> JSONValue {
    let id = ObjectIdentifier(T.self)
    if T.self is any JSONSchemaDescribing.Type || T.self is any Decodable.Type
      || indexes[id] != nil || inline[id] != nil
    {
      return try schema(for: T.self)
    }
    return try deriveEncoded(value)
  }

  /// Puts `type` in `$defs` with the schema `body` makes (its `title` and `x-tca-kind` added),
  /// and returns its `$ref`; a type already there (or being made) gets its `$ref` at once.
  ///
  ///     try builder.define(Self.self, kind: "presentation") { () throws(JSONSchemaError) in
  ///       JSONSchemaBuilder.nullable(try builder.schema(for: State.self))
  ///     }
  public func define(
    _ type: Any.Type, kind: String, _ body: () throws(JSONSchemaError) -> JSONValue
  ) throws(JSONSchemaError) -> JSONValue {
    if let index = indexes[ObjectIdentifier(type)] { return reference(index) }
    let checkpoint = definitions.count
    let index = reserve(type)
    do {
      finish(index, kind: kind, try body())
    } catch {
      rollBack(to: checkpoint)
      throw error
    }
    return reference(index)
  }

  /// The cases of an action-shaped type (its `$defs` entry's `oneOf`, each with `x-tca-case`):
  /// for a type whose decoder accepts the cases of several enums (``JSONSchemaDescribing``).
  public func actionCases(of type: Any.Type) throws(JSONSchemaError) -> [JSONValue] {
    let schema = try self.schema(for: type)
    guard let key = referencedKey(schema), let index = indexesByKey[key],
      let definition = definitions[index].schema, case let .array(cases)? = definition["oneOf"]
    else { throw JSONSchemaError(type, "it is not an enum with cases") }
    return cases
  }

  /// The `$defs` entries `roots` refer to, directly or through one another, in the order they
  /// were made.
  public func definitions(reachableFrom roots: [JSONValue]) -> JSONValue {
    var reached: Set<String> = []
    var pending = roots
    while let next = pending.popLast() {
      for key in referencedKeys(in: next) where !reached.contains(key) {
        reached.insert(key)
        if let index = indexesByKey[key], let schema = definitions[index].schema {
          pending.append(schema)
        }
      }
    }
    return .object(
      definitions.compactMap { definition in
        guard !definition.isDropped, reached.contains(definition.key),
          let schema = definition.schema
        else { return nil }
        return (definition.key, schema)
      })
  }

  // MARK: - Building blocks

  /// `{"type":NAME}`.
  public static func type(_ name: String) -> JSONValue { .object([("type", .string(name))]) }

  /// `{"anyOf":[schema, {"type":"null"}]}`, or `schema` if it takes `null` already.
  public static func nullable(_ schema: JSONValue) -> JSONValue {
    if acceptsNull(schema) { return schema }
    return .object([("anyOf", .array([schema, type("null")]))])
  }

  static func acceptsNull(_ schema: JSONValue) -> Bool {
    if case .bool(true) = schema { return true }
    if schema["type"] == "null" { return true }
    if case let .array(alternatives)? = schema["anyOf"] {
      return alternatives.contains { $0["type"] == "null" }
    }
    return false
  }

  /// The `$ref` to definition `index`.
  private func reference(_ index: Int) -> JSONValue {
    definitions[index].references += 1
    return .object([("$ref", .string("#/$defs/" + definitions[index].key))])
  }

  /// The `$defs` key a `$ref` schema names.
  func referencedKey(_ schema: JSONValue) -> String? {
    guard case let .string(target)? = schema["$ref"], target.hasPrefix("#/$defs/") else {
      return nil
    }
    return String(target.dropFirst("#/$defs/".count))
  }

  private func referencedKeys(in schema: JSONValue) -> [String] {
    switch schema {
    case let .array(elements): return elements.flatMap(referencedKeys(in:))
    case let .object(members):
      return members.flatMap { member -> [String] in
        if member.key == "$ref", let key = referencedKey(schema) { return [key] }
        return referencedKeys(in: member.value)
      }
    default: return []
    }
  }

  // MARK: - Definitions

  /// Gives `type` its `$defs` key (its title cleaned; `_2`, `_3`… for a second type of the same
  /// title), its schema to come.
  private func reserve(_ type: Any.Type) -> Int {
    let title = JSONSchemaNames.title(of: type)
    let base = JSONSchemaNames.key(for: title)
    var key = base
    var suffix = 2
    while indexesByKey[key] != nil {
      key = "\(base)_\(suffix)"
      suffix += 1
    }
    definitions.append(Definition(type: type, key: key, title: title))
    let index = definitions.count - 1
    indexes[ObjectIdentifier(type)] = index
    indexesByKey[key] = index
    return index
  }

  private func finish(_ index: Int, kind: String, _ schema: JSONValue) {
    var members: [(key: String, value: JSONValue)] = [
      ("title", .string(definitions[index].title)), ("x-tca-kind", .string(kind)),
    ]
    if case let .object(own) = schema {
      members += own.filter { $0.key != "title" && $0.key != "x-tca-kind" }
    } else {
      members.append(("allOf", .array([schema])))
    }
    definitions[index].schema = .object(members)
  }

  /// Forgets every definition made since `checkpoint` (a derivation given up).
  private func rollBack(to checkpoint: Int) {
    while definitions.count > checkpoint, let last = definitions.popLast() {
      let id = ObjectIdentifier(last.type)
      indexes[id] = nil
      indexesByKey[last.key] = nil
      samples[id] = nil
      inline[id] = nil
    }
  }

  // MARK: - Derivation

  /// Derives `type` from its `init(from:)` (and its `encode(to:)`, if it has one).
  private func derive<T: Decodable>(_ type: T.Type) throws(JSONSchemaError) -> JSONValue {
    let id = ObjectIdentifier(type)
    let checkpoint = definitions.count
    let index = reserve(type)
    do {
      if let (schema, first) = scalarEnum(type) {
        finish(index, kind: "enum", schema)
        samples[id] = first
        return reference(index)
      }
      try probe(type, index)
      if definitions[index].isDropped, let schema = inline[id] { return schema }
      return reference(index)
    } catch {
      rollBack(to: checkpoint)
      throw error
    }
  }

  /// An enum without payloads whose cases are written as strings (or numbers): a raw-value
  /// enum, `{"type":"string","enum":["all","active"]}`, and its first case.
  private func scalarEnum<T>(_ type: T.Type) -> (JSONValue, T)? {
    guard let values = EnumCases.all(type), let first = values.first else { return nil }
    var written: [JSONValue] = []
    for value in values {
      guard let encodable = value as? any Encodable,
        let bytes = try? JSONEncoder().encode(encodable),
        let json = try? JSONParser.parse(bytes)
      else { return nil }
      written.append(json)
    }
    if written.allSatisfy({ if case .string = $0 { true } else { false } }) {
      return (.object([("type", "string"), ("enum", .array(written))]), first)
    }
    if written.allSatisfy({ if case .number = $0 { true } else { false } }) {
      return (.object([("enum", .array(written))]), first)
    }
    return nil
  }

  /// Runs `type`'s `init(from:)` against the probe: once, or once per case for an enum (whose
  /// decoder lists the keys of its object); fills definition `index`.
  private func probe<T: Decodable>(_ type: T.Type, _ index: Int) throws(JSONSchemaError) {
    let id = ObjectIdentifier(type)
    let first = try run(type, case: 0)
    guard case let .keyed(keyed) = first.record.form, keyed.listsKeys else {
      guard let value = first.value else {
        throw JSONSchemaError(type, "it contains itself where a value is needed, with no end")
      }
      samples[id] = value
      try finishValue(type, index, record: first.record, value: value)
      return
    }
    let names = keyed.caseNames
    var records: [Int: ValueRecord] = [:]
    var pending: [Int] = []
    func take(_ outcome: ProbeRun<T>, _ number: Int) {
      if let value = outcome.value {
        records[number] = outcome.record
        if samples[id] == nil { samples[id] = value }
      } else {
        pending.append(number)
      }
    }
    take(first, 0)
    for number in names.indices.dropFirst() { take(try run(type, case: number), number) }
    // NB: a case that holds the enum itself (an indirect case) needs a value of it: it is run
    // again once another case has made one.
    while !pending.isEmpty {
      let waiting = pending
      pending = []
      for number in waiting { take(try run(type, case: number), number) }
      guard pending.count < waiting.count else {
        throw JSONSchemaError(type, "each of its cases contains itself: no value of it can be made")
      }
    }
    let cases = names.indices.map { number in
      ProbeSchemas.caseSchema(
        name: names[number], member: records[number].flatMap { $0.keyedMember(names[number]) })
    }
    finish(index, kind: "action", .object([("oneOf", .array(cases))]))
  }

  /// Fills the definition of a type that is not an enum of cases: an object (with what its
  /// `encode(to:)` writes), or, for one read as a single value or an array, its schema inline.
  private func finishValue<T>(
    _ type: T.Type, _ index: Int, record: ValueRecord, value: T
  ) throws(JSONSchemaError) {
    switch record.form {
    case let .keyed(keyed):
      var written: KeyedRecord?
      if let encodable = value as? any Encodable,
        case let .keyed(record) = try encodeProbe(encodable, as: type).form
      {
        written = record
      }
      finish(index, kind: "struct", ProbeSchemas.objectSchema(read: keyed, written: written))
    case .unkeyed, .single, .untouched:
      let schema = ProbeSchemas.schema(of: record)
      guard definitions[index].references == 0 else {
        return finish(index, kind: "struct", schema)
      }
      definitions[index].isDropped = true
      indexes[ObjectIdentifier(type)] = nil
      indexesByKey[definitions[index].key] = nil
      inline[ObjectIdentifier(type)] = schema
    }
  }

  /// What `value` writes, recorded.
  private func encodeProbe<T>(
    _ value: any Encodable, as type: T.Type
  ) throws(JSONSchemaError) -> ValueRecord {
    let record = ValueRecord()
    do {
      try value.encode(to: SchemaProbeEncoder(builder: self, record: record))
    } catch let error as JSONSchemaError {
      throw error
    } catch {
      throw JSONSchemaError(
        type, "its encode(to:) threw \(Self.describe(error)); make it JSONSchemaDescribing")
    }
    return record
  }

  /// Derives a type that is only `Encodable` from what `value` writes.
  private func deriveEncoded<T: Encodable>(_ value: T) throws(JSONSchemaError) -> JSONValue {
    let checkpoint = definitions.count
    let index = reserve(T.self)
    do {
      let record = try encodeProbe(value, as: T.self)
      guard case let .keyed(keyed) = record.form else {
        let schema = ProbeSchemas.schema(of: record)
        if definitions[index].references == 0 {
          definitions[index].isDropped = true
          indexes[ObjectIdentifier(T.self)] = nil
          indexesByKey[definitions[index].key] = nil
          inline[ObjectIdentifier(T.self)] = schema
          return schema
        }
        finish(index, kind: "struct", schema)
        return reference(index)
      }
      finish(index, kind: "struct", ProbeSchemas.objectSchema(read: nil, written: keyed))
      return reference(index)
    } catch {
      rollBack(to: checkpoint)
      throw error
    }
  }

  /// One run of `type`'s `init(from:)`: its value and what it read, or (value nil) what it read
  /// before it needed a value of itself that there is none of yet.
  private func run<T: Decodable>(_ type: T.Type, case number: Int) throws(JSONSchemaError)
    -> ProbeRun<T>
  {
    let record = ValueRecord()
    let decoder = SchemaProbeDecoder(builder: self, record: record, caseNumber: number)
    do {
      let value = try T(from: decoder)
      if let failure = record.failure { throw JSONSchemaError(type, failure) }
      return ProbeRun(value: value, record: record)
    } catch let error as JSONSchemaError {
      if error.awaiting == ObjectIdentifier(type) { return ProbeRun(value: nil, record: record) }
      throw error
    } catch {
      if let failure = record.failure { throw JSONSchemaError(type, failure) }
      throw JSONSchemaError(
        type,
        "its init(from:) threw \(Self.describe(error)) for a probe value; make it "
          + "JSONSchemaDescribing")
    }
  }

  /// An error as a message quotes it: one line, bounded.
  static func describe(_ error: any Error) -> String {
    let text: String
    switch error {
    case let error as JSONError: text = error.description
    case let .dataCorrupted(context) as DecodingError: text = context.debugDescription
    case let .typeMismatch(_, context) as DecodingError: text = context.debugDescription
    case let .valueNotFound(_, context) as DecodingError: text = context.debugDescription
    case let .keyNotFound(key, _) as DecodingError: text = "missing member \(key.stringValue)"
    default: text = "\(error)"
    }
    return JSONError.quoted(text, limit: 200)
  }

  // MARK: - Values

  /// A value of `T` for a probe's `decode` to return: one derived before, or one decoded from
  /// the simplest JSON its schema allows.
  func sample<T: Decodable>(
    _ type: T.Type, schema: JSONValue
  ) throws(JSONSchemaError) -> T {
    let id = ObjectIdentifier(type)
    if let value = samples[id] as? T { return value }
    let example = try self.example(of: schema, depth: 0)
    do {
      let value = try JSONDecoder().decode(type, from: JSONWriter.write(example))
      samples[id] = value
      return value
    } catch {
      let text = String(decoding: JSONWriter.write(example), as: UTF8.self)
      throw JSONSchemaError(
        type,
        "its init(from:) refuses \(JSONError.quoted(text)), which its schema allows "
          + "(\(error.message)); make it JSONSchemaDescribing")
    }
  }

  /// The simplest JSON `schema` allows: `null` where it may, empty arrays, the first case, the
  /// required members only.
  func example(of schema: JSONValue, depth: Int) throws(JSONSchemaError) -> JSONValue {
    guard depth < 64 else {
      throw JSONSchemaError(typeName: "a value", reason: "its schema nests too deep to make one")
    }
    guard case .object = schema else { return .null }
    if let key = referencedKey(schema), let index = indexesByKey[key] {
      let definition = definitions[index]
      if let value = samples[ObjectIdentifier(definition.type)] as? any Encodable,
        let bytes = try? JSONEncoder().encode(value), let json = try? JSONParser.parse(bytes)
      {
        return json
      }
      guard let definition = definition.schema else {
        var error = JSONSchemaError(definition.type, "it contains itself with no end")
        error.awaiting = ObjectIdentifier(definition.type)
        throw error
      }
      return try example(of: definition, depth: depth + 1)
    }
    if let constant = schema["const"] { return constant }
    if case let .array(values)? = schema["enum"], let first = values.first { return first }
    if case let .array(alternatives)? = schema["anyOf"] ?? schema["oneOf"] ?? schema["allOf"] {
      if Self.acceptsNull(schema) { return .null }
      var firstError: JSONSchemaError?
      for alternative in alternatives {
        do throws(JSONSchemaError) {
          return try example(of: alternative, depth: depth + 1)
        } catch {
          firstError = firstError ?? error
        }
      }
      if let firstError { throw firstError }
      return .null
    }
    switch schema["type"] {
    case "boolean": return .bool(false)
    case "string":
      return schema["format"] == "uuid" ? "00000000-0000-0000-0000-000000000000" : ""
    case "integer", "number":
      if case let .number(minimum)? = schema["minimum"], let low = Int(minimum), low > 0 {
        return .number(minimum)
      }
      if case let .number(maximum)? = schema["maximum"], let high = Int(maximum), high < 0 {
        return .number(maximum)
      }
      return .number("0")
    case "array":
      guard case let .array(items)? = schema["prefixItems"] else { return .array([]) }
      var elements: [JSONValue] = []
      for item in items { elements.append(try example(of: item, depth: depth + 1)) }
      return .array(elements)
    case "object":
      guard case let .array(required)? = schema["required"] else { return .object([]) }
      var members: [(key: String, value: JSONValue)] = []
      for case let .string(name) in required {
        let member = schema["properties"]?[name] ?? true
        members.append((name, try example(of: member, depth: depth + 1)))
      }
      return .object(members)
    default: return .null
    }
  }
}

/// What one run of a probe gave.
struct ProbeRun<T> {
  let value: T?
  let record: ValueRecord
}
