/// The layout of a text lent to a host (`tca_store_state_borrow`), kept so that the text can
/// be updated in place after a change rather than written again.
///
///     let layout = JSONLayout()
///     var text = try encoder.encode(state, layout: layout)        // laid out, with slack
///     // … the state changes …
///     if try encoder.update(&text, to: state, layout: layout) { /* patched in place */ }
///
/// A value that keeps its text in chunks (an identified array's leaves) writes each chunk into
/// a slot: the chunk's text (after a comma for every chunk but the first) followed by spaces,
/// its slack. JSON allows whitespace between tokens, so the text is the compact text's value.
/// Everything outside the slots (the skeleton) is kept as written.
///
/// To update, the value is encoded again in skeleton mode: every chunked value writes no
/// chunks, but gives the layout the chunks that changed since the value it wrote last
/// (found by node identity: O(changed · log n)), and the skeleton written must equal the one
/// kept. If it does not (a member outside the chunked values changed), or a value's chunks no
/// longer pair up with the old ones (an insert, a removal, a move), or a changed chunk
/// outgrows its slot, the update fails and the caller writes the text again.
///
/// NB: not thread-safe: its owner (the store's lent text) uses it under a lock.
public final class JSONLayout {
  /// How a chunked value writes itself into the encoder's buffer.
  public enum Mode: Sendable {
    /// The whole text: each chunk into a slot with slack (``JSONArrayWriter/writeSlot``).
    case full
    /// No chunks: the value reports its changed chunks (``update(chunk:text:)``).
    case skeleton
  }

  public private(set) var mode: Mode = .full
  /// Each chunked value's slots, in the order they were written: where each chunk's slot
  /// starts in the text, how many bytes it holds, and how many of them its text uses (the rest
  /// is slack: spaces).
  private var slots: [[(offset: Int, capacity: Int, used: Int)]] = []
  /// Each chunked value as it was when its slots were last written (a snapshot: O(1)).
  private var values: [Any] = []
  /// The text outside the slots.
  private var skeleton: [UInt8] = []
  /// The chunked value being written or updated, by its place in `values`.
  private var current = -1
  /// Writes an update makes once the skeleton pass has succeeded, with their slots' places in
  /// `slots`.
  private var pending: [(value: Int, index: Int, comma: Bool, text: [UInt8])] = []
  private var failed = false

  public init() {}

  /// How many bytes of slack a chunk of `count` bytes gets: an eighth, at least 16.
  static func slack(for count: Int) -> Int { max(16, count / 8) }

  // MARK: - Called by chunked values

  /// Starts a chunked value of the text being written or updated; returns, in skeleton
  /// mode, the value as it was written last (nil if there was none at this place).
  public func begin(_ value: Any) -> Any? {
    current += 1
    switch mode {
    case .full:
      slots.append([])
      values.append(value)
      return nil
    case .skeleton:
      guard current < values.count else {
        failed = true
        return nil
      }
      let previous = values[current]
      values[current] = value
      return previous
    }
  }

  /// Skeleton mode: the value started last no longer pairs up with its previous one.
  public func fail() { failed = true }

  /// Skeleton mode: chunk `index` of the value started last now has `text` (its elements'
  /// text `a,b,c`).
  public func update(chunk index: Int, text: [UInt8]) {
    guard !failed, current >= 0, current < slots.count, index >= 0, index < slots[current].count
    else {
      failed = true
      return
    }
    let slot = slots[current][index]
    let needed = text.count + (index > 0 ? 1 : 0)
    guard needed <= slot.capacity else {
      failed = true
      return
    }
    pending.append((current, index, index > 0, text))
  }

  func record(slotAt offset: Int, capacity: Int) {
    guard current >= 0, current < slots.count else { return }
    // NB: what the text uses is known once it is written (``finishFull(_:)``).
    slots[current].append((offset, capacity, capacity))
  }

  // MARK: - Called by the encoder

