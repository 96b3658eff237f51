import StoreKernel

/// The features the bridge tests' copy of the C ABI is linked with: what the built-in features do
/// not exercise — a stream (`scores.live`), a fire-and-forget request (`sound.play`), a timer.
///
/// NB: this defines the function the bridge registers its features with, as libtca.so's `LibTCA`
/// target does; the test bundle links CBridge without LibTCA, so these features exist only in the
/// tests, never in the shipped library.
@_silgen_name("libtca_register_features")
public func registerTestFeatures(_ registry: FeatureRegistry) throws {
  try registry.register(
    name: "scores", summary: "Live scores streamed by the host.",
    requests: ["scores.live", "sound.play"], initialState: Scores.State(), reducer: Scores())
}

struct Scores: Reducer, Sendable {
  struct State: Equatable, Codable, Sendable {
    var scores: [Int] = []
    var ended = false
    var error: String?
    var ticks = 0
  }

  enum Action: Equatable, Codable, Sendable {
    case watchTapped
    case stopTapped
    case scored(Int)
    case failed(String)
    case ended
    case cheer
    case tickLater
    case ticked
  }

  enum CancelID { case live }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .watchTapped:
      state.ended = false
      state.error = nil
      return .stream("scores.live", payload: ["game": 7], as: Int.self) {
        .scored($0)
      } failure: {
        .failed($0.message)
      } finished: {
        .ended
      }
      .cancellable(id: CancelID.live, cancelInFlight: true)
    case .stopTapped:
      return .cancel(id: CancelID.live)
    case let .scored(score):
      state.scores.append(score)
      return .none
    case let .failed(message):
      state.error = message
      return .none
    case .ended:
      state.ended = true
      return .none
    case .cheer:
      return .fireAndForget("sound.play", payload: ["name": "cheer"])
    case .tickLater:
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(100))
        await send(.ticked)
      }
    case .ticked:
      state.ticks += 1
      return .none
    }
  }
}
