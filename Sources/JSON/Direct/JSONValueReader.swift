/// A value in a scanned document, as ``JSONDecodable/init(json:)`` reads it.
///
/// Every read either returns what `init(from:)` would get from ``JSONDecoder`` for the same
/// value or declines (``JSONDeclined``); it never guesses. Reading allocates nothing but the
/// strings and arrays it returns.
///
///     let object = try json.object()
///     let id = try object.decode(Int.self, forKey: "id")
///
/// NB: it refers to the document of one `JSONDecoder.decode` call, like ``TapeDecoder``; a
/// conformance must not keep it after `init(json:)` returns.
public struct JSONValueReader {
  let document: UnsafePointer<Document>
  let index: Int

  init(_ document: UnsafePointer<Document>, at index: Int) {
    self.document = document
    self.index = index
  }

  @inline(__always)
  private var kind: Token.Kind { document.pointee.kind(at: index) }

  /// The value decoded with `init(from:)`, as ``JSONDecoder`` decodes a type that does not
  /// read itself directly.
  @usableFromInline
  func decodeThroughCodable<T: Decodable>(_ type: T.Type) throws(JSONError) -> T {
    do {
      return try T(from: TapeDecoder(document, at: index))
    } catch {
      throw JSONError(thrownByInitFrom: error, in: document.pointee)
    }
  }

  /// Decodes a value of a type that reads itself directly.
  @inline(__always)
  public func decode<T: JSONDecodable>(_ type: T.Type = T.self) throws(JSONDeclined) -> T {
    try T(json: self)
  }

  /// The reader of the token after this one: an array's first element (if it has one).
  @usableFromInline
  var firstElement: JSONValueReader { JSONValueReader(document, at: index + 1) }

  /// The reader of the value after this one and its contents: an array's next element.
  @usableFromInline
  var nextElement: JSONValueReader {
    JSONValueReader(document, at: document.pointee.next(after: index))
  }

  /// Whether the value is `null`.
  public var isNull: Bool { kind == .null }

  public func bool() throws(JSONDeclined) -> Bool {
    switch kind {
    case .true: return true
    case .false: return false
    default: throw JSONDeclined()
    }
  }

  // NB: inlined into the member readers (`decode(String.self, forKey:)`), one call less.
  @inline(__always)
  public func string() throws(JSONDeclined) -> String {
    guard kind == .string else { throw JSONDeclined() }
    // NB: `Document.string(at:)` written out, so that it is inlined here too.
    return makeString(
      document.pointee.text(at: index), escaped: document.pointee.tokens[index] & Token.flag != 0)
  }

  /// Calls `body` with the UTF-8 of the string, unescaped, without making a `String`: for a
  /// type parsed from a string's bytes.
  ///
  ///     let uuid = try json.withUTF8 { UUID(utf8: $0) }
  public func withUTF8<R>(
    _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) throws(JSONDeclined) -> R {
    guard kind == .string else { throw JSONDeclined() }
    let text = document.pointee.text(at: index)
    guard document.pointee.flags(at: index) & Token.escaped != 0 else { return body(text) }
    return unescaped(text).withUnsafeBufferPointer(body)
  }

  /// A whole number in `T`'s range (`1e2` and `1.0` are whole, as for `init(from:)`).
  public func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(JSONDeclined) -> T {
    guard kind == .number, let value = document.pointee.integer(type, at: index) else {
      throw JSONDeclined()
    }
    return value
  }

  public func double() throws(JSONDeclined) -> Double {
    guard kind == .number,
      let value = NumberParsing.double(
        from: document.pointee.text(at: index), flags: document.pointee.flags(at: index))
    else { throw JSONDeclined() }
    return value
  }

  public func float() throws(JSONDeclined) -> Float {
    guard kind == .number,
      let value = NumberParsing.float(
        from: document.pointee.text(at: index), flags: document.pointee.flags(at: index))
    else { throw JSONDeclined() }
    return value
  }

  // MARK: - Containers

  /// The value as an object, as a struct's `init(from:)` reads it.
  public func object() throws(JSONDeclined) -> JSONObjectReader {
    guard kind == .object else { throw JSONDeclined() }
    return JSONObjectReader(document: document, object: index)
  }

