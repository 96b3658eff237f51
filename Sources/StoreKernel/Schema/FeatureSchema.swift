import JSON
import Synchronization

/// A feature's schema document (docs/schema.md): the JSON Schemas of its state, its actions and
/// its requests' payloads and answers, their named types in `$defs`.
///
///     {"feature":"counter","$schema":"https://json-schema.org/draft/2020-12/schema",
///      "state":{"$ref":"#/$defs/Counter.State"},"action":{"$ref":"#/$defs/Counter.Action"},
///      "requests":{"numberFact.fetch":{"kind":"oneShot","payload":…,"response":…}},
///      "$defs":{…}}
public enum FeatureSchema {
  /// The dialect every document declares.
  public static let dialect = "https://json-schema.org/draft/2020-12/schema"

  /// The document of the feature `name` whose state is `State` and actions `Action`.
  public static func document<State, Action>(
    feature name: String, state: State.Type, action: Action.Type,
    requests: [HostRequestDeclaration]
  ) throws(JSONSchemaError) -> JSONValue {
    let builder = JSONSchemaBuilder()
    let stateSchema = try builder.schema(for: state)
    let actionSchema = try builder.schema(for: action)
    var entries: [(key: String, value: JSONValue)] = []
    var seen: Set<String> = []
    // NB: a name declared twice is one request: the first declaration says what it carries.
    for request in requests where seen.insert(request.name).inserted {
      entries.append((request.name, try request.schema(in: builder)))
    }
    let requestsSchema: JSONValue = .object(entries)
    return .object([
      ("feature", .string(name)), ("$schema", .string(dialect)), ("state", stateSchema),
      ("action", actionSchema), ("requests", requestsSchema),
      ("$defs", builder.definitions(reachableFrom: [stateSchema, actionSchema, requestsSchema])),
    ])
  }
}

/// A feature's schema document as JSON text, derived on first use and kept.
@usableFromInline
final class FeatureSchemaCache: Sendable {
  private let make: @Sendable () throws(JSONSchemaError) -> JSONValue
  private let made = Mutex<Result<[UInt8], JSONSchemaError>?>(nil)

  @usableFromInline
  init(_ make: @escaping @Sendable () throws(JSONSchemaError) -> JSONValue) {
    self.make = make
  }

  /// The document; derived by the first call (the others wait for it).
  func json() throws(JSONSchemaError) -> [UInt8] {
    try made.withLock { (made) throws(JSONSchemaError) -> [UInt8] in
      if let made { return try made.get() }
      let result: Result<[UInt8], JSONSchemaError>
      do throws(JSONSchemaError) {
        result = .success(JSONWriter.write(try make()))
      } catch {
        result = .failure(error)
      }
      made = result
      return try result.get()
    }
  }
}
