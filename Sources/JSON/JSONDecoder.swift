/// Decodes `Decodable` values from JSON text.
///
/// Besides Swift's synthesized forms it accepts the host-friendly shorthands of the wire format
/// (docs/wire-format.md): a bare string for an enum case without payload (`"increment"`) and the
/// bare value for a single unlabeled payload (`{"setCount":5}`).
///
///     let action = try JSONDecoder().decode(Action.self, from: Array(#""increment""#.utf8))
///
/// A type that also reads itself directly (``JSONDecodable``) is decoded through `init(json:)`,
/// much faster, and through `init(from:)` only where that declines.
///
/// NB: it reads in two steps. The ``Scanner`` checks the whole text and lays its values on a
/// tape (one allocation); then `init(json:)` or `init(from:)` reads from the tape and the bytes
/// directly, with no tree of values in between.
public struct JSONDecoder: Sendable {
  /// Handed to `init(from:)` as `decoder.userInfo`.
  // NB: not the literal `[:]`, which builds the empty dictionary through
  // `init(dictionaryLiteral:)` on every `JSONDecoder()`/`JSONEncoder()` (docs/benchmarks.md).
  public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()

  public init() {}

  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONError) -> T {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try decode(type, from: buffer)
    }
  }

  @inlinable @inline(__always)
  public func decode<T: Decodable>(
    _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> T {
    // NB: inlined, as the two below: a host's answer is decoded ~35 calls deep, and each call
    // level beyond the CPU's return stack (32 on this machine) costs a mispredicted return,
    // ~7 ns (docs/benchmarks.md: the effect round trip).
    // NB: a type that reads itself directly is found at run time here (a cached lookup);
    // callers that know it statically get the overload below and skip even that.
    if let direct = T.self as? any JSONDecodable.Type {
      return try decodeDirectly(direct, as: type, from: buffer)
    }
    return try decodeThroughCodable(type, from: buffer)
  }

  /// Decodes a type that reads itself (``JSONDecodable``): through `init(json:)`, and through
  /// `init(from:)` on the same scanned document if that declines, so errors are the same.
  public func decode<T: JSONDecodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONError) -> T {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try decode(type, from: buffer)
    }
  }

  @inlinable @inline(__always)
  public func decode<T: JSONDecodable>(
    _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> T {
    try T.decodeJSON(from: buffer, with: self)
  }

  /// Documents longer than this get a first look at their root (``RootProbe``).
  @inlinable
  static var probeThreshold: Int { 4096 }

  /// Documents longer than this are first read without a tape (``DirectCursor``) when the type
  /// reads itself directly.
  @inlinable
  static var directThreshold: Int { 256 }

  /// Fails fast on a big document whose root `type` cannot be (see ``RootProbe``).
  @usableFromInline
  func probe<T: Decodable>(_ type: T.Type, _ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    try RootProbe.check(type, buffer)
  }

  /// Scans `buffer` and calls `body` with its root value.
  @usableFromInline
  func scan(
    _ buffer: UnsafeBufferPointer<UInt8>, _ body: (JSONValueReader) throws(JSONError) -> Void
  ) throws(JSONError) {
    try Scanner.withDocument(buffer, userInfo: anyUserInfo(userInfo)) {
      (document) throws(JSONError) in try body(JSONValueReader(document, at: 0))
    }
  }

  /// Decodes with `init(from:)` only, even for a type that reads itself directly: the
  /// reference the direct path is tested and measured against.
  ///
  /// NB: inlinable, so that the caller's specialization holds the result: unspecialized, its
  /// `T?` (or `Result<T, _>`) is a run-time metadata lookup on every call, a tenth of a small
  /// action's decode. Everything it calls is not generic.
  @inlinable
  public func decodeThroughCodable<T: Decodable>(
    _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> T {
    if buffer.count > JSONDecoder.probeThreshold { try probe(type, buffer) }
    var result: T?
    try decodeRoot(of: buffer) { decoder in result = try T(from: decoder) }
    guard let result else { throw JSONError(.shape, "nothing was decoded") }
    return result
  }

  /// A function that decodes `T`s with this decoder's settings, by the path `T` has: made once,
  /// it skips the check `decode` makes on every call of whether `T` reads itself directly.
  ///
  ///     let decodeAction = JSONDecoder().decoding(Action.self)
  ///     let action = try decodeAction(buffer)
  public func decoding<T: Decodable>(
    _ type: T.Type
  ) -> (UnsafeBufferPointer<UInt8>) throws(JSONError) -> T {
    if let direct = T.self as? any JSONDecodable.Type, let decode = decoding(direct, as: type) {
      return decode
    }
    return { [self] (buffer) throws(JSONError) in try decodeThroughCodable(T.self, from: buffer) }
  }

  private func decoding<Direct: JSONDecodable, T>(
    _ direct: Direct.Type, as type: T.Type
  ) -> ((UnsafeBufferPointer<UInt8>) throws(JSONError) -> T)? {
    guard Direct.self == T.self else { return nil }
    let decode: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Direct = {
      [self] (buffer) throws(JSONError) in try Direct.decodeJSON(from: buffer, with: self)
    }
    // NB: `Direct` is `T` (checked above), so the two function types are the same type.
    return unsafeBitCast(
      decode, to: ((UnsafeBufferPointer<UInt8>) throws(JSONError) -> T).self)
  }

  @usableFromInline @inline(__always)
  func decodeDirectly<Direct: JSONDecodable, T>(
    _ direct: Direct.Type, as type: T.Type, from buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) -> T {
    guard let value = try decode(direct, from: buffer) as? T else {
      throw JSONError(.shape, "decoded a \(Direct.self), not a \(T.self)")
    }
    return value
  }

  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONError) -> T {
    try decode(type, from: JSONWriter.write(value))
  }

  /// Scans `buffer` and runs `body` with the decoder of its root value, turning what it throws
  /// into a ``JSONError``.
  @usableFromInline
  func decodeRoot(
    of buffer: UnsafeBufferPointer<UInt8>, _ body: (any Decoder) throws -> Void
  ) throws(JSONError) {
    try Scanner.withDocument(buffer, userInfo: anyUserInfo(userInfo)) {
      (document) throws(JSONError) in
      do {
        try body(TapeDecoder(document, at: 0))
      } catch {
        throw JSONError(thrownByInitFrom: error, in: document.pointee)
      }
    }
  }
}

