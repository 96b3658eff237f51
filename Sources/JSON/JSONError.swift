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
    return "at \(path.isEmpty ? "/" : JSONError.shownPath(path)): \(message)"
  }

  /// `text` as messages quote a value from the input: a JSON string, escaped as JSON escapes it
  /// (quotes, backslashes, control characters), cut after 20 Unicode scalars (or `limit`) with
  /// "…". For the messages of `DecodingError`s a type throws, so they name values as the
  /// library's do.
  ///
  ///     JSONError.quoted("x\"\n")  // "x\"\n", escaped
  public static func quoted(_ text: String, limit: Int = 20) -> String {
    JSON.quoted(text, limit: limit)
  }

  /// A path as a message shows it: control characters escaped (`\u000A`), and a long one cut
  /// to its last 200 characters after "…".
  ///
  /// NB: a path is made of the input's member names: it is not quoted, but must not forge a
  /// line or carry a 100 MB name into `tca_last_error()`.
  static func shownPath(_ path: String) -> String {
    let limit = 200
    let unsafe = path.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    guard unsafe || path.utf8.count > limit else { return path }
    var scalars = Array(path.unicodeScalars)
    var out = ""
    if scalars.count > limit {
      scalars = Array(scalars[(scalars.count - limit)...])
      out = "…"
    }
    for scalar in scalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
