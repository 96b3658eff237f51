/// Where ``JSONEncodable/encode(json:)`` writes a value: straight into ``JSONEncoder``'s
/// output, in the canonical form of the wire format (docs/wire-format.md).
///
///     try json.object { object throws(JSONDeclined) in
///       object.encode(count, forKey: "count")
///       try object.encodeIfPresent(numberFact, forKey: "numberFact")
///     }
///
/// A writer writes one value. Write exactly one (an ``object(_:)``, an ``array(_:)``, an
/// ``enumCase(_:)``, a scalar); the encoder checks nothing more.
///
/// NB: a handle on the encoder's buffer (a pointer and the nesting depth): passing it around
/// copies two words and counts no references.
public struct JSONValueWriter {
  let out: UnsafeMutablePointer<OutputBuffer>
  let depth: Int

  init(_ out: UnsafeMutablePointer<OutputBuffer>, depth: Int) {
    self.out = out
    self.depth = depth
  }

  /// Writes a value of a type that writes itself directly.
  @inline(__always)
  public func encode<T: JSONEncodable>(_ value: T) throws(JSONDeclined) {
    try value.encode(json: self)
  }

  public func write(_ value: Bool) {
    value ? out.pointee.append("true") : out.pointee.append("false")
  }

  public func write(_ value: String) { out.pointee.appendString(value) }

  /// Writes a string given as its UTF-8 bytes (which they must be), quoted and escaped: for a
  /// type that formats its text on the stack rather than in a `String`.
  public func write(utf8 text: UnsafeBufferPointer<UInt8>) { out.pointee.appendString(utf8: text) }

  public func write(_ value: Int) { out.pointee.appendInteger(value) }

  public func write<T: FixedWidthInteger>(integer value: T) { out.pointee.appendInteger(value) }

  /// Declines NaN and the infinities: `encode(to:)` then reports them with their place.
  public func write(_ value: Double) throws(JSONDeclined) {
    guard value.isFinite else { throw JSONDeclined() }
    out.pointee.appendDouble(value)
  }

  public func write(_ value: Float) throws(JSONDeclined) {
    guard value.isFinite else { throw JSONDeclined() }
    out.pointee.appendFloat(value)
  }

  public func writeNull() { out.pointee.append("null") }

  // MARK: - Containers

  /// Writes an object whose members `body` writes, in the order it writes them. Member names
  /// must differ (the encoder does not check).
  public func object(
    _ body: (inout JSONObjectWriter) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    var object = JSONObjectWriter(try nested())
    out.pointee.append(ASCII.openBrace)
    try body(&object)
    out.pointee.append(ASCII.closeBrace)
  }

  /// Writes an array whose elements `body` writes.
  public func array(
    _ body: (inout JSONArrayWriter) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    var array = JSONArrayWriter(try nested())
    out.pointee.append(ASCII.openBracket)
    try body(&array)
    out.pointee.append(ASCII.closeBracket)
  }

  /// Writes an enum case without payload as Swift synthesizes it: `{"name":{}}`.
  public func enumCase(_ name: StaticString) throws(JSONDeclined) {
    try object { (object) throws(JSONDeclined) in
      try object.object(forKey: name) { _ in }
    }
  }

  /// Writes an enum case with one unlabeled payload: `{"name":{"_0":…}}`.
  public func enumCase<T: JSONEncodable>(
    _ name: StaticString, payload: T
  ) throws(JSONDeclined) {
    try enumCase(name) { (payloadObject) throws(JSONDeclined) in
      try payloadObject.encode(payload, forKey: "_0")
    }
  }

  /// Writes an enum case whose payload object `body` writes: `{"toggle":{"id":3}}`; for an
  /// optional payload `{"setName":{}}` when it is nil.
  public func enumCase(
    _ name: StaticString, _ body: (inout JSONObjectWriter) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    try object { (object) throws(JSONDeclined) in try object.object(forKey: name, body) }
  }

  /// A writer one level deeper; declines past ``JSONParser/maxDepth`` as `encode(to:)` fails.
  @inline(__always)
  private func nested() throws(JSONDeclined) -> JSONValueWriter {
    guard depth < JSONParser.maxDepth else { throw JSONDeclined() }
    return JSONValueWriter(out, depth: depth + 1)
  }
}

/// The members of an object being written, in order.
public struct JSONObjectWriter {
  let writer: JSONValueWriter
  private var count = 0

  init(_ writer: JSONValueWriter) { self.writer = writer }

  /// Writes `,"name":` (no comma before the first member).
  @inline(__always)
  mutating func key(_ name: StaticString) -> JSONValueWriter {
    writer.out.pointee.appendKey(name, comma: count > 0)
    count += 1
    return writer
  }

  public mutating func encode<T: JSONEncodable>(
    _ value: T, forKey name: StaticString
  ) throws(JSONDeclined) {
    try value.encode(json: key(name))
  }

