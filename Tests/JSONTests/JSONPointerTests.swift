import JSON
import JSONTestSupport
import Testing

private let state = Array(
  #"""
  {"todos":[{"id":1,"title":"milk","tags":[]},{"id":2,"title":"eggs \"large\"","tags":["x"]}],
   "filter":"all","a/b":{"m~n":true},"":0,"e\u0301":"escaped name","count":-3.5e2}
  """#.utf8)

private func lookup(_ pointer: String) throws(JSONError) -> String {
  String(decoding: try JSONPointer.lookup(pointer, in: state), as: UTF8.self)
}

@Test func pointersFindValuesAsJSONText() throws {
  #expect(try lookup("/todos/0/title") == #""milk""#)
  #expect(try lookup("/todos/1/title") == #""eggs \"large\"""#)
  #expect(try lookup("/todos/1") == #"{"id":2,"title":"eggs \"large\"","tags":["x"]}"#)
  #expect(try lookup("/todos/0/tags") == "[]")
  #expect(try lookup("/todos/1/tags/0") == #""x""#)
  #expect(try lookup("/filter") == #""all""#)
  #expect(try lookup("/a~1b/m~0n") == "true")
  #expect(try lookup("/") == "0")
  #expect(try lookup("/e\u{301}") == #""escaped name""#)
  #expect(try lookup("/count") == "-3.5e2")
  #expect(try JSONParser.parse(Array(try lookup("").utf8)) == JSONParser.parse(state))
}

@Test func pointersThatFindNothingAreShapeErrorsNamingThePlace() {
  func failure(_ pointer: String) -> JSONError? {
    error { () throws(JSONError) in try lookup(pointer) }
  }
  #expect(failure("/todos/2")?.description == "at /todos: no element 2, the array has 2 elements")
  #expect(
    failure("/todos/1/tags/1")?.description
      == "at /todos/1/tags: no element 1, the array has 1 element")
  #expect(
    failure("/todos/0/tags/0")?.description
      == "at /todos/0/tags: no element 0, the array has 0 elements")
  #expect(failure("/todos/0/titel")?.description == #"at /todos/0: no member "titel""#)
  #expect(failure("/nothing")?.description == #"at /: no member "nothing""#)
  #expect(failure("/todos/01")?.description == #"at /todos: expected an array index, found "01""#)
  #expect(failure("/todos/x")?.kind == .shape)
  #expect(failure("/todos/-")?.kind == .shape)
  #expect(failure("/todos/99999999999999999999")?.kind == .shape)
  #expect(
    failure("/filter/0")?.description
      == #"at /filter: expected an object or an array, found "all""#)
  #expect(
    failure("/a~1b/m~0n/deeper")?.description
      == "at /a~1b/m~0n: expected an object or an array, found true")
}

@Test func malformedPointersAreSyntaxErrors() {
  let noSlash = error { () throws(JSONError) in try lookup("todos") }
  #expect(noSlash?.kind == .syntax)
  #expect(
    noSlash?.description == #"at byte 0: invalid JSON Pointer "todos": it must start with '/'"#)
  let badTilde = error { () throws(JSONError) in try lookup("/a~2") }
  #expect(badTilde?.kind == .syntax)
  #expect(badTilde?.offset == 2)
  #expect(error { () throws(JSONError) in try lookup("/a~") }?.kind == .syntax)
}

@Test func brokenTextIsASyntaxError() {
  func failure(_ text: String, _ pointer: String) -> JSONError? {
    error { () throws(JSONError) in try JSONPointer.lookup(pointer, in: Array(text.utf8)) }
  }
  #expect(failure(#"{"a":[1,2"#, "/a/5")?.kind == .syntax)
  #expect(failure(#"{"a":tru}"#, "/a")?.kind == .syntax)
  #expect(failure(#"{"a" 1}"#, "/a")?.kind == .syntax)
  #expect(failure(#"{"a":"x\ud800"}"#, "/a")?.kind == .syntax)
  #expect(failure("", "")?.kind == .syntax)
  #expect(failure("", "/a")?.kind == .syntax)
  let inside = failure(#"{"a":[1,01]}"#, "/a")
  #expect(inside?.kind == .syntax)
  #expect(inside?.offset == 9)
}

@Test func pointersAgreeWithDecoding() throws {
  struct Todo: Codable, Equatable { var id: Int; var title: String; var done: Bool }
  let todos = (0..<50).map { Todo(id: $0, title: "todo \($0) \"q\" \\", done: $0 % 2 == 0) }
  let text = try JSONEncoder().encode(["todos": todos])
  for (index, todo) in todos.enumerated() {
    let found = try JSONPointer.lookup("/todos/\(index)", in: text)
    #expect(try JSONDecoder().decode(Todo.self, from: found) == todo)
    let title = try JSONPointer.lookup("/todos/\(index)/title", in: text)
    #expect(try JSONDecoder().decode(String.self, from: title) == todo.title)
  }
  #expect(JSONPointer.escape("a/b~c") == "a~1b~0c")
}
