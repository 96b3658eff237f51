#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import JSON

/// The state text a store lends its host (`tca_store_state_borrow`): NUL-terminated, owned
/// here, valid until the next call on the store; kept from one borrow to the next and, after
/// a change, updated in place rather than written again when the state allows it.
///
///     let lent = LentState()
///     try store.lend(into: lent)      // the whole text, laid out with slack (O(n))
///     store.send(toggle)
///     try store.lend(into: lent)      // the changed leaf written into its slot (O(changed))
///     lent.text                       // the same memory, updated
///
/// The text is laid out by ``JSONLayout``: each leaf of an identified array (64 elements, or
/// their ids) is followed by spaces of slack (an eighth of its text, at least 16 bytes), so
/// the text may contain runs of spaces between values; as a JSON value it is the state's
/// compact text. A change whose leaves still fit their slots, in a state whose text outside
/// the identified arrays is unchanged, is written in place; anything else (an insert, removal
/// or move, another member changed, a leaf outgrowing its slack, a state with no identified
/// array) writes the text again with fresh slack.
///
/// NB: not thread-safe: its owner (the C bridge's store context) uses it under a lock.
public final class LentState {
  /// The version of the state ``text`` holds (nil before the first lend).
  public internal(set) var version: UInt64?
  /// The text and its NUL (`count` is the text's length, without the NUL).
  private var memory: UnsafeMutableBufferPointer<UInt8>?
  private(set) var count = 0
  let layout = JSONLayout()
  /// How many times the text was updated in place, and written whole (for tests).
  public private(set) var updates = (inPlace: 0, whole: 0)
  /// The size a text written whole could not get memory for (nil: the last one did): the text
  /// and its version are then left as they were.
  public private(set) var unallocated: Int?

  public init() {}

  deinit { free(memory?.baseAddress) }

  /// The text, NUL-terminated, and its length (without the NUL).
  public var text: (pointer: UnsafePointer<UInt8>, count: Int)? {
    guard let base = memory?.baseAddress else { return nil }
    return (UnsafePointer(base), count)
  }

  /// Replaces the text with `bytes` (a fresh buffer from `malloc`, and a NUL); on failure
  /// records ``unallocated`` and keeps the old text.
  ///
  /// NB: the new buffer is made before the old one is freed, so a text written again never
  /// has the old one's address: a host (and the tests) can tell an update in place by it.
  func replace(with bytes: [UInt8], version: UInt64) {
    let (size, overflow) = bytes.count.addingReportingOverflow(1)
    guard !overflow, let raw = malloc(size) else {
      // NB: the layout now describes `bytes`, not the text kept: no update in place from it.
      unallocated = bytes.count
      self.version = nil
      return
    }
    unallocated = nil
    let fresh = UnsafeMutableBufferPointer(
      start: raw.bindMemory(to: UInt8.self, capacity: size), count: size)
    _ = fresh.initialize(from: bytes)
    fresh[bytes.count] = 0
    free(memory?.baseAddress)
    memory = fresh
    count = bytes.count
    self.version = version
    updates.whole += 1
  }

  /// Whether the text has chunked values (identified arrays), updated in place after a change.
  public var hasChunks: Bool { layout.hasSlots }

  /// The text without the slack after its chunks (the compact JSON `tca_store_state` gives), in
  /// memory from `malloc`, NUL-terminated, for the host to free; nil without a text or memory.
  public func compactCopy() -> (pointer: UnsafeMutablePointer<UInt8>, count: Int)? {
    guard let memory, let text = memory.baseAddress, version != nil,
      let raw = malloc(count + 1)
    else { return nil }
    let out = raw.bindMemory(to: UInt8.self, capacity: count + 1)
    let length = layout.copyCompact(UnsafeBufferPointer(start: text, count: count), to: out)
    out[length] = 0
    return (out, length)
  }

  /// Updates the text in place to `state`'s; false when it cannot (nothing changed then).
  func update<State: Encodable>(to state: State, version: UInt64, encoder: JSONEncoder) -> Bool {
    guard let memory, self.version != nil else { return false }
    let text = UnsafeMutableBufferPointer(rebasing: memory[0..<count])
    guard encoder.update(text, to: state, layout: layout) else { return false }
    self.version = version
    updates.inPlace += 1
    return true
  }
}
