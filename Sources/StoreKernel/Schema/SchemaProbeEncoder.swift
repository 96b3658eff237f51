import JSON

/// The encoder a derived type's value writes itself to: it records the members written, in
/// order, each with the schema of its static type (``JSONSchemaBuilder/schema(of:)``), and
/// whether it is always written (`encode`, `encodeNil`) or left out when nil
/// (`encodeIfPresent`). Nothing is written anywhere: a member's value is not encoded.
struct SchemaProbeEncoder: Encoder {
  let builder: JSONSchemaBuilder
  let record: ValueRecord
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      ProbeKeyedEncodingContainer<Key>(builder: builder, record: record.keyed(Key.self)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ProbeUnkeyedEncodingContainer(builder: builder, record: record.unkeyed())
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ProbeSingleValueEncodingContainer(builder: builder, record: record.single())
  }
}

struct ProbeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let builder: JSONSchemaBuilder
  let record: KeyedRecord
  var codingPath: [any CodingKey] { [] }

  private func write(_ key: Key, _ type: any JSONSchemaDescribing.Type) {
    record.member(key.stringValue).schema = scalarSchema(type, builder)
  }

  private func writeIfPresent(_ key: Key, _ type: any JSONSchemaDescribing.Type) {
    let member = record.member(key.stringValue)
    member.schema = scalarSchema(type, builder)
    member.isOptional = true
    member.isNullable = true
  }

  mutating func encodeNil(forKey key: Key) throws {
    record.member(key.stringValue).isNullable = true
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    write(key, Bool.self)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    write(key, String.self)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    write(key, Double.self)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    write(key, Float.self)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    write(key, Int.self)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    write(key, Int8.self)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    write(key, Int16.self)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    write(key, Int32.self)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    write(key, Int64.self)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    write(key, UInt.self)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    write(key, UInt8.self)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    write(key, UInt16.self)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    write(key, UInt32.self)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    write(key, UInt64.self)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    write(key, Int128.self)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    write(key, UInt128.self)
  }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    writeIfPresent(key, Bool.self)
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    writeIfPresent(key, String.self)
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    writeIfPresent(key, Double.self)
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    writeIfPresent(key, Float.self)
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    writeIfPresent(key, Int.self)
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    writeIfPresent(key, Int8.self)
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    writeIfPresent(key, Int16.self)
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    writeIfPresent(key, Int32.self)
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    writeIfPresent(key, Int64.self)
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    writeIfPresent(key, UInt.self)
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    writeIfPresent(key, UInt8.self)
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    writeIfPresent(key, UInt16.self)
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    writeIfPresent(key, UInt32.self)
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    writeIfPresent(key, UInt64.self)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
    writeIfPresent(key, Int128.self)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
    writeIfPresent(key, UInt128.self)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    record.member(key.stringValue).schema = try builder.schema(of: value)
  }

  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    let member = record.member(key.stringValue)
    member.schema =
      try value.map { (value) throws(JSONSchemaError) in try builder.schema(of: value) }
      ?? builder.schema(for: T.self)
    member.isOptional = true
    member.isNullable = true
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      ProbeKeyedEncodingContainer<NestedKey>(
        builder: builder, record: nestedRecord(key.stringValue).keyed(NestedKey.self)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ProbeUnkeyedEncodingContainer(builder: builder, record: nestedRecord(key.stringValue).unkeyed())
  }

  mutating func superEncoder() -> any Encoder {
    SchemaProbeEncoder(builder: builder, record: nestedRecord("super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    SchemaProbeEncoder(builder: builder, record: nestedRecord(key.stringValue))
  }

  private func nestedRecord(_ name: String) -> ValueRecord {
    let member = record.member(name)
    if let nested = member.nested { return nested }
    let nested = ValueRecord()
    member.nested = nested
    return nested
  }
}

struct ProbeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let builder: JSONSchemaBuilder
  let record: UnkeyedRecord
  var codingPath: [any CodingKey] { [] }
  var count: Int { record.items.count }

  init(builder: JSONSchemaBuilder, record: UnkeyedRecord) {
    self.builder = builder
    self.record = record
    // NB: a list written element by element: its elements' schemas make the items'.
    record.asksForEnd = true
  }

  private func item() -> MemberRecord {
    let item = MemberRecord()
    record.items.append(item)
    return item
  }

  mutating func encodeNil() throws {
    item().isNullable = true
  }

  mutating func encode(_ value: Bool) throws {
    item().schema = scalarSchema(Bool.self, builder)
  }
  mutating func encode(_ value: String) throws {
    item().schema = scalarSchema(String.self, builder)
  }
  mutating func encode(_ value: Double) throws {
    item().schema = scalarSchema(Double.self, builder)
  }
  mutating func encode(_ value: Float) throws {
    item().schema = scalarSchema(Float.self, builder)
  }
  mutating func encode(_ value: Int) throws {
    item().schema = scalarSchema(Int.self, builder)
  }
  mutating func encode(_ value: Int8) throws {
    item().schema = scalarSchema(Int8.self, builder)
  }
  mutating func encode(_ value: Int16) throws {
    item().schema = scalarSchema(Int16.self, builder)
  }
  mutating func encode(_ value: Int32) throws {
    item().schema = scalarSchema(Int32.self, builder)
  }
  mutating func encode(_ value: Int64) throws {
    item().schema = scalarSchema(Int64.self, builder)
  }
  mutating func encode(_ value: UInt) throws {
    item().schema = scalarSchema(UInt.self, builder)
  }
  mutating func encode(_ value: UInt8) throws {
    item().schema = scalarSchema(UInt8.self, builder)
  }
  mutating func encode(_ value: UInt16) throws {
    item().schema = scalarSchema(UInt16.self, builder)
  }
  mutating func encode(_ value: UInt32) throws {
    item().schema = scalarSchema(UInt32.self, builder)
  }
  mutating func encode(_ value: UInt64) throws {
    item().schema = scalarSchema(UInt64.self, builder)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128) throws {
    item().schema = scalarSchema(Int128.self, builder)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128) throws {
    item().schema = scalarSchema(UInt128.self, builder)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    item().schema = try builder.schema(of: value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ValueRecord()
    item().nested = nested
    return KeyedEncodingContainer(
      ProbeKeyedEncodingContainer<NestedKey>(builder: builder, record: nested.keyed(NestedKey.self))
    )
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ValueRecord()
    item().nested = nested
    return ProbeUnkeyedEncodingContainer(builder: builder, record: nested.unkeyed())
  }

  mutating func superEncoder() -> any Encoder {
    let nested = ValueRecord()
    item().nested = nested
    return SchemaProbeEncoder(builder: builder, record: nested)
  }
}

struct ProbeSingleValueEncodingContainer: SingleValueEncodingContainer {
  let builder: JSONSchemaBuilder
  let record: MemberRecord
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws {
    record.isNullable = true
  }

  mutating func encode(_ value: Bool) throws {
    record.schema = scalarSchema(Bool.self, builder)
  }
  mutating func encode(_ value: String) throws {
    record.schema = scalarSchema(String.self, builder)
  }
  mutating func encode(_ value: Double) throws {
    record.schema = scalarSchema(Double.self, builder)
  }
  mutating func encode(_ value: Float) throws {
    record.schema = scalarSchema(Float.self, builder)
  }
  mutating func encode(_ value: Int) throws {
    record.schema = scalarSchema(Int.self, builder)
  }
  mutating func encode(_ value: Int8) throws {
    record.schema = scalarSchema(Int8.self, builder)
  }
  mutating func encode(_ value: Int16) throws {
    record.schema = scalarSchema(Int16.self, builder)
  }
  mutating func encode(_ value: Int32) throws {
    record.schema = scalarSchema(Int32.self, builder)
  }
  mutating func encode(_ value: Int64) throws {
    record.schema = scalarSchema(Int64.self, builder)
  }
  mutating func encode(_ value: UInt) throws {
    record.schema = scalarSchema(UInt.self, builder)
  }
  mutating func encode(_ value: UInt8) throws {
    record.schema = scalarSchema(UInt8.self, builder)
  }
  mutating func encode(_ value: UInt16) throws {
    record.schema = scalarSchema(UInt16.self, builder)
  }
  mutating func encode(_ value: UInt32) throws {
    record.schema = scalarSchema(UInt32.self, builder)
  }
  mutating func encode(_ value: UInt64) throws {
    record.schema = scalarSchema(UInt64.self, builder)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128) throws {
    record.schema = scalarSchema(Int128.self, builder)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128) throws {
    record.schema = scalarSchema(UInt128.self, builder)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    record.schema = try builder.schema(of: value)
  }
}
