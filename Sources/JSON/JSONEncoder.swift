import Synchronization

/// Encodes `Encodable` values as compact JSON text.
///
/// Enums are written in Swift's synthesized form (`{"setCount":{"_0":5}}`), the one canonical
/// output form of the wire format; NaN and infinities are errors, and so is nesting deeper than
/// ``JSONParser/maxDepth`` (the decoder would refuse it).
///
///     let bytes = try JSONEncoder().encode(state)
///
/// A type that also writes itself directly (``JSONEncodable``) is encoded through
/// `encode(json:)`, much faster, to the same bytes.
///
/// NB: values are written straight into a byte buffer while `encode(to:)` runs (see
/// ``EncodingState``); the rare value that uses its containers out of order is encoded again
/// through a tree (``TreeEncoder``).
public struct JSONEncoder: Sendable {
  /// Handed to `encode(to:)` as `encoder.userInfo`.
  // NB: not the literal `[:]`, which builds the empty dictionary through
  // `init(dictionaryLiteral:)` on every `JSONDecoder()`/`JSONEncoder()` (docs/benchmarks.md).
  public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()

  public init() {}

  /// How much output is written on the stack before the encoder's buffer moves to the heap.
  ///
  /// NB: at most 1,024: `withUnsafeTemporaryAllocation` puts a larger buffer on the heap (a
  /// malloc and a free of 2 KB for each small value, ~350 instructions) unless the runtime can
  /// tell the thread's stack has room, which it does not on Linux.
  private static var stackBytes: Int { 1024 }

  public func encode<T: Encodable>(_ value: T) throws(JSONError) -> [UInt8] {
    // NB: a type that writes itself directly is found at run time here (a cached lookup);
    // callers that know it statically get the overload below and skip even that.
    if let direct = value as? any JSONEncodable { return try encode(direct) }
    return try encodeThroughCodable(value)
  }

  /// A function that encodes `T`s with this encoder's settings, by the path `T` has: made once,
  /// it skips the per-call check of ``encode(_:)`` for whether `T` writes itself directly.
  public func encoding<T: Encodable>(_ type: T.Type) -> (T) throws(JSONError) -> [UInt8] {
    if let direct = T.self as? any JSONEncodable.Type, let encode = encoding(direct, as: type) {
      return encode
    }
    return { [self] (value) throws(JSONError) in try encodeThroughCodable(value) }
  }

  private func encoding<Direct: JSONEncodable, T>(
    _ direct: Direct.Type, as type: T.Type
  ) -> ((T) throws(JSONError) -> [UInt8])? {
    guard Direct.self == T.self else { return nil }
    // NB: the function remembers how long its last output was and starts the next one with
    // that much room: a large state (a 1,000-todo list) is then written without regrowing.
    let lastCount = LastCount()
    let encode: (Direct) throws(JSONError) -> [UInt8] = {
      [self] (value) throws(JSONError) in
      let bytes = try self.encode(value, expectedCount: lastCount.value.load(ordering: .relaxed))
      lastCount.value.store(bytes.count, ordering: .relaxed)
      return bytes
    }
    // NB: `Direct` is `T` (checked above), so the two function types are the same type.
    return unsafeBitCast(encode, to: ((T) throws(JSONError) -> [UInt8]).self)
  }

  /// Encodes a type that writes itself (``JSONEncodable``): through `encode(json:)`, and
  /// through `encode(to:)` if that declines (NaN, too deep), which reports the error.
  public func encode<T: JSONEncodable>(_ value: T) throws(JSONError) -> [UInt8] {
    try encode(value, expectedCount: 0)
  }

