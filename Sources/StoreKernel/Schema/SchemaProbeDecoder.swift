import JSON

// NB: every container below records what `init(from:)` reads and returns the simplest value
// of each type (0, "", false, nil, an empty array, the first case: ``JSONSchemaBuilder/sample``),
// so that the whole `init(from:)` runs and shows every member it reads.

/// The decoder a type's `init(from:)` runs against to derive its schema: it records what is read
/// (``ValueRecord``) and hands out probe values.
///
/// An enum's synthesized `init(from:)` reads `allKeys` of its object at the root: the probe
/// answers with one case of its `CodingKeys` (`caseNumber`), and the builder runs it once per
/// case.
struct SchemaProbeDecoder: Decoder {
  let builder: JSONSchemaBuilder
  let record: ValueRecord
  /// The record of the run's root value, where failures are noted.
  let root: ValueRecord
  /// The case `allKeys` gives at the root; nil below it.
  let caseNumber: Int?
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(builder: JSONSchemaBuilder, record: ValueRecord, caseNumber: Int) {
    self.builder = builder
    self.record = record
    self.root = record
    self.caseNumber = caseNumber
  }

  init(builder: JSONSchemaBuilder, record: ValueRecord, root: ValueRecord) {
    self.builder = builder
    self.record = record
    self.root = root
    self.caseNumber = nil
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      ProbeKeyedContainer<Key>(
        builder: builder, record: record.keyed(Key.self), root: root, caseNumber: caseNumber))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    ProbeUnkeyedContainer(builder: builder, record: record.unkeyed(), root: root)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ProbeSingleValueContainer(builder: builder, record: record.single(), root: root)
  }
}

/// A probe value of `T`, its schema recorded in `member`.
func probeValue<T: Decodable>(
  _ type: T.Type, into member: MemberRecord, _ builder: JSONSchemaBuilder
) throws -> T {
  let schema = try builder.schema(for: type)
  member.schema = schema
  return try builder.sample(type, schema: schema)
}

/// The schema of a scalar the containers read through their own overloads.
func scalarSchema(
  _ type: any JSONSchemaDescribing.Type, _ builder: JSONSchemaBuilder
) -> JSONValue {
  // NB: scalars describe themselves without throwing.
  (try? type.jsonSchema(in: builder)) ?? true
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let builder: JSONSchemaBuilder
  let record: KeyedRecord
  let root: ValueRecord
  let caseNumber: Int?
  var codingPath: [any CodingKey] { [] }

  /// At the root, one case of an enum's keys (``SchemaProbeDecoder``); below it, nothing:
  /// a type that reads member names it does not know in advance cannot be derived.
  var allKeys: [Key] {
    guard let caseNumber, let cases = EnumCases.all(Key.self) else {
      root.failure =
        root.failure
        ?? "its init(from:) reads the member names of an object (allKeys) whose keys are not "
        + "the cases of an enum; make it JSONSchemaDescribing"
      return []
    }
    record.listsKeys = true
    record.caseNames = cases.map(\.stringValue)
    return caseNumber < cases.count ? [cases[caseNumber]] : []
  }

  /// Present: the probe goes on to read it (and notes it may be missing).
  func contains(_ key: Key) -> Bool {
    record.member(key.stringValue).isOptional = true
    return true
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    record.member(key.stringValue).isNullable = true
    return false
  }

  private func read(_ key: Key, _ type: any JSONSchemaDescribing.Type) {
    record.member(key.stringValue).schema = scalarSchema(type, builder)
  }

  private func readIfPresent(_ key: Key, _ type: any JSONSchemaDescribing.Type) {
    let member = record.member(key.stringValue)
    member.schema = scalarSchema(type, builder)
    member.isOptional = true
    member.isNullable = true
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    read(key, Bool.self)
    return false
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    read(key, String.self)
    return ""
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    read(key, Double.self)
    return 0
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    read(key, Float.self)
    return 0
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    read(key, Int.self)
    return 0
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    read(key, Int8.self)
    return 0
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    read(key, Int16.self)
    return 0
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    read(key, Int32.self)
    return 0
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    read(key, Int64.self)
    return 0
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    read(key, UInt.self)
    return 0
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    read(key, UInt8.self)
    return 0
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    read(key, UInt16.self)
    return 0
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    read(key, UInt32.self)
    return 0
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    read(key, UInt64.self)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    read(key, Int128.self)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    read(key, UInt128.self)
    return 0
  }
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    readIfPresent(key, Bool.self)
    return nil
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    readIfPresent(key, String.self)
    return nil
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    readIfPresent(key, Double.self)
    return nil
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    readIfPresent(key, Float.self)
    return nil
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    readIfPresent(key, Int.self)
    return nil
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    readIfPresent(key, Int8.self)
    return nil
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    readIfPresent(key, Int16.self)
    return nil
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    readIfPresent(key, Int32.self)
    return nil
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    readIfPresent(key, Int64.self)
    return nil
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    readIfPresent(key, UInt.self)
    return nil
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    readIfPresent(key, UInt8.self)
    return nil
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    readIfPresent(key, UInt16.self)
    return nil
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    readIfPresent(key, UInt32.self)
    return nil
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    readIfPresent(key, UInt64.self)
    return nil
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    readIfPresent(key, Int128.self)
    return nil
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    readIfPresent(key, UInt128.self)
    return nil
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try probeValue(type, into: record.member(key.stringValue), builder)
  }

  /// Records the member as optional and returns nil (a value of a type still being derived
  /// may not exist yet).
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    let member = record.member(key.stringValue)
    member.schema = try builder.schema(for: type)
    member.isOptional = true
    member.isNullable = true
    return nil
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let nested = nestedRecord(key)
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        builder: builder, record: nested.keyed(NestedKey.self), root: root, caseNumber: nil))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    ProbeUnkeyedContainer(builder: builder, record: nestedRecord(key).unkeyed(), root: root)
  }

  func superDecoder() throws -> any Decoder {
    SchemaProbeDecoder(builder: builder, record: nestedRecord(named: "super"), root: root)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    SchemaProbeDecoder(builder: builder, record: nestedRecord(key), root: root)
  }

  private func nestedRecord(_ key: Key) -> ValueRecord { nestedRecord(named: key.stringValue) }

  private func nestedRecord(named name: String) -> ValueRecord {
    let member = record.member(name)
    if let nested = member.nested { return nested }
    let nested = ValueRecord()
    member.nested = nested
    return nested
  }
}

