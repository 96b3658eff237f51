import Synchronization

/// A keyed container of ``TapeDecoder`` that only finds a member's value; decoding it is the
/// same for all (this extension). For the rare containers: ``ObjectContainer``, the hot one,
/// has all of this written out.
protocol TapeKeyedContainer: KeyedDecodingContainerProtocol {
  /// The decoder of the value for `key`; a shape error if there is none.
  func valueDecoder(forKey key: Key) throws -> TapeDecoder
  /// The decoder of the value for `key`, or nil if there is none or it is `null`.
  func presentDecoder(forKey key: Key) throws -> TapeDecoder?
}

extension TapeKeyedContainer {
  func decodeNil(forKey key: Key) throws -> Bool { try valueDecoder(forKey: key).decodeNil() }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try valueDecoder(forKey: key).decodeValue(type)
  }

  // NB: the standard library's `decodeIfPresent` asks `contains`, then `decodeNil`, then
  // `decode`: three searches for one member. These search once.
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let decoder = try presentDecoder(forKey: key) else { return nil }
    return try decoder.decodeValue(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try valueDecoder(forKey: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try valueDecoder(forKey: key).unkeyedContainer()
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try valueDecoder(forKey: key) }
}

/// Keyed access to a JSON object on the tape.
///
///     {"id":3,"title":"milk"}  →  decode(Int.self, forKey: .id) == 3
struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  private let fixedDocument: UnsafePointer<Document>
  private let fixedObject: Int
  /// A synthetic `{}` (see ``TapeDecoder/Form/emptyObject``): no members at all.
  let isEmpty: Bool
  /// Where a cached container reads (see ``ContainerCache``); nil for one made for one object.
  private let place: UnsafeMutablePointer<ObjectCursor.Place>?
  /// The cursor of a cached container, for the `allKeys` it remembers.
  ///
  /// NB: not kept alive by the container: its cache entry keeps it for the whole process.
  /// Held strongly, every call through the standard library's box (which copies the container)
  /// was a retain and a release.
  private let cursor: Unmanaged<ObjectCursor>?

  init(_ document: UnsafePointer<Document>, object: Int, isEmpty: Bool = false) {
    self.fixedDocument = document
    self.fixedObject = object
    self.isEmpty = isEmpty
    self.place = nil
    self.cursor = nil
  }

  /// A container for ``ContainerCache``, reading wherever `cursor` points.
  init(_ cursor: ObjectCursor) {
    self.fixedDocument = cursor.place.pointee.document.load(ordering: .relaxed)
    self.fixedObject = cursor.place.pointee.object.load(ordering: .relaxed)
    self.isEmpty = false
    self.place = cursor.place
    self.cursor = Unmanaged.passUnretained(cursor)
  }

  var document: UnsafePointer<Document> {
    @inline(__always) get {
      place.map { $0.pointee.document.load(ordering: .relaxed) } ?? fixedDocument
    }
  }
  var object: Int {
    @inline(__always) get {
      place.map { $0.pointee.object.load(ordering: .relaxed) } ?? fixedObject
    }
  }

  var codingPath: [any CodingKey] { document.pointee.codingPath(to: object) }

  var allKeys: [Key] {
    guard !isEmpty, !document.pointee.isEmptyContainer(at: object) else { return [] }
    // NB: this getter runs unspecialized (through the standard library's type-erasing box), where
    // every generic array operation looks up metadata at run time. An enum's synthesized
    // `init(from:)` asks for the keys of a one-member object: that array is made once, whole.
    if document.pointee.hasOneMember(at: object) {
      // NB: a cached container (see `ContainerCache`) remembers the array made for each of the
      // last few names it saw, and hands the same one out again: `Key(stringValue:)` is not
      // called again for a name it has answered. Codable says nothing of how often a decoder
      // calls it, synthesized keys are pure, and a key type whose answer changed from one call
      // to the next would not be a key. The array is a `[Key]` for this container's `Key`: a
      // cursor belongs to one `ObjectContainer<Key>` (see `ContainerCache.make`).
      if let cursor,
        let keys = cursor._withUnsafeGuaranteedRef({
          $0.knownKeys(named: object + 1, in: document)
        })
      {
        return unsafeBitCast(keys, to: [Key].self)
      }
      return oneKey
    }
    return someKeys
  }

  /// `allKeys` of an object with no member or several.
  @inline(never)
  private var someKeys: [Key] {
    var keys: [Key] = []
    let end = document.pointee.next(after: object)
    var key = object + 1
    while key < end {
      if let known = Key(stringValue: document.pointee.string(at: key)) { keys.append(known) }
      key = document.pointee.next(after: key + 1)
    }
    if keys.count == 0, let payload = payloadKey { return [payload] }
    return keys
  }

  /// `allKeys` of an object with one member, made (and remembered by a cached container).
  ///
  /// NB: apart from `allKeys` so that `Key?`'s metadata (a hash-table search) is looked up only
  /// here.
  @inline(never)
  private var oneKey: [Key] {
    let name = document.pointee.string(at: object + 1)
    guard let known = Key(stringValue: name) else { return payloadKey.map { [$0] } ?? [] }
    let keys = [known]
    if let cursor, MemoryLayout<[Key]>.size == MemoryLayout<AnyObject>.size {
      cursor.takeUnretainedValue().remember(unsafeBitCast(keys, to: AnyObject.self), named: name)
    }
    return keys
  }

  /// `_0`, for an object none of whose members is a key: the bare payload of a case with one
  /// unlabeled value (`{"child":{"searchQueryChanged":"bos"}}`); nil if `Key` has a `_1`.
  private var payloadKey: Key? {
    guard let payload = Key(stringValue: "_0"), Key(stringValue: "_1") == nil else { return nil }
    return payload
  }

  @inline(__always)
  private func find(_ key: Key) -> Int? {
    guard !isEmpty else { return nil }
    var name = key.stringValue
    return name.withUTF8 { Document.member(named: $0, in: object, of: document) }
  }

  /// The object itself, when it stands for an unlabeled payload `_0` given bare:
  /// `{"child":{"searchQueryChanged":"bos"}}` is `{"child":{"_0":{"searchQueryChanged":"bos"}}}`.
  ///
  /// NB: `{}` is the synthesized form of a `nil` payload, so for `contains` and
  /// `decodeIfPresent` an empty object has no payload.
  private func payloadShorthand(_ key: Key, allowEmpty: Bool) -> Int? {
    guard !isEmpty, key.stringValue == "_0", Key(stringValue: "_1") == nil else { return nil }
    guard allowEmpty || !document.pointee.isEmptyContainer(at: object) else { return nil }
    return object
  }

  func contains(_ key: Key) -> Bool {
    find(key) != nil || missingPresentDecoder(forKey: key) != nil
  }

  @inline(__always)
  func valueDecoder(forKey key: Key) throws -> TapeDecoder {
    if let value = find(key) { return TapeDecoder(document, at: value) }
    return try missingValueDecoder(forKey: key)
  }

  @inline(__always)
  func presentDecoder(forKey key: Key) throws -> TapeDecoder? {
    guard let value = find(key) else { return missingPresentDecoder(forKey: key) }
    return document.pointee.kind(at: value) == .null ? nil : TapeDecoder(document, at: value)
  }

  // NB: the misses are apart so that the hits never look up `Key?` (a hash-table search).
  @inline(never)
  private func missingValueDecoder(forKey key: Key) throws -> TapeDecoder {
    guard let value = payloadShorthand(key, allowEmpty: true) else {
      throw JSONError(
        .shape, path: document.pointee.pointer(to: object),
        "missing member \(quoted(key.stringValue))")
    }
    return TapeDecoder(document, at: value)
  }

  @inline(never)
  private func missingPresentDecoder(forKey key: Key) -> TapeDecoder? {
    payloadShorthand(key, allowEmpty: false).map { TapeDecoder(document, at: $0) }
  }

  func superDecoder() throws -> any Decoder {
    var name = "super"
    if !isEmpty, let value = name.withUTF8({ document.pointee.member(named: $0, in: object) }) {
      return TapeDecoder(document, at: value)
    }
    return TapeDecoder(document, at: object, form: .null)
  }
  // MARK: - Decoding

  // NB: written out rather than inherited from `TapeKeyedContainer`'s extension: a witness
  // from a protocol extension looks its conformance up at run time on every call.
  func decodeNil(forKey key: Key) throws -> Bool { try valueDecoder(forKey: key).decodeNil() }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try valueDecoder(forKey: key).decode(type)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try valueDecoder(forKey: key).decodeInteger(type)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try valueDecoder(forKey: key).decodeValue(type)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try presentDecoder(forKey: key)?.decode(type)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try presentDecoder(forKey: key)?.decodeInteger(type)
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let decoder = try presentDecoder(forKey: key) else { return nil }
    return try decoder.decodeValue(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try valueDecoder(forKey: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try valueDecoder(forKey: key).unkeyedContainer()
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try valueDecoder(forKey: key) }
}

