import Synchronization

/// The queue: the actions waiting to be reduced, the outbox of events for the host, and what
/// tells the store that nothing waits.
extension StoreCore {
  // MARK: - Outbox (holder)

  /// Queues an event for the host, delivered once the store is let go.
  ///
  /// NB: the count is written by the holder alone (other threads only read it): a load and a
  /// store, not an atomic add (two atomic operations per host request; docs/benchmarks.md: the
  /// effect round trip). So is it in `nextOutgoing`.
  func post(_ event: consuming Outgoing) {
    outbox.append(event)
    outboxCount.store(outbox.count, ordering: .releasing)
  }

  /// The oldest event for the host, taken out (holder).
  func nextOutgoing() -> Outgoing? {
    guard let event = outbox.popFirst() else { return nil }
    outboxCount.store(outbox.count, ordering: .releasing)
    return event
  }

  @usableFromInline
  var hasOutgoing: Bool { outboxCount.load(ordering: .acquiring) > 0 }

  /// Whether no timer is pending (the clock's ``StoreClock/hasNoTimers``).
  ///
  /// NB: read through an unretained reference (the core keeps its clock): read as
  /// `clock.hasNoTimers` from the store's loop, the clock was retained and released around it,
  /// twice a call.
  @inlinable
  var hasNoTimers: Bool {
    Unmanaged.passUnretained(clock)._withUnsafeGuaranteedRef { $0.hasNoTimers }
  }

  /// Whether nothing at all waits: no action, no inbox work, no timer, no wake descriptor to
  /// settle. What lets `send` skip the general loop.
  @inlinable
  var isIdle: Bool {
    actions.pointee.isEmpty && inbox.isEmpty && hasNoTimers
      && !wakeOpen.load(ordering: .relaxed)
  }

  /// Feeds an action back, through a throttle if the effect has one.
  func emit(_ action: consuming Action, to sink: ThrottleSink<Action>?) {
    guard !isClosed else { return }
    if let sink {
      sink.receive(action)
    } else {
      actions.pointee.append(action)
    }
  }

  /// Runs `work` now if this thread holds the store, else queues it for the holder.
  ///
  /// NB: an effect's code runs on the store's executor, hence on the holder; this guards the odd
  /// task that sends from elsewhere (a detached task it spawned).
  func onHolder(_ work: @escaping () -> Void) {
    if isHeldByCurrentThread {
      work()
    } else {
      inbox.push(work)
    }
  }
}
