/// Delivering a store's events to the host (requests, cancellations, subscribers) once a call
/// has let go of it, one thread at a time (semantic 4 of ``Store``).
extension Store {
  /// After letting go: delivers the outbox to the host (requests, cancellations, subscribers)
  /// with no lock held, and runs what callbacks and other threads queued meanwhile — unless
  /// another thread is already doing so, which then does it for this call too.
  ///
  /// NB: one thread at a time delivers a store's events, in order: a flag, not a lock, so a
  /// call never waits here for another thread's callback (two stores whose subscribers send to
  /// each other, driven by two threads, cannot deadlock).
  @usableFromInline
  @inline(never)
  func dispatch() {
    dispatch(holding: false)
  }

  /// ``dispatch()`` from a call that still holds the store (its gate), having just finished:
  /// lets go of it.
  ///
  /// NB: the first event is taken without letting go and taking the store again, nor looking
  /// for work the call just ran out of (docs/benchmarks.md: the effect round trip).
  @usableFromInline
  @inline(never)
  func dispatchHeld() {
    dispatch(holding: true)
  }

  fileprivate func dispatch(holding: Bool) {
    // NB: the core lent unretained (the store keeps it): read as `core.dispatch`, it was
    // retained and released around the loop (docs/benchmarks.md: the effect round trip).
    Unmanaged.passUnretained(core)._withUnsafeGuaranteedRef { core in
      let control: DispatchControl = core
      var holding = holding
      while true {
        let (claimed, recorded) = control.claim()
        guard claimed else {
          // NB: another thread delivers, and will deliver what this call left too.
          if holding { core.gate.unlock() }
          return
        }
        deliverAll(control, recorded, holding: holding)
        holding = false
        control.release(recorded)
        // NB: events or inputs that arrived after the last look but before the release were
        // left for this thread: look again.
        let more = !core.isClosed && !core.inbox.isEmpty || core.hasOutgoing
        guard more, !control.isUnwound else { return }
      }
    }
  }

  /// The dispatcher's loop: runs queued work, then delivers one event at a time, until neither
  /// is left.
  private func deliverAll(
    _ control: DispatchControl, _ frames: UnwindWatch.Frames?, holding: Bool
  ) {
    // NB: a call that has just finished, still holding the store, left no work to run (inputs
    // from other threads since are run at the next turn).
    var held = holding
    while true {
      if held {
        held = false
      } else {
        core.gate.lock()
        // NB: the handler lent for the last event is no longer called.
        core.dropRetiredHandlers()
        if core.dispatch.isUnwound {
          core.gate.unlock()
          return
        }
        if hasWork || hot.pointee.closeRequested && !core.isClosed {
          let previous = enter()
          hot.pointee.ranInCall = 0
          finishCall()
          leave(previous)
        }
      }
      guard let event = core.nextOutgoing() else {
        core.gate.unlock()
        return
      }
      let handler = core.lentHandler
      var subscribers: [(UInt64) -> Void] = []
      var version: UInt64 = 0
      // NB: a notification carries the version at delivery; one already delivered is skipped
      // (two calls' changes, delivered together, make one notification).
      if case .notify = event, !core.isClosed, hot.pointee.version != hot.pointee.deliveredVersion {
        version = hot.pointee.version
        hot.pointee.deliveredVersion = version
        subscribers = hot.pointee.subscribers.map(\.callback)
      }
      // NB: marked inside a callback before letting go of the store: a thread that replaces
      // the handler or unsubscribes after that waits for the callback (it could slip in between
      // and return while the old one was about to be called).
      let calls: Bool
      switch event {
      case .request, .cancel: calls = handler != nil
      case .notify: calls = !subscribers.isEmpty
      }
      if calls { control.inCallback.store(true, ordering: .releasing) }
      core.gate.unlock()
      // NB: the event consumed, so that its request is moved out, not copied (a retain and a
      // release of its name and of its payload).
      switch consume event {
      case let .request(info, leaf):
        guard let handler else {
          leaf?.release()
          continue
        }
        core.beginDelivering(leaf)
        var callback = RequestCallback(handler: handler, info: consume info)
        control.call(frames, &callback)
        core.endDelivering()
      case let .cancel(id):
        if let handler {
          var callback = CancelCallback(handler: handler, id: id)
          control.call(frames, &callback)
        }
      case .notify:
        for subscriber in subscribers {
          var callback = NotifyCallback(subscriber: subscriber, version: version)
          control.call(frames, &callback)
        }
      }
    }
  }
}