  public mutating func encode(_ value: Bool, forKey name: StaticString) {
    key(name).write(value)
  }

  public mutating func encode(_ value: String, forKey name: StaticString) {
    key(name).write(value)
  }

  public mutating func encode(_ value: Int, forKey name: StaticString) {
    key(name).write(value)
  }

  /// Writes the member unless `value` is nil, as a synthesized `encode(to:)` does for
  /// optionals (`encodeIfPresent`).
  public mutating func encodeIfPresent<T: JSONEncodable>(
    _ value: T?, forKey name: StaticString
  ) throws(JSONDeclined) {
    guard let value else { return }
    try value.encode(json: key(name))
  }

  // NB: the scalars written out, so that the hottest members skip the generic call (and the
  // run-time lookup of `Optional<T>` it makes).
  public mutating func encodeIfPresent(_ value: String?, forKey name: StaticString) {
    if let value { key(name).write(value) }
  }

  public mutating func encodeIfPresent(_ value: Int?, forKey name: StaticString) {
    if let value { key(name).write(value) }
  }

  public mutating func encodeIfPresent(_ value: Bool?, forKey name: StaticString) {
    if let value { key(name).write(value) }
  }

  /// Writes a member that is an array `body` writes (for a list made as it is written).
  public mutating func array(
    forKey name: StaticString, _ body: (inout JSONArrayWriter) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    try key(name).array(body)
  }

  /// Writes a member that is an object `body` writes.
  public mutating func object(
    forKey name: StaticString, _ body: (inout JSONObjectWriter) throws(JSONDeclined) -> Void
  ) throws(JSONDeclined) {
    try key(name).object(body)
  }
}

/// The elements of an array being written, in order.
public struct JSONArrayWriter {
  let writer: JSONValueWriter
  fileprivate var count = 0

  init(_ writer: JSONValueWriter) { self.writer = writer }

  public mutating func encode<T: JSONEncodable>(_ value: T) throws(JSONDeclined) {
    if count > 0 { writer.out.pointee.append(ASCII.comma) }
    count += 1
    try value.encode(json: writer)
  }
}

// MARK: - Encoded runs of elements

extension JSONArrayWriter {
  /// How deep the array's elements are written (an encoded run is valid at its depth only:
  /// the encoder declines values nested past ``JSONParser/maxDepth``).
  public var depth: Int { writer.depth }

  /// The text `a,b,c` of `elements` as this array writes them, for a caller that keeps it
  /// (``writeEncoded(_:count:)``), such as a chunk of a persistent array.
  ///
  ///     let text = try array.encodedElements([1, 2])  // "1,2"
  ///     array.writeEncoded(text, count: 2)
  public func encodedElements<S: Sequence>(
    _ elements: S
  ) throws(JSONDeclined) -> [UInt8] where S.Element: JSONEncodable {
    var out = OutputBuffer(capacity: 1024)
    try withUnsafeMutablePointer(to: &out) { (out) throws(JSONDeclined) in
      let element = JSONValueWriter(out, depth: writer.depth)
      var first = true
      for value in elements {
        if !first { out.pointee.append(ASCII.comma) }
        first = false
        try value.encode(json: element)
      }
    }
    return out.bytes()
  }

  /// The layout of the lent text being written (``JSONLayout``), nil for any other text: a
  /// value that keeps its text in chunks then writes them with ``writeSlot(_:count:)``.
  public var layout: JSONLayout? { writer.out.pointee.layout }

  /// Writes `count` elements given as their text `a,b,c` (as ``writeEncoded(_:count:)``) into
  /// a slot of the lent text: the text (after a comma unless it is the first), then slack
  /// spaces, recorded in ``layout``. Without a layout in full mode, a plain ``writeEncoded``.
  public mutating func writeSlot(_ text: [UInt8], count: Int) {
    guard count > 0 else { return }
    guard let layout, layout.mode == .full else { return writeEncoded(text, count: count) }
    let start = writer.out.pointee.count
    writeEncoded(text, count: count)
    let written = writer.out.pointee.count - start
    let slack = JSONLayout.slack(for: written)
    writer.out.pointee.reserve(slack)
    for _ in 0..<slack { writer.out.pointee.appendReserved(ASCII.space) }
    layout.record(slotAt: start, capacity: written + slack)
  }

  /// Writes `count` elements given as their text `a,b,c`, made by
  /// ``encodedElements(_:)`` at this ``depth`` (not checked: the text is copied as is).
  public mutating func writeEncoded(_ text: [UInt8], count: Int) {
    guard count > 0 else { return }
    if self.count > 0 { writer.out.pointee.append(ASCII.comma) }
    self.count += count
    text.withUnsafeBufferPointer { writer.out.pointee.append($0) }
  }
}
