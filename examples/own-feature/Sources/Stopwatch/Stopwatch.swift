import StoreKernel

/// A stopwatch with laps: it ticks every 100 ms on the store's clock while running, and the host
/// saves the laps when asked (`stopwatch.save`, payload: the laps in milliseconds, answer: a
/// string naming where they were saved).
///
///     "startTapped"  →  {"elapsedMilliseconds":100,"isRunning":true,…} after 100 ms
public struct Stopwatch: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var elapsedMilliseconds = 0
    public var isRunning = false
    /// The elapsed time at each lap, in milliseconds.
    public var laps: [Int] = []
    public var savedAs: String?
    public var saveError: String?

    public init() {}
  }

  public enum Action: Equatable, Codable, Sendable {
    case startTapped
    case stopTapped
    case lapTapped
    case resetTapped
    case saveTapped
    case ticked
    case saved(String)
    case saveFailed(String)
  }

  /// The host request this feature makes.
  public static let save = "stopwatch.save"
  static let tick = Duration.milliseconds(100)

  enum CancelID { case timer }

  @Dependency(\.clock) var clock

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTapped:
      guard !state.isRunning else { return .none }
      state.isRunning = true
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: Stopwatch.tick)
          await send(.ticked)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)

    case .stopTapped:
      state.isRunning = false
      return .cancel(id: CancelID.timer)

    case .lapTapped:
      state.laps.append(state.elapsedMilliseconds)
      return .none

    case .resetTapped:
      state = State()
      return .cancel(id: CancelID.timer)

    case .saveTapped:
      state.savedAs = nil
      state.saveError = nil
      return .request(Stopwatch.save, payload: state.laps, as: String.self) {
        .saved($0)
      } failure: {
        .saveFailed($0.message)
      }

    case .ticked:
      // NB: the elapsed time may come from a host's snapshot; it stops at Int.max, never traps.
      let (next, overflow) = state.elapsedMilliseconds.addingReportingOverflow(100)
      state.elapsedMilliseconds = overflow ? .max : next
      return .none

    case let .saved(place):
      state.savedAs = place
      return .none

    case let .saveFailed(message):
      state.saveError = message
      return .none
    }
  }
}
