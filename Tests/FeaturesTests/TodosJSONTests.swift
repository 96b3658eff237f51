import Features
import JSON
import StoreKernel
import Testing

// The todos feature's direct JSON paths (TodosJSON.swift, and the kernel's UUIDJSON.swift,
// IdentifiedArrayJSON.swift, IdentifiedActionJSON.swift) against its Codable conformances: the
// same value or the same error for every input, the same bytes for every value, and the direct
// path really taken where it should be.

// MARK: - Helpers

private let milkID = "D6F1D349-952C-4996-BB29-38731E807240"
private let eggsID = "0C6F4E2A-19B3-4B7C-8F21-5A9D3E7B1C04"
private let breadID = "FFFFFFFF-0000-4000-8000-00000000000A"

private func id(_ text: String) -> UUID { UUID(uuidString: text)! }

// MARK: - Actions

private func element(_ text: String, _ action: Todo.Action) -> Todos.Action {
  .todos(.element(id: id(text), action: action))
}

/// A check box toggle with `id`, JSON text, as its id: `toggle(#""\#(milkID)""#)`.
private func toggle(_ id: String) -> String {
  #"{"todos":{"element":{"id":\#(id),"action":"checkBoxToggled"}}}"#
}

/// The examples of docs/features.md's todos section, the id written out in full ("D6F1…7240"
/// there).
private let documentedActions: [Example<Todos.Action>] = [
  .init(#""addTodoButtonTapped""#, .direct(.addTodoButtonTapped)),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":{"textFieldChanged":"Milk"}}}}"#,
    .direct(element(milkID, .textFieldChanged("Milk")))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":"checkBoxToggled"}}}"#,
    .direct(element(milkID, .checkBoxToggled))),
  .init(#"{"filterPicked":"active"}"#, .direct(.filterPicked(.active))),
  .init(#"{"delete":[0,2]}"#, .direct(.delete([0, 2]))),
  .init(#"{"move":{"from":[2],"to":0}}"#, .direct(.move(from: [2], to: 0))),
  .init(#""clearCompletedButtonTapped""#, .direct(.clearCompletedButtonTapped)),
  .init(#""sortCompletedTodos""#, .direct(.sortCompletedTodos)),
  // NB: as printed in the docs, abbreviated: not a UUID.
  .init(
    #"{"todos":{"element":{"id":"D6F1…7240","action":"checkBoxToggled"}}}"#, .error),
]

/// Every case in every accepted form, and forms the direct path leaves to Codable.
private let acceptedActions: [Example<Todos.Action>] = [
  // Cases without payload: bare, synthesized, an object payload with members (ignored).
  .init(#"{"addTodoButtonTapped":{}}"#, .direct(.addTodoButtonTapped)),
  .init(#"{"addTodoButtonTapped":{"ignored":[1]}}"#, .direct(.addTodoButtonTapped)),
  .init(#"{"clearCompletedButtonTapped":{}}"#, .direct(.clearCompletedButtonTapped)),
  .init(#"{"sortCompletedTodos":{}}"#, .direct(.sortCompletedTodos)),
  .init(#" { "sortCompletedTodos" : { } } "#, .direct(.sortCompletedTodos)),
  .init(#""\u0073ortCompletedTodos""#, .direct(.sortCompletedTodos)),
  // delete([Int])
  .init(#"{"delete":{"_0":[0,2]}}"#, .direct(.delete([0, 2]))),
  .init(#"{"delete":[]}"#, .direct(.delete([]))),
  .init(#"{"delete":{"_0":[]}}"#, .direct(.delete([]))),
  .init(#"{"delete":[1e2,1.0,-0,-3]}"#, .direct(.delete([100, 1, 0, -3]))),
  .init(
    #"{"delete":[9223372036854775807,-9223372036854775808]}"#,
    .direct(.delete([.max, .min]))),
  // filterPicked(Filter)
  .init(#"{"filterPicked":"all"}"#, .direct(.filterPicked(.all))),
  .init(#"{"filterPicked":"completed"}"#, .direct(.filterPicked(.completed))),
  .init(#"{"filterPicked":{"_0":"active"}}"#, .direct(.filterPicked(.active))),
  .init(#"{"filterPicked":"\u0061ctive"}"#, .direct(.filterPicked(.active))),
  // move(from: [Int], to: Int)
  .init(#"{"move":{"to":3,"from":[0,1]}}"#, .direct(.move(from: [0, 1], to: 3))),
  .init(#"{"move":{"from":[],"to":-1,"extra":null}}"#, .direct(.move(from: [], to: -1))),
  // todos(IdentifiedAction): bare and synthesized at each level, either case of hex digits.
  .init(
    #"{"todos":{"_0":{"element":{"id":"\#(milkID)","action":{"checkBoxToggled":{}}}}}}"#,
    .direct(element(milkID, .checkBoxToggled))),
  .init(
    #"{"todos":{"_0":{"element":{"id":"\#(eggsID)","action":{"textFieldChanged":{"_0":"x"}}}}}}"#,
    .direct(element(eggsID, .textFieldChanged("x")))),
  .init(
    #"{"todos":{"element":{"action":"checkBoxToggled","id":"\#(milkID.lowercased())"}}}"#,
    .direct(element(milkID, .checkBoxToggled))),
  .init(
    toggle(#""d6F1D349-952c-4996-Bb29-38731E807240""#),
    .direct(element(milkID, .checkBoxToggled))),
  .init(
    toggle(#""\u0044\#(milkID.dropFirst())""#), .direct(element(milkID, .checkBoxToggled))),
  .init(
    #"{"todos":{"element":{"id":"\#(breadID)","action":"checkBoxToggled","note":1}}}"#,
    .direct(element(breadID, .checkBoxToggled))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":{"textFieldChanged":""}}}}"#,
    .direct(element(milkID, .textFieldChanged("")))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":"#
      + #"{"textFieldChanged":"Caf\u00e9 \"2%\"\n\t😀 ☕️ \\ \u2028"}}}}"#,
    .direct(element(milkID, .textFieldChanged("Café \"2%\"\n\t😀 ☕️ \\ \u{2028}")))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":{"checkBoxToggled":{"x":1}}}}}"#,
    .direct(element(milkID, .checkBoxToggled))),
  // Objects with members besides the case: `init(from:)` skips them, the direct path declines.
  .init(#"{"addTodoButtonTapped":{},"unknown":1}"#, .fallback(.addTodoButtonTapped)),
  .init(#"{"delete":{"_0":[1],"x":2}}"#, .fallback(.delete([1]))),
  .init(#"{"filterPicked":{"x":1,"_0":"active"}}"#, .fallback(.filterPicked(.active))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":"checkBoxToggled"},"junk":0}}"#,
    .fallback(element(milkID, .checkBoxToggled))),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":{"checkBoxToggled":{},"x":1}}}}"#,
    .fallback(element(milkID, .checkBoxToggled))),
]

/// Wrong shapes, unknown cases, null payloads, bad UUIDs, not JSON.
private let rejectedActions: [Example<Todos.Action>] = [
  // Not an action at all.
  .init(#"null"#, .error),
  .init(#"5"#, .error),
  .init(#"true"#, .error),
  .init(#"[]"#, .error),
  .init(#"["addTodoButtonTapped"]"#, .error),
  .init(#"{}"#, .error),
  // Unknown or several cases.
  .init(#""jump""#, .error),
  .init(#""AddTodoButtonTapped""#, .error),
  .init(#"{"jump":{}}"#, .error),
  .init(#"{"jump":5}"#, .error),
  .init(#"{"addTodoButtonTapped":{},"clearCompletedButtonTapped":{}}"#, .error),
  .init(#"{"_0":"addTodoButtonTapped"}"#, .error),
  // Cases without payload given something that is not an object.
  .init(#"{"addTodoButtonTapped":null}"#, .error),
  .init(#"{"addTodoButtonTapped":[]}"#, .error),
  .init(#"{"clearCompletedButtonTapped":1}"#, .error),
  .init(#"{"sortCompletedTodos":"sortCompletedTodos"}"#, .error),
  .init(#"{"sortCompletedTodos":true}"#, .error),
  // Cases with payload given none, or the wrong one.
  .init(#""delete""#, .error),
  .init(#""filterPicked""#, .error),
  .init(#""move""#, .error),
  .init(#""todos""#, .error),
  .init(#"{"delete":null}"#, .error),
  .init(#"{"delete":{}}"#, .error),
  .init(#"{"delete":{"_0":null}}"#, .error),
  .init(#"{"delete":1}"#, .error),
  .init(#"{"delete":"0"}"#, .error),
  .init(#"{"delete":[null]}"#, .error),
  .init(#"{"delete":[1.5]}"#, .error),
  .init(#"{"delete":["a"]}"#, .error),
  .init(#"{"delete":[9223372036854775808]}"#, .error),
  .init(#"{"delete":[1e400]}"#, .error),
  .init(#"{"delete":[[0]]}"#, .error),
  .init(#"{"filterPicked":null}"#, .error),
  .init(#"{"filterPicked":{}}"#, .error),
  .init(#"{"filterPicked":{"_0":null}}"#, .error),
  .init(#"{"filterPicked":"done"}"#, .error),
  .init(#"{"filterPicked":"Active"}"#, .error),
  .init(#"{"filterPicked":" all"}"#, .error),
  .init(#"{"filterPicked":0}"#, .error),
  .init(#"{"filterPicked":["all"]}"#, .error),
  .init(#"{"move":null}"#, .error),
  .init(#"{"move":{}}"#, .error),
  .init(#"{"move":[[2],0]}"#, .error),
  .init(#"{"move":"from"}"#, .error),
  .init(#"{"move":{"from":[2]}}"#, .error),
  .init(#"{"move":{"to":0}}"#, .error),
  .init(#"{"move":{"from":2,"to":0}}"#, .error),
  .init(#"{"move":{"from":[2],"to":null}}"#, .error),
  .init(#"{"move":{"from":null,"to":0}}"#, .error),
  .init(#"{"move":{"from":[2],"to":"0"}}"#, .error),
  .init(#"{"move":{"from":[2],"to":0.5}}"#, .error),
  .init(#"{"move":{"_0":{"from":[2],"to":0}}}"#, .error),
  .init(#"{"todos":null}"#, .error),
  .init(#"{"todos":{}}"#, .error),
  .init(#"{"todos":{"_0":null}}"#, .error),
  .init(#"{"todos":"element"}"#, .error),
  .init(#"{"todos":[]}"#, .error),
  .init(#"{"todos":{"element":null}}"#, .error),
  .init(#"{"todos":{"element":{}}}"#, .error),
  .init(#"{"todos":{"element":"checkBoxToggled"}}"#, .error),
  .init(#"{"todos":{"row":{"id":"\#(milkID)","action":"checkBoxToggled"}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)"}}}"#, .error),
  .init(#"{"todos":{"element":{"action":"checkBoxToggled"}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":null}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":"jump"}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":"textFieldChanged"}}}"#, .error),
  .init(
    #"{"todos":{"element":{"id":"\#(milkID)","action":{"textFieldChanged":null}}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":{"textFieldChanged":5}}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":{"textFieldChanged":{}}}}}"#, .error),
  .init(#"{"todos":{"element":{"id":"\#(milkID)","action":{"checkBoxToggled":1}}}}"#, .error),
  // Bad UUIDs.
  .init(toggle("null"), .error),
  .init(toggle("7"), .error),
  .init(toggle(#""""#), .error),
  .init(toggle(#""D6F1D349952C4996BB2938731E807240""#), .error),
  .init(toggle(#""D6F1D349-952C-4996-BB29-38731E80724""#), .error),
  .init(toggle(#""D6F1D349-952C-4996-BB29-38731E8072400""#), .error),
  .init(toggle(#""G6F1D349-952C-4996-BB29-38731E807240""#), .error),
  .init(toggle(#""D6F1D349_952C-4996-BB29-38731E807240""#), .error),
  .init(toggle(#""D6F1D3-49952C-4996-BB29-38731E807240""#), .error),
  .init(toggle(#""{\#(milkID)}""#), .error),
  .init(toggle(#"" \#(milkID)""#), .error),
  .init(toggle(#""D6F1D349-952C-4996-BB29-38731E80724٠""#), .error),
  .init(toggle(#""D6F1D349-952C-4996-BB29-38731E80724\u0000""#), .error),
  .init(toggle(#"["\#(milkID)"]"#), .error),
  // Not JSON, or JSON the library refuses.
  .init(#""#, .error),
  .init(#"{"delete":[0,2]"#, .error),
  .init(#"{"delete":[0,2]} x"#, .error),
  .init(#"{"delete":[01]}"#, .error),
  .init(#"{"delete":[0],"delete":[1]}"#, .error),
  .init(toggle(#""\#(milkID)","id":"\#(eggsID)""#), .error),
  .init(#""\ud800""#, .error),
]

@Test(arguments: documentedActions)
private func documentedTodosActionsDecodeTheSameOnBothPaths(_ example: Example<Todos.Action>) {
  check(example)
}

@Test(arguments: acceptedActions)
private func acceptedTodosActionFormsDecodeTheSameOnBothPaths(_ example: Example<Todos.Action>) {
  check(example)
}

@Test(arguments: rejectedActions)
private func rejectedTodosActionsFailTheSameOnBothPaths(_ example: Example<Todos.Action>) {
  check(example)
}

@Test func aTodoActionOnItsOwn() {
  let examples: [Example<Todo.Action>] = [
    .init(#""checkBoxToggled""#, .direct(.checkBoxToggled)),
    .init(#"{"checkBoxToggled":{}}"#, .direct(.checkBoxToggled)),
    .init(#"{"textFieldChanged":"Milk"}"#, .direct(.textFieldChanged("Milk"))),
    .init(#"{"textFieldChanged":{"_0":"Milk"}}"#, .direct(.textFieldChanged("Milk"))),
    .init(#"{"textFieldChanged":{"_0":"a","x":0}}"#, .fallback(.textFieldChanged("a"))),
    .init(#""textFieldChanged""#, .error),
    .init(#"{"textFieldChanged":null}"#, .error),
    .init(#"{"textFieldChanged":["Milk"]}"#, .error),
    .init(#"{"checkBoxToggled":null}"#, .error),
    .init(#"{"toggle":{}}"#, .error),
    .init(#"{}"#, .error),
  ]
  for example in examples { check(example) }
}

@Test func everyTodosActionIsWrittenDirectlyAsCodableWritesItAndReadBack() throws {
  let actions: [Todos.Action] = [
    .addTodoButtonTapped, .clearCompletedButtonTapped, .sortCompletedTodos,
    .delete([]), .delete([0, 2, -1, .max, .min]),
    .filterPicked(.all), .filterPicked(.active), .filterPicked(.completed),
    .move(from: [], to: 0), .move(from: [2, 0], to: -4),
    element(milkID, .checkBoxToggled),
    element(eggsID, .textFieldChanged("")),
    element(breadID, .textFieldChanged("Caf\u{E9} \"2%\"\n\t\u{0}\u{1F}\u{7F} 😀 \\ / \u{2028}")),
  ]
  for action in actions { try checkEncoding(action) }
  #expect(
    try checkEncoding(Todos.Action.move(from: [2], to: 0))
      == #"{"move":{"from":[2],"to":0}}"#)
  #expect(
    try checkEncoding(element(milkID, .textFieldChanged("Milk")))
      == #"{"todos":{"_0":{"element":{"id":"\#(milkID)","action":"#
      + #"{"textFieldChanged":{"_0":"Milk"}}}}}}"#)
  for action: Todo.Action in [.checkBoxToggled, .textFieldChanged("x\ny")] {
    try checkEncoding(action)
  }
}

// MARK: - The kernel's types on their own

@Test func uuidsDecodeAndEncodeTheSameOnBothPaths() throws {
  let examples: [Example<UUID>] = [
    .init(#""\#(milkID)""#, .direct(id(milkID))),
    .init(#""\#(milkID.lowercased())""#, .direct(id(milkID))),
    .init(#""00000000-0000-0000-0000-000000000000""#, .direct(UUID(high: 0, low: 0))),
    .init(#""ffffffff-ffff-ffff-ffff-ffffffffffff""#, .direct(UUID(high: .max, low: .max))),
    .init(#""\u0030\u0030000000-0000-0000-0000-000000000000""#, .direct(UUID(high: 0, low: 0))),
    .init(#""""#, .error),
    .init(#"null"#, .error),
    .init(#"0"#, .error),
    .init(#"{}"#, .error),
    .init(#""00000000-0000-0000-0000-00000000000""#, .error),
    .init(#""00000000-0000-0000-0000-0000000000000""#, .error),
    .init(#""00000000-0000-0000-0000-00000000000g""#, .error),
    .init(#""000000000-000-0000-0000-000000000000""#, .error),
    .init(#""00000000-0000-0000-0000-00000000000\u0000""#, .error),
    .init(#""00000000-0000-0000-0000-00000000000é""#, .error),
  ]
  for example in examples { check(example) }
  for uuid in [id(milkID), id(eggsID), UUID(high: 0, low: 0), UUID(high: .max, low: 1)] {
    #expect(try checkEncoding(uuid) == #""\#(uuid.uuidString)""#)
  }
}

@Test func identifiedActionsWithOtherIDsAndActions() throws {
  let examples: [Example<IdentifiedAction<Int, Todo.Action>>] = [
    .init(#"{"element":{"id":3,"action":"checkBoxToggled"}}"#,
      .direct(.element(id: 3, action: .checkBoxToggled))),
    .init(#"{"element":{"id":3e0,"action":{"textFieldChanged":"a"}}}"#,
      .direct(.element(id: 3, action: .textFieldChanged("a")))),
    .init(#"{"element":{"id":"3","action":"checkBoxToggled"}}"#, .error),
    .init(#""element""#, .error),
    .init(#"{"element":{"_0":3}}"#, .error),
    .init(#"{"element":3}"#, .error),
  ]
  for example in examples { check(example) }
  try checkEncoding(IdentifiedAction<Int, Todo.Action>.element(id: -1, action: .checkBoxToggled))
  // NB: an optional action is written `null`, not left out, as the synthesized encode(to:) does.
  let optional: [Example<IdentifiedAction<Int, Todo.Action?>>] = [
    .init(#"{"element":{"id":1,"action":null}}"#, .direct(.element(id: 1, action: nil))),
    .init(#"{"element":{"id":1}}"#, .error),
  ]
  for example in optional { check(example) }
  #expect(
    try checkEncoding(IdentifiedAction<Int, Todo.Action?>.element(id: 1, action: nil))
      == #"{"element":{"id":1,"action":null}}"#)
}

// MARK: - State

private func todo(
  _ text: String, _ description: String = "", done: Bool = false
) -> Todo.State {
  Todo.State(id: id(text), description: description, isComplete: done)
}

private let manyTodos: IdentifiedArrayOf<Todo.State> = [
  todo(milkID, "Milk"),
  todo(eggsID, "Eggs \"free range\" \\ 6", done: true),
  todo(breadID, "Pain au chocolat 🥐 — x2\nthen tea\t☕️", done: false),
  todo("00000000-0000-0000-0000-000000000001", "", done: true),
  todo("00000000-0000-0000-0000-000000000002", "ctl \u{0}\u{8}\u{C}\u{1F}\u{7F} \u{2028}\u{2029}"),
  todo("ABCDEF01-2345-6789-ABCD-EF0123456789", "e\u{301} vs \u{E9}; 日本語", done: true),
]

@Test func statesAreWrittenDirectlyAsCodableWritesThemAndReadBack() throws {
  var states: [Todos.State] = [Todos.State(), Todos.State(filter: .completed)]
  for filter in Todos.Filter.allCases {
    states.append(Todos.State(filter: filter, todos: manyTodos))
    states.append(Todos.State(filter: filter, todos: [todo(milkID, "Milk")]))
    states.append(Todos.State(filter: filter, todos: [todo(milkID, "Milk", done: true)]))
  }
  for state in states { try checkEncoding(state) }
  for todo in manyTodos { try checkEncoding(todo) }
  for filter in Todos.Filter.allCases {
    #expect(try checkEncoding(filter) == #""\#(filter.rawValue)""#)
  }
}

@Test func theStateIsWrittenInTheDocumentedForm() throws {
  let eggs = #"{"id":"\#(eggsID)","description":"Eggs","isComplete":true}"#
  let todos: IdentifiedArrayOf<Todo.State> = [
    todo(milkID, "Milk"), todo(eggsID, "Eggs", done: true),
  ]
  #expect(
    try checkEncoding(Todos.State(filter: .all, todos: todos))
      == #"{"filter":"all","todos":[\#(milk),\#(eggs)],"filteredTodos":["\#(milkID)","\#(eggsID)"]}"#)
  #expect(
    try checkEncoding(Todos.State(filter: .active, todos: todos))
      == #"{"filter":"active","todos":[\#(milk),\#(eggs)],"filteredTodos":["\#(milkID)"]}"#)
  #expect(
    try checkEncoding(Todos.State(filter: .completed, todos: todos))
      == #"{"filter":"completed","todos":[\#(milk),\#(eggs)],"filteredTodos":["\#(eggsID)"]}"#)
  #expect(
    try checkEncoding(Todos.State()) == #"{"filter":"all","todos":[],"filteredTodos":[]}"#)
}

private let milk = #"{"id":"\#(milkID)","description":"Milk","isComplete":false}"#

/// Snapshots as a host writes them: partial, with extra and derived members, and wrong ones.
private let snapshots: [Example<Todos.State>] = [
  // The docs' example, with its `filteredTodos` written out.
  .init(
    #"{"filter":"all","todos":[\#(milk)],"filteredTodos":["\#(milkID)"]}"#,
    .direct(Todos.State(filter: .all, todos: [todo(milkID, "Milk")]))),
  .init(#"{}"#, .direct(Todos.State())),
  .init(#"{"filter":null,"todos":null}"#, .direct(Todos.State())),
  .init(#"{"filter":"completed"}"#, .direct(Todos.State(filter: .completed))),
  .init(#"{"todos":[]}"#, .direct(Todos.State())),
  .init(#"{"filteredTodos":"derived, ignored","version":2}"#, .direct(Todos.State())),
  .init(
    #"{"todos":[{"id":"\#(milkID)"}],"filter":"active"}"#,
    .direct(Todos.State(filter: .active, todos: [todo(milkID)]))),
  .init(
    #"{"todos":[{"id":"\#(milkID.lowercased())","description":null,"isComplete":null,"x":[]}]}"#,
    .direct(Todos.State(todos: [todo(milkID)]))),
  .init(
    #"{"todos":[{"isComplete":true,"description":"Caf\u00e9 \"2%\"\n\ud83d\ude00","#
      + #""id":"\#(eggsID)"},{"id":"\#(milkID)","description":"Milk"},"#
      + #"{"id":"\#(breadID)","isComplete":true}]}"#,
    .direct(
      Todos.State(todos: [
        todo(eggsID, "Café \"2%\"\n😀", done: true), todo(milkID, "Milk"),
        todo(breadID, done: true),
      ]))),
  // Wrong members.
  .init(#"null"#, .error),
  .init(#"[]"#, .error),
  .init(#""all""#, .error),
  .init(#"{"filter":"none"}"#, .error),
  .init(#"{"filter":1}"#, .error),
  .init(#"{"filter":{"_0":"all"}}"#, .error),
  .init(#"{"todos":{}}"#, .error),
  .init(#"{"todos":"x"}"#, .error),
  .init(#"{"todos":[null]}"#, .error),
  .init(#"{"todos":[{}]}"#, .error),
  .init(#"{"todos":[{"description":"no id"}]}"#, .error),
  .init(#"{"todos":[{"id":null}]}"#, .error),
  .init(#"{"todos":[{"id":"D6F1…7240"}]}"#, .error),
  .init(#"{"todos":[{"id":"\#(milkID)","description":5}]}"#, .error),
  .init(#"{"todos":[{"id":"\#(milkID)","isComplete":"yes"}]}"#, .error),
  .init(#"{"todos":[{"id":"\#(milkID)","isComplete":0}]}"#, .error),
  .init(#"{"todos":[{"id":"\#(milkID)"},{"id":"bad"}]}"#, .error),
  // Repeated ids: the same, in another case of hex digits, later in the list.
  .init(#"{"todos":[{"id":"\#(milkID)"},{"id":"\#(milkID)"}]}"#, .error),
  .init(
    #"{"todos":[{"id":"\#(milkID)","description":"a"},"#
      + #"{"id":"\#(milkID.lowercased())","description":"b"}]}"#,
    .error),
  .init(
    #"{"todos":[{"id":"\#(milkID)"},{"id":"\#(eggsID)"},"#
      + #"{"id":"\#(breadID)"},{"id":"\#(eggsID)"}]}"#,
    .error),
  // Repeated member names (refused by the scanner), not JSON.
  .init(#"{"filter":"all","filter":"active"}"#, .error),
  .init(#"{"todos":[{"id":"\#(milkID)","description":"a","description":"b"}]}"#, .error),
  .init(#"{"todos":[}"#, .error),
]

@Test(arguments: snapshots)
private func snapshotsDecodeTheSameOnBothPaths(_ example: Example<Todos.State>) {
  check(example)
}

@Test func aRepeatedIDIsReportedWithItsPlace() {
  let text = #"{"todos":[{"id":"\#(milkID)"},{"id":"\#(eggsID)"},{"id":"\#(milkID)"}]}"#
  let outcome = decodedPreferringDirect(Todos.State.self, Array(text.utf8))
  guard case let .error(error) = outcome else {
    Issue.record("decoded: \(outcome)")
    return
  }
  #expect(error.kind == .shape)
  #expect(error.path.hasPrefix("/todos"))
  #expect(error.message.contains("repeated id \(milkID)"))
}

@Test func aLargeSnapshotRoundTripsOnBothPaths() throws {
  var todos: IdentifiedArrayOf<Todo.State> = []
  for n in 0..<500 {
    todos.append(
      Todo.State(
        id: UUID(high: UInt64(n) &* 0x9E37_79B9_7F4A_7C15, low: UInt64(n)),
        description: n % 7 == 0 ? "todo \(n) \u{1F4DD}\n" : "todo \(n)", isComplete: n % 3 == 0))
  }
  for filter in Todos.Filter.allCases {
    try checkEncoding(Todos.State(filter: filter, todos: todos))
  }
}
