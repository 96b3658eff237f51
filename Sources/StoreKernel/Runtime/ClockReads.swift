import Synchronization

/// What a recording store learns of its real clock during an input: the first and the last
/// time read (``StoreClock/nowNanoseconds``), for its journal line's `from` and `at`
/// (docs/wire-format.md, "Journals").
///
///     reads.arm()                            // an input begins
///     // … the reducer, its effects and the end of the call read the clock …
///     let span = reads.span(disarming: true)  // (first, last), or nil if nothing read it
///
/// NB: the clock is read only where time matters (a sleep's deadline, a throttle, the check for
/// due timers at the end of a call), so an input that reads none needs no time in its line, and
/// a recorded send does not read the clock for its journal (docs/benchmarks.md, "The journal").
/// Reads on other threads while an input is armed count for that input; inputs given at once on
/// several threads share one span (the recording store arms for the first and disarms after the
/// last, under its lock).
final class ClockReads: Sendable {
  static let none = Int64.min

  private let armed = Atomic<Bool>(false)
  private let first = Atomic<Int64>(ClockReads.none)
  private let last = Atomic<Int64>(ClockReads.none)

  /// Notes a read of the clock (any thread).
  @inline(__always)
  func note(_ nanoseconds: Int64) {
    guard armed.load(ordering: .acquiring) else { return }
    _ = first.compareExchange(
      expected: ClockReads.none, desired: nanoseconds, ordering: .relaxed)
    var seen = last.load(ordering: .relaxed)
    while seen < nanoseconds {
      let (exchanged, current) = last.compareExchange(
        expected: seen, desired: nanoseconds, ordering: .relaxed)
      if exchanged { break }
      seen = current
    }
  }

  /// An input begins: the reads from here on are its own.
  func arm() {
    first.store(ClockReads.none, ordering: .relaxed)
    last.store(ClockReads.none, ordering: .relaxed)
    armed.store(true, ordering: .releasing)
  }

  /// The first and the last time read since ``arm()``, if any; with `disarming`, reads stop
  /// counting (the last input in progress returned).
  func span(disarming: Bool) -> (first: Int64, last: Int64)? {
    if disarming { armed.store(false, ordering: .releasing) }
    let first = self.first.load(ordering: .acquiring)
    guard first != ClockReads.none else { return nil }
    return (first, max(first, last.load(ordering: .acquiring)))
  }
}
