/// The `Decoder` that reads a value straight from a ``Document``'s tape.
///
/// It is a value: a document, the index of a token and a form, so handing it to `init(from:)`
/// allocates nothing. Its coding path is rebuilt from the document only when asked (for an error).
///
///     let todo = try Todo(from: TapeDecoder(document, at: 0))
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
  let document: UnsafePointer<Document>
  let index: Int
  let form: Form

  enum Form: UInt8 {
    /// The token at `index`.
    case value
    /// An empty object that is not in the text: the payload of a bare case name (`"increment"`
    /// read as `{"increment":{}}`).
    case emptyObject
    /// A `null` that is not in the text: a missing `super` member.
    case null
  }

  init(_ document: UnsafePointer<Document>, at index: Int, form: Form = .value) {
    self.document = document
    self.index = index
    self.form = form
  }

  var codingPath: [any CodingKey] { document.pointee.codingPath(to: index) }
  var userInfo: [CodingUserInfoKey: Any] { document.pointee.userInfo }

  /// What the value is, for error messages.
  var found: String {
    switch form {
    case .value: return document.pointee.brief(at: index)
    case .emptyObject: return "a case name without its payload"
    case .null: return "nothing"
    }
  }

  func mismatch(_ expected: String) -> JSONError {
    JSONError(
      .shape, path: document.pointee.pointer(to: index), "expected \(expected), found \(found)")
  }

  @inline(__always)
  private var kind: Token.Kind? { form == .value ? document.pointee.kind(at: index) : nil }

  // MARK: - Containers

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if form == .value, document.pointee.kind(at: index) == .object {
      return ContainerCache.container(keyedBy: type, document, object: index)
    }
    return try otherContainer(keyedBy: type)
  }

  /// The keyed container of a value that is not an object.
  ///
  /// NB: apart from `container(keyedBy:)` so that its generic types (`Key?`, the scalar
  /// container) are only looked up when needed: each lookup is a hash-table search.
  @inline(never)
  private func otherContainer<Key: CodingKey>(
    keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    switch form {
    case .value:
      // NB: the wire format's shorthands. A keyed container with a `_0` key is the payload of
      // an enum case with one unlabeled value, given bare: `{"setCount":5}`. A string that
      // names a key is a case without payload: `"increment"`.
      if Key(stringValue: "_0") != nil {
        return KeyedDecodingContainer(ScalarKeyedContainer<Key>(document, at: index, caseKey: nil))
      }
      if document.pointee.kind(at: index) == .string,
        let caseKey = Key(stringValue: document.pointee.string(at: index))
      {
        return KeyedDecodingContainer(
          ScalarKeyedContainer<Key>(document, at: index, caseKey: caseKey))
      }
      if document.pointee.kind(at: index) == .string {
        let cases = EnumCases.all(Key.self)?.map(\.stringValue) ?? []
        let hint = CaseHint.hint(sent: document.pointee.shortString(at: index), cases: cases)
        throw JSONError(
          .shape, path: document.pointee.pointer(to: index),
          "\(document.pointee.quotedPrefix(at: index, limit: CaseHint.nameScalars)) is not a "
            + "known case (expected a case name or an object\(hint.map { "; " + $0 } ?? ""))")
      }
      throw mismatch("an object")
    case .emptyObject:
      return KeyedDecodingContainer(ObjectContainer<Key>(document, object: index, isEmpty: true))
    case .null:
      throw mismatch("an object")
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard kind == .array else { throw mismatch("an array") }
    return ArrayContainer(document, array: index)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: - Values

  func decodeNil() -> Bool { form == .null || kind == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    switch kind {
    case .true: return true
    case .false: return false
    default: throw mismatch("a boolean")
    }
  }

  func decode(_ type: String.Type) throws -> String {
    guard kind == .string else { throw mismatch("a string") }
    return document.pointee.string(at: index)
  }

  func decode(_ type: Double.Type) throws -> Double {
    guard kind == .number else { throw mismatch("a number") }
    let flags = document.pointee.flags(at: index)
    guard
      let value = NumberParsing.double(from: document.pointee.text(at: index), flags: flags)
    else { throw mismatch("a number in Double's range") }
    return value
  }

  func decode(_ type: Float.Type) throws -> Float {
    guard kind == .number else { throw mismatch("a number") }
    let flags = document.pointee.flags(at: index)
    guard
      let value = NumberParsing.float(from: document.pointee.text(at: index), flags: flags)
    else { throw mismatch("a number in Float's range") }
    return value
  }

  @inline(__always)
  func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard kind == .number else { throw mismatch("an integer") }
    if let value = document.pointee.integer(type, at: index) { return value }
    let whole = NumberParsing.isWhole(document.pointee.text(at: index))
    throw mismatch(whole ? "an integer in \(T.self)'s range" : "an integer")
  }

  func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type) throws -> Int128 { try decodeInteger(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeInteger(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

// MARK: - Arrays

extension TapeDecoder {
  /// `T(from: self)`; an array's elements are decoded here, straight from the tape.
  ///
  /// NB: the standard library's `Array.init(from:)` runs unspecialized and looks up the
  /// array's metadata for every element it appends (about 330 instructions a todo, more than
  /// the scan of it); filled in place here, an array looks it up once. Same elements, same
  /// errors: each is decoded with `Element(from:)` from its own token, as through
  /// ``ArrayContainer``. The size test keeps the conformance lookup off other types' way.
  @inline(__always)
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if MemoryLayout<T>.size == MemoryLayout<[Int]>.size,
      let array = T.self as? any TapeDecodableArray.Type,
      let value = try array.decode(from: self, as: type)
    {
      return value
    }
    return try T(from: self)
  }
}

/// An array that ``TapeDecoder/decodeValue(_:)`` fills itself.
protocol TapeDecodableArray {
  /// The array at `decoder`, as a `T` (which is `Self`; nil otherwise).
  static func decode<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T?
}

extension Array: TapeDecodableArray where Element: Decodable {
  static func decode<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T? {
    guard Self.self == T.self else { return nil }
    guard decoder.form == .value, decoder.document.pointee.kind(at: decoder.index) == .array
    else { throw decoder.mismatch("an array") }
    let document = decoder.document
    let end = document.pointee.next(after: decoder.index)
    let array = try Self(unsafeUninitializedCapacity: document.pointee.count(at: decoder.index)) {
      (elements, initialized) in
      guard let first = elements.baseAddress else { return }
      var element = decoder.index + 1
      while element < end, initialized < elements.count {
        (first + initialized).initialize(to: try Element(from: TapeDecoder(document, at: element)))
        initialized += 1
        element = document.pointee.next(after: element)
      }
    }
    // NB: `Self` is `T` (checked above), so this is the same type.
    return unsafeBitCast(array, to: T.self)
  }
}
