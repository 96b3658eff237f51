extension Effect {
  /// Runs the effect only after `duration` has passed on the store's clock without another
  /// effect of the same `id` starting: each new one cancels the one waiting.
  ///
  ///     case let .searchQueryChanged(query):
  ///       state.query = query
  ///       return .send(.search).debounce(id: CancelID.search, for: .milliseconds(300))
  ///
  /// `.none` stays `.none` (and cancels nothing), as upstream.
  // NB: inlinable, so that the id's box and hash are made by code specialized for its type
  // (unspecialized, they look up generic metadata on every call).
  @inlinable
  public func debounce(id: some Hashable & Sendable, for duration: Duration) -> Effect {
    switch operation {
    case .none: return .none
    default:
      return Effect(operation: .sleep(duration))
        .concatenate(with: self)
        .cancellable(id: id, cancelInFlight: true)
    }
  }

  /// Lets through at most one action per `interval` of the store's clock for `id`.
  ///
  ///     case .scrolled:
  ///       return .send(.loadMore).throttle(id: CancelID.load, for: .seconds(1), latest: true)
  ///
  /// The first action goes through at once. One sent before `interval` has passed since the last
  /// one that went through waits until it has: with `latest`, the most recent such action goes
  /// through then; without, the first one. As upstream, a newer throttled effect of the same `id`
  /// replaces a waiting one.
  public func throttle(
    id: some Hashable & Sendable, for interval: Duration, latest: Bool
  ) -> Effect {
    switch operation {
    case .none: return .none
    default:
      let id = CancelID(id)
      return Effect(operation: .throttle(id: id, interval: interval, latest: latest, self))
        .cancellable(id: id, cancelInFlight: true)
    }
  }
}
