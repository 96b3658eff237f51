/// A strict RFC 8259 parser into ``JSONValue`` trees.
///
/// Rejects invalid UTF-8, lone surrogates, control characters in strings, leading zeros,
/// a byte order mark, trailing bytes, duplicate member names in one object and nesting deeper
/// than ``maxDepth`` (see ``Scanner``).
///
///     let value = try JSONParser.parse(Array("[1, 2]".utf8))
public enum JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maxDepth = 512

  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
      try parse(buffer)
    }
  }

  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
    try Scanner.withDocument(buffer) { $0.pointee.value(at: 0) }
  }

  /// Checks that `bytes` are one JSON document under the rules above, without building a tree.
  ///
  ///     try JSONParser.validate(Array("[1,]".utf8))  // throws: at byte 3: unexpected ']'…
  public static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    try Scanner.withDocument(bytes) { _ in }
  }
}
