/// A first look at a big document before it is scanned: when a type's `init(from:)` asks the
/// root for a container it cannot be (an object of an array, an array of an object), the shape
/// error comes early, without laying the whole tape: the text is only checked for a syntax
/// error as far as a tape of half a byte a byte of text reaches.
///
///     // 100 MB `[0,0,…]` where an object is expected: at /: expected an object, found an array
///     try RootProbe.check(Counter.Action.self, buffer)
///
/// NB: a full scan lays a tape of up to twice the text (`[0,0,0,…]`) and takes its time: a host
/// that sends a 100 MB array where an action goes should get its error fast and cheap. The probe knows only the root's first byte. It gives an error only when the one that
/// escapes `init(from:)` is its own mismatch, which the full decode would throw at the same
/// point (the decoder has seen nothing else by then); anything else (a member asked for, a
/// scalar, a type that catches the mismatch) leaves the decision to the full decode.
enum RootProbe {
  /// Documents this small are decoded at once: their tape is small anyway.
  static var threshold: Int { JSONDecoder.probeThreshold }

  /// Throws the shape error of `type` at the root if its first request cannot be met.
  static func check<T: Decodable>(
    _ type: T.Type, _ buffer: UnsafeBufferPointer<UInt8>
  ) throws(JSONError) {
    guard buffer.count > threshold else { return }
    var i = 0
    while i < buffer.count, buffer[i] <= ASCII.space, ASCII.isWhitespace(buffer[i]) { i += 1 }
    guard i < buffer.count else { return }
    let root: Root
    switch buffer[i] {
    case ASCII.openBracket: root = .array
    case ASCII.openBrace: root = .object
    default: return
    }
    do {
      _ = try T(from: ProbeDecoder(root: root))
    } catch let error as Mismatch {
      // NB: a syntax error found first still wins, as in a full decode (see Scanner.check).
      throw Scanner.check(buffer, or: error.error)
    } catch {
      return
    }
  }

  enum Root { case object, array }

  /// The probe's own shape error, told apart from anything a type throws.
  struct Mismatch: Error {
    let error: JSONError
  }

  /// Thrown when the probe cannot decide: the full decode goes on.
  struct Undecided: Error {}

  struct ProbeDecoder: Decoder {
    let root: Root
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      // NB: as ``TapeDecoder``: a keyed container with a `_0` key takes a bare value.
      guard root == .array, Key(stringValue: "_0") == nil else { throw Undecided() }
      throw Mismatch(error: JSONError(.shape, "expected an object, found an array"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
      guard root == .object else { throw Undecided() }
      throw Mismatch(error: JSONError(.shape, "expected an array, found an object"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      throw Undecided()
    }
  }
}
