import JSON
import Testing

private enum Action: Codable, Equatable {
  case increment
  case setCount(Int)
  case toggle(id: Int)
  case child(Child)
  enum Child: Codable, Equatable { case searchQueryChanged(String) }
}


@Test func synthesizedAndShortActionForms() throws {
  #expect(try decode(Action.self, #"{"increment":{}}"#) == .increment)
  #expect(try decode(Action.self, #""increment""#) == .increment)
  #expect(try decode(Action.self, #"{"setCount":{"_0":5}}"#) == .setCount(5))
  #expect(try decode(Action.self, #"{"setCount":5}"#) == .setCount(5))
  #expect(try decode(Action.self, #"{"toggle":{"id":3}}"#) == .toggle(id: 3))
  #expect(
    try decode(Action.self, #"{"child":{"searchQueryChanged":"bos"}}"#)
      == .child(.searchQueryChanged("bos")))
}

@Test func canonicalOutputRoundTrips() throws {
  let actions: [Action] = [.increment, .setCount(-7), .toggle(id: 3), .child(.searchQueryChanged("é\n\""))]
  for action in actions {
    let text = try encode(action)
    #expect(try decode(Action.self, text) == action)
  }
  #expect(try encode(Action.setCount(5)) == #"{"setCount":{"_0":5}}"#)
}

@Test func errorsNameThePlace() {
  #expect(throws: JSONError.self) { try decode(Action.self, #""jump""#) }
  do {
    _ = try decode([String: Int].self, #"{"a":"x"}"#)
    Issue.record("expected an error")
  } catch {
    #expect(error.kind == .shape)
    #expect(error.description == #"at /a: expected an integer, found "x""#)
  }
  do {
    _ = try decode(Int.self, "[1,")
    Issue.record("expected an error")
  } catch {
    #expect(error.kind == .syntax)
    #expect(error.offset == 3)
  }
}

@Test func strictInput() {
  for bad in ["01", "[1,]", "{\"a\":1,\"a\":2}", "\"\u{01}\"", "\"\\ud800\"", "1 2", "nul", "-", "1.", "1e"] {
    #expect(throws: JSONError.self, "\(bad)") { try JSONParser.parse(Array(bad.utf8)) }
  }
  #expect(throws: JSONError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
  #expect(throws: JSONError.self) { try JSONParser.parse(Array(repeating: UInt8(ascii: "["), count: 600)) }
  #expect(throws: JSONError.self) { try decode(Int8.self, "300") }
  #expect(throws: JSONError.self) { try decode(Double.self, "1e400") }
  #expect(throws: JSONError.self) { try JSONEncoder().encode(Double.nan) }
}
