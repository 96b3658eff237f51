import JSON
import JSONTestSupport
import Testing

// The wire format's action forms (docs/wire-format.md): Swift's synthesized forms and the
// host-friendly shorthands on input, one canonical form on output.

private enum Action: Codable, Equatable {
  case increment
  case setCount(Int)
  case toggle(id: Int)
  case child(Child)
  case setName(String?)
  case setTags([String])
  case setPoint(Point)
  case move(from: Int, to: Int)
  case team(TeamList)
  enum Child: Codable, Equatable { case searchQueryChanged(String) }
  enum TeamList: Codable, Equatable {
    case searchQueryChanged(String)
    case row(id: Int, action: Row)
  }
  enum Row: Codable, Equatable { case favoriteTapped }
  struct Point: Codable, Equatable { var x = 0, y = 0 }
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
  #expect(
    try decode(Action.self, #"{"team":{"searchQueryChanged":"bos"}}"#)
      == .team(.searchQueryChanged("bos")))
  #expect(
    try decode(Action.self, #"{"team":{"row":{"id":7,"action":"favoriteTapped"}}}"#)
      == .team(.row(id: 7, action: .favoriteTapped)))
  #expect(try decode(Action.self, #" { "setCount" : { "_0" : -5 } } "#) == .setCount(-5))
}

