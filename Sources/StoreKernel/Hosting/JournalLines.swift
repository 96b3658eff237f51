/// The lines of a journal after its header (``RecordingStore``): their bytes in one growing
/// buffer, and one record per line, in journal order.
///
/// NB: a line is written once, without its closing brace, when its input is given; what is
/// learnt later (the version once applied, a real clock's time) stays in its record, and is
/// written out when the journal is taken. No line costs an allocation of its own
/// (docs/benchmarks.md, "The journal").
struct JournalLines {
  struct Record {
    /// Where its bytes are (offsets from the buffer's first byte ever written).
    var start: Int
    var end: Int
    let sequence: UInt64
    let isInput: Bool
    var isAdvance = false
    /// A real-clock poll: its `from` is only where its `at` starts, and is not written.
    var isPoll = false
    /// The callback run it was given in (0: none).
    var run: UInt64 = 0
    /// The state version once applied; ``unset`` until known.
    var version = JournalLines.unset
    /// A real clock's first time read during its call, and the last (``ClockReads``);
    /// ``noTime``: none read.
    var from = JournalLines.noTime
    var at = JournalLines.noTime
  }

  static let unset = UInt64.max
  static let noTime = Int64.min

  private(set) var records: [Record] = []
  private var bytes: [UInt8] = []
  /// The offset of `bytes[0]`: what older lines dropped from the buffer.
  private var base = 0
  /// The start of the line being written (``write(_:)``).
  var end: Int { base + bytes.count }

  var count: Int { records.count }

  init() {
    bytes.reserveCapacity(4096)
  }

  /// Writes a line's bytes (`body` appends them); returns where they start.
  @inline(__always)
  mutating func write(_ body: (inout [UInt8]) -> Void) -> Int {
    let start = end
    body(&bytes)
    return start
  }

  /// Puts `record` (its bytes written) at `index` of the records.
  ///
  /// NB: the one place a line joins the journal: what watches lines as they come fits here.
  @inline(__always)
  mutating func insert(_ record: Record, at index: Int) {
    if index == records.endIndex {
      records.append(record)
    } else {
      records.insert(record, at: index)
    }
  }

  subscript(index: Int) -> Record {
    get { records[index] }
    set { records[index] = newValue }
  }

  var indices: Range<Int> { records.indices }

  /// Removes the line at `index` (an input that failed); its bytes go too if they are the last.
  mutating func remove(at index: Int) {
    let record = records.remove(at: index)
    if record.end == end { bytes.removeLast(record.end - record.start) }
  }

  /// Drops the first `count` lines, and the bytes no line left uses.
  mutating func dropFirst(_ count: Int) {
    guard count > 0 else { return }
    records.removeFirst(min(count, records.count))
    let oldest = records.lazy.map(\.start).min() ?? end
    bytes.removeFirst(oldest - base)
    base = oldest
  }

  /// Appends every line, complete, each ended by a newline, to `text`: `version` for the inputs
  /// whose version is not known yet (the current one).
  func render(into text: inout [UInt8], version: UInt64) {
    text.reserveCapacity(text.count + bytes.count + records.count * 24)
    for index in records.indices {
      render(index, into: &text, version: version)
      text.append(UInt8(ascii: "\n"))
    }
  }

  /// Appends line `index`, complete, without its newline, to `text`.
  func render(_ index: Int, into text: inout [UInt8], version: UInt64) {
    let record = records[index]
    text.append(contentsOf: bytes[(record.start - base)..<(record.end - base)])
    if record.from != JournalLines.noTime {
      text += Array(",\"from\":".utf8)
      Self.appendDecimal(record.from, to: &text)
    }
    if record.at != JournalLines.noTime {
      text += Array(",\"at\":".utf8)
      Self.appendDecimal(record.at, to: &text)
    }
    if record.isInput {
      text += Array(",\"version\":".utf8)
      let known = record.version != JournalLines.unset
      Self.appendDecimal(known ? record.version : version, to: &text)
    }
    text.append(UInt8(ascii: "}"))
  }

  static func appendDecimal<T: BinaryInteger>(_ value: T, to text: inout [UInt8]) {
    text += Array(String(value).utf8)
  }
}
