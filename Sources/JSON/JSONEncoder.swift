/// Encodes `Encodable` values as compact JSON text.
///
/// Enums are written in Swift's synthesized form (`{"setCount":{"_0":5}}`), the one canonical
/// output form of the wire format; NaN and infinities are errors.
///
///     let bytes = try JSONEncoder().encode(state)
public struct JSONEncoder: Sendable {
  public init() {}

  public func encode<T: Encodable>(_ value: T) throws(JSONError) -> [UInt8] {
    JSONWriter.write(try encodeValue(value))
  }

  public func encodeValue<T: Encodable>(_ value: T) throws(JSONError) -> JSONValue {
    let root = Node()
    do {
      try value.encode(to: NodeEncoder(node: root, codingPath: []))
    } catch let error as JSONError {
      throw error
    } catch {
      throw JSONError(.unencodable, "\(error)")
    }
    return root.value
  }
}

/// A mutable slot in the tree being encoded.
final class Node {
  enum Content {
    case empty
    case value(JSONValue)
    case array([Node])
    case object([(String, Node)])
  }
  var content = Content.empty

  var value: JSONValue {
    switch content {
    case .empty: return .object([])
    case let .value(v): return v
    case let .array(nodes): return .array(nodes.map(\.value))
    case let .object(members): return .object(members.map { ($0.0, $0.1.value) })
    }
  }

  func child(forKey key: String) -> Node {
    if case var .object(members) = content {
      if let existing = members.first(where: { $0.0 == key }) { return existing.1 }
      let node = Node()
      content = .empty  // NB: release the array so the append below does not copy it.
      members.append((key, node))
      content = .object(members)
      return node
    }
    let node = Node()
    content = .object([(key, node)])
    return node
  }

  func appendChild() -> Node {
    let node = Node()
    if case var .array(nodes) = content {
      content = .empty
      nodes.append(node)
      content = .array(nodes)
    } else {
      content = .array([node])
    }
    return node
  }
}

struct NodeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.content {} else { node.content = .object([]) }
    return KeyedEncodingContainer(NodeKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
    return NodeUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension NodeEncoder: SingleValueEncodingContainer {
  func encodeNil() { node.content = .value(.null) }
  func encode(_ value: Bool) { node.content = .value(.bool(value)) }
  func encode(_ value: String) { node.content = .value(.string(value)) }

  func encode(_ value: Double) throws {
    guard value.isFinite else {
      throw JSONError(.unencodable, path: pointer(codingPath), "\(value) cannot be written as JSON")
    }
    node.content = .value(.number(value.description))
  }

  func encode(_ value: Float) throws { try encode(Double(value.description) ?? Double(value)) }
  func encode(_ value: Int) { node.content = .value(.number(String(value))) }
  func encode(_ value: Int8) { encode(Int(value)) }
  func encode(_ value: Int16) { encode(Int(value)) }
  func encode(_ value: Int32) { encode(Int(value)) }
  func encode(_ value: Int64) { encode(Int(value)) }
  func encode(_ value: UInt) { node.content = .value(.number(String(value))) }
  func encode(_ value: UInt8) { encode(Int(value)) }
  func encode(_ value: UInt16) { encode(Int(value)) }
  func encode(_ value: UInt32) { encode(Int(value)) }
  func encode(_ value: UInt64) { node.content = .value(.number(String(value))) }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  func encoder(for key: Key) -> NodeEncoder {
    NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
  }

  func encodeNil(forKey key: Key) { encoder(for: key).encodeNil() }
  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try value.encode(to: encoder(for: key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder(for: key).container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder(for: key).unkeyedContainer()
  }

  func superEncoder() -> any Encoder {
    NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
  }

  func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
}

struct NodeUnkeyedContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  var count: Int {
    if case let .array(nodes) = node.content { return nodes.count }
    return 0
  }

  func next() -> NodeEncoder {
    NodeEncoder(node: node.appendChild(), codingPath: codingPath + [IndexKey(count)])
  }

  func encodeNil() { next().encodeNil() }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: next()) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    next().container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
  func superEncoder() -> any Encoder { next() }
}
