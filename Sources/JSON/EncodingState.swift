/// What one `JSONEncoder.encode` call shares between its encoders and containers: the output
/// and the stack of containers still open in it.
///
/// The encoder writes straight into the output as `encode(to:)` runs, with no tree in between.
/// That works because Codable is used nested: a container is written to until a value inside
/// it is, and that value is finished before its container goes on. So a write to a container
/// first closes whatever is open inside it; a value whose `encode(to:)` wrote nothing becomes
/// `{}`, as Foundation writes it.
///
///     {"todos":[{"id":1,   ← frames: object, array, object; the innermost gets the next member
///
/// Every encoder and container is a handle (a frame or slot number and an id). A write through
/// a handle whose frame is closed, a second value in one slot or a repeated member name cannot
/// be streamed: the state is then *poisoned*, and `JSONEncoder` encodes the value again with
/// ``TreeEncoder``, which allows all of those. Correct either way; fast for the usual case.
///
/// NB: it lives on the stack of `JSONEncoder.encode`, and handles refer to it by pointer: no
/// allocation, no reference counting, no exclusivity checks. An `Encoder` kept by an
/// `Encodable` type after its `encode(to:)` returns breaks Codable's contract.
struct EncodingState: ~Copyable {
  var out: OutputBuffer
  private var frames: UnsafeMutablePointer<Frame>
  private var frameCapacity = 16
  private(set) var frameCount = 0
  /// The slot that is waiting for its value (it is inside the innermost frame), or 0.
  private var pending: UInt32 = EncodingState.rootSlot
  private var lastID: UInt32 = EncodingState.rootSlot
  private(set) var isPoisoned = false
  /// The most frames ever open at once.
  private(set) var deepest = 0
  /// The member names of objects whose names could repeat (see `isRepeated`), by frame id.
  private var names: [UInt32: Set<[UInt8]>] = [:]
  let userInfo: [CodingUserInfoKey: Any]

  /// An open array or object.
  struct Frame {
    var id: UInt32
    /// The slot it fills, 0 for a nested container.
    var slot: UInt32
    /// The members or elements written.
    var count: UInt32
    /// The offset of its `{` or `[`.
    var start: UInt32
    /// The offset of the quote of its last member name.
    var lastKey: UInt32
    /// A 64-bit Bloom filter of its member names.
    var names: UInt64
    var isObject: Bool
    var check: NameCheck
  }

  /// How an object's frame checks that a member name is new.
  enum NameCheck: UInt8 {
    /// With the Bloom filter `names`, then exactly if it might be repeated.
    case filter
    /// Exactly, in `EncodingState.names`.
    case exact
    /// Not at all: a dictionary's keys cannot repeat.
    case trusted
  }

  /// A handle on a frame: its place on the stack and its id.
  struct FrameHandle {
    var index: UInt32
    var id: UInt32
    static let dead = FrameHandle(index: UInt32(Int32.max), id: 0)
  }

  /// Thrown through `encode(to:)` once poisoned, to stop early; never seen by callers.
  struct Restart: Error {}

  static let rootSlot: UInt32 = 1

  /// Whether `frames` is ours to free (not memory lent by the caller).
  private var ownsFrames = true

  init(userInfo: [CodingUserInfoKey: Any]) {
    self.userInfo = userInfo
    frames = .allocate(capacity: frameCapacity)
    out = OutputBuffer()
  }

  /// A state whose output and frames start in `scratch` (the caller's stack, say), and move to
  /// memory of their own if they outgrow it.
  init(userInfo: [CodingUserInfoKey: Any], scratch: UnsafeMutableRawBufferPointer) {
    self.userInfo = userInfo
    let frameBytes = MemoryLayout<Frame>.stride * frameCapacity
    let alignment = MemoryLayout<Frame>.alignment
    if let start = scratch.baseAddress, Int(bitPattern: start) % alignment == 0,
      scratch.count >= frameBytes + 64
    {
      frames = start.bindMemory(to: Frame.self, capacity: frameCapacity)
      ownsFrames = false
      let rest = UnsafeMutableRawBufferPointer(rebasing: scratch[frameBytes...])
      out = OutputBuffer(startingIn: rest.bindMemory(to: UInt8.self))
    } else {
      frames = .allocate(capacity: frameCapacity)
      out = OutputBuffer()
    }
  }

