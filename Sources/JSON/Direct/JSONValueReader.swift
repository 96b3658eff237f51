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
///
/// NB: it reads either a scanned document's tape (`cursor` nil; `index` is a token) or, for a
/// first try at a big document, the bytes in one pass (``DirectCursor``; `index` is the
/// offset of the value's first byte, and `document` a stand-in that nothing reads).
public struct JSONValueReader {
  @usableFromInline let document: UnsafePointer<Document>
  @usableFromInline let index: Int
  @usableFromInline let cursor: UnsafeMutablePointer<DirectCursor>?

  @inlinable
  init(
    _ document: UnsafePointer<Document>, at index: Int,
    cursor: UnsafeMutablePointer<DirectCursor>? = nil
  ) {
    self.document = document
    self.index = index
    self.cursor = cursor
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
  ///
  /// NB: on the tape only (``Array``'s `init(json:)` reads a direct array with
  /// ``directArray()``).
  @usableFromInline
  var firstElement: JSONValueReader { JSONValueReader(document, at: index + 1) }

  /// The reader of the value after this one and its contents: an array's next element.
  @usableFromInline
  var nextElement: JSONValueReader {
    JSONValueReader(document, at: document.pointee.next(after: index))
  }

  /// In a direct read (``DirectCursor``), opens the value, an array, for
  /// ``nextDirectElement()``; nil when reading a tape.
  @usableFromInline
  func directArray() throws(JSONDeclined) -> JSONValueReader? {
    guard let cursor else { return nil }
    try cursor.pointee.open(index, ASCII.openBracket)
    return self
  }

  /// The next element of the array that ``directArray()`` opened, or nil after the last.
  @inlinable @inline(__always)
  func nextDirectElement() throws(JSONDeclined) -> JSONValueReader? {
    guard let cursor, let element = try cursor.pointee.element(of: index) else { return nil }
    return JSONValueReader(document, at: element, cursor: cursor)
  }

  /// A capacity for an array read directly whose first element is `first` and second this
  /// one: as many elements as the text left would hold if each were as long as the first, and
  /// no more than 64 KB of elements of `stride` bytes.
  ///
  /// NB: an array of like values (a state's rows) then grows once at most: grown by doubling,
  /// 1,000 todos took 11 allocations and copies. The bound keeps a short first element in a
  /// big text from reserving much: doubling can leave as much unused.
  @usableFromInline
  func directCapacity(_ first: JSONValueReader, stride: Int) -> Int {
    guard let cursor, index > first.index else { return 0 }
    let estimate = (cursor.pointee.end &- index) / (index &- first.index) &+ 2
    return min(estimate, (1 << 16) / max(stride, 1))
  }

  /// Whether the value is `null`.
  public var isNull: Bool {
    if let cursor { return cursor.pointee.isNull(at: index) }
    return kind == .null
  }

  public func bool() throws(JSONDeclined) -> Bool {
    if let cursor { return try cursor.pointee.bool(at: index) }
    switch kind {
    case .true: return true
    case .false: return false
    default: throw JSONDeclined()
    }
  }

  // NB: inlined into the member readers (`decode(String.self, forKey:)`), one call less.
  @inline(__always)
  public func string() throws(JSONDeclined) -> String {
    if let cursor {
      let (text, escaped) = try cursor.pointee.stringText(at: index)
      return escaped ? makeString(text, escaped: true) : String(decoding: text, as: UTF8.self)
    }
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
    if let cursor {
      let (text, escaped) = try cursor.pointee.stringText(at: index)
      return escaped ? unescaped(text).withUnsafeBufferPointer(body) : body(text)
    }
    guard kind == .string else { throw JSONDeclined() }
    let text = document.pointee.text(at: index)
    guard document.pointee.flags(at: index) & Token.escaped != 0 else { return body(text) }
    return unescaped(text).withUnsafeBufferPointer(body)
  }

  /// ``integer(_:)`` for an `Int`, specialized: for the inlinable member readers.
  @usableFromInline
  func int() throws(JSONDeclined) -> Int { try integer(Int.self) }

  /// A whole number in `T`'s range (`1e2` and `1.0` are whole, as for `init(from:)`).
  public func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(JSONDeclined) -> T {
    if let cursor { return try cursor.pointee.integer(type, at: index) }
    guard kind == .number, let value = document.pointee.integer(type, at: index) else {
      throw JSONDeclined()
    }
    return value
  }

  public func double() throws(JSONDeclined) -> Double {
    if let cursor {
      let (text, flags) = try cursor.pointee.numberText(at: index)
      guard let value = NumberParsing.double(from: text, flags: flags) else {
        throw cursor.pointee.fail()
      }
      return value
    }
    guard kind == .number,
      let value = NumberParsing.double(
        from: document.pointee.text(at: index), flags: document.pointee.flags(at: index))
    else { throw JSONDeclined() }
    return value
  }

  public func float() throws(JSONDeclined) -> Float {
    if let cursor {
      let (text, flags) = try cursor.pointee.numberText(at: index)
      guard let value = NumberParsing.float(from: text, flags: flags) else {
        throw cursor.pointee.fail()
      }
      return value
    }
    guard kind == .number,
      let value = NumberParsing.float(
        from: document.pointee.text(at: index), flags: document.pointee.flags(at: index))
    else { throw JSONDeclined() }
    return value
  }

  // MARK: - Containers

  /// The value as an object, as a struct's `init(from:)` reads it.
  ///
  /// NB: inlinable, so that a direct read opens it in the conformance, without a call.
  @inlinable @inline(__always)
  public func object() throws(JSONDeclined) -> JSONObjectReader {
    if let cursor {
      try cursor.pointee.open(index, UInt8(ascii: "{"))
      return JSONObjectReader(document: document, object: index, cursor: cursor)
    }
    return try tapeObject()
  }

  /// ``object()`` on a tape.
  @usableFromInline
  func tapeObject() throws(JSONDeclined) -> JSONObjectReader {
    guard kind == .object else { throw JSONDeclined() }
    return JSONObjectReader(document: document, object: index)
  }

  /// The number of elements of the value, an array.
  ///
  /// NB: a direct read (``DirectCursor``) has not seen the elements yet: it fails, and the
  /// document is decoded from a tape instead.
  public func arrayCount() throws(JSONDeclined) -> Int {
    if let cursor { throw cursor.pointee.fail() }
    guard kind == .array else { throw JSONDeclined() }
    return document.pointee.count(at: index)
  }

  /// Calls `body` with each element of the value, an array, in order.
  public func forEachElement(
    _ body: (JSONValueReader) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    if let array = try directArray() {
      while let element = try array.nextDirectElement() { try body(element) }
      return
    }
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
  ///
  /// NB: a direct read (``DirectCursor``) fails here (the case is decoded from a tape).
  public func enumCase() throws(JSONDeclined) -> JSONCase {
    if let cursor { throw cursor.pointee.fail() }
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
///
/// NB: in a direct read (``DirectCursor``) `object` is the offset of its `{`, and members must be
/// asked for in the order they are written, each once; anything else fails that read.
public struct JSONObjectReader {
  @usableFromInline let document: UnsafePointer<Document>
  @usableFromInline let object: Int
  @usableFromInline var cursor: UnsafeMutablePointer<DirectCursor>?

  @inlinable
  init(
    document: UnsafePointer<Document>, object: Int,
    cursor: UnsafeMutablePointer<DirectCursor>? = nil
  ) {
    self.document = document
    self.object = object
    self.cursor = cursor
  }

  @inline(__always)
  private func find(_ name: StaticString) -> Int? {
    if let cursor {
      // NB: not a lookup: only `member(_:)` and `contains(_:)` get here, and a direct read
      // cannot look ahead.
      _ = cursor.pointee.fail()
      return nil
    }
    return name.withUTF8Buffer { Document.member(named: $0, in: object, of: document) }
  }

  /// The member `name`, which must be there (`decode(_:forKey:)`).
  @inline(__always)
  private func required(_ name: StaticString) throws(JSONDeclined) -> JSONValueReader {
    if let cursor {
      let value = cursor.pointee.member(name, of: object, required: true)
      guard let value else { throw JSONDeclined() }
      return JSONValueReader(document, at: value, cursor: cursor)
    }
    guard let value = find(name) else { throw JSONDeclined() }
    return JSONValueReader(document, at: value)
  }

  /// The member `name` unless it is missing or `null` (`decodeIfPresent(_:forKey:)`).
  @inline(__always)
  private func present(_ name: StaticString) -> JSONValueReader? {
    if let cursor {
      let value = cursor.pointee.member(name, of: object, required: false)
      // NB: a `null` is left pending: the next read passes it.
      guard let value, !cursor.pointee.isNull(at: value) else { return nil }
      return JSONValueReader(document, at: value, cursor: cursor)
    }
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

  /// The member `name` of a direct read (``DirectCursor``; `cursor` is not nil), matched
  /// where the name is a constant.
  ///
  /// NB: inlined into a conformance with the scalar readers below: the name's length, its bit
  /// and its bytes are constants there, and its match a few comparisons (it was ~100
  /// instructions a member, the name read and compared at run time). A tape's member is
  /// found by one call (``memberString(_:)`` and its siblings), as before.
  @inlinable @inline(__always)
  func directMember(
    _ name: StaticString, _ cursor: UnsafeMutablePointer<DirectCursor>
  ) throws(JSONDeclined) -> JSONValueReader {
    guard let value = cursor.pointee.member(name, of: object, required: true) else {
      throw JSONDeclined()
    }
    return JSONValueReader(document, at: value, cursor: cursor)
  }

  // NB: the scalars written out, so the hottest members skip the generic call.
  @inlinable @inline(__always)
  public func decode(_ type: String.Type, forKey name: StaticString) throws(JSONDeclined) -> String {
    guard let cursor else { return try memberString(name) }
    return try directMember(name, cursor).string()
  }

  @inlinable @inline(__always)
  public func decode(_ type: Int.Type, forKey name: StaticString) throws(JSONDeclined) -> Int {
    guard let cursor else { return try memberInt(name) }
    return try cursor.pointee.int(at: directMember(name, cursor).index)
  }

  @inlinable @inline(__always)
  public func decode(_ type: Bool.Type, forKey name: StaticString) throws(JSONDeclined) -> Bool {
    guard let cursor else { return try memberBool(name) }
    return try cursor.pointee.bool(at: directMember(name, cursor).index)
  }

  /// `decode(String.self, forKey: name)` out of line (on a tape).
  @usableFromInline
  func memberString(_ name: StaticString) throws(JSONDeclined) -> String {
    try required(name).string()
  }

  /// `decode(Int.self, forKey: name)` out of line (on a tape).
  @usableFromInline
  func memberInt(_ name: StaticString) throws(JSONDeclined) -> Int {
    try required(name).integer()
  }

  /// `decode(Bool.self, forKey: name)` out of line (on a tape).
  @usableFromInline
  func memberBool(_ name: StaticString) throws(JSONDeclined) -> Bool {
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
    guard let value = try presentPayloadReader() else { return nil }
    return try T(json: value)
  }

  /// The reader of an unlabeled payload (as ``payload(_:)`` finds it).
  @usableFromInline
  func payloadReader() throws(JSONDeclined) -> JSONValueReader {
    JSONValueReader(document, at: try payloadValue())
  }

  /// The reader of an unlabeled optional payload, nil for `{}` and `null` (as
  /// ``payloadIfPresent(_:)`` finds it).
  @usableFromInline
  func presentPayloadReader() throws(JSONDeclined) -> JSONValueReader? {
    guard let payload else { throw JSONDeclined() }
    if document.pointee.kind(at: payload) == .object
      && document.pointee.isEmptyContainer(at: payload)
    {
      return nil
    }
    let value = try payloadValue()
    if document.pointee.kind(at: value) == .null { return nil }
    return JSONValueReader(document, at: value)
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
