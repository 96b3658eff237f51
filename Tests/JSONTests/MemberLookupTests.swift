import JSON
import JSONTestSupport
import Testing

// Member lookups by name (issue 17's faster lookups): names of every length up to past two
// words, names that differ only in their last byte or only in length, asked for in any order.

private struct Name: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Reads the members `names` in that order, and says which ones the object lacks.
private struct Lookup: Decodable {
  nonisolated(unsafe) static var names: [String] = []
  var values: [String: Int] = [:]
  var missing: [String] = []

  init(from decoder: any Decoder) throws {
    let object = try decoder.container(keyedBy: Name.self)
    for name in Lookup.names {
      if let value = try object.decodeIfPresent(Int.self, forKey: Name(stringValue: name)) {
        values[name] = value
      } else {
        missing.append(name)
      }
    }
  }
}

/// Names of lengths 0 to 20 that share prefixes and suffixes with each other.
private let names: [String] =
  (0...20).map { String(repeating: "a", count: $0) }
  + (1...20).map { String(repeating: "a", count: $0 - 1) + "b" }
  + ["é", "aé", "aaaaaaaé", "aaaaaaaaé"]

@Test(.serialized, arguments: [false, true])
func membersAreFoundByTheirWholeNameInAnyOrder(reversed: Bool) throws {
  let present = names.enumerated().filter { $0.offset % 3 != 1 }
  let text = "{" + present.map { #""\#($0.element)":\#($0.offset)"# }.joined(separator: ",") + "}"
  let asked = reversed ? names.reversed() : names
  Lookup.names = asked
  let lookup = try JSONDecoder().decode(Lookup.self, from: Array(text.utf8))
  for (offset, name) in present { #expect(lookup.values[name] == offset, "\(name)") }
  #expect(Set(lookup.missing) == Set(names).subtracting(present.map(\.element)))
  // The same lookups through the bytes' escaped forms of the names.
  let escaped = "{" + present.map {
    #""\#($0.element.replacingA())":\#($0.offset)"#
  }.joined(separator: ",") + "}"
  let again = try JSONDecoder().decode(Lookup.self, from: Array(escaped.utf8))
  #expect(again.values == lookup.values)
  #expect(Set(again.missing) == Set(lookup.missing))
}

extension String {
  /// The name with its first `a` written as the escape `\u0061`.
  fileprivate func replacingA() -> String {
    guard let index = firstIndex(of: "a") else { return self }
    return self[..<index] + #"\u0061"# + self[self.index(after: index)...]
  }
}

/// `object` as the document, and as a member of an object nested `depth` deep in a document
/// of more than 256 bytes (the scanner summarizes names in those, up to 64 deep).
private func placed(_ object: String, depth: Int) -> String {
  let padding = String(repeating: " ", count: 300)
  return String(repeating: #"{"n":["#, count: depth) + padding + object
    + String(repeating: "]}", count: depth)
}

@Test func aRepeatedNameIsFoundWhateverItsLength() {
  for depth in [0, 1, 63, 64, 70] {
    for name in names {
      for other in ["x", name + "x", String(name.dropLast())] where other != name {
        let text = placed(#"{"\#(name)":1,"\#(other)":2,"\#(name)":3}"#, depth: depth)
        let failure = error { () throws(JSONError) in
          _ = try JSONParser.parse(Array(text.utf8))
        }
        #expect(failure?.message.hasPrefix("duplicate member name") == true, "\(name) \(depth)")
        let again = name.replacingA()
        let escaped = placed(#"{"\#(name)":1,"\#(other)":2,"\#(again)":3}"#, depth: depth)
        let escapedFailure = error { () throws(JSONError) in
          _ = try JSONParser.parse(Array(escaped.utf8))
        }
        #expect(escapedFailure?.message.hasPrefix("duplicate member name") == true, "\(name)")
      }
      let distinct = placed(#"{"\#(name)":1,"\#(name)x":2}"#, depth: depth)
      #expect(error { () throws(JSONError) in try JSONParser.parse(Array(distinct.utf8)) } == nil)
    }
  }
}
