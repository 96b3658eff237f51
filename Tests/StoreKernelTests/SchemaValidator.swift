import JSON

/// A small JSON Schema validator for the keywords feature schemas use (type, properties,
/// required, additionalProperties, items, prefixItems, minItems, anyOf, oneOf, allOf, const,
/// enum, minimum, maximum, maxProperties, $ref into `$defs`): enough to check derived schemas
/// against the JSON the library reads and writes in Swift. The Python tests check the built-in
/// features with an independent validator (`jsonschema`).
struct SchemaValidator {
  /// The document whose `$defs` `$ref`s point into.
  let document: JSONValue

  func accepts(_ value: JSONValue, _ schema: JSONValue) -> Bool {
    switch schema {
    case let .bool(result): return result
    case .object: break
    default: return false
    }
    if case let .string(target)? = schema["$ref"] {
      let key = String(target.dropFirst("#/$defs/".count))
      guard let definition = document["$defs"]?[key] else { return false }
      return accepts(value, definition)
    }
    if let constant = schema["const"], !same(constant, value) { return false }
    if case let .array(values)? = schema["enum"], !values.contains(where: { same($0, value) }) {
      return false
    }
    if case let .string(type)? = schema["type"], !hasType(value, type) { return false }
    if case let .array(all)? = schema["allOf"], !all.allSatisfy({ accepts(value, $0) }) {
      return false
    }
    if case let .array(any)? = schema["anyOf"], !any.contains(where: { accepts(value, $0) }) {
      return false
    }
    if case let .array(one)? = schema["oneOf"], one.filter({ accepts(value, $0) }).count != 1 {
      return false
    }
    if case let .number(text) = value, let number = Double(text) {
      if case let .number(low)? = schema["minimum"], let low = Double(low), number < low {
        return false
      }
      if case let .number(high)? = schema["maximum"], let high = Double(high), number > high {
        return false
      }
    }
    if case let .object(members) = value {
      if case let .array(required)? = schema["required"] {
        for case let .string(name) in required where !members.contains(where: { $0.key == name }) {
          return false
        }
      }
      if case let .number(most)? = schema["maxProperties"], let most = Int(most),
        members.count > most
      {
        return false
      }
      for (name, member) in members {
        if let property = schema["properties"]?[name] {
          if !accepts(member, property) { return false }
        } else if let additional = schema["additionalProperties"], !accepts(member, additional) {
          return false
        }
      }
    }
    if case let .array(elements) = value {
      var rest = elements[...]
      if case let .array(prefix)? = schema["prefixItems"] {
        for item in prefix {
          guard let first = rest.first else { break }
          if !accepts(first, item) { return false }
          rest = rest.dropFirst()
        }
      }
      if let items = schema["items"], !rest.allSatisfy({ accepts($0, items) }) { return false }
      if case let .number(least)? = schema["minItems"], let least = Int(least),
        elements.count < least
      {
        return false
      }
    }
    return true
  }

  func accepts(_ text: String, _ schema: JSONValue) -> Bool {
    guard let value = try? JSONParser.parse(Array(text.utf8)) else { return false }
    return accepts(value, schema)
  }

  private func hasType(_ value: JSONValue, _ type: String) -> Bool {
    switch (value, type) {
    case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"),
      (.object, "object"), (.number, "number"):
      return true
    case let (.number(text), "integer"):
      return Double(text).map { $0 == $0.rounded() } ?? false
    default:
      return false
    }
  }

  private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if case let .number(x) = a, case let .number(y) = b { return Double(x) == Double(y) }
    return a == b
  }
}