extension JSONError {
  /// What `init(from:)` threw, as a ``JSONError``.
  init(thrownByInitFrom error: any Error, in document: Document) {
    switch error {
    case let error as JSONError: self = error
    case let error as DecodingError: self.init(decoding: error, in: document)
    default: self.init(.shape, "\(error)")
    }
  }
}

extension JSONError {
  /// A shape error from a `DecodingError` thrown by a type's `init(from:)`.
  init(decoding error: DecodingError, in document: Document) {
    switch error {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .dataCorrupted(context):
      var message = context.debugDescription
      if message.hasPrefix("Cannot initialize "), let range = message.firstRange(of: " value ") {
        // NB: the standard library's `init(from:)` of a `RawRepresentable` enum puts the raw
        // value in its message as is (quotes, newlines, NULs, 100 MB): shown quoted instead.
        let value = document.index(at: context.codingPath).map(document.brief(at:))
        message = String(message[..<range.upperBound]) + (value ?? "(not shown)")
      } else if message.hasPrefix("Invalid number of keys found") {
        // NB: the synthesized `init(from:)` of an enum, given an object without exactly one of
        // its cases.
        let index = document.index(at: context.codingPath)
        message = "expected exactly one known case, found "
          + (index.map(document.memberNames(at:)) ?? "nothing")
        // NB: the synthesized `init(from:)` names the enum itself, whose cases its keys are.
        if case let .typeMismatch(type, _) = error, let cases = EnumCases.names(of: type),
          let hint = CaseHint.hint(sent: index.flatMap(document.soleMemberName(at:)), cases: cases)
        {
          message += " (\(hint))"
        }
      }
      self.init(.shape, path: pointer(context.codingPath), message)
    case let .keyNotFound(key, context):
      self.init(
        .shape, path: pointer(context.codingPath), "missing member \(JSON.quoted(key.stringValue))")
    @unknown default:
      self.init(.shape, "\(error)")
    }
  }
}

/// `userInfo` as Codable hands it out.
func anyUserInfo(_ info: [CodingUserInfoKey: any Sendable]) -> [CodingUserInfoKey: Any] {
  info.isEmpty ? noUserInfo : info.mapValues { $0 as Any }
}

// NB: an empty dictionary made once (a literal is built on every call); it is never mutated.
nonisolated(unsafe) private let noUserInfo: [CodingUserInfoKey: Any] = [:]