  deinit { if ownsFrames { frames.deallocate() } }

  mutating func poison() { isPoisoned = true }

  /// Everything written, once `finish` has closed it all.
  func bytes() -> [UInt8] { out.bytes() }

  /// Closes every open frame and fills the pending slot.
  mutating func finish() { close(to: 0) }

  // MARK: - Slots and frames

  /// Starts a new slot for a value inside the innermost frame.
  @inline(__always)
  mutating func newSlot() -> UInt32 {
    lastID &+= 1
    pending = lastID
    return lastID
  }

  /// Whether the slot at `depth` is waiting for its value; it is not waiting any more.
  @inline(__always)
  mutating func take(slot: UInt32, depth: UInt32) -> Bool {
    guard pending == slot, frameCount == Int(depth) else { return false }
    pending = 0
    return true
  }

  /// Whether the slot at `depth` is waiting for its value.
  func isPending(slot: UInt32, depth: UInt32) -> Bool {
    pending == slot && frameCount == Int(depth)
  }

  /// The container of the slot at `depth`: a new one, or the one it already opened.
  mutating func open(isObject: Bool, slot: UInt32, depth: UInt32) -> FrameHandle {
    if take(slot: slot, depth: depth) { return push(isObject: isObject, slot: slot) }
    let index = Int(depth)
    if index < frameCount, frames[index].slot == slot, frames[index].isObject == isObject,
      slot != 0
    {
      close(to: index + 1)
      return FrameHandle(index: depth, id: frames[index].id)
    }
    poison()
    return .dead
  }

  /// Opens a container as the next value of the innermost frame (a nested container).
  mutating func push(isObject: Bool, slot: UInt32 = 0) -> FrameHandle {
    if frameCount == frameCapacity {
      let larger = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
      larger.moveInitialize(from: frames, count: frameCount)
      if ownsFrames { frames.deallocate() }
      frames = larger
      frameCapacity *= 2
      ownsFrames = true
    }
    lastID &+= 1
    let start = UInt32(truncatingIfNeeded: out.count)
    out.append(isObject ? ASCII.openBrace : ASCII.openBracket)
    (frames + frameCount).initialize(
      to: Frame(
        id: lastID, slot: slot, count: 0, start: start, lastKey: 0, names: 0,
        isObject: isObject, check: .filter))
    frameCount += 1
    deepest = max(deepest, frameCount)
    return FrameHandle(index: UInt32(truncatingIfNeeded: frameCount - 1), id: lastID)
  }

  /// Makes `frame` the innermost open frame, closing what is open inside it; false (and
  /// poisoned) if it is closed already.
  @inline(__always)
  mutating func enter(_ frame: FrameHandle) -> Bool {
    let index = Int(frame.index)
    guard index < frameCount, frames[index].id == frame.id else {
      poison()
      return false
    }
    if index + 1 < frameCount || pending != 0 { close(to: index + 1) }
    return true
  }

  /// Fills the pending slot with `{}` and closes frames until `depth` are left open.
  mutating func close(to depth: Int) {
    if pending != 0 {
      out.append("{}")
      pending = 0
    }
    while frameCount > depth {
      frameCount -= 1
      let frame = frames[frameCount]
      out.append(frame.isObject ? ASCII.closeBrace : ASCII.closeBracket)
      if frame.check == .exact { names[frame.id] = nil }
    }
  }

  func count(of frame: FrameHandle) -> Int {
    let index = Int(frame.index)
    guard index < frameCount, frames[index].id == frame.id else { return 0 }
    return Int(frames[index].count)
  }

  // MARK: - Writing