  /// The number of elements of the value, an array.
  public func arrayCount() throws(JSONDeclined) -> Int {
    guard kind == .array else { throw JSONDeclined() }
    return document.pointee.count(at: index)
  }

  /// Calls `body` with each element of the value, an array, in order.
  public func forEachElement(
    _ body: (JSONValueReader) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    guard kind == .array else { throw JSONDeclined() }
    var element = index + 1
    let end = document.pointee.next(after: index)
    while element < end {
      try body(JSONValueReader(document, at: element))
      element = document.pointee.next(after: element)
    }
  }

  /// The value as an enum case in one of the forms `init(from:)` accepts for it
  /// (docs/wire-format.md): `"name"` or an object with the case name as its only member.
  ///
  ///     let action = try json.enumCase()
  ///     switch action {
  ///     case "incrementButtonTapped": try action.noPayload(); self = .incrementButtonTapped
  ///     case "setCount": self = .setCount(try action.payload(Int.self))
  ///     default: throw JSONDeclined()
  ///     }
  ///
  /// NB: an object with more members (`init(from:)` skips the ones that are not case names)
  /// is declined, and so is a name that matches no case: `init(from:)` then decides.
  public func enumCase() throws(JSONDeclined) -> JSONCase {
    switch kind {
    case .string:
      return JSONCase(document: document, name: index, payload: nil)
    case .object where document.pointee.hasOneMember(at: index):
      return JSONCase(document: document, name: index + 1, payload: index + 2)
    default:
      throw JSONDeclined()
    }
  }
}

/// An object read as a struct's synthesized `init(from:)` reads it: members by name, in any
/// order, unknown members ignored.
public struct JSONObjectReader {
  let document: UnsafePointer<Document>
  let object: Int

  @inline(__always)
  private func find(_ name: StaticString) -> Int? {
    name.withUTF8Buffer { Document.member(named: $0, in: object, of: document) }
  }

  /// The member `name`, which must be there (`decode(_:forKey:)`).
  @inline(__always)
  private func required(_ name: StaticString) throws(JSONDeclined) -> JSONValueReader {
    guard let value = find(name) else { throw JSONDeclined() }
    return JSONValueReader(document, at: value)
  }

  /// The member `name` unless it is missing or `null` (`decodeIfPresent(_:forKey:)`).
  @inline(__always)
  private func present(_ name: StaticString) -> JSONValueReader? {
    guard let value = find(name), document.pointee.kind(at: value) != .null else { return nil }
    return JSONValueReader(document, at: value)
  }

  /// ``required(_:)`` for the inlinable readers.
  @usableFromInline
  func requiredValue(_ name: StaticString) throws(JSONDeclined) -> JSONValueReader {
    try required(name)
  }

  /// ``present(_:)`` for the inlinable readers.
  @usableFromInline
  func presentValue(_ name: StaticString) -> JSONValueReader? { present(name) }

  /// Whether the object has a member `name`.
  public func contains(_ name: StaticString) -> Bool { find(name) != nil }

  /// The member `name`, as `decode(_:forKey:)` reads it; declines if it is missing.
  ///
  /// NB: inlinable, so that `T(json:)` is called (and specialized) where `T` is known, not
  /// through its conformance: for an array, no look-up of the element type for each element.
  @inlinable
  public func decode<T: JSONDecodable>(
    _ type: T.Type, forKey name: StaticString
  ) throws(JSONDeclined) -> T {
    try T(json: requiredValue(name))
  }

  // NB: the scalars written out, so the hottest members skip the generic call.
  public func decode(_ type: String.Type, forKey name: StaticString) throws(JSONDeclined) -> String {
    try required(name).string()
  }

  public func decode(_ type: Int.Type, forKey name: StaticString) throws(JSONDeclined) -> Int {
    try required(name).integer()
  }

  public func decode(_ type: Bool.Type, forKey name: StaticString) throws(JSONDeclined) -> Bool {
    try required(name).bool()
  }

