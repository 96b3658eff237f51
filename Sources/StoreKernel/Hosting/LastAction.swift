#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import JSON
import Synchronization

/// The last small action sent to a feature's stores, kept decoded: hosts send the same few
/// actions over and over (a button's tap, a tick), and decoding one costs more than the rest of
/// the send.
///
/// ```swift
/// let last = LastAction<Counter.Action>()
/// let action = try last.decode(json, by: decode)  // decodes; the same bytes next time do not
/// ```
///
/// NB: one per feature (``FeatureCoding``), shared by its stores and their threads. A thread that
/// finds it busy decodes as if it were not there, so no send ever waits for another. Decoding is
/// a function of the bytes alone, so the kept value is the value decoding would give; an action
/// holding a class instance gets the same instance again.
@usableFromInline
final class LastAction<Action>: @unchecked Sendable {
  /// Actions longer than this (in bytes of JSON) are always decoded: a payload that varies (a
  /// todo's id) rarely repeats, and is not worth a copy.
  @usableFromInline static var limit: Int { 64 }

  @usableFromInline let busy = Atomic<Bool>(false)
  // NB: behind a pointer, not stored `var`s: every access to a class's `var` pays a run-time
  // exclusivity check, and `busy` already makes access exclusive.
  @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
  @usableFromInline let kept: UnsafeMutablePointer<(count: Int, action: Action)?>

  @usableFromInline
  init() {
    bytes = .allocate(capacity: Self.limit)
    kept = .allocate(capacity: 1)
    kept.initialize(to: nil)
  }

  deinit {
    kept.deinitialize(count: 1)
    kept.deallocate()
    bytes.deallocate()
  }

  /// The action `json` decodes to, by `decode` unless it is the last one kept.
  @inlinable
  func decode(
    _ json: UnsafeBufferPointer<UInt8>,
    by decode: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Action
  ) throws(JSONError) -> Action {
    guard let base = json.baseAddress, json.count <= Self.limit,
      busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else { return try decode(json) }
    defer { busy.store(false, ordering: .releasing) }
    if let last = kept.pointee, last.count == json.count, memcmp(bytes, base, json.count) == 0 {
      return last.action
    }
    // NB: a failed decode throws from here and keeps what was kept.
    let action = try decode(json)
    bytes.update(from: base, count: json.count)
    kept.pointee = (json.count, action)
    return action
  }
}