@Test func shorthandPayloadsOfEveryKind() throws {
  #expect(try decode(Action.self, #"{"setName":"x"}"#) == .setName("x"))
  #expect(try decode(Action.self, #"{"setName":null}"#) == .setName(nil))
  #expect(try decode(Action.self, #"{"setName":{}}"#) == .setName(nil))
  #expect(try decode(Action.self, #"{"setName":{"_0":"y"}}"#) == .setName("y"))
  #expect(try decode(Action.self, #"{"setTags":["a","b"]}"#) == .setTags(["a", "b"]))
  #expect(try decode(Action.self, #"{"setTags":{"_0":[]}}"#) == .setTags([]))
  #expect(try decode(Action.self, #"{"setPoint":{"x":1,"y":2}}"#) == .setPoint(.init(x: 1, y: 2)))
  #expect(
    try decode(Action.self, #"{"setPoint":{"_0":{"x":1,"y":2}}}"#) == .setPoint(.init(x: 1, y: 2)))
  #expect(try decode(Action.self, #"{"move":{"from":1,"to":2}}"#) == .move(from: 1, to: 2))
}

@Test func canonicalOutputRoundTrips() throws {
  let actions: [Action] = [
    .increment, .setCount(-7), .toggle(id: 3), .child(.searchQueryChanged("é\n\"")),
    .setName(nil), .setName("n"), .setTags([]), .setPoint(.init(x: 1, y: 2)),
    .move(from: 0, to: 9), .team(.row(id: 1, action: .favoriteTapped)),
  ]
  for action in actions {
    #expect(try decode(Action.self, encode(action)) == action)
  }
  #expect(try encode(Action.increment) == #"{"increment":{}}"#)
  #expect(try encode(Action.setCount(5)) == #"{"setCount":{"_0":5}}"#)
  #expect(try encode(Action.toggle(id: 3)) == #"{"toggle":{"id":3}}"#)
  #expect(try encode(Action.setName(nil)) == #"{"setName":{}}"#)
  #expect(
    try encode(Action.child(.searchQueryChanged("bos")))
      == #"{"child":{"_0":{"searchQueryChanged":{"_0":"bos"}}}}"#)
}

@Test func wrongActionsAreShapeErrorsNamingThePlace() {
  func failure(_ text: String) -> JSONError? {
    error { () throws(JSONError) in try decode(Action.self, text) }
  }
  let cases =
    #"valid cases: "child", "increment", "move", "setCount", "setName", "setPoint", "setTags", "#
    + #""team", "toggle""#
  #expect(failure(#""jump""#)?.kind == .shape)
  #expect(
    failure(#""jump""#)?.description
      == #"at /: "jump" is not a known case (expected a case name or an object; "# + cases + ")")
  #expect(
    failure(#"{"jump":{}}"#)?.description
      == #"at /: expected exactly one known case, found "jump" ("# + cases + ")")
  #expect(
    failure(#"{"increment":{},"setCount":1}"#)?.description
      == #"at /: expected exactly one known case, found "increment", "setCount" ("# + cases + ")")
  #expect(
    failure(#"{}"#)?.description
      == "at /: expected exactly one known case, found no members (" + cases + ")")
  #expect(
    failure(#"{"setCount":"x"}"#)?.description == #"at /setCount: expected an integer, found "x""#)
  #expect(failure(#"{"toggle":{}}"#)?.description == #"at /toggle: missing member "id""#)
  #expect(
    failure(#"{"toggle":{"id":true}}"#)?.description
      == "at /toggle/id: expected an integer, found true")
  #expect(
    failure(#"{"increment":true}"#)?.description == "at /increment: expected an object, found true"
  )
  #expect(failure("12")?.description == "at /: expected an object, found 12")
  #expect(failure("[1]")?.description == "at /: expected an object, found an array")
  #expect(
    failure(#"{"setCount":1.5}"#)?.description == "at /setCount: expected an integer, found 1.5")
  #expect(failure(#"{"toggle":1"#)?.kind == .syntax)
}

@Test func errorsNameThePlace() {
  struct Todo: Decodable { var title: String }
  struct State: Decodable { var todos: [Todo] }
  let shape = error { () throws(JSONError) in
    try decode(State.self, #"{"todos":[{"title":"a"},{"title":"b"},{"title":"c"},{"title":12}]}"#)
  }
  #expect(shape?.kind == .shape)
  #expect(shape?.path == "/todos/3/title")
  #expect(shape?.description == "at /todos/3/title: expected a string, found 12")

  let missing = error { () throws(JSONError) in try decode(State.self, #"{"todos":[{}]}"#) }
  #expect(missing?.description == #"at /todos/0: missing member "title""#)

  let escaped = error { () throws(JSONError) in try decode([String: Int].self, #"{"a/b~c":"x"}"#) }
  #expect(escaped?.description == #"at /a~1b~0c: expected an integer, found "x""#)

  let syntax = error { () throws(JSONError) in try decode(Int.self, "[1,") }
  #expect(syntax?.kind == .syntax)
  #expect(syntax?.offset == 3)
  #expect(syntax?.description == "at byte 3: unexpected end of input, expected a value")

  let long = error { () throws(JSONError) in try decode(Int.self, #""abcdefghijklmnopqrstuvwxyz""#)
  }
  #expect(long?.description == #"at /: expected an integer, found "abcdefghijklmnopqrst…""#)

  let type = error { () throws(JSONError) in try decode([Bool].self, #"[true, null]"#) }
  #expect(type?.description == "at /1: expected a boolean, found null")
}

@Test func customDecodingErrorsBecomeShapeErrors() {
  struct Even: Decodable {
    init(from decoder: any Decoder) throws {
      let value = try Int(from: decoder)
      guard value % 2 == 0 else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "\(value) is odd"))
      }
    }
  }
  let failure = error { () throws(JSONError) in try decode([String: [Even]].self, #"{"n":[2,3]}"#)
  }
  #expect(failure?.kind == .shape)
  #expect(failure?.description == "at /n/1: 3 is odd")
  let raw = error { () throws(JSONError) in try decode([Filter].self, #"["all","some"]"#) }
  #expect(raw?.kind == .shape)
  #expect(raw?.path == "/1")
}

@Test func unencodableValuesAreErrorsWithThePlace() {
  struct Reading: Encodable { var values: [Double] }
  let nan = error { () throws(JSONError) in
    try JSONEncoder().encode(["a": Reading(values: [1, .nan])])
  }
  #expect(nan?.kind == .unencodable)
  #expect(nan?.description == "at /a/values/1: nan cannot be written as JSON")
  #expect(
    error { () throws(JSONError) in try JSONEncoder().encode(Double.infinity) }?.kind
      == .unencodable)
  #expect(
    error { () throws(JSONError) in try JSONEncoder().encode([Float.nan]) }?.kind == .unencodable)
  struct Custom: Encodable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        0, .init(codingPath: encoder.codingPath, debugDescription: "not today"))
    }
  }
  let custom = error { () throws(JSONError) in try JSONEncoder().encode(["k": [Custom()]]) }
  #expect(custom?.description == "at /k/0: not today")
}
