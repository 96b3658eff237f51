import Features
import StoreKernel
import StoreKernelTesting
import Testing

private typealias TodoState = Todo.State

private func todosStore(_ state: Todos.State = .init()) -> TestStore<Todos.State, Todos.Action> {
  TestStore(initialState: state, reducer: Todos(), reporter: .swiftTesting)
}

private func todo(_ n: UInt64, _ description: String = "", done: Bool = false) -> TodoState {
  TodoState(id: uuid(n), description: description, isComplete: done)
}

@Test func addTodoPutsAnEmptyTodoOnTopWithAnIDFromTheUUIDDependency() {
  let store = todosStore()
  store.send(.addTodoButtonTapped) { $0.todos = [todo(0)] }
  store.send(.addTodoButtonTapped) { $0.todos = [todo(1), todo(0)] }
  store.finish()
}

@Test func editingADescription() {
  let store = todosStore(Todos.State(todos: [todo(0), todo(1)]))
  store.send(.todos(.element(id: uuid(1), action: .textFieldChanged("Buy milk")))) {
    $0.todos[id: uuid(1)]?.description = "Buy milk"
  }
  store.finish()
}

@Test func completedTodosSinkOneSecondAfterTheToggle() {
  let store = todosStore(Todos.State(todos: [todo(0, "a"), todo(1, "b"), todo(2, "c")]))
  store.send(.todos(.element(id: uuid(0), action: .checkBoxToggled))) {
    $0.todos[id: uuid(0)]?.isComplete = true
  }
  store.advance(by: .milliseconds(999))
  store.advance(by: .milliseconds(1))
  store.receive(.sortCompletedTodos) {
    $0.todos = [todo(1, "b"), todo(2, "c"), todo(0, "a", done: true)]
  }
  store.finish()
}

@Test func aNewToggleRestartsTheSecondCancellingTheSortInFlight() {
  let store = todosStore(Todos.State(todos: [todo(0), todo(1), todo(2)]))
  store.send(.todos(.element(id: uuid(0), action: .checkBoxToggled))) {
    $0.todos[id: uuid(0)]?.isComplete = true
  }
  store.advance(by: .milliseconds(500))
  store.send(.todos(.element(id: uuid(1), action: .checkBoxToggled))) {
    $0.todos[id: uuid(1)]?.isComplete = true
  }
  // The first toggle's sort would have come now: it was cancelled.
  store.advance(by: .milliseconds(500))
  store.advance(by: .milliseconds(500))
  store.receive(.sortCompletedTodos) {
    $0.todos = [todo(2), todo(0, done: true), todo(1, done: true)]
  }
  // Unchecking: the todo stays where it is until the sort, which keeps each group's order.
  store.send(.todos(.element(id: uuid(0), action: .checkBoxToggled))) {
    $0.todos[id: uuid(0)]?.isComplete = false
  }
  store.advance(by: .seconds(1))
  // NB: the order is already [2, 0, 1]: the sort changes nothing, so the receive takes no
  // closure (one that changes nothing fails, as upstream).
  #expect(store.state.todos.ids == [uuid(2), uuid(0), uuid(1)])
  store.receive(.sortCompletedTodos)
  store.finish()
}

@Test func anActionForATodoThatIsNotThereChangesNothingAndSchedulesNothing() {
  let store = todosStore(Todos.State(todos: [todo(0)]))
  store.send(.todos(.element(id: uuid(9), action: .checkBoxToggled)))
  store.send(.todos(.element(id: uuid(9), action: .textFieldChanged("x"))))
  store.finish()
}

@Test func filterPickedChangesWhatFilteredTodosShows() {
  let todos: IdentifiedArrayOf<TodoState> = [todo(0), todo(1, done: true), todo(2)]
  let store = todosStore(Todos.State(todos: todos))
  #expect(store.state.filteredTodos == todos)
  store.send(.filterPicked(.active)) { $0.filter = .active }
  #expect(store.state.filteredTodos == [todo(0), todo(2)])
  store.send(.filterPicked(.completed)) { $0.filter = .completed }
  #expect(store.state.filteredTodos == [todo(1, done: true)])
  store.send(.filterPicked(.all)) { $0.filter = .all }
  store.finish()
}

