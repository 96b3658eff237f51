import JSON
import Stopwatch
import StoreKernel
import StoreKernelTesting
import Testing

@Test func ticksWhileRunning() {
  let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(), reporter: .swiftTesting)
  store.send(.startTapped) { $0.isRunning = true }
  store.advance(by: .milliseconds(250))
  store.receive(.ticked) { $0.elapsedMilliseconds = 100 }
  store.receive(.ticked) { $0.elapsedMilliseconds = 200 }
  store.send(.lapTapped) { $0.laps = [200] }
  store.send(.stopTapped) { $0.isRunning = false }
  store.advance(by: .seconds(1))
  store.finish()
}

@Test func savesLapsThroughTheHost() {
  var state = Stopwatch.State()
  state.laps = [1200, 2500]
  let store = TestStore(initialState: state, reducer: Stopwatch(), reporter: .swiftTesting)
  store.send(.saveTapped)
  #expect(store.request("stopwatch.save").map { try? $0.payload(as: [Int].self) } == [1200, 2500])
  store.respond(to: "stopwatch.save", with: "laps-1.json")
  store.receive(.saved("laps-1.json")) { $0.savedAs = "laps-1.json" }

  store.send(.saveTapped) { $0.savedAs = nil }
  store.fail("stopwatch.save", message: "disk full")
  store.receive(.saveFailed("disk full")) { $0.saveError = "disk full" }
  store.finish()
}

@Test func resetStopsAndClears() {
  let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(), reporter: .swiftTesting)
  store.send(.startTapped) { $0.isRunning = true }
  store.advance(by: .milliseconds(100))
  store.receive(.ticked) { $0.elapsedMilliseconds = 100 }
  store.send(.resetTapped) {
    $0.isRunning = false
    $0.elapsedMilliseconds = 0
  }
  store.finish()
}

@Test func actionsDecodeAndEncodeAlikeOnBothJSONPaths() throws {
  let inputs = [
    #""startTapped""#, #"{"stopTapped":{}}"#, #"{"saved":"laps.json"}"#,
    #"{"saved":{"_0":"laps.json"}}"#, #"{"saveFailed":"disk full"}"#, #""ticked""#,
    #""jump""#, #"{"saved":3}"#, #"{"lapTapped":true}"#, #""saved""#,
  ]
  for input in inputs {
    let bytes = Array(input.utf8)
    let direct = Result { () throws(JSONError) in
      try JSONDecoder().decode(Stopwatch.Action.self, from: bytes)
    }
    let codable = Result { () throws(JSONError) in
      try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
        try JSONDecoder().decodeThroughCodable(Stopwatch.Action.self, from: buffer)
      }
    }
    #expect(direct == codable, "\(input)")
  }
  let actions: [Stopwatch.Action] = [
    .startTapped, .stopTapped, .lapTapped, .resetTapped, .saveTapped, .ticked, .saved("a"),
    .saveFailed("b"),
  ]
  for action in actions {
    #expect(try JSONEncoder().encode(action) == JSONEncoder().encodeThroughCodable(action))
  }
}
