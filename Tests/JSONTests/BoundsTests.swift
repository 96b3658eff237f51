import JSON
import JSONTestSupport
import Testing

// What error messages may carry from the input, and a big document of the wrong shape
// (issue 13 items 6 and 7).

private struct Point: Decodable, Equatable {
  var x: Int
}

private enum Shade: String, Decodable {
  case all, active
}

/// Whether `text` has no control character (a message is one line and a whole C string).
private func isOneLine(_ text: String) -> Bool {
  !text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
}

@Test func aBigRootOfTheWrongShapeFailsEarly() throws {
  // NB: the text is broken at its end: the scan stops long before, where its first tape is full.
  let array = Array(("[" + String(repeating: "0,", count: 100_000) + "x").utf8)
  let failure = error { () throws(JSONError) in try JSONDecoder().decode(Point.self, from: array) }
  #expect(failure?.kind == .shape)
  #expect(failure?.description == "at /: expected an object, found an array")

  let members = (0..<20_000).map { #""k\#($0)":0,"# }.joined()
  let object = Array(("{" + members + "x").utf8)
  let other = error { () throws(JSONError) in try JSONDecoder().decode([Int].self, from: object) }
  #expect(other?.description == "at /: expected an array, found an object")

  // A syntax error found first still wins, as in a full decode: nesting too deep, a bad byte.
  let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
  let tooDeep = error { () throws(JSONError) in try JSONDecoder().decode(Point.self, from: deep) }
  #expect(tooDeep?.message == "nesting deeper than 512")
  let broken = Array(("[0,0x" + String(repeating: " ", count: 10_000) + "]").utf8)
  let syntax = error { () throws(JSONError) in try JSONDecoder().decode(Point.self, from: broken) }
  #expect(syntax?.kind == .syntax)
  // A small document is scanned first, as ever.
  #expect(error { () throws(JSONError) in try decode(Point.self, "[0,") }?.kind == .syntax)
  // A big one of the right shape decodes as ever.
  let padded = #"{"x":3}"# + String(repeating: " ", count: 10_000)
  #expect((try? decode(Point.self, padded)) == Point(x: 3))
}

@Test func messagesQuoteValuesEscapedAndShort() {
  // A raw value of an enum: the standard library's message names it as is; ours escapes it.
  let forged = error { () throws(JSONError) in
    try decode([Shade].self, #"["all","x\"\n\u0000at /other: y"]"#)
  }
  #expect(forged?.kind == .shape)
  #expect(forged?.path == "/1")
  #expect(forged.map { isOneLine($0.description) } == true)
  #expect(forged?.message.hasSuffix(#"value "x\"\n\u0000at /other: y""#) == true)

  // A 1 MB string and a 1 MB number are shown by their first 20 characters.
  let long = String(repeating: "a", count: 1 << 20)
  let string = error { () throws(JSONError) in try decode(Point.self, #"{"x":""# + long + #""}"#) }
  #expect(string?.message == #"expected an integer, found "aaaaaaaaaaaaaaaaaaaa…""#)
  let digits = String(repeating: "9", count: 1 << 20)
  let number = error { () throws(JSONError) in try decode(Point.self, #"{"x":"# + digits + "}") }
  #expect(number?.message == "expected an integer in Int's range, found 99999999999999999999…")
  // Escapes are cut between characters, never inside one.
  let escaped = String(repeating: #"\u00e9\n"#, count: 10_000)
  let cut = error { () throws(JSONError) in try decode(Point.self, #"{"x":""# + escaped + #""}"#) }
  #expect(cut?.message == #"expected an integer, found "é\né\né\né\né\né\né\né\né\né\n…""#)

  // A member name in a path: control characters escaped, a long one cut.
  let key = error { () throws(JSONError) in try decode([String: Int].self, #"{"a\nb":"x"}"#) }
  #expect(key?.description == #"at /a\u000Ab: expected an integer, found "x""#)
  let name = String(repeating: "k", count: 100_000)
  let deep = error { () throws(JSONError) in
    try decode([String: Int].self, #"{""# + name + #"":"x"}"#)
  }
  #expect((deep?.description.utf8.count ?? .max) < 300)
  #expect(JSONError.quoted("\u{0}\"") == #""\u0000\"""#)
}
