import JSON
import StoreKernel
import Testing

private struct Todo: Equatable, Codable, Identifiable, Sendable {
  var id: Int
  var title = ""
  var done = false
}

@Test func identifiedArraysKeepOrderAndUniqueIDs() {
  var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 1, title: "dup")]
  #expect(todos.ids == [1, 2])
  #expect(todos.append(Todo(id: 2)) == (false, 1))
  todos[id: 2]?.done = true
  #expect(todos[id: 2]?.done == true)
  todos[id: 3] = Todo(id: 3)
  #expect(todos.ids == [1, 2, 3])
  todos.insert(Todo(id: 0), at: 0)
  #expect(todos.ids == [0, 1, 2, 3])
  #expect(todos.index(id: 3) == 3)
  todos.move(from: 0, to: 3)
  #expect(todos.ids == [1, 2, 3, 0])
  #expect(todos.index(id: 0) == 3)
  #expect(todos.remove(id: 2)?.done == true)
  #expect(todos.index(id: 3) == 1)
  todos[id: 1] = nil
  #expect(todos.ids == [3, 0])
  todos.sort { $0.id < $1.id }
  #expect(todos.ids == [0, 3])
  todos.removeAll { $0.id == 0 }
  #expect(todos.ids == [3])
  #expect(todos.remove(at: 7) == nil)
  todos.swapAt(0, 5)
  #expect(todos.map(\.id) == [3])
}

@Test func changingAnIDInPlaceKeepsIDsUnique() {
  var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 3)]
  todos[0].id = 3
  #expect(todos.ids == [3, 2])
  #expect(todos[id: 3] == Todo(id: 3))
  #expect(todos.index(id: 2) == 1)
  #expect(todos[id: 1] == nil)
}

@Test func identifiedArraysAreJSONArrays() throws {
  let todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]
  let json = try JSONEncoder().encode(todos)
  #expect(
    String(decoding: json, as: UTF8.self)
      == #"[{"done":false,"id":1,"title":"a"},{"done":false,"id":2,"title":"b"}]"#
      || String(decoding: json, as: UTF8.self)
        == #"[{"id":1,"title":"a","done":false},{"id":2,"title":"b","done":false}]"#
  )
  #expect(try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: json) == todos)
  do {
    _ = try JSONDecoder().decode(
      IdentifiedArrayOf<Todo>.self,
      from: Array(#"[{"id":1,"title":"","done":false},{"id":1,"title":"","done":true}]"#.utf8))
    Issue.record("decoded a repeated id")
  } catch {
    #expect(error.kind == .shape)
    #expect(error.message.contains("repeated id 1"))
  }
}
