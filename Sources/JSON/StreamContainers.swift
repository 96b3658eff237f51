/// A keyed container writing members into an open object of the output.
struct KeyedStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let state: UnsafeMutablePointer<EncodingState>
  let frame: EncodingState.FrameHandle

  init(_ state: UnsafeMutablePointer<EncodingState>, frame: EncodingState.FrameHandle) {
    self.state = state
    self.frame = frame
  }

  var codingPath: [any CodingKey] { state.pointee.codingPath(depth: Int(frame.index)) }

  /// Makes this object the innermost open frame and writes `"name":`.
  @inline(__always)
  private func begin(_ key: Key) throws {
    guard state.pointee.enter(frame) else { throw EncodingState.Restart() }
    state.pointee.writeKey(key, in: frame)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try begin(key)
    state.pointee.out.append("null")
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try begin(key)
    state.pointee.out.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    try begin(key)
    state.pointee.out.appendString(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    guard value.isFinite else {
      throw state.pointee.unencodable(value, depth: Int(frame.index) + 1, key: key)
    }
    try begin(key)
    state.pointee.out.appendDouble(value)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    guard value.isFinite else {
      throw state.pointee.unencodable(value, depth: Int(frame.index) + 1, key: key)
    }
    try begin(key)
    state.pointee.out.appendFloat(value)
  }

  @inline(__always)
  private mutating func encodeInteger<T: FixedWidthInteger>(_ value: T, forKey key: Key) throws {
    try begin(key)
    state.pointee.out.appendInteger(value)
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    try encodeInteger(value, forKey: key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try begin(key)
    let depth = frame.index + 1
    try value.encode(to: StreamEncoder(state, depth: depth, slot: state.pointee.newSlot()))
    state.pointee.close(to: Int(depth))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    guard (try? begin(key)) != nil else {
      return KeyedEncodingContainer(KeyedStreamContainer<NestedKey>(state, frame: .dead))
    }
    return KeyedEncodingContainer(
      KeyedStreamContainer<NestedKey>(state, frame: state.pointee.push(isObject: true)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    guard (try? begin(key)) != nil else { return UnkeyedStreamContainer(state, frame: .dead) }
    return UnkeyedStreamContainer(state, frame: state.pointee.push(isObject: false))
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue)
  }

  private func superEncoder(named name: String) -> any Encoder {
    guard state.pointee.enter(frame) else {
      return StreamEncoder(state, depth: UInt32(Int32.max), slot: 0)
    }
    var name = name
    name.withUTF8 { state.pointee.writeKey(utf8: $0, in: frame, keyType: Key.self) }
    return StreamEncoder(state, depth: frame.index + 1, slot: state.pointee.newSlot())
  }
}

/// An unkeyed container writing elements into an open array of the output.
struct UnkeyedStreamContainer: UnkeyedEncodingContainer {
  let state: UnsafeMutablePointer<EncodingState>
  let frame: EncodingState.FrameHandle

  init(_ state: UnsafeMutablePointer<EncodingState>, frame: EncodingState.FrameHandle) {
    self.state = state
    self.frame = frame
  }

  var codingPath: [any CodingKey] { state.pointee.codingPath(depth: Int(frame.index)) }
  var count: Int { state.pointee.count(of: frame) }

  /// Makes this array the innermost open frame and writes the separator.
  @inline(__always)
  private func begin() throws {
    guard state.pointee.enter(frame) else { throw EncodingState.Restart() }
    state.pointee.beginElement(frame)
  }

  mutating func encodeNil() throws {
    try begin()
    state.pointee.out.append("null")
  }

  mutating func encode(_ value: Bool) throws {
    try begin()
    state.pointee.out.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String) throws {
    try begin()
    state.pointee.out.appendString(value)
  }

  mutating func encode(_ value: Double) throws {
    guard value.isFinite else { throw unencodable(value) }
    try begin()
    state.pointee.out.appendDouble(value)
  }

  mutating func encode(_ value: Float) throws {
    guard value.isFinite else { throw unencodable(value) }
    try begin()
    state.pointee.out.appendFloat(value)
  }

  private func unencodable(_ value: some FloatingPoint) -> JSONError {
    state.pointee.unencodable(value, depth: Int(frame.index) + 1, key: AnyCodingKey(index: count))
  }

  @inline(__always)
  private mutating func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
    try begin()
    state.pointee.out.appendInteger(value)
  }

  mutating func encode(_ value: Int) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128) throws { try encodeInteger(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try begin()
    let depth = frame.index + 1
    try value.encode(to: StreamEncoder(state, depth: depth, slot: state.pointee.newSlot()))
    state.pointee.close(to: Int(depth))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    guard (try? begin()) != nil else {
      return KeyedEncodingContainer(KeyedStreamContainer<NestedKey>(state, frame: .dead))
    }
    return KeyedEncodingContainer(
      KeyedStreamContainer<NestedKey>(state, frame: state.pointee.push(isObject: true)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    guard (try? begin()) != nil else { return UnkeyedStreamContainer(state, frame: .dead) }
    return UnkeyedStreamContainer(state, frame: state.pointee.push(isObject: false))
  }

  mutating func superEncoder() -> any Encoder {
    guard (try? begin()) != nil else {
      return StreamEncoder(state, depth: UInt32(Int32.max), slot: 0)
    }
    return StreamEncoder(state, depth: frame.index + 1, slot: state.pointee.newSlot())
  }
}