/// Reads elements in order; `isAtEnd` is true once one was read, so that a loop over a list
/// reads one element (its schema) and ends.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  /// The most elements a probe reads: a decoder that reads on past it never ends.
  static let limit = 64

  let builder: JSONSchemaBuilder
  let record: UnkeyedRecord
  let root: ValueRecord
  var codingPath: [any CodingKey] { [] }
  var count: Int? { nil }
  private(set) var currentIndex = 0

  init(builder: JSONSchemaBuilder, record: UnkeyedRecord, root: ValueRecord) {
    self.builder = builder
    self.record = record
    self.root = root
  }

  var isAtEnd: Bool {
    record.asksForEnd = true
    return currentIndex >= 1
  }

  /// The record of the element at `currentIndex`, which the read then passes.
  private mutating func item() throws -> MemberRecord {
    guard currentIndex < Self.limit else {
      throw JSONSchemaError(
        typeName: "a list", reason: "its init(from:) reads more than \(Self.limit) elements")
    }
    while record.items.count <= currentIndex { record.items.append(MemberRecord()) }
    let item = record.items[currentIndex]
    currentIndex += 1
    return item
  }

  private mutating func next(_ type: any JSONSchemaDescribing.Type) throws {
    try item().schema = scalarSchema(type, builder)
  }

  mutating func decodeNil() throws -> Bool {
    while record.items.count <= currentIndex { record.items.append(MemberRecord()) }
    record.items[currentIndex].isNullable = true
    return false
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try next(Bool.self)
    return false
  }
  mutating func decode(_ type: String.Type) throws -> String {
    try next(String.self)
    return ""
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try next(Double.self)
    return 0
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    try next(Float.self)
    return 0
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    try next(Int.self)
    return 0
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try next(Int8.self)
    return 0
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try next(Int16.self)
    return 0
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try next(Int32.self)
    return 0
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try next(Int64.self)
    return 0
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try next(UInt.self)
    return 0
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try next(UInt8.self)
    return 0
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try next(UInt16.self)
    return 0
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try next(UInt32.self)
    return 0
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try next(UInt64.self)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 {
    try next(Int128.self)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    try next(UInt128.self)
    return 0
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try probeValue(type, into: try item(), builder)
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    let item = try item()
    item.schema = try builder.schema(for: type)
    item.isNullable = true
    return nil
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let nested = ValueRecord()
    try item().nested = nested
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        builder: builder, record: nested.keyed(NestedKey.self), root: root, caseNumber: nil))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let nested = ValueRecord()
    try item().nested = nested
    return ProbeUnkeyedContainer(builder: builder, record: nested.unkeyed(), root: root)
  }

  mutating func superDecoder() throws -> any Decoder {
    let nested = ValueRecord()
    try item().nested = nested
    return SchemaProbeDecoder(builder: builder, record: nested, root: root)
  }
}

struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  let builder: JSONSchemaBuilder
  let record: MemberRecord
  let root: ValueRecord
  var codingPath: [any CodingKey] { [] }

  func decodeNil() -> Bool {
    record.isNullable = true
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    record.schema = scalarSchema(Bool.self, builder)
    return false
  }
  func decode(_ type: String.Type) throws -> String {
    record.schema = scalarSchema(String.self, builder)
    return ""
  }
  func decode(_ type: Double.Type) throws -> Double {
    record.schema = scalarSchema(Double.self, builder)
    return 0
  }
  func decode(_ type: Float.Type) throws -> Float {
    record.schema = scalarSchema(Float.self, builder)
    return 0
  }
  func decode(_ type: Int.Type) throws -> Int {
    record.schema = scalarSchema(Int.self, builder)
    return 0
  }
  func decode(_ type: Int8.Type) throws -> Int8 {
    record.schema = scalarSchema(Int8.self, builder)
    return 0
  }
  func decode(_ type: Int16.Type) throws -> Int16 {
    record.schema = scalarSchema(Int16.self, builder)
    return 0
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    record.schema = scalarSchema(Int32.self, builder)
    return 0
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    record.schema = scalarSchema(Int64.self, builder)
    return 0
  }
  func decode(_ type: UInt.Type) throws -> UInt {
    record.schema = scalarSchema(UInt.self, builder)
    return 0
  }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    record.schema = scalarSchema(UInt8.self, builder)
    return 0
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    record.schema = scalarSchema(UInt16.self, builder)
    return 0
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    record.schema = scalarSchema(UInt32.self, builder)
    return 0
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    record.schema = scalarSchema(UInt64.self, builder)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type) throws -> Int128 {
    record.schema = scalarSchema(Int128.self, builder)
    return 0
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 {
    record.schema = scalarSchema(UInt128.self, builder)
    return 0
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try probeValue(type, into: record, builder)
  }
}
