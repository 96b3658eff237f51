/// The `Encoder` that writes a value straight into the output of an ``EncodingState``.
///
/// It stands for one slot, a place where one value goes: its depth (the frames around it) and
/// the slot's id. Its containers are handles on frames. All are small values: handing them out
/// allocates nothing but the box `KeyedEncodingContainer` puts a keyed container in.
///
///     try todo.encode(to: StreamEncoder(statePointer, depth: 0, slot: EncodingState.rootSlot))
struct StreamEncoder: Encoder, SingleValueEncodingContainer {
  let state: UnsafeMutablePointer<EncodingState>
  let depth: UInt32
  let slot: UInt32

  init(_ state: UnsafeMutablePointer<EncodingState>, depth: UInt32, slot: UInt32) {
    self.state = state
    self.depth = depth
    self.slot = slot
  }

  var codingPath: [any CodingKey] { state.pointee.codingPath(depth: Int(depth)) }
  var userInfo: [CodingUserInfoKey: Any] { state.pointee.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let frame = state.pointee.open(isObject: true, slot: slot, depth: depth)
    return KeyedEncodingContainer(KeyedStreamContainer<Key>(state, frame: frame))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedStreamContainer(
      state, frame: state.pointee.open(isObject: false, slot: slot, depth: depth))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: - Single values

  /// Claims the slot for a single value; a second value in it poisons the state.pointee.
  @inline(__always)
  private func claim() throws {
    guard state.pointee.take(slot: slot, depth: depth) else {
      state.pointee.poison()
      throw EncodingState.Restart()
    }
  }

  func encodeNil() throws {
    try claim()
    state.pointee.out.append("null")
  }

  func encode(_ value: Bool) throws {
    try claim()
    state.pointee.out.append(value ? "true" : "false")
  }

  func encode(_ value: String) throws {
    try claim()
    state.pointee.out.appendString(value)
  }

  func encode(_ value: Double) throws {
    guard value.isFinite else {
      throw state.pointee.unencodable(value, depth: Int(depth), key: nil)
    }
    try claim()
    state.pointee.out.appendDouble(value)
  }

  func encode(_ value: Float) throws {
    guard value.isFinite else {
      throw state.pointee.unencodable(value, depth: Int(depth), key: nil)
    }
    try claim()
    state.pointee.out.appendFloat(value)
  }

  @inline(__always)
  private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
    try claim()
    state.pointee.out.appendInteger(value)
  }

  func encode(_ value: Int) throws { try encodeInteger(value) }
  func encode(_ value: Int8) throws { try encodeInteger(value) }
  func encode(_ value: Int16) throws { try encodeInteger(value) }
  func encode(_ value: Int32) throws { try encodeInteger(value) }
  func encode(_ value: Int64) throws { try encodeInteger(value) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: Int128) throws { try encodeInteger(value) }
  func encode(_ value: UInt) throws { try encodeInteger(value) }
  func encode(_ value: UInt8) throws { try encodeInteger(value) }
  func encode(_ value: UInt16) throws { try encodeInteger(value) }
  func encode(_ value: UInt32) throws { try encodeInteger(value) }
  func encode(_ value: UInt64) throws { try encodeInteger(value) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: UInt128) throws { try encodeInteger(value) }

  func encode<T: Encodable>(_ value: T) throws {
    // NB: a wrapper (`RawRepresentable`, a tagged id) writes its value into its own slot.
    guard state.pointee.isPending(slot: slot, depth: depth) else {
      state.pointee.poison()
      throw EncodingState.Restart()
    }
    try value.encode(to: self)
  }
}
