// Rows 2: the kernel's Store.send, natively in Swift, vs a direct function call doing the same state
// mutation (the floor: what the reducer's work costs without a store around it).

import Features
import StoreKernel

// -- the todos feature ---------------------------------------------------------------------------
//
// The 1,000-todo toggle goes through the library's own todos feature (Features.Todos): `forEach`
// over an `IdentifiedArray` keyed by UUID, and the 1 s sort debounce each toggle restarts.

/// The todo numbered `number`, as the C and Python benchmarks write its id.
func todoID(_ number: Int) -> UUID {
  // NB: the number's decimal digits are the last group (the C bench's %012ld): 42 -> …000000000042.
  let digits = UInt64(String(number), radix: 16) ?? 0
  return UUID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | digits)
}

func featureTodos(_ count: Int) -> Features.Todos.State {
  let todos = makeTodos(count).todos.map { todo in
    Features.Todo.State(
      id: todoID(todo.id), description: todo.description, isComplete: todo.isComplete)
  }
  return Features.Todos.State(todos: IdentifiedArrayOf(uniqueElements: todos))
}

@inline(__always)
func toggleAction(id: UUID) -> Features.Todos.Action {
  .todos(.element(id: id, action: .checkBoxToggled))
}

// NB: the floors call through these non-inlinable functions: a direct call, not a folded constant.
// NB: the counter's floor is the mutation itself (Counter's overflow-safe increment), not a call of
// `Counter.reduce`: the row's ratio is then everything a store and a reducer add to the mutation.
@inline(never)
func directCounterIncrement(_ state: inout Counter.State) {
  let (next, overflow) = state.count.addingReportingOverflow(1)
  if !overflow { state.count = next }
}

/// The state mutation of one toggle, with the same lookup by id the store does.
@inline(never)
func directTodosToggle(_ state: inout Features.Todos.State, id: UUID) {
  state.todos[id: id]?.isComplete.toggle()
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

  let ids = (0..<1_000).map(todoID)
  let todosStore = Store(initialState: featureTodos(1_000), reducer: Features.Todos())
  var todosState = featureTodos(1_000)
  measureRow(
    group: group, workload: "Store.send, toggle 1 of 1,000 todos (the todos feature)",
    note: "native Swift; Features.Todos (forEach by UUID, its 1 s sort debounce restarted); ids "
      + "visited in turn, 0…999; the floor does the same lookup by id",
    ours: Candidate(label: "Store.send") { n in
      var index = 0
      for _ in 0..<n {
        todosStore.send(toggleAction(id: ids[index]))
        index = index == 999 ? 0 : index + 1
      }
      blackHole(todosStore.state)
    },
    alt: Candidate(label: "direct call (floor)", kind: "floor") { n in
      var index = 0
      for _ in 0..<n {
        directTodosToggle(&todosState, id: ids[index])
        index = index == 999 ? 0 : index + 1
      }
      blackHole(todosState)
    })
}