/// A keyed view of a value that is not an object, for the wire format's shorthands: the bare
/// payload `5` read as `{"_0":5}`, or the bare case name `"increment"` read as
/// `{"increment":{}}`.
struct ScalarKeyedContainer<Key: CodingKey>: TapeKeyedContainer {
  let document: UnsafePointer<Document>
  let index: Int
  /// The case a bare case name names; nil for a bare payload.
  let caseKey: Key?

  init(_ document: UnsafePointer<Document>, at index: Int, caseKey: Key?) {
    self.document = document
    self.index = index
    self.caseKey = caseKey
  }

  var codingPath: [any CodingKey] { document.pointee.codingPath(to: index) }

  var allKeys: [Key] {
    if let caseKey { return [caseKey] }
    return Key(stringValue: "_0").map { [$0] } ?? []
  }

  func contains(_ key: Key) -> Bool { key.stringValue == (caseKey?.stringValue ?? "_0") }

  func valueDecoder(forKey key: Key) throws -> TapeDecoder {
    if let caseKey {
      guard key.stringValue == caseKey.stringValue else {
        throw JSONError(
          .shape, path: document.pointee.pointer(to: index),
          "missing member \(quoted(key.stringValue))")
      }
      return TapeDecoder(document, at: index, form: .emptyObject)
    }
    guard key.stringValue == "_0" else {
      throw JSONError(
        .shape, path: document.pointee.pointer(to: index),
        "expected an object, found \(document.pointee.brief(at: index))")
    }
    return TapeDecoder(document, at: index)
  }

  func presentDecoder(forKey key: Key) throws -> TapeDecoder? {
    guard contains(key) else { return nil }
    let decoder = try valueDecoder(forKey: key)
    return decoder.decodeNil() ? nil : decoder
  }

  func superDecoder() throws -> any Decoder { TapeDecoder(document, at: index, form: .null) }
}