  private func encode<T: JSONEncodable>(
    _ value: T, expectedCount: Int
  ) throws(JSONError) -> [UInt8] {
    func write(into out: consuming OutputBuffer, _ info: UserInfoPointer?) -> [UInt8]? {
      var out = out
      out.userInfo = info
      return Self.write(value, into: &out) ? out.bytes() : nil
    }
    // NB: as below, a small value is written on the stack.
    let bytes = withUserInfo { (info) -> [UInt8]? in
      expectedCount > Self.stackBytes
        ? write(into: OutputBuffer(capacity: expectedCount + expectedCount / 8), info)
        : withUnsafeTemporaryAllocation(byteCount: Self.stackBytes, alignment: 16) {
          (scratch) -> [UInt8]? in
          write(into: OutputBuffer(startingIn: scratch.bindMemory(to: UInt8.self)), info)
        }
    }
    if let bytes { return bytes }
    return try encodeThroughCodable(value)
  }

  /// Encodes `value` and lends its text to `body` (valid only inside it): written on the stack,
  /// never copied into an array, when `value`'s type writes itself (``JSONEncodable``) and the
  /// text is short.
  ///
  ///     let small = try JSONEncoder().withEncoded(7) { $0.count <= 16 }   // true
  public func withEncoded<T: Encodable, R>(
    _ value: T, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) throws(JSONError) -> R {
    if let direct = value as? any JSONEncodable,
      let lent = withUserInfo({ info in Self.withWritten(direct, userInfo: info, body) })
    {
      return lent
    }
    return try encodeThroughCodable(value).withUnsafeBufferPointer(body)
  }

