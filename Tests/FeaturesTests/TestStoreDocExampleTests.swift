import Features
import StoreKernel
import StoreKernelTesting
import Testing

// NB: the example of TestStore's doc comment (Sources/StoreKernel/Testing/TestStore.swift),
// copied as it is, so that it keeps compiling and passing.
@Test func theTestStoreDocCommentExampleRuns() throws {
  let store = TestStore(
    initialState: Counter.State(), reducer: Counter(), reporter: .swiftTesting)
  store.send(.numberFactButtonTapped) {
    $0.isNumberFactLoading = true
  }
  #expect(try store.request("numberFact.fetch")?.payload(as: Int.self) == 0)
  store.respond(to: "numberFact.fetch", with: "0 is a good number.")
  store.receive(.numberFactResponse("0 is a good number.")) {
    $0.isNumberFactLoading = false
    $0.numberFact = "0 is a good number."
  }
  store.finish()
}
