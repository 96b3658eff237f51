import Features
import StoreKernel
import Testing

@Test func counterCounts() {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  store.send(.incrementButtonTapped)
  store.send(.incrementButtonTapped)
  store.send(.decrementButtonTapped)
  #expect(store.state == Counter.State(count: 1))
}

@Test func counterStaysPutAtTheEndsOfInt() {
  let store = Store(initialState: Counter.State(count: .max), reducer: Counter())
  store.send(.incrementButtonTapped)
  #expect(store.state.count == .max)
  let low = Store(initialState: Counter.State(count: .min), reducer: Counter())
  low.send(.decrementButtonTapped)
  #expect(low.state.count == .min)
}
