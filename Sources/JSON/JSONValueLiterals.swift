// String and Boolean literals as JSON values, for values written in code (schemas):
//
//     let schema: JSONValue = .object([("type", "string"), ("uniqueItems", true)])

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}