@Test func deleteTakesOffsetsOfTheFilteredListAndIgnoresOffsetsOutOfRange() {
  let store = todosStore(
    Todos.State(filter: .active, todos: [todo(0), todo(1, done: true), todo(2)]))
  // Filtered: [0, 2]; offset 1 is todo 2.
  store.send(.delete([1, 7, -1, .max])) { $0.todos = [todo(0), todo(1, done: true)] }
  store.send(.delete([5]))
  store.send(.delete([0, 0])) { $0.todos = [todo(1, done: true)] }
  store.finish()
}

@Test func moveAsAListViewMovesThenSortsCompletedTodos100msLater() {
  let store = todosStore(Todos.State(todos: [todo(0), todo(1), todo(2), todo(3)]))
  // Rows 0 and 2 before row 4 (the end).
  store.send(.move(from: [0, 2], to: 4)) { $0.todos = [todo(1), todo(3), todo(0), todo(2)] }
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos)
  // Row 3 to the top.
  store.send(.move(from: [3], to: 0)) { $0.todos = [todo(2), todo(1), todo(3), todo(0)] }
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos)
  store.finish()
}

@Test func aCompletedTodoMovedAboveActiveOnesSinksBack() {
  let store = todosStore(Todos.State(todos: [todo(0), todo(1, done: true)]))
  store.send(.move(from: [1], to: 0)) { $0.todos = [todo(1, done: true), todo(0)] }
  store.advance(by: .milliseconds(99))
  store.advance(by: .milliseconds(1))
  store.receive(.sortCompletedTodos) { $0.todos = [todo(0), todo(1, done: true)] }
  store.finish()
}

@Test func moveUnderAFilterMapsOffsetsToTheWholeList() {
  let store = todosStore(
    Todos.State(
      filter: .completed,
      todos: [todo(0, done: true), todo(1), todo(2, done: true), todo(3)]))
  // Filtered: [0, 2]. Row 1 (todo 2) before row 0 (todo 0).
  store.send(.move(from: [1], to: 0)) {
    $0.todos = [todo(2, done: true), todo(0, done: true), todo(1), todo(3)]
  }
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos) {
    $0.todos = [todo(1), todo(3), todo(2, done: true), todo(0, done: true)]
  }
  // Past the filtered list's end: the end of the whole list.
  store.send(.filterPicked(.active)) { $0.filter = .active }
  store.send(.move(from: [0], to: 2)) {
    $0.todos = [todo(3), todo(2, done: true), todo(0, done: true), todo(1)]
  }
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos) {
    $0.todos = [todo(3), todo(1), todo(2, done: true), todo(0, done: true)]
  }
  store.finish()
}

@Test func moveWithOffsetsOutOfRangeChangesNothingAndNeverTraps() {
  let store = todosStore(Todos.State(todos: [todo(0), todo(1)]))
  store.send(.move(from: [9, -3, .min], to: .max))
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos)
  store.send(.move(from: [0], to: .min))
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos)
  store.send(.move(from: [0, 0], to: .max)) { $0.todos = [todo(1), todo(0)] }
  store.advance(by: .milliseconds(100))
  store.receive(.sortCompletedTodos)
  store.finish()
}

@Test func clearCompletedRemovesEveryCompletedTodo() {
  let store = todosStore(
    Todos.State(todos: [todo(0, done: true), todo(1), todo(2, done: true)]))
  store.send(.clearCompletedButtonTapped) { $0.todos = [todo(1)] }
  store.send(.clearCompletedButtonTapped)
  store.finish()
}

@Test func sortCompletedTodosKeepsEachGroupsOrder() {
  let store = todosStore(
    Todos.State(todos: [todo(0, done: true), todo(1), todo(2, done: true), todo(3)]))
  store.send(.sortCompletedTodos) {
    $0.todos = [todo(1), todo(3), todo(0, done: true), todo(2, done: true)]
  }
  store.finish()
}

// MARK: - As a host sees it

