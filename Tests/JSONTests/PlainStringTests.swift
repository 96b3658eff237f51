@testable import JSON
import JSONTestSupport
import Testing

// A document that is one string is read straight from its bytes when it is plain ASCII; every
// other document goes through the scanner. Either way the value or the error is the one the
// Codable path gives.

private let documents: [String] = [
  #""7 is lucky""#, #""""#, #"  "padded"  "#, "\t\r\n\"all whitespace\"\n",
  #""with \"escape\"""#, #""tab\tescaped""#, #""\u00e9""#, "\"caf\u{e9}\"",
  "\"control \u{01} char\"", "\"raw\ttab\"", #""unterminated"#, #"unopened""#, #"""#, "",
  "   ", #""a" "b""#, #""a"x"#, #"x"a""#, #"["a"]"#, "null", "12", #""slash \/ ""#,
  "\"emoji \u{1F600}\"",
]

@Test(arguments: documents)
func aStringDocumentDecodesAsThroughCodable(_ text: String) {
  let bytes = Array(text.utf8)
  let direct = Result { () throws(JSONError) in
    try JSONDecoder().decode(String.self, from: bytes)
  }
  let codable = Result { () throws(JSONError) in
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try JSONDecoder().decodeThroughCodable(String.self, from: buffer)
    }
  }
  #expect(direct == codable, "\(text)")
}

@Test func invalidUTF8InAStringDocumentIsASyntaxError() {
  for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
    do {
      let value = try JSONDecoder().decode(String.self, from: bytes)
      Issue.record("decoded \(value.debugDescription) from \(bytes)")
    } catch {
      #expect(error.kind == .syntax, "\(bytes)")
    }
  }
}

@Test func onlyPlainASCIIIsReadWithoutTheScanner() {
  func plain(_ text: String) -> String? {
    Array(text.utf8).withUnsafeBufferPointer { plainJSONString($0) }
  }
  #expect(plain(#" "abc" "#) == "abc")
  #expect(plain(#""""#) == "")
  #expect(plain("\"caf\u{e9}\"") == nil)
  #expect(plain(#""a\nb""#) == nil)
  #expect(plain(#""a"b""#) == nil)
  #expect(plain(#""a"#) == nil)
  #expect(plain(#"""#) == nil)
}

/// Long texts are checked eight bytes at a time: every byte value at every position of a
/// 23-byte text (two words and a tail) is refused exactly when it is not plain.
@Test func everyByteAtEveryPositionOfALongText() {
  let plainText = Array("0 is a good number, ok.".utf8)
  for position in plainText.indices {
    for value in 0...255 {
      var text = plainText
      text[position] = UInt8(value)
      let expected =
        value >= 0x20 && value < 0x80 && value != 0x22 && value != 0x5C
        ? String(decoding: text, as: UTF8.self) : nil
      let found = ([0x22] + text + [0x22]).withUnsafeBufferPointer { plainJSONString($0) }
      #expect(found == expected, "byte \(value) at \(position)")
    }
  }
}