  /// `body` given the text `value` writes of itself, written on the stack (nil, nothing called,
  /// if `value` declines: NaN, too deep).
  private static func withWritten<T: JSONEncodable, R>(
    _ value: T, userInfo: UserInfoPointer?, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R? {
    withUnsafeTemporaryAllocation(byteCount: stackBytes, alignment: 16) { scratch -> R? in
      var out = OutputBuffer(startingIn: scratch.bindMemory(to: UInt8.self))
      out.userInfo = userInfo
      guard write(value, into: &out) else { return nil }
      return body(out.written)
    }
  }

  /// Encodes `value` laid out for a lent text (``JSONLayout``): each chunk of a chunked value
  /// (an identified array's leaf) in a slot with slack, the layout recorded in `layout`. A
  /// value that does not write itself directly is encoded as ``encode(_:)`` does, with no
  /// slots.
  public func encode<T: Encodable>(_ value: T, layout: JSONLayout) throws(JSONError) -> [UInt8] {
    layout.startFull()
    guard let direct = value as? any JSONEncodable else { return try encode(value) }
    let bytes = withUserInfo { info in
      Self.write(direct, layout: layout, userInfo: info, capacity: 1024) { out in
        layout.finishFull(out)
      }
    }
    if let bytes { return bytes }
    layout.startFull()
    return try encode(value)
  }

  /// Updates `text`, laid out by `layout` for an earlier value, to `value`'s in place: O(what
  /// changed) in the chunked values (see ``JSONLayout``). False when it cannot (the text is
  /// then unchanged, and must be written again with ``encode(_:layout:)``).
  public func update<T: Encodable>(
    _ text: UnsafeMutableBufferPointer<UInt8>, to value: T, layout: JSONLayout
  ) -> Bool {
    guard layout.hasSlots, let direct = value as? any JSONEncodable else { return false }
    layout.startSkeleton()
    var updated = false
    let written = withUserInfo { info in
      Self.write(direct, layout: layout, userInfo: info, capacity: 256) { skeleton in
        updated = layout.finishSkeleton(skeleton, into: text)
      }
    }
    return written != nil && updated
  }

  /// Runs `body` with this encoder's `userInfo` by pointer, nil when it is empty: for the
  /// values a direct path writes through `encode(to:)` (``OutputBuffer/userInfo``).
  ///
  /// NB: by pointer, so that a direct write (every state read) holds no reference to count.
  @inline(__always)
  private func withUserInfo<R>(_ body: (UserInfoPointer?) -> R) -> R {
    if userInfo.isEmpty { return body(nil) }
    return withUnsafePointer(to: userInfo) { body($0) }
  }

  /// Writes `value` into `out` through `encode(json:)`; false if it declined.
  private static func write<T: JSONEncodable>(_ value: T, into out: inout OutputBuffer) -> Bool {
    withUnsafeMutablePointer(to: &out) { (out) -> Bool in
      do throws(JSONDeclined) {
        try value.encode(json: JSONValueWriter(out, depth: 0))
        return true
      } catch {
        return false
      }
    }
  }

  /// Writes `value` directly into a buffer carrying `layout`; calls `finish` with the bytes
  /// written and returns them (nil if the value declined).
  private static func write<T: JSONEncodable>(
    _ value: T, layout: JSONLayout, userInfo: UserInfoPointer?, capacity: Int,
    finish: (UnsafeBufferPointer<UInt8>) -> Void
  ) -> [UInt8]? {
    var out = OutputBuffer(capacity: capacity)
    out.layout = layout
    out.userInfo = userInfo
    guard write(value, into: &out) else { return nil }
    out.layout = nil
    finish(UnsafeBufferPointer(start: out.base, count: out.count))
    return out.bytes()
  }

  /// Encodes with `encode(to:)` only, even for a type that writes itself directly: the
  /// reference the direct path is tested and measured against.
  public func encodeThroughCodable<T: Encodable>(_ value: T) throws(JSONError) -> [UInt8] {
    switch streamed(value) {
    case nil: return try encodeThroughTree(value)
    case let .failure(error): throw JSONError(encoding: error)
    case let .success((bytes, deepest)):
      if deepest > JSONParser.maxDepth { throw JSONError.tooDeep }
      return bytes
    }
  }

  /// `value` written through `encode(to:)` as it runs (``EncodingState``), with the most
  /// containers it had open at once; nil if it cannot be written that way (see there).
  func streamed<T: Encodable>(
    _ value: T
  ) -> Result<(bytes: [UInt8], deepest: Int), any Error>? {
    // NB: a small value is written on the stack: the only allocation is the array returned.
    withUnsafeTemporaryAllocation(byteCount: Self.stackBytes, alignment: 16) {
      (scratch) -> Result<(bytes: [UInt8], deepest: Int), any Error>? in
      var state = EncodingState(userInfo: anyUserInfo(userInfo), scratch: scratch)
      let thrown = withUnsafeMutablePointer(to: &state) { (state) -> (any Error)? in
        do {
          try value.encode(to: StreamEncoder(state, depth: 0, slot: EncodingState.rootSlot))
          state.pointee.finish()
          return nil
        } catch {
          return error
        }
      }
      if state.isPoisoned { return nil }
      if let thrown { return .failure(thrown) }
      return .success((state.bytes(), state.deepest))
    }
  }

  /// The value as a ``JSONValue`` tree.
  public func encodeValue<T: Encodable>(_ value: T) throws(JSONError) -> JSONValue {
    try JSONParser.parse(try encode(value))
  }

  private func encodeThroughTree<T: Encodable>(_ value: T) throws(JSONError) -> [UInt8] {
    let root = Node()
    do {
      try value.encode(to: TreeEncoder(node: root, codingPath: []))
    } catch {
      throw JSONError(encoding: error)
    }
    let bytes = JSONWriter.write(root.value)
    // NB: the tree has no depth limit of its own; the scanner's check is the one that counts.
    let valid = bytes.withUnsafeBufferPointer { buffer in
      (try? JSONParser.validate(buffer)) != nil
    }
    guard valid else { throw JSONError.tooDeep }
    return bytes
  }
}

extension JSONError {
  /// An error thrown while encoding, as an `unencodable` error.
  init(encoding error: any Error) {
    switch error {
    case let error as JSONError:
      self = error
    case let EncodingError.invalidValue(_, context):
      self.init(.unencodable, path: pointer(context.codingPath), context.debugDescription)
    default:
      self.init(.unencodable, "\(error)")
    }
  }

  static var tooDeep: JSONError {
    JSONError(.unencodable, "nesting deeper than \(JSONParser.maxDepth)")
  }
}

/// The length of an encoding function's last output (see `JSONEncoder.encoding(_:)`).
private final class LastCount: Sendable {
  let value = Atomic<Int>(0)
}
