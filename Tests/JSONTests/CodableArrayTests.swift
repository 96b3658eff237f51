import JSON
import JSONTestSupport
import Testing

// Arrays decoded through Codable alone (issue 17: the decoder fills an array in place rather
// than through the standard library's `Array.init(from:)`): the same values, the same errors
// at the same places, the same coding paths for the elements.

private struct Item: Decodable, Equatable {
  var name: String
  var id: Int
}

/// Remembers the coding path it was decoded at.
private struct Place: Decodable, Equatable {
  var path: String
  var value: Int

  init(path: String, value: Int) {
    self.path = path
    self.value = value
  }

  init(from decoder: any Decoder) throws {
    path = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      .joined(separator: "/")
    value = try decoder.singleValueContainer().decode(Int.self)
  }
}

private struct Lists: Decodable, Equatable {
  var items: [Item]
  var grid: [[Int]]
  var maybe: [Int?]
  var empty: [String]
  var places: [Place]
  var optional: [Item]?
}

/// Reads an array through a single-value container.
private struct Wrapped: Decodable, Equatable {
  var values: [Int]
  init(from decoder: any Decoder) throws {
    values = try decoder.singleValueContainer().decode([Int].self)
  }
}

private func decoded<T: Decodable>(_ type: T.Type, _ text: String) throws(JSONError) -> T {
  let bytes = Array(text.utf8)
  return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try JSONDecoder().decodeThroughCodable(type, from: buffer)
  }
}

@Test func arraysDecodeTheirElementsInOrderAtTheirPlaces() throws {
  let text = #"""
    {"items":[{"name":"a","id":1},{"id":2,"name":"b"}],"grid":[[],[1,2],[3]],
     "maybe":[1,null,3],"empty":[],"places":[7,8],"optional":null}
    """#
  let lists = try decoded(Lists.self, text)
  #expect(lists.items == [Item(name: "a", id: 1), Item(name: "b", id: 2)])
  #expect(lists.grid == [[], [1, 2], [3]])
  #expect(lists.maybe == [1, nil, 3])
  #expect(lists.empty == [])
  #expect(lists.places == [Place(path: "places/0", value: 7), Place(path: "places/1", value: 8)])
  #expect(lists.optional == nil)
  let nested = try decoded([[Item]].self, #"[[{"name":"x","id":0}],[]]"#)
  #expect(nested == [[Item(name: "x", id: 0)], []])
  #expect(try decoded(Wrapped.self, "[4,5]").values == [4, 5])
  #expect(try decoded([Place].self, "[1]") == [Place(path: "0", value: 1)])
}

@Test func arrayErrorsNameThePlace() {
  let base = #""grid":[],"maybe":[],"empty":[],"places":[]"#
  func failure(_ text: String) -> String? {
    error { () throws(JSONError) in try decoded(Lists.self, text) }?.description
  }
  #expect(
    failure(#"{"items":[{"name":"a","id":1},{"name":12,"id":2}],"# + base + "}")
      == "at /items/1/name: expected a string, found 12")
  #expect(
    failure(#"{"items":{},"# + base + "}") == "at /items: expected an array, found an object")
  #expect(failure(#"{"items":null,"# + base + "}") == "at /items: expected an array, found null")
  #expect(
    failure(#"{"items":[],"grid":[[1],3],"maybe":[],"empty":[],"places":[]}"#)
      == "at /grid/1: expected an array, found 3")
  #expect(
    failure(#"{"items":[],"grid":[[1,"x"]],"maybe":[],"empty":[],"places":[]}"#)
      == #"at /grid/0/1: expected an integer, found "x""#)
  #expect(
    failure(#"{"items":[{"name":"a"}],"# + base + "}") == #"at /items/0: missing member "id""#)
  #expect(
    failure(#"{"items":[],"optional":[1],"# + base + "}")
      == "at /optional/0: expected an object, found 1")
  #expect(
    error { () throws(JSONError) in try decoded(Wrapped.self, "{}") }?.description
      == "at /: expected an array, found an object")
}
