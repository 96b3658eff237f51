import JSON
import JSONTestSupport
import Testing

// `JSONPointer.value(at:in:)` (a parsed document) finds what `JSONPointer.lookup` (the text)
// finds, and nothing where the text lookup fails; written back, it is the same text when the
// document is in the encoder's form (compact, escaping only what JSON requires), as states are.

private let document =
  #"{"a":{"b":[10,{"c/d":true,"e~f":null,"":"empty"},[]]},"todos":[{"id":"x","title":"milk"}],"#
  + #""s":"q\"\\é\u0001","n":-1.5e3}"#

@Test(arguments: [
  "", "/a", "/a/b", "/a/b/0", "/a/b/1", "/a/b/1/c~1d", "/a/b/1/e~0f", "/a/b/1/", "/a/b/2",
  "/todos/0/title", "/s", "/n",
  // Not there, or not well formed: both fail.
  "/a/b/3", "/a/b/01", "/a/b/-", "/a/b/-1", "/a/x", "/s/0", "/n/x", "a", "/a/b/1/c~2d",
  "/todos/99999999999999999999", "/a/b/0/x",
])
func aTreeLookupFindsWhatTheTextLookupFinds(_ pointer: String) throws {
  let text = Array(document.utf8)
  let tree = try JSONParser.parse(text)
  let found = JSONPointer.value(at: pointer, in: tree)
  if let expected = try? JSONPointer.lookup(pointer, in: text) {
    #expect(found == (try JSONParser.parse(expected)), "\(pointer)")
    #expect(found.map { JSONWriter.write($0) } == expected, "\(pointer)")
  } else {
    #expect(found == nil, "\(pointer)")
  }
}