@Test func todosStateJSONCarriesTheFilteredListAndSnapshotsIgnoreIt() throws {
  let state = Todos.State(filter: .active, todos: [todo(0, "a"), todo(1, "b", done: true)])
  let id0 = uuid(0).uuidString
  let id1 = uuid(1).uuidString
  #expect(
    try json(state)
      == #"{"filter":"active","todos":[{"id":"\#(id0)","description":"a","isComplete":false},"#
      + #"{"id":"\#(id1)","description":"b","isComplete":true}],"#
      + #""filteredTodos":["\#(id0)"]}"#)
  #expect(try decode(Todos.State.self, json(state)) == state)
  // Derived members are ignored, whatever they hold; missing members take defaults.
  #expect(
    try decode(Todos.State.self, #"{"todos":[{"id":"\#(id0)"}],"filteredTodos":7}"#)
      == Todos.State(todos: [todo(0)]))
  #expect(try decode(Todos.State.self, "{}") == Todos.State())
  #expect(throws: (any Error).self) { try decode(Todos.State.self, #"{"filter":"done"}"#) }
  #expect(throws: (any Error).self) { try decode(Todos.State.self, #"{"todos":[{}]}"#) }
}

@Test func todosActionsInTheHostsForms() throws {
  let id = uuid(3)
  let forms: [(String, Todos.Action)] = [
    (#""addTodoButtonTapped""#, .addTodoButtonTapped),
    (#""clearCompletedButtonTapped""#, .clearCompletedButtonTapped),
    (#"{"delete":[0,2]}"#, .delete([0, 2])),
    (#"{"filterPicked":"completed"}"#, .filterPicked(.completed)),
    (#"{"move":{"from":[1],"to":0}}"#, .move(from: [1], to: 0)),
    (#""sortCompletedTodos""#, .sortCompletedTodos),
    (
      #"{"todos":{"element":{"id":"\#(id)","action":"checkBoxToggled"}}}"#,
      .todos(.element(id: id, action: .checkBoxToggled))
    ),
    (
      #"{"todos":{"element":{"id":"\#(id)","action":{"textFieldChanged":"Milk"}}}}"#,
      .todos(.element(id: id, action: .textFieldChanged("Milk")))
    ),
  ]
  for (text, action) in forms {
    #expect(try decode(Todos.Action.self, text) == action, "\(text)")
    #expect(try decode(Todos.Action.self, json(action)) == action)
  }
}

@Test func aHostDrivesTodos() throws {
  let host = try HostHarness("todos")
  try host.send(#""addTodoButtonTapped""#)
  try host.send(#""addTodoButtonTapped""#)
  let first = try host.get("/todos/1/id")
  let second = try host.get("/todos/0/id")
  #expect(first != second)
  try host.send(#"{"todos":{"element":{"id":\#(first),"action":{"textFieldChanged":"Milk"}}}}"#)
  try host.send(#"{"todos":{"element":{"id":\#(second),"action":{"textFieldChanged":"Eggs"}}}}"#)
  try host.send(#"{"todos":{"element":{"id":\#(second),"action":"checkBoxToggled"}}}"#)
  #expect(try host.get("/todos/0/description") == #""Eggs""#)
  try host.advance(milliseconds: 1000)
  #expect(try host.get("/todos/0/description") == #""Milk""#)
  #expect(try host.get("/todos/1/isComplete") == "true")
  try host.send(#"{"filterPicked":"active"}"#)
  #expect(try host.get("/filteredTodos") == "[\(first)]")
  try host.send(#""clearCompletedButtonTapped""#)
  #expect(try host.get("/todos") == #"[{"id":\#(first),"description":"Milk","isComplete":false}]"#)
  #expect(throws: StoreError.self) { try host.send(#"{"delete":"x"}"#) }
}

@Test func aHostsTogglesEachRestartTheSecondBeforeTheSort() throws {
  // NB: a host's store runs the sort's debounce at its root, so each toggle restarts the one
  // waiting in place (a test store's per-send regions take the general path, above).
  let host = try HostHarness("todos")
  for _ in 0..<3 { try host.send(#""addTodoButtonTapped""#) }
  let ids = try (0..<3).map { try host.get("/todos/\($0)/id") }
  func toggle(_ id: String) throws {
    try host.send(#"{"todos":{"element":{"id":\#(id),"action":"checkBoxToggled"}}}"#)
  }
  try toggle(ids[0])
  try host.advance(milliseconds: 600)
  try toggle(ids[1])
  // The first toggle's sort would have come at 1,000 ms: it was restarted by the second.
  try host.advance(milliseconds: 600)
  #expect(try host.get("/todos/0/id") == ids[0])
  try host.advance(milliseconds: 399)
  #expect(try host.get("/todos/0/id") == ids[0])
  try host.advance(milliseconds: 1)
  #expect(try host.get("/todos/0/id") == ids[2])
  #expect(try host.get("/todos/2/id") == ids[1])
}
