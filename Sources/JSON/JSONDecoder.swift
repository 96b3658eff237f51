/// Decodes `Decodable` values from JSON text.
///
/// Besides Swift's synthesized forms it accepts the host-friendly shorthands of the wire format
/// (docs/wire-format.md): a bare string for an enum case without payload (`"increment"`) and the
/// bare value for a single unlabeled payload (`{"setCount":5}`).
///
///     let action = try JSONDecoder().decode(Counter.Action.self, from: Array(#""increment""#.utf8))
public struct JSONDecoder: Sendable {
  public init() {}

  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONError) -> T {
    try decode(type, from: try JSONParser.parse(bytes))
  }

  public func decode<T: Decodable>(
    _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> T {
    try decode(type, from: try JSONParser.parse(buffer))
  }

  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONError) -> T {
    do {
      return try ValueDecoder(value, path: []).decode(type)
    } catch let error as JSONError {
      throw error
    } catch let error as DecodingError {
      throw JSONError(decoding: error, root: value)
    } catch {
      throw JSONError(.shape, "\(error)")
    }
  }
}

extension JSONError {
  init(decoding error: DecodingError, root: JSONValue) {
    switch error {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .dataCorrupted(context):
      var message = context.debugDescription
      if message.hasPrefix("Invalid number of keys found") {
        message = "expected exactly one known case, found " + describeKeys(at: context.codingPath, in: root)
      }
      self.init(.shape, path: pointer(context.codingPath), message)
    case let .keyNotFound(key, context):
      self.init(.shape, path: pointer(context.codingPath), "missing member \"\(key.stringValue)\"")
    @unknown default:
      self.init(.shape, "\(error)")
    }
  }
}

private func describeKeys(at path: [any CodingKey], in root: JSONValue) -> String {
  var value = root
  for key in path {
    switch value {
    case let .object(members):
      guard let next = members.first(where: { $0.key == key.stringValue }) else { return "nothing" }
      value = next.value
    case let .array(elements):
      guard let index = key.intValue, elements.indices.contains(index) else { return "nothing" }
      value = elements[index]
    default: return value.brief
    }
  }
  if case let .object(members) = value {
    return members.isEmpty ? "no members" : members.map { "\"\($0.key)\"" }.joined(separator: ", ")
  }
  return value.brief
}

/// The JSON Pointer of a coding path: `/todos/3/title`.
func pointer(_ path: [any CodingKey]) -> String {
  var out = ""
  for key in path {
    out += "/"
    if let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index") {
      out += String(index)
    } else {
      out += key.stringValue.replacingAll("~", with: "~0").replacingAll("/", with: "~1")
    }
  }
  return out
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var out = ""
    for character in self {
      if character == target { out += replacement } else { out.append(character) }
    }
    return out
  }
}

struct IndexKey: CodingKey {
  var stringValue: String { String(intValue ?? 0) }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { guard let i = Int(stringValue) else { return nil }; intValue = i }
  init?(intValue: Int) { self.intValue = intValue }
}

struct ValueDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(_ value: JSONValue, path: [any CodingKey]) {
    self.value = value
    self.codingPath = path
  }

  func mismatch(_ expected: String) -> JSONError {
    JSONError(.shape, path: pointer(codingPath), "expected \(expected), found \(value.brief)")
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case let .object(members):
      // NB: `{"teamList":{"searchQueryChanged":"bos"}}`: an object given for a single unlabeled
      // payload is that payload, unless it is already in the synthesized `{"_0":…}` form.
      if Key(stringValue: "_0") != nil, Key(stringValue: "_1") == nil,
        !members.contains(where: { $0.key == "_0" })
      {
        return KeyedDecodingContainer(ScalarKeyedContainer<Key>(value: value, codingPath: codingPath))
      }
      return KeyedDecodingContainer(ObjectContainer<Key>(members: members, codingPath: codingPath))
    case .null, .array:
      if Key(stringValue: "_0") != nil {
        return KeyedDecodingContainer(ScalarKeyedContainer<Key>(value: value, codingPath: codingPath))
      }
      throw mismatch("an object")
    case .string, .number, .bool:
      return KeyedDecodingContainer(ScalarKeyedContainer<Key>(value: value, codingPath: codingPath))
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case let .array(elements) = value else { throw mismatch("an array") }
    return ArrayContainer(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

extension ValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool { value == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case let .bool(b) = value else { throw mismatch("a boolean") }
    return b
  }

  func decode(_ type: String.Type) throws -> String {
    guard case let .string(s) = value else { throw mismatch("a string") }
    return s
  }

  func decode(_ type: Double.Type) throws -> Double {
    guard case let .number(n) = value else { throw mismatch("a number") }
    guard let d = Double(n), d.isFinite else { throw mismatch("a number in Double's range") }
    return d
  }

  func decode(_ type: Float.Type) throws -> Float {
    guard case let .number(n) = value else { throw mismatch("a number") }
    guard let f = Float(n), f.isFinite else { throw mismatch("a number in Float's range") }
    return f
  }

  func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case let .number(n) = value else { throw mismatch("an integer") }
    if let i = T(n) { return i }
    throw mismatch("an integer in \(T.self)'s range")
  }

  func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

/// Keyed access to a JSON object.
struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [(key: String, value: JSONValue)]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

  func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

  func decoder(for key: Key) throws -> ValueDecoder {
    guard let member = members.first(where: { $0.key == key.stringValue }) else {
      throw JSONError(.shape, path: pointer(codingPath), "missing member \"\(key.stringValue)\"")
    }
    return ValueDecoder(member.value, path: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    members.first { $0.key == key.stringValue }.map { $0.value == .null } ?? true
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder(for: key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(for: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(for: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(members.first { $0.key == "super" }?.value ?? .null, path: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

/// A keyed view of a value that is not an object, for the wire format's shorthands:
/// `"increment"` reads as `{"increment":{}}` and `5` as `{"_0":5}`.
struct ScalarKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let value: JSONValue
  let codingPath: [any CodingKey]

  private var caseKey: Key? {
    guard case let .string(name) = value else { return nil }
    return Key(stringValue: name)
  }

  var allKeys: [Key] {
    if let caseKey { return [caseKey] }
    return Key(stringValue: "_0").map { [$0] } ?? []
  }

  func contains(_ key: Key) -> Bool { allKeys.contains { $0.stringValue == key.stringValue } }

  func decoder(for key: Key) throws -> ValueDecoder {
    if let caseKey, caseKey.stringValue == key.stringValue {
      return ValueDecoder(.object([]), path: codingPath + [key])
    }
    if key.stringValue == "_0" { return ValueDecoder(value, path: codingPath + [key]) }
    throw JSONError(.shape, path: pointer(codingPath), "expected an object, found \(value.brief)")
  }

  func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder(for: key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(for: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(for: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { ValueDecoder(value, path: codingPath) }
  func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

/// Sequential access to a JSON array.
struct ArrayContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  mutating func next() throws -> ValueDecoder {
    guard currentIndex < elements.count else {
      throw JSONError(.shape, path: pointer(codingPath), "array has too few elements")
    }
    defer { currentIndex += 1 }
    return ValueDecoder(elements[currentIndex], path: codingPath + [IndexKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard currentIndex < elements.count, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next() }
}
