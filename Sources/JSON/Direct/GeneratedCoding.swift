import Synchronization

/// The reads and writes that generated conformances use (`JSONCodablePlugin`, see
/// docs/own-features.md): each does what a synthesized `init(from:)` or `encode(to:)` does for
/// one stored property or payload value.
///
/// - `decodeMember` reads as `decode(_:forKey:)` does, `decodeMemberIfPresent` as
///   `decodeIfPresent(_:forKey:)` (missing or `null` is nil): the generator takes the second
///   for a property written optional (`T?`, `Optional<T>`). One it cannot tell (an optional
///   behind a typealias) is read as required, which declines where Codable would give nil:
///   `init(from:)` then decides, the same way.
/// - `encodeMember` writes as `encode(_:forKey:)` does, or as `encodeIfPresent` does (nil is
///   left out) when the value is optional: that one the compiler picks, by the value's type.
/// - A type with a direct path (``JSONDecodable``, ``JSONEncodable``) takes it. Any other
///   `Decodable` or `Encodable` type goes through its Codable conformance, on the same document
///   or into the same output; if that throws, the whole value declines, and the decoder or
///   encoder runs the value's own `init(from:)` or `encode(to:)`, which reports it.
///
/// The generator writes no types: the property or the case parameter that takes the result
/// gives `T`.
///
///     self.count = try object.decodeMember("count")              // Int
///     self.fact = try object.decodeMemberIfPresent("fact")       // String?
///     try object.encodeMember(fact, forKey: "fact")              // String?: left out if nil
///
/// NB: overloads, picked where the generated code is compiled (``JSONDecodable`` over
/// `Decodable`), with the scalar cases inlined and folded: a generated conformance runs the
/// code a hand-written one does. The unused `as` parameter is what ranks the overloads: with
/// `T` in the result alone, Swift finds the two ambiguous.
extension JSONObjectReader {
  /// The member `name`, as `decode(_:forKey:)` reads it: it must be there.
  @inlinable @inline(__always)
  public func decodeMember<T: JSONDecodable>(
    _ name: StaticString, as type: T.Type = T.self
  ) throws(JSONDeclined) -> T {
    // NB: the scalars through their readers that match the name as a constant (see
    // `decode(String.self, forKey:)`); `T` is known where this is inlined.
    if T.self == String.self {
      return unsafeBitCast(try decode(String.self, forKey: name), to: T.self)
    }
    if T.self == Int.self { return unsafeBitCast(try decode(Int.self, forKey: name), to: T.self) }
    if T.self == Bool.self {
      return unsafeBitCast(try decode(Bool.self, forKey: name), to: T.self)
    }
    return try decode(T.self, forKey: name)
  }

  /// The member `name` of a type without a direct path, through its `init(from:)`.
  @inlinable
  public func decodeMember<T: Decodable>(
    _ name: StaticString, as type: T.Type = T.self
  ) throws(JSONDeclined) -> T {
    try requiredValue(name).decodeThroughCodable(declining: T.self)
  }

  /// The member `name`, as `decodeIfPresent(_:forKey:)` reads it: nil if missing or `null`.
  @inlinable @inline(__always)
  public func decodeMemberIfPresent<T: JSONDecodable>(
    _ name: StaticString, as type: T.Type = T.self
  ) throws(JSONDeclined) -> T? {
    guard let value = presentValue(name) else { return nil }
    return try T(json: value)
  }

  /// The member `name` of a type without a direct path, through its `init(from:)`: nil if
  /// missing or `null`.
  @inlinable
  public func decodeMemberIfPresent<T: Decodable>(
    _ name: StaticString, as type: T.Type = T.self
  ) throws(JSONDeclined) -> T? {
    guard let value = presentValue(name) else { return nil }
    return try value.decodeThroughCodable(declining: T.self)
  }
}

