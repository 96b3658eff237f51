import StoreKernel
import Testing

private struct Chain: Reducer {
  struct State { var steps = 0 }
  enum Action { case start(Int), step(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(n): return n > 0 ? .send(.step(n)) : .none
    case let .step(n):
      state.steps += 1
      return n > 1 ? .merge(.send(.step(n - 1))) : .none
    }
  }
}

@Test func sendFeedsEffectsBackInOrder() {
  let store = Store(initialState: Chain.State(), reducer: Chain())
  store.send(.start(3))
  #expect(store.state.steps == 3)
  #expect(store.version == 1)  // one call that changed the state: one bump
}

@Test func longChainsDoNotGrowTheStack() {
  let store = Store(initialState: Chain.State(), reducer: Chain())
  store.send(.start(1_000_000))
  #expect(store.state.steps == 1_000_000)
}
