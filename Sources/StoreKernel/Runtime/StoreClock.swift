import CSystem
import Synchronization

/// A store's clock: the time its effects sleep on, and the timers its `poll`/`advance` fire.
///
///     @Dependency(\.clock) var clock
///     …
///     return .run { send in
///       try await clock.sleep(for: .milliseconds(500))
///       await send(.rollFinished)
///     }
///
/// A `.real` clock reads `CLOCK_MONOTONIC`; its timers fire in the first `send`/`poll`/`respond`
/// call after their deadline. A `.manual` clock starts at zero and moves only when the store is
/// advanced (game time, tests); its timers fire during `advance`, in deadline order, and only
/// then: a sleep of zero waits for the next `advance` (`advance(by: .zero)` included), as on
/// upstream's test clock. A sleep until a time already past returns at once.
///
/// Every store has a clock of its own; reach it through ``Dependencies/clock``.
public final class StoreClock: Clock, @unchecked Sendable {
  /// Where a clock's time comes from.
  public enum Kind: Sendable, Equatable {
    /// `CLOCK_MONOTONIC`.
    case real
    /// Starts at zero; moved by the store's `advance`.
    case manual
  }

  /// A point in a store clock's time, in nanoseconds since its origin.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public func advanced(by duration: Duration) -> Instant {
      Instant(nanoseconds: nanoseconds.saturatingAdd(duration.saturatingNanoseconds))
    }

    public func duration(to other: Instant) -> Duration {
      .nanoseconds(other.nanoseconds.saturatingSubtract(nanoseconds))
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String { "\(Duration.nanoseconds(nanoseconds))" }
  }

  /// The store's timers, made by the first use that schedules one (or the close).
  ///
  /// NB: most stores never wait: an idle store keeps no queue (docs/benchmarks.md: memory per idle
  /// store). What only reads the queue goes through ``madeTimers``.
  var timers: TimerQueue { timerStorage.object { TimerQueue() } }
  /// The timer queue if made: nil means no timer was ever scheduled.
  var madeTimers: TimerQueue? { timerStorage.made }
  /// Whether no timer is pending (cheap: no lock).
  ///
  /// NB: not inlinable (the lazy holder is SPI): the fast path of `send` pays a call for it.
  @usableFromInline var hasNoTimers: Bool { timerStorage.ifMade { $0.isEmpty } ?? true }
  private let timerStorage = LazyObject<TimerQueue>()
  private let manualNow = Atomic<Int64>(0)
  // NB: the two one-byte properties last, side by side: the object is then 34 bytes, a 48-byte
  // malloc chunk, where a word between them took it to 64 (docs/benchmarks.md: memory per idle
  // store).
  public let kind: Kind
  /// Whether the store is inside `advance` (holder only): when a manual clock's timers fire.
  var isAdvancing = false

  /// Whether the store's loop fires the timers that are due (holder only).
  var firesDueTimers: Bool { kind == .real || isAdvancing }

  init(kind: Kind) {
    self.kind = kind
  }

  public var now: Instant { Instant(nanoseconds: nowNanoseconds) }

  public var minimumResolution: Duration { .nanoseconds(1) }

  var nowNanoseconds: Int64 {
    switch kind {
    case .real:
      let now = csystem_monotonic_ns()
      timerStorage.ifMade { $0.reads?.note(now) }
      return now
    case .manual: return manualNow.load(ordering: .acquiring)
    }
  }

  /// The record of this clock's reads, for a recording store: made with the timer queue, which
  /// holds it, so nil if a timer was scheduled before.
  ///
  /// NB: in the queue, not a property of the clock: an idle store's clock fits a 48-byte malloc
  /// chunk only as it is (docs/benchmarks.md: memory per idle store).
  func recordReads() -> ClockReads? {
    timerStorage.object { TimerQueue(reads: ClockReads()) }.reads
  }

  /// Moves a manual clock forward to `nanoseconds` (never backward).
  func setManualNow(_ nanoseconds: Int64) {
    if nanoseconds > manualNow.load(ordering: .acquiring) {
      manualNow.store(nanoseconds, ordering: .releasing)
    }
  }

  /// Suspends until `deadline`; throws `CancellationError` if the task is cancelled first or the
  /// store is closed.
  public func sleep(until deadline: Instant, tolerance _: Duration? = nil) async throws {
    try Task.checkCancellation()
    if kind == .manual && deadline.nanoseconds < nowNanoseconds { return }
    let ticket = SleepTicket()
    let timers = self.timers
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        let scheduled = ticket.state.withLock { state -> Bool in
          guard case .idle = state,
            let timer = timers.schedule(at: deadline.nanoseconds, .resume(continuation))
          else { return false }
          state = .scheduled(timer)
          return true
        }
        if !scheduled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let scheduled = ticket.state.withLock { state -> TimerQueue.Ticket? in
        defer { state = .cancelled }
        if case let .scheduled(timer) = state { return timer }
        return nil
      }
      if let scheduled, case let .resume(continuation)? = timers.cancel(scheduled) {
        continuation.resume(throwing: CancellationError())
      }
    }
  }
}

/// NB: orders a sleep's registration and its cancellation handler, which may run first.
private final class SleepTicket: Sendable {
  enum State: Sendable {
    case idle
    case scheduled(TimerQueue.Ticket)
    case cancelled
  }

  let state = Mutex(State.idle)
}

extension Duration {
  /// The duration in nanoseconds, saturating at the ends of `Int64`.
  var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return whole.saturatingAdd(attoseconds / 1_000_000_000)
  }
}

extension Int64 {
  func saturatingAdd(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other < 0 ? .min : .max) : sum
  }

  func saturatingSubtract(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }
}