extension JSONCase {
  /// The single unlabeled payload, as ``payload(_:)`` reads it.
  @inlinable @inline(__always)
  public func decodePayload<T: JSONDecodable>(as type: T.Type = T.self) throws(JSONDeclined) -> T {
    try payload(T.self)
  }

  /// The single unlabeled payload of a type without a direct path, through its `init(from:)`.
  @inlinable
  public func decodePayload<T: Decodable>(as type: T.Type = T.self) throws(JSONDeclined) -> T {
    try payloadReader().decodeThroughCodable(declining: T.self)
  }

  /// The single unlabeled optional payload, as ``payloadIfPresent(_:)`` reads it.
  @inlinable @inline(__always)
  public func decodePayloadIfPresent<T: JSONDecodable>(
    as type: T.Type = T.self
  ) throws(JSONDeclined) -> T? {
    try payloadIfPresent(T.self)
  }

  /// The single unlabeled optional payload of a type without a direct path, through its
  /// `init(from:)`.
  @inlinable
  public func decodePayloadIfPresent<T: Decodable>(
    as type: T.Type = T.self
  ) throws(JSONDeclined) -> T? {
    guard let value = try presentPayloadReader() else { return nil }
    return try value.decodeThroughCodable(declining: T.self)
  }
}

extension JSONValueReader {
  /// The value, a string, for a `switch` over the raw values of an enum: no `String` is made.
  ///
  ///     switch try json.stringCase() {
  ///     case "teams": self = .teams
  ///     default: throw JSONDeclined()
  ///     }
  ///
  /// NB: a string written with escapes matches nothing (`init(from:)` then decides).
  public func stringCase() throws(JSONDeclined) -> JSONStringCase {
    if let cursor {
      let (text, escaped) = try cursor.pointee.stringText(at: index)
      return JSONStringCase(text: text, escaped: escaped)
    }
    guard document.pointee.kind(at: index) == .string else { throw JSONDeclined() }
    return JSONStringCase(
      text: document.pointee.text(at: index),
      escaped: document.pointee.flags(at: index) & Token.escaped != 0)
  }

  /// The value through `T`'s `init(from:)` on the document's tape; declines if that throws
  /// (the whole value is then decoded through Codable, which reports it) and in a direct read
  /// (which then gives way to the tape).
  ///
  /// NB: a type that reads itself directly without the caller knowing (a conformance the
  /// generated code cannot see) takes its direct path.
  @usableFromInline
  func decodeThroughCodable<T: Decodable>(declining type: T.Type) throws(JSONDeclined) -> T {
    if let direct = T.self as? any JSONDecodable.Type {
      guard let value = try direct.init(json: self) as? T else { throw JSONDeclined() }
      return value
    }
    if let cursor { throw cursor.pointee.fail() }
    do {
      return try TapeDecoder(document, at: index).decodeValue(type)
    } catch {
      throw JSONDeclined()
    }
  }
}

extension JSONObjectWriter {
  /// Writes the member as `encode(_:forKey:)` does.
  @inlinable @inline(__always)
  public mutating func encodeMember<T: JSONEncodable>(
    _ value: T, forKey name: StaticString
  ) throws(JSONDeclined) {
    // NB: the scalars through their non-generic writers (see `decodeMember`).
    if T.self == String.self { return encode(unsafeBitCast(value, to: String.self), forKey: name) }
    if T.self == Int.self { return encode(unsafeBitCast(value, to: Int.self), forKey: name) }
    if T.self == Bool.self { return encode(unsafeBitCast(value, to: Bool.self), forKey: name) }
    try encode(value, forKey: name)
  }

  /// Writes the member as `encodeIfPresent(_:forKey:)` does: nothing when it is nil.
  @inlinable @inline(__always)
  public mutating func encodeMember<T: JSONEncodable>(
    _ value: T?, forKey name: StaticString
  ) throws(JSONDeclined) {
    guard let value else { return }
    try encodeMember(value, forKey: name)
  }

