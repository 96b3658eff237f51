/// Sequential access to a JSON array on the tape.
///
/// NB: three words, so `any UnkeyedDecodingContainer` holds it without a box. The tape does not
/// keep an array's length: `count` counts it when asked (`isAtEnd` needs only its end).
struct ArrayContainer: UnkeyedDecodingContainer {
  let document: UnsafePointer<Document>
  private let array: UInt32
  private var element: UInt32
  private var position: UInt32
  private let end: UInt32

  init(_ document: UnsafePointer<Document>, array: Int) {
    self.document = document
    self.array = UInt32(truncatingIfNeeded: array)
    self.element = UInt32(truncatingIfNeeded: array + 1)
    self.position = 0
    self.end = UInt32(truncatingIfNeeded: document.pointee.next(after: array))
  }

  var codingPath: [any CodingKey] { document.pointee.codingPath(to: Int(array)) }
  var count: Int? { document.pointee.count(at: Int(array)) }
  var isAtEnd: Bool { element >= end }
  var currentIndex: Int { Int(position) }

  @inline(__always)
  private mutating func next() throws -> TapeDecoder {
    guard element < end else {
      throw JSONError(
        .shape, path: document.pointee.pointer(to: Int(array)),
        "expected more than \(position) elements")
    }
    let decoder = TapeDecoder(document, at: Int(element))
    element = UInt32(truncatingIfNeeded: document.pointee.next(after: Int(element)))
    position += 1
    return decoder
  }

  mutating func decodeNil() throws -> Bool {
    guard element < end, document.pointee.kind(at: Int(element)) == .null else {
      return false
    }
    _ = try next()
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
  mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeInteger(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeInteger(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeInteger(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next().decodeInteger(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next().decodeValue(type)
  }

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