  /// Prepares a full write.
  func startFull() {
    mode = .full
    slots = []
    values = []
    skeleton = []
    current = -1
    pending = []
    failed = false
  }

  /// Keeps the skeleton of the text just written in full.
  func finishFull(_ text: UnsafeBufferPointer<UInt8>) {
    // NB: no capacity reserved from the text's size: the skeleton is kept, and is small (the
    // text outside the identified arrays).
    var skeleton: [UInt8] = []
    var at = 0
    for value in slots.indices {
      for index in slots[value].indices {
        let slot = slots[value][index]
        if slot.offset > at, slot.offset <= text.count {
          skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: text[at..<slot.offset]))
        }
        at = min(text.count, slot.offset + slot.capacity)
        // NB: a chunk's text ends with a value's last byte, never a space: the spaces before
        // `at` are its slack.
        var used = at - slot.offset
        while used > 0, text[slot.offset + used - 1] == ASCII.space { used -= 1 }
        slots[value][index].used = max(0, used)
      }
    }
    if at < text.count {
      skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: text[at..<text.count]))
    }
    self.skeleton = skeleton
    current = -1
  }

  /// Whether the text has chunked values to update (else an update is a full write).
  public var hasSlots: Bool { !values.isEmpty }

  /// Prepares a skeleton pass.
  func startSkeleton() {
    mode = .skeleton
    current = -1
    pending = []
    failed = false
  }

  /// Ends a skeleton pass that wrote `skeleton`; applies the pending writes to `text` if the
  /// pass succeeded. On failure `values` may be partly updated: the caller writes in full.
  func finishSkeleton(
    _ written: UnsafeBufferPointer<UInt8>, into text: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    mode = .full
    defer { pending = [] }
    guard !failed, current == values.count - 1, written.elementsEqual(skeleton) else {
      return false
    }
    for write in pending {
      let slot = slots[write.value][write.index]
      guard slot.offset >= 0, slot.offset + slot.capacity <= text.count else { return false }
    }
    for write in pending {
      let slot = slots[write.value][write.index]
      var at = slot.offset
      if write.comma {
        text[at] = ASCII.comma
        at += 1
      }
      for byte in write.text {
        text[at] = byte
        at += 1
      }
      slots[write.value][write.index].used = at - slot.offset
      let end = slot.offset + slot.capacity
      while at < end {
        text[at] = ASCII.space
        at += 1
      }
    }
    return true
  }

  // MARK: - Called by the text's owner

  /// Copies `text` (written or updated with this layout) to `destination`, which has room for
  /// `text.count` bytes, without the slack after each chunk: the compact text, whose length it
  /// returns.
  ///
  /// NB: one copy per stretch between two slacks (two per chunk of 64 elements), not a scan of
  /// the bytes: about the cost of copying the text (docs/benchmarks.md: the scale table).
  public func copyCompact(
    _ text: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>
  ) -> Int {
    guard let base = text.baseAddress else { return 0 }
    var slacks: [Range<Int>] = []
    var sorted = true
    for value in slots {
      for slot in value where slot.used < slot.capacity {
        let slack = (slot.offset + slot.used)..<(slot.offset + slot.capacity)
        if let last = slacks.last, last.lowerBound > slack.lowerBound { sorted = false }
        slacks.append(slack)
      }
    }
    // NB: a chunked value inside another's chunk records its slots before the outer chunk's.
    if !sorted { slacks.sort { $0.lowerBound < $1.lowerBound } }
    var from = 0
    var count = 0
    for slack in slacks {
      let start = min(slack.lowerBound, text.count)
      if start > from {
        (destination + count).initialize(from: base + from, count: start - from)
        count += start - from
      }
      from = max(from, min(slack.upperBound, text.count))
    }
    if text.count > from {
      (destination + count).initialize(from: base + from, count: text.count - from)
      count += text.count - from
    }
    return count
  }
}