  /// The member `name`, as `decodeIfPresent(_:forKey:)` reads it: nil if missing or `null`.
  @inlinable
  public func decodeIfPresent<T: JSONDecodable>(
    _ type: T.Type, forKey name: StaticString
  ) throws(JSONDeclined) -> T? {
    guard let value = presentValue(name) else { return nil }
    return try T(json: value)
  }

  public func decodeIfPresent(
    _ type: String.Type, forKey name: StaticString
  ) throws(JSONDeclined) -> String? {
    try present(name)?.string()
  }

  public func decodeIfPresent(
    _ type: Int.Type, forKey name: StaticString
  ) throws(JSONDeclined) -> Int? {
    try present(name)?.integer()
  }

  public func decodeIfPresent(
    _ type: Bool.Type, forKey name: StaticString
  ) throws(JSONDeclined) -> Bool? {
    try present(name)?.bool()
  }

  /// The member `name` for a reader of its own (`nil` if it is missing).
  public func member(_ name: StaticString) -> JSONValueReader? {
    find(name).map { JSONValueReader(document, at: $0) }
  }
}

/// An enum case as ``JSONValueReader/enumCase()`` found it: its name, and its payload unless
/// it was given as a bare name. Match the name with a `switch` over string literals.
public struct JSONCase {
  let document: UnsafePointer<Document>
  /// The string token of the name.
  let name: Int
  /// The payload's token; nil for a bare name (`"increment"`).
  let payload: Int?

  /// Whether the case name is `pattern`.
  public static func ~= (pattern: StaticString, value: JSONCase) -> Bool {
    pattern.withUTF8Buffer { value.document.pointee.string(at: value.name, equals: $0) }
  }

  /// Checks there is nothing to read: a bare name, or an object (a case without payload
  /// ignores its members, as `init(from:)` does).
  public func noPayload() throws(JSONDeclined) {
    guard let payload else { return }
    guard document.pointee.kind(at: payload) == .object else { throw JSONDeclined() }
  }

  /// The single unlabeled payload of a case like `setCount(Int)`, as `decode(_:forKey: ._0)`
  /// reads it: `{"setCount":{"_0":5}}` or the shorthand `{"setCount":5}`. For an optional
  /// payload use ``payloadIfPresent(_:)``.
  public func payload<T: JSONDecodable>(_ type: T.Type) throws(JSONDeclined) -> T {
    try T(json: JSONValueReader(document, at: try payloadValue()))
  }

  /// The single unlabeled optional payload of a case like `setName(String?)`, as
  /// `decodeIfPresent(_:forKey: ._0)` reads it: `{}` and `null` are nil.
  public func payloadIfPresent<T: JSONDecodable>(_ type: T.Type) throws(JSONDeclined) -> T? {
    guard let payload else { throw JSONDeclined() }
    if document.pointee.kind(at: payload) == .object
      && document.pointee.isEmptyContainer(at: payload)
    {
      return nil
    }
    let value = try payloadValue()
    if document.pointee.kind(at: value) == .null { return nil }
    return try T(json: JSONValueReader(document, at: value))
  }

  /// The labeled payload of a case like `toggle(id: Int)`: `{"toggle":{"id":3}}`.
  public func labeled() throws(JSONDeclined) -> JSONObjectReader {
    guard let payload, document.pointee.kind(at: payload) == .object else {
      throw JSONDeclined()
    }
    return JSONObjectReader(document: document, object: payload)
  }

  /// The token of an unlabeled payload: the `_0` member of an object that has only that one,
  /// or the object or value itself (the shorthand).
  private func payloadValue() throws(JSONDeclined) -> Int {
    guard let payload else { throw JSONDeclined() }
    guard document.pointee.kind(at: payload) == .object,
      !document.pointee.isEmptyContainer(at: payload)
    else { return payload }
    let wrapped: StaticString = "_0"
    let isWrapped = wrapped.withUTF8Buffer {
      document.pointee.string(at: payload + 1, equals: $0)
    }
    if isWrapped {
      guard document.pointee.hasOneMember(at: payload) else { throw JSONDeclined() }
      return payload + 2
    }
    // NB: `{"_0":…}` anywhere but first, or with other members: `init(from:)` decides.
    guard !JSONObjectReader(document: document, object: payload).contains("_0") else {
      throw JSONDeclined()
    }
    return payload
  }
}
