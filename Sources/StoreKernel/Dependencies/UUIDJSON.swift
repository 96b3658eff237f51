import JSON

// The UUID's direct JSON paths (``JSONCodable``): the same string as its Codable conformance.

extension UUID: JSONCodable {
  /// The canonical 36-character string, in either case; declines anything else, so that
  /// `init(from:)` reports it.
  ///
  /// NB: parsed by ``init(utf8:)``, the very check `init(from:)` makes on the same (unescaped)
  /// string: both accept exactly the same inputs.
  public init(json: JSONValueReader) throws(JSONDeclined) {
    guard let uuid = try json.withUTF8({ UUID(utf8: $0) }) else { throw JSONDeclined() }
    self = uuid
  }

  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    withText { json.write(utf8: $0) }
  }
}
