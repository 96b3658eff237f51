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

/// The fallback encoder: builds a ``JSONValue`` tree, so any use of containers works, in any
/// order, a repeated member name overwriting the earlier one (as with Foundation).
///
/// ``JSONEncoder`` uses it only when ``StreamEncoder`` cannot stream a value (see
/// ``EncodingState``); it is slower (a class instance per value) but never wrong.
///
///     let root = Node()
///     try value.encode(to: TreeEncoder(node: root, codingPath: []))
///     JSONWriter.write(root.value)
struct TreeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.content {} else { node.content = .object([]) }
    return KeyedEncodingContainer(TreeKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
    return TreeUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension TreeEncoder: SingleValueEncodingContainer {
  func encodeNil() { node.content = .value(.null) }
  func encode(_ value: Bool) { node.content = .value(.bool(value)) }
  func encode(_ value: String) { node.content = .value(.string(value)) }

  func encode(_ value: Double) throws {
    guard value.isFinite else {
      throw JSONError(
        .unencodable, path: pointer(codingPath), "\(value) cannot be written as JSON")
    }
    node.content = .value(.number(numberText { $0.appendDouble(value) }))
  }

  func encode(_ value: Float) throws {
    guard value.isFinite else {
      throw JSONError(
        .unencodable, path: pointer(codingPath), "\(value) cannot be written as JSON")
    }
    node.content = .value(.number(numberText { $0.appendFloat(value) }))
  }

  func encode(_ value: Int) { node.content = .value(.number(String(value))) }
  func encode(_ value: Int8) { encode(Int(value)) }
  func encode(_ value: Int16) { encode(Int(value)) }
  func encode(_ value: Int32) { encode(Int(value)) }
  func encode(_ value: Int64) { encode(Int(value)) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: Int128) { node.content = .value(.number(String(value))) }
  func encode(_ value: UInt) { node.content = .value(.number(String(value))) }
  func encode(_ value: UInt8) { encode(Int(value)) }
  func encode(_ value: UInt16) { encode(Int(value)) }
  func encode(_ value: UInt32) { encode(Int(value)) }
  func encode(_ value: UInt64) { node.content = .value(.number(String(value))) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: UInt128) { node.content = .value(.number(String(value))) }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  func encoder(for key: Key) -> TreeEncoder {
    TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
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
    TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
  }

  func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  var count: Int {
    if case let .array(nodes) = node.content { return nodes.count }
    return 0
  }

  func next() -> TreeEncoder {
    TreeEncoder(node: node.appendChild(), codingPath: codingPath + [AnyCodingKey(index: count)])
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

/// The JSON text of a number written by `write`.
private func numberText(_ write: (inout OutputBuffer) -> Void) -> String {
  var out = OutputBuffer(capacity: 32)
  write(&out)
  return String(decoding: out.written, as: UTF8.self)
}
