/// What went wrong while reading or writing JSON.
///
/// A `syntax` error means the input is not JSON at all (it carries the byte offset); a `shape`
/// error means it is JSON but not of the expected type (it carries the JSON Pointer of the place).
///
///     at /todos/3/title: expected a string, found 12
public struct JSONError: Error, CustomStringConvertible, Equatable, Sendable {
  public enum Kind: Sendable, Equatable {
    /// Not JSON: bad bytes, bad UTF-8, trailing garbage, too deep.
    case syntax
    /// Valid JSON that does not fit the expected type.
    case shape
    /// A value that JSON cannot carry (NaN, infinity) met while encoding.
    case unencodable
  }

  public var kind: Kind
  /// JSON Pointer (RFC 6901) of the place, `""` for the whole document.
  public var path: String
  /// Byte offset in the input, for syntax errors.
  public var offset: Int?
  public var message: String

  public init(_ kind: Kind, path: String = "", offset: Int? = nil, _ message: String) {
    self.kind = kind
    self.path = path
    self.offset = offset
    self.message = message
  }

  public var description: String {
    if let offset { return "at byte \(offset): \(message)" }
    return "at \(path.isEmpty ? "/" : path): \(message)"
  }
}
