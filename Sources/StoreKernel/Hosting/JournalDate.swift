import Synchronization

/// The date a recording store's features read (`Dependencies.date`): the system's, read once
/// per input and journaled, so that a replay reads the very same (docs/wire-format.md,
/// "Journals").
///
/// The first read during an input samples the system's date and puts a `{"date":MS}` line
/// before the input's line; every later read until the next input gets the same date. A replay
/// sets the date from those lines, and never reads the system's.
///
/// NB: one date per input, not per read: a replay gives each input a call of its own, and the
/// timers of a real-clock input fire in the move to its `at`, so a date must hold for the whole
/// of an input (its effects, its timers, the inputs given in its callbacks) to replay exactly.
final class JournalDate: Sendable {
  private struct State {
    /// The date of the input being given (nil: not read yet).
    var value: Int64?
    /// Whether a replay sets the date (from the journal's lines).
    var isReplaying = false
    /// Journals a date sampled during an input.
    var onSample: (@Sendable (Int64) -> Void)?
  }

  private let state = Mutex(State())
  /// Whether `state.value` is set, read without the lock by ``inputBegins()``.
  ///
  /// NB: most inputs read no date: their start then costs one load, not a lock and an unlock
  /// (docs/benchmarks.md, "The journal").
  private let holdsValue = Atomic<Bool>(false)

  /// The generator the store's features read.
  var generator: DateGenerator {
    DateGenerator { [self] in Timestamp(millisecondsSince1970: now()) }
  }

  private func now() -> Int64 {
    let (value, onSample) = state.withLock { state -> (Int64, (@Sendable (Int64) -> Void)?) in
      if let value = state.value { return (value, nil) }
      let sampled = DateGenerator.system.now.millisecondsSince1970
      state.value = sampled
      holdsValue.store(true, ordering: .releasing)
      return (sampled, state.isReplaying ? nil : state.onSample)
    }
    onSample?(value)
    return value
  }

  /// Where sampled dates are journaled.
  func setOnSample(_ onSample: @escaping @Sendable (Int64) -> Void) {
    state.withLock { $0.onSample = onSample }
  }

  /// A new input begins: the next read samples the date again (not in a replay).
  func inputBegins() {
    guard holdsValue.load(ordering: .acquiring) else { return }
    state.withLock {
      guard !$0.isReplaying else { return }
      $0.value = nil
      holdsValue.store(false, ordering: .releasing)
    }
  }

  /// A replay's `date` line: the date of the inputs that follow.
  func replay(_ milliseconds: Int64) {
    state.withLock {
      $0.isReplaying = true
      $0.value = milliseconds
      holdsValue.store(true, ordering: .releasing)
    }
  }

  /// Starts or ends a replay.
  func setReplaying(_ replaying: Bool) {
    state.withLock {
      $0.isReplaying = replaying
      if !replaying {
        $0.value = nil
        holdsValue.store(false, ordering: .releasing)
      }
    }
  }
}