  /// Writes the member, of a type without a direct path, through its `encode(to:)`.
  @inlinable
  public mutating func encodeMember<T: Encodable>(
    _ value: T, forKey name: StaticString
  ) throws(JSONDeclined) {
    try encodeThroughCodable(value, forKey: name)
  }

  /// Writes the member, of a type without a direct path, through its `encode(to:)`; nothing
  /// when it is nil.
  @inlinable
  public mutating func encodeMember<T: Encodable>(
    _ value: T?, forKey name: StaticString
  ) throws(JSONDeclined) {
    guard let value else { return }
    try encodeThroughCodable(value, forKey: name)
  }
}

extension JSONObjectWriter {
  /// Writes the member `name` through `value`'s `encode(to:)`.
  @usableFromInline
  mutating func encodeThroughCodable<T: Encodable>(
    _ value: T, forKey name: StaticString
  ) throws(JSONDeclined) {
    try key(name).encodeThroughCodable(value)
  }
}

extension JSONValueWriter {
  /// Writes `value` through its `encode(to:)`, with the encoder's `userInfo`; declines if that
  /// throws, or nests too deep here (the whole value is then encoded through Codable, which
  /// reports it).
  ///
  /// NB: a type that writes itself directly without the caller knowing (a conformance the
  /// generated code cannot see) takes its direct path.
  func encodeThroughCodable<T: Encodable>(_ value: T) throws(JSONDeclined) {
    if let direct = value as? any JSONEncodable {
      try direct.encode(json: self)
      return
    }
    var encoder = JSONEncoder()
    if let userInfo = out.pointee.userInfo { encoder.userInfo = userInfo.pointee }
    guard case let .success((bytes, deepest))? = encoder.streamed(value),
      depth + deepest <= JSONParser.maxDepth
    else { throw JSONDeclined() }
    bytes.withUnsafeBufferPointer { out.pointee.append($0) }
  }
}

/// A string value as ``JSONValueReader/stringCase()`` found it: its bytes, matched against
/// string literals by a `switch`.
public struct JSONStringCase {
  let text: UnsafeBufferPointer<UInt8>
  let escaped: Bool

  /// Whether the string is `pattern`, byte for byte.
  public static func ~= (pattern: StaticString, value: JSONStringCase) -> Bool {
    guard !value.escaped, pattern.utf8CodeUnitCount == value.text.count else { return false }
    return pattern.withUTF8Buffer { pattern in
      for i in 0..<pattern.count where pattern[i] != value.text[i] { return false }
      return true
    }
  }
}

/// The stored properties a generated conformance was written for, checked once against the
/// type as compiled.
///
/// NB: a safety net for the generator, which reads source text: a stored property it did not
/// see (one with a default value would go unnoticed by the compiler) makes the conformance
/// decline every value, so the type is decoded and encoded through Codable, as if it had none.
/// The check is made once per type, with `Mirror` (the stored properties, in order).
public final class GeneratedFields: Sendable {
  @usableFromInline let names: [StaticString]
  /// 0: not checked yet, 1: the same, 2: not the same.
  @usableFromInline let state = Atomic<UInt8>(0)

  public init(_ names: [StaticString]) { self.names = names }

  /// Declines unless `value`'s type has exactly the stored properties named, in order.
  @inlinable @inline(__always)
  public func check<T>(_ value: T) throws(JSONDeclined) {
    let known = state.load(ordering: .relaxed)
    if known == 1 { return }
    if known == 2 || !compare(value) { throw JSONDeclined() }
  }

  @usableFromInline
  func compare<T>(_ value: T) -> Bool {
    let mirror = Mirror(reflecting: value)
    var same = mirror.displayStyle == .struct && mirror.children.count == names.count
    if same {
      for (child, name) in zip(mirror.children, names) {
        let expected = name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        if child.label != expected {
          same = false
          break
        }
      }
    }
    state.store(same ? 1 : 2, ordering: .relaxed)
    return same
  }
}
