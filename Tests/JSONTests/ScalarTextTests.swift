import JSON
import JSONTestSupport
import Testing

// How a scanned scalar's text is read back: a string's end (found backwards from the value after
// it when it can be), its escapes (copied a run at a time), and a whole number read where it
// stands. Each read through the direct path and through Codable alone.

private struct Labeled: Codable, Equatable {
  var a: String
  var b: [String]
  var c: Int
}

/// `T` decoded from `text` through Codable alone.
private func decodeThroughCodable<T: Decodable>(
  _ type: T.Type, _ text: String
) throws(JSONError) -> T {
  let bytes = Array(text.utf8)
  return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
    try JSONDecoder().decodeThroughCodable(type, from: buffer)
  }
}

@Test(arguments: [
  (#"["a","",  "b\"" , "c\\" ,"\"" ]"#, ["a", "", "b\"", "c\\", "\""]),
  (#"[["a"],"b",{"c":"d"},"e"]"#, nil),
  (#"  [ "x" ]  "#, ["x"]),
  (#"["a","b"]"#, ["a", "b"]),
  (#"["ab\"c","\"\"","]","}",",",":"]"#, ["ab\"c", "\"\"", "]", "}", ",", ":"]),
])
func stringsEndAtTheirClosingQuote(text: String, expected: [String]?) throws {
  if let expected {
    #expect(try decode([String].self, text) == expected)
    #expect(try decodeThroughCodable([String].self, text) == expected)
  } else {
    #expect(error { () throws(JSONError) in try decode([String].self, text) } != nil)
  }
}

@Test func stringsBeforeEveryKindOfValue() throws {
  let text = #"{"a" : "x\"" , "b":["\"",  "y"],"c":3}"#
  let expected = Labeled(a: "x\"", b: ["\"", "y"], c: 3)
  #expect(try decode(Labeled.self, text) == expected)
  #expect(try decodeThroughCodable(Labeled.self, text) == expected)
  #expect(try decode(String.self, #" "top\"" "#) == "top\"")
  #expect(try decode([String: String].self, #"{"k":"v","o":"w"}"#) == ["k": "v", "o": "w"])
  #expect(try decode([String: [String]].self, #"{"k":["v"],"o":[]}"#) == ["k": ["v"], "o": []])
}

@Test(arguments: [
  (
    #""abcdefghij\nklmnopqrstuvwxyz\u00e9\ud83d\ude00end""#,
    "abcdefghij\nklmnopqrstuvwxyz\u{e9}😀end"
  ),
  (#""\\""#, "\\"),
  (#""\"\"\"""#, "\"\"\""),
  (#""\t0123456789abcdef0123456789""#, "\t0123456789abcdef0123456789"),
  (#""0123456789abcdef0123456789\/""#, "0123456789abcdef0123456789/"),
  (#""01234567\\89abcdef\b\f\r""#, "01234567\\89abcdef\u{8}\u{c}\r"),
  (#""café \"soon\"\t!""#, "café \"soon\"\t!"),
])
func escapesAreUnescapedAnywhereInTheText(text: String, expected: String) throws {
  #expect(try decode(String.self, text) == expected)
  #expect(try decodeThroughCodable(String.self, text) == expected)
  #expect(try decode([String].self, "[\(text),\(text)]") == [expected, expected])
}

@Test func wholeNumbersAtTheEdgesOfTheirTypes() throws {
  #expect(try decode([Int8].self, "[127,-128,0,-0,1e2,-1.0]") == [127, -128, 0, 0, 100, -1])
  #expect(try decodeThroughCodable([Int8].self, "[127,-128,0,-0]") == [127, -128, 0, 0])
  #expect(try decode([UInt8].self, "[255,0,-0]") == [255, 0, 0])
  #expect(try decodeThroughCodable([UInt8].self, "[255,0,-0]") == [255, 0, 0])
  #expect(
    try decode([Int64].self, "[9223372036854775807,-9223372036854775808]")
      == [.max, .min])
  #expect(try decode(UInt64.self, "18446744073709551615") == .max)
  #expect(try decode(Int.self, " 42 ") == 42)
  #expect(try decode([String: Int].self, #"{"a":-7}"#) == ["a": -7])
  for text in ["[128]", "[-129]", "[1000]", "[1.5]"] {
    #expect(error { () throws(JSONError) in try decode([Int8].self, text) } != nil)
    #expect(error { () throws(JSONError) in try decodeThroughCodable([Int8].self, text) } != nil)
  }
  for text in ["[-1]", "[256]", "[-01]"] {
    #expect(error { () throws(JSONError) in try decode([UInt8].self, text) } != nil)
  }
  #expect(error { () throws(JSONError) in try decode(UInt64.self, "18446744073709551616") } != nil)
  #expect(error { () throws(JSONError) in try decode(Int64.self, "-9223372036854775809") } != nil)
  let direct = error { () throws(JSONError) in try decode([Int8].self, "[1,128]") }
  let codable = error { () throws(JSONError) in
    try decodeThroughCodable([Int8].self, "[1,128]")
  }
  #expect(direct != nil && direct == codable)
}