  /// Writes the separator before the next element of the innermost frame, an array.
  @inline(__always)
  mutating func beginElement(_ frame: FrameHandle) {
    let index = Int(frame.index)
    if frames[index].count > 0 { out.append(ASCII.comma) }
    frames[index].count &+= 1
  }

  /// Writes `,"name":` into the innermost frame, an object.
  @inline(__always)
  mutating func writeKey<Key: CodingKey>(_ key: Key, in frame: FrameHandle) {
    var name = key.stringValue
    name.withUTF8 { text in writeKey(utf8: text, in: frame, keyType: Key.self) }
  }

  mutating func writeKey<Key: CodingKey>(
    utf8 text: UnsafeBufferPointer<UInt8>, in frame: FrameHandle, keyType: Key.Type
  ) {
    let index = Int(frame.index)
    // NB: a repeated name cannot be streamed (the last value must win); a Bloom filter of the
    // names keeps the check to a few instructions until two names might be the same.
    switch frames[index].check {
    case .filter:
      let first = text.first ?? 0
      let last = text.last ?? 0
      let hash =
        UInt64(truncatingIfNeeded: text.count) &* 0x9E37_79B9 &+ UInt64(first) &* 31
        &+ UInt64(last)
      let bit: UInt64 = 1 << (hash & 63)
      if frames[index].names & bit != 0, isRepeated(text, in: index, keyType: keyType) {
        poison()
      }
      frames[index].names |= bit
    case .exact:
      if isRepeated(text, in: index, keyType: keyType) { poison() }
    case .trusted:
      break
    }
    out.reserve(text.count + 4)
    if frames[index].count > 0 { out.appendReserved(ASCII.comma) }
    frames[index].count &+= 1
    frames[index].lastKey = UInt32(truncatingIfNeeded: out.count)
    out.appendString(utf8: text)
    out.append(ASCII.colon)
  }

  /// Whether the object at `index` has a member named `text` already. Objects keyed by a
  /// dictionary's keys are trusted: they cannot repeat.
  private mutating func isRepeated<Key: CodingKey>(
    _ text: UnsafeBufferPointer<UInt8>, in index: Int, keyType: Key.Type
  ) -> Bool {
    let frame = frames[index]
    if frame.check == .filter {
      if String(reflecting: keyType).hasSuffix("._DictionaryCodingKey") {
        frames[index].check = .trusted
        return false
      }
      frames[index].check = .exact
      names[frame.id] = memberNames(of: frame)
    }
    return names[frame.id, default: []].insert(Array(text)).inserted == false
  }

  /// The member names written so far in an open object, read back from the output.
  private func memberNames(of frame: Frame) -> Set<[UInt8]> {
    var names = Set<[UInt8]>()
    let written = out.written
    var i = Int(frame.start) + 1
    while i < written.count, written[i] == ASCII.quote,
      let close = skipString(in: written, from: i)
    {
      names.insert(unescaped(UnsafeBufferPointer(rebasing: written[(i + 1)..<close])))
      guard let end = skipValue(in: written, from: close + 2) else { break }
      i = end + 1
    }
    return names
  }

  // MARK: - Coding paths

  /// The coding path of a value inside the first `depth` frames.
  func codingPath(depth: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    let written = out.written
    for index in 0..<min(depth, frameCount) {
      let frame = frames[index]
      if frame.isObject {
        let start = Int(frame.lastKey)
        if let close = skipString(in: written, from: start) {
          let name = unescaped(UnsafeBufferPointer(rebasing: written[(start + 1)..<close]))
          path.append(AnyCodingKey(String(decoding: name, as: UTF8.self)))
        }
      } else {
        path.append(AnyCodingKey(index: max(0, Int(frame.count) - 1)))
      }
    }
    return path
  }

  /// The error for a float that JSON cannot carry.
  func unencodable(_ value: some FloatingPoint, depth: Int, key: (any CodingKey)?) -> JSONError {
    var path = codingPath(depth: depth)
    if let key { path.append(key) }
    return JSONError(.unencodable, path: pointer(path), "\(value) cannot be written as JSON")
  }
}
