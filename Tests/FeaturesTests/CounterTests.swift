import Features
import StoreKernel
import StoreKernelTesting
import Testing

private func counterStore(_ state: Counter.State = .init()) -> TestStore<Counter.State, Counter.Action> {
  TestStore(initialState: state, reducer: Counter(), reporter: .swiftTesting)
}

@Test func incrementAndDecrement() {
  let store = counterStore()
  store.send(.incrementButtonTapped) { $0.count = 1 }
  store.send(.incrementButtonTapped) { $0.count = 2 }
  store.send(.decrementButtonTapped) { $0.count = 1 }
  store.finish()
}

@Test func countStaysPutAtTheEndsOfInt() {
  let high = counterStore(Counter.State(count: .max))
  high.send(.incrementButtonTapped)
  high.finish()
  let low = counterStore(Counter.State(count: .min))
  low.send(.decrementButtonTapped)
  low.finish()
}

@Test func numberFactFromTheHost() {
  let store = counterStore(Counter.State(count: 7, numberFactError: "old"))
  store.send(.numberFactButtonTapped) {
    $0.isNumberFactLoading = true
    $0.numberFactError = nil
  }
  #expect(store.request("numberFact.fetch").map { try? $0.payload(as: Int.self) } == 7)
  store.respond(to: "numberFact.fetch", with: "7 is the number of seas.")
  store.receive(.numberFactResponse("7 is the number of seas.")) {
    $0.isNumberFactLoading = false
    $0.numberFact = "7 is the number of seas."
  }
  store.finish()
}

@Test func numberFactFailureLeavesAReadableError() {
  let store = counterStore(Counter.State(count: 3, numberFact: "old fact"))
  store.send(.numberFactButtonTapped) {
    $0.isNumberFactLoading = true
    $0.numberFact = nil
  }
  store.fail("numberFact.fetch", message: "offline")
  store.receive(.numberFactFailed("offline")) {
    $0.isNumberFactLoading = false
    $0.numberFactError = "Could not load a number fact: offline"
  }
  store.finish()
}

@Test func aSecondTapCancelsTheFirstFetch() {
  let store = counterStore()
  store.send(.numberFactButtonTapped) { $0.isNumberFactLoading = true }
  let first = store.request("numberFact.fetch")
  store.send(.incrementButtonTapped) { $0.count = 1 }
  store.send(.numberFactButtonTapped)
  #expect(store.request("numberFact.fetch")?.id != first?.id)
  store.respond(to: "numberFact.fetch", with: "1 is the loneliest number.")
  store.receive(.numberFactResponse("1 is the loneliest number.")) {
    $0.isNumberFactLoading = false
    $0.numberFact = "1 is the loneliest number."
  }
  store.finish()
}

@Test func savingAFactAwaitsTheFetchThenTheSave() {
  let store = counterStore(Counter.State(count: 7))
  store.send(.saveNumberFactButtonTapped) { $0.isNumberFactLoading = true }
  #expect(store.request("numberFact.save") == nil)
  store.respond(to: "numberFact.fetch", with: "7 is the number of seas.")
  #expect(
    store.request("numberFact.save").map { try? $0.payload(as: String.self) }
      == "7 is the number of seas.")
  store.respond(to: "numberFact.save", with: true)
  store.receive(.numberFactResponse("7 is the number of seas.")) {
    $0.isNumberFactLoading = false
    $0.numberFact = "7 is the number of seas."
  }

  store.send(.saveNumberFactButtonTapped) {
    $0.isNumberFactLoading = true
    $0.numberFact = nil
  }
  store.respond(to: "numberFact.fetch", with: "7 again.")
  store.fail("numberFact.save", message: "disk full")
  store.receive(.numberFactFailed("disk full")) {
    $0.isNumberFactLoading = false
    $0.numberFactError = "Could not load a number fact: disk full"
  }
  store.finish()
}
