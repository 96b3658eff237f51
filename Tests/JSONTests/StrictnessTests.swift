import JSON
import JSONTestSupport
import Testing

// Each rule of strict input (docs/wire-format.md), and numbers at the edges of their types.

private func syntaxError(_ document: [UInt8]) -> JSONError? {
  let failure = error { () throws(JSONError) in try JSONParser.parse(document) }
  #expect(failure?.kind == .syntax)
  return failure
}

@Test func eachStrictRuleIsASyntaxErrorAtItsByte() {
  let cases: [([UInt8], Int, String)] = [
    (bytes(#"["a"#, 0xFF, #""]"#), 3, "invalid UTF-8 in a string"),
    (bytes(#"["a"#, 0xC0, 0x80, #""]"#), 3, "invalid UTF-8 in a string"),
    (bytes(#"["a"#, 0xED, 0xA0, 0x80, #""]"#), 3, "invalid UTF-8 in a string"),
    (bytes(#"["\ud800"]"#), 2, "lone surrogate in a string"),
    (bytes(#"["\udc00\ud800"]"#), 2, "lone surrogate in a string"),
    (bytes(#"[1] x"#), 4, "unexpected 'x' after the JSON value"),
    (bytes("01"), 1, "leading zero in a number"),
    (bytes("[-012]"), 3, "leading zero in a number"),
    (bytes("[\"a\u{1}b\"]"), 3, "control character in a string"),
    (bytes("[\"a\tb\"]"), 3, "control character in a string"),
    (bytes(0xEF, 0xBB, 0xBF, "{}"), 0, "byte order mark before the JSON value"),
    (bytes(#"["\x"]"#), 2, #"invalid escape \'x'"#),
    (bytes(#"["\u12G4"]"#), 6, #"invalid \u escape"#),
    (bytes("[1.]"), 3, "invalid fraction"),
    (bytes("[1e+]"), 4, "invalid exponent"),
    (bytes("[-]"), 2, "invalid number"),
    (bytes("[tru]"), 1, "invalid literal"),
    (bytes("[1 2]"), 3, "unexpected '2', expected ',' or ']'"),
    (bytes(#"{"a" 1}"#), 5, "unexpected '1', expected ':'"),
    (bytes("{1:2}"), 1, "unexpected '1', expected a member name"),
    (bytes(#"{"a":1 "b":2}"#), 7, "unexpected '\"', expected ',' or '}'"),
    (bytes(#"{"a":1"#), 6, "unexpected end of input in an object"),
    (bytes(#""abc"#), 4, "unterminated string"),
    ([], 0, "unexpected end of input, expected a value"),
    (bytes("\u{0}"), 0, "unexpected byte 0x0, expected a value"),
  ]
  for (document, offset, message) in cases {
    let failure = syntaxError(document)
    #expect(failure?.offset == offset, "\(String(decoding: document, as: UTF8.self))")
    #expect(failure?.message == message, "\(String(decoding: document, as: UTF8.self))")
  }
}

/// Issue 13 item 8: a repeated member name is valid JSON (RFC 8259) the wire format refuses, so a
/// shape error at its object, naming the key (escaped), not a syntax error.
@Test func aRepeatedMemberNameIsAShapeErrorNamingTheKey() {
  let cases: [([UInt8], String, String)] = [
    (bytes(#"{"a":1,"a":2}"#), "", #"duplicate member name "a""#),
    (bytes(#"{"a":1,"\u0061":2}"#), "", #"duplicate member name "a""#),
    (bytes(#"[0,{"x":[1,{"b":0,"c":1,"b":2}]}]"#), "/1/x/1", #"duplicate member name "b""#),
    (bytes(#"{"p":{"q\n\"":1,"q\n\"":2}}"#), "/p", #"duplicate member name "q\n\"""#),
    // NB: a first member whose value is a container (an object with one such is not compared).
    (bytes(#"{"a":{"b":1},"a":2}"#), "", #"duplicate member name "a""#),
    (bytes(#"{"t":{"a":[1,2],"a":[]}}"#), "/t", #"duplicate member name "a""#),
    (
      bytes("{", .text((0..<40).map { #""k\#($0)":0,"# }.joined()), #""k7":1}"#), "",
      #"duplicate member name "k7""#
    ),
    // NB: the sixteenth member (the last checked on the stack) and the seventeenth (the table's).
    (
      bytes("{", .text((0..<15).map { #""k\#($0)":0,"# }.joined()), #""k3":1}"#), "",
      #"duplicate member name "k3""#
    ),
    (
      bytes("{", .text((0..<16).map { #""k\#($0)":0,"# }.joined()), #""k3":1}"#), "",
      #"duplicate member name "k3""#
    ),
  ]
  for (document, path, message) in cases {
    let text = String(decoding: document, as: UTF8.self)
    let failure = error { () throws(JSONError) in try JSONParser.parse(document) }
    #expect(failure?.kind == .shape, "\(text)")
    #expect(failure?.path == path, "\(text)")
    #expect(failure?.message == message, "\(text)")
    struct Loose: Decodable { var a: Int? }
    let decoded = error { () throws(JSONError) in
      try JSONDecoder().decode(Loose.self, from: document)
    }
    #expect(decoded?.kind == .shape, "\(text)")
  }
}

@Test func depthIsLimitedTo512() throws {
  let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
  #expect(throws: Never.self) { try JSONParser.parse(Array(deepest.utf8)) }
  let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
  let failure = syntaxError(Array(tooDeep.utf8))
  #expect(failure?.offset == 512)
  #expect(failure?.message == "nesting deeper than 512")
  // NB: far deeper input costs no stack: the scanner stops at 513.
  #expect(syntaxError(Array(repeating: UInt8(ascii: "["), count: 1_000_000))?.offset == 512)

  indirect enum Nest: Codable, Equatable { case leaf, nest(Nest) }
  var value = Nest.leaf
  for _ in 0..<300 { value = .nest(value) }
  let encoded = error { () throws(JSONError) in try JSONEncoder().encode(value) }
  #expect(encoded?.kind == .unencodable)
  #expect(encoded?.message == "nesting deeper than 512")
  var shallow = Nest.leaf
  for _ in 0..<100 { shallow = .nest(shallow) }
  #expect(try decode(Nest.self, encode(shallow)) == shallow)
}

@Test func integersOfEveryWidthCheckTheirRange() throws {
  #expect(try decode(Int8.self, "127") == 127)
  #expect(try decode(Int8.self, "-128") == -128)
  #expect(try decode(UInt8.self, "255") == 255)
  #expect(try decode(Int16.self, "-32768") == .min)
  #expect(try decode(UInt16.self, "65535") == .max)
  #expect(try decode(Int32.self, "2147483647") == .max)
  #expect(try decode(UInt32.self, "4294967295") == .max)
  #expect(try decode(Int64.self, "-9223372036854775808") == .min)
  #expect(try decode(Int.self, "9223372036854775807") == .max)
  #expect(try decode(UInt64.self, "18446744073709551615") == .max)
  #expect(try decode(UInt.self, "-0") == 0)
  let outOfRange: [(any Decodable.Type, String)] = [
    (Int8.self, "128"), (Int8.self, "-129"), (UInt8.self, "256"), (UInt8.self, "-1"),
    (Int16.self, "32768"), (UInt16.self, "65536"), (Int32.self, "-2147483649"),
    (UInt32.self, "4294967296"), (Int64.self, "9223372036854775808"),
    (Int.self, "-9223372036854775809"), (UInt64.self, "18446744073709551616"),
    (Int.self, "123123123123123123123123123123"), (UInt.self, "-1"), (Int.self, "1e19"),
  ]
  for (type, text) in outOfRange {
    let failure = error { () throws(JSONError) in
      try JSONDecoder().decode(type, from: Array(text.utf8))
    }
    #expect(failure?.kind == .shape, "\(type) \(text)")
    #expect(failure?.message.hasPrefix("expected an integer in") == true, "\(type) \(text)")
  }
}

@Test func wholeNumbersInOtherFormsAreIntegers() throws {
  #expect(try decode(Int.self, "1e2") == 100)
  #expect(try decode(Int.self, "1.0") == 1)
  #expect(try decode(Int.self, "-2.50e1") == -25)
  #expect(try decode(Int.self, "0.0e-5") == 0)
  #expect(try decode(UInt8.self, "2.55E2") == 255)
  #expect(try decode(Int64.self, "9.223372036854775807e18") == .max)
  #expect(
    error { () throws(JSONError) in try decode(Int.self, "1e-1000000000") }?.message
      == "expected an integer, found 1e-1000000000")
  #expect(
    error { () throws(JSONError) in try decode(Int.self, "1.5") }?.message
      == "expected an integer, found 1.5")
  #expect(error { () throws(JSONError) in try decode(Int.self, "1e-1") }?.kind == .shape)
  #expect(error { () throws(JSONError) in try decode(Int.self, "1e999999999999") }?.kind == .shape)
  #expect(try decode(Int.self, "0e999999999999") == 0)
}

@Test func floatingPointNumbersAreShortestAndExact() throws {
  let doubles: [(Double, String)] = [
    (0.1, "0.1"), (100, "100"), (-0.0, "-0"), (1e16, "1e+16"), (1e-7, "1e-07"),
    (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    (0.30000000000000004, "0.30000000000000004"), (123456.789, "123456.789"),
    (-1.5, "-1.5"), (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000"),
    (1e16, "1e+16"),
  ]
  for (value, text) in doubles {
    #expect(try encode(value) == text, "\(value)")
    let back = try decode(Double.self, text)
    #expect(back.bitPattern == value.bitPattern, "\(text)")
  }
  let floats: [(Float, String)] = [
    (0.1, "0.1"), (3.4028235e38, "3.4028235e+38"), (.leastNonzeroMagnitude, "1e-45"), (-0.0, "-0"),
    (16_777_216, "16777216"), (1e10, "1e+10"),
  ]
  for (value, text) in floats {
    #expect(try encode(value) == text, "\(value)")
    #expect(try decode(Float.self, text).bitPattern == value.bitPattern, "\(text)")
  }
  #expect(try decode(Double.self, "1e-400") == 0)
  #expect(try decode(Double.self, "-123123123123123123123123123123") == -1.2312312312312312e29)
  #expect(try decode(Double.self, "17976931348623157e292") == .greatestFiniteMagnitude)
  #expect(try decode(Float.self, "3.4028235e38") == .greatestFiniteMagnitude)
  #expect(try decode(Double.self, "9007199254740993") == 9_007_199_254_740_992)
  #expect(try decode(Double.self, "0.1e1") == 1)
  let huge = error { () throws(JSONError) in try decode(Double.self, "1e400") }
  #expect(huge?.kind == .shape)
  #expect(huge?.message == "expected a number in Double's range, found 1e400")
  #expect(error { () throws(JSONError) in try decode(Float.self, "1e39") }?.kind == .shape)
  #expect(error { () throws(JSONError) in try decode(Double.self, #""NaN""#) }?.kind == .shape)
}

@Test func stringsKeepEveryScalar() throws {
  let text =
    "\u{0}\u{1}\u{1F}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"\\/\n\r\t\u{8}\u{C}"
  let encoded = try encode(text)
  #expect(
    encoded
      == #""\u0000\u0001\u001f\#u{7F}\#u{80}\#u{7FF}\#u{800}\#u{FFFF}\#u{10000}"#
      + #"\#u{10FFFF}\"\\/\n\r\t\b\f""#
  )
  #expect(try decode(String.self, encoded) == text)
  #expect(try decode(String.self, #""\u00e9\u00E9\/""#) == "éé/")
  let long = String(repeating: "abcdefgh\"ij", count: 100)
  #expect(try decode(String.self, encode(long)) == long)
}
