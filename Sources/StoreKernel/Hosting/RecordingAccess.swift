import JSON

/// What a recording store reaches of its feature's store beyond ``HostStore``: formed where the
/// feature's types are known (``FeatureDescriptor``).
struct RecordingAccess: Sendable {
  let feature: String
  let clock: StoreClock.Kind
  let seed: UInt64
  /// The store clock's time, in nanoseconds.
  let now: @Sendable () -> Int64
  /// A real clock's reads during each input (nil: a manual clock).
  let clockReads: ClockReads?
  /// Sets a manual clock's time without firing the timers due (a replayed line's `from`).
  let setNow: @Sendable (Int64) -> Void
  /// Moves a manual clock forward by so many nanoseconds (replays).
  let advance: @Sendable (Int64) throws(StoreError) -> Int
  /// Sets how requests reach the host and where answers are applied.
  let setDelivery: @Sendable (RequestDelivery, AnswerDelivery) -> Void
  /// An action's canonical JSON (decoded, then encoded).
  let canonicalAction: @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> [UInt8]
  let reductions: ReductionLog
  /// Where the store is, for a checkpoint, and putting a new store there (a replay).
  let position: @Sendable () -> StorePosition
  let restore: @Sendable (StorePosition) -> Void
  /// How many lines the journal keeps (0: all).
  let limit: UInt64
  /// The date the feature reads, journaled.
  let date: JournalDate
  /// Sets a shared key's value as a change from outside (a replayed `shared` line).
  let applyShared: @Sendable (SharedKey, [UInt8]) throws(StoreError) -> Void
  /// Sets what is told of each shared change the store takes from outside.
  let observeShared: @Sendable (@escaping (SharedKey, [UInt8]) -> Void) -> Void
}
