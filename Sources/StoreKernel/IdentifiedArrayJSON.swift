import JSON

// The identified array's direct JSON paths (``JSONCodable``): a plain JSON array of its
// elements, as its Codable conformance.

extension IdentifiedArray: JSONDecodable where Element: JSONDecodable {
  /// The elements in order; declines a repeated id (and any element its type declines), so
  /// that `init(from:)` reports it with its place.
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let count = try json.arrayCount()
    var array = IdentifiedArray()
    array._elements.reserveCapacity(count)
    array._ids.reserveCapacity(count)
    array._index.reserveCapacity(count)
    try json.forEachElement { (element) throws(JSONDeclined) in
      guard array.append(try Element(json: element)).inserted else { throw JSONDeclined() }
    }
    self = array
  }
}

extension IdentifiedArray: JSONEncodable where Element: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try _elements.encode(json: json)
  }
}
