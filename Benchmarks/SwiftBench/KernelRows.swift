// Rows 2: the kernel's Store.send, natively in Swift, vs a direct function call doing the same state
// mutation (the floor: what the reducer's work costs without a store around it).

import Features
import StoreKernel

// -- the todos feature of the benchmark ----------------------------------------------------------
//
// The 1,000-todo toggle goes through the kernel's `forEach` over an `IdentifiedArray`: the parent
// routes `{"todos":{"element":{"id":…,"action":"toggle"}}}` to one element's reducer.
let todosUseForEach = true

extension Todo: Identifiable {}

struct BenchTodo: Reducer {
  enum Action { case toggle }
  func reduce(into state: inout Todo, action: Action) -> Effect<Action> {
    state.isComplete.toggle()
    return .none
  }
}

struct BenchTodos: Reducer {
  struct State {
    var todos: IdentifiedArrayOf<Todo>
  }
  enum Action {
    case todos(IdentifiedActionOf<BenchTodo>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .forEach(\.todos, action: Action.todos) { BenchTodo() }
  }
}

@inline(__always)
func toggleAction(id: Int) -> BenchTodos.Action { .todos(.element(id: id, action: .toggle)) }

/// The state mutation of one toggle, with the same lookup by id the store does.
@inline(__always)
func directToggle(_ state: inout BenchTodos.State, id: Int) {
  state.todos[id: id]?.isComplete.toggle()
}

// NB: the floors call through these non-inlinable functions: a direct call, not a folded constant.
// NB: the counter's floor is the mutation itself (Counter's overflow-safe increment), not a call of
// `Counter.reduce`: the row's ratio is then everything a store and a reducer add to the mutation.
@inline(never)
func directCounterIncrement(_ state: inout Counter.State) {
  let (next, overflow) = state.count.addingReportingOverflow(1)
  if !overflow { state.count = next }
}

@inline(never)
func directTodosToggle(_ state: inout BenchTodos.State, id: Int) {
  directToggle(&state, id: id)
}

func kernelRows() {
  let group = "Kernel"

  let counterStore = Store(initialState: Counter.State(), reducer: Counter())
  var counterState = Counter.State()
  measureRow(
    group: group, workload: "Store.send, counter", target: ["ours_max": 100],
    ours: Candidate(label: "Store.send") { n in
      for _ in 0..<n { counterStore.send(.incrementButtonTapped) }
      blackHole(counterStore.state)
    },
    alt: Candidate(label: "direct call (floor)", kind: "floor") { n in
      for _ in 0..<n { directCounterIncrement(&counterState) }
      blackHole(counterState)
    })
  guard counterStore.state.count > 0, counterState.count > 0 else { fail("the counter did not count") }

  let todos = IdentifiedArrayOf(uniqueElements: makeTodos(1_000).todos)
  let todosStore = Store(initialState: BenchTodos.State(todos: todos), reducer: BenchTodos())
  var todosState = BenchTodos.State(todos: todos)
  let mark = todosUseForEach ? "via forEach" : "(plain array until forEach lands)"
  measureRow(
    group: group, workload: "Store.send, toggle 1 of 1,000 todos \(mark)",
    note: "native Swift; ids visited in turn, 0…999; the floor does the same lookup by id",
    ours: Candidate(label: "Store.send") { n in
      var id = 0
      for _ in 0..<n {
        todosStore.send(toggleAction(id: id))
        id = id == 999 ? 0 : id + 1
      }
      blackHole(todosStore.state)
    },
    alt: Candidate(label: "direct call (floor)", kind: "floor") { n in
      var id = 0
      for _ in 0..<n {
        directTodosToggle(&todosState, id: id)
        id = id == 999 ? 0 : id + 1
      }
      blackHole(todosState)
    })
}
