import Synchronization

/// A clock whose sleeps end at once, moving its time to their deadline, as swift-clocks'
/// `ImmediateClock`: effects that wait (a debounce written with `clock.sleep`, an animation's
/// delay) run straight through.
///
///     let store = TestStore(initialState: Dice.State(), reducer: Dice()) {
///       $0.clock = ImmediateClock()
///     }
///     store.send(.rollTapped) { $0.isRolling = true }
///     store.receive(.rollFinished(4)) { … }   // no `advance(by:)`
///
/// A sleep still throws `CancellationError` in a cancelled task.
public final class ImmediateClock: Clock, Sendable {
  /// A point in the clock's time: the duration since it was made.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable,
    CustomStringConvertible
  {
    public var offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration { other.offset - offset }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    public var description: String { "\(offset)" }
  }

  private let time: Mutex<Instant>

  /// A clock at `now` (zero by default).
  public init(now: Instant = Instant()) { time = Mutex(now) }

  public var now: Instant { time.withLock { $0 } }

  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance _: Duration? = nil) async throws {
    try Task.checkCancellation()
    time.withLock { if $0 < deadline { $0 = deadline } }
  }
}
