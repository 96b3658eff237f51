/// A type that reads itself straight from a scanned JSON document, without Codable's
/// containers: ``JSONDecoder`` uses `init(json:)` whenever the type has it.
///
/// It is an accelerator, not a second format. `init(json:)` may *decline* any input (throw
/// ``JSONDeclined``), and then the decoder runs `init(from:)` on the same document, which
/// accepts the value or says exactly what is wrong with it. So errors are the same with or
/// without a conformance; the one rule is that whatever `init(json:)` accepts, it must decode
/// to the same value as `init(from:)` (tests check this for every conformance in libtca). It
/// sees no `userInfo`: a type whose `init(from:)` depends on it should not adopt this.
///
///     extension Todo: JSONDecodable {
///       init(json: JSONValueReader) throws(JSONDeclined) {
///         let object = try json.object()
///         self.init(
///           description: try object.decode(String.self, forKey: "description"),
///           id: try object.decode(Int.self, forKey: "id"),
///           isComplete: try object.decode(Bool.self, forKey: "isComplete"))
///       }
///     }
///
/// NB: why it exists: through Codable every keyed container is a generic box that the runtime
/// looks up in a hash table and allocates, and every case name goes through `allKeys`. Those
/// costs are Codable's own: a decoder that does nothing at all still pays them. A conformance
/// pays none of them.
public protocol JSONDecodable: Decodable {
  /// Reads the value at `json`, or declines.
  init(json: JSONValueReader) throws(JSONDeclined)

  /// Scans `buffer` and decodes a value: through `init(json:)`, and through `init(from:)` on
  /// the same scanned document if that declines. Provided; do not implement it.
  ///
  /// NB: a requirement rather than a plain function so that the provided body runs
  /// specialized for each conforming type (its witness is made where the type is known), with
  /// no run-time type lookups: this is the path of `tca_store_send`.
  static func decodeJSON(
    from buffer: UnsafeBufferPointer<UInt8>, with decoder: JSONDecoder
  ) throws(JSONError) -> Self
}

extension JSONDecodable {
  @inlinable
  public static func decodeJSON(
    from buffer: UnsafeBufferPointer<UInt8>, with decoder: JSONDecoder
  ) throws(JSONError) -> Self {
    try decodeScanning(from: buffer, with: decoder)
  }

  /// What ``decodeJSON(from:with:)`` does for any type: scans the whole document, then reads
  /// the value from it (what a type with a faster way of its own falls back to). A big
  /// document is first read in one pass without scanning (``DirectCursor``), which gives way to
  /// the scan wherever it is not the plain case.
  @inlinable
  static func decodeScanning(
    from buffer: UnsafeBufferPointer<UInt8>, with decoder: JSONDecoder
  ) throws(JSONError) -> Self {
    // NB: the size test inline, so a small action (the common case) pays no call for it.
    if buffer.count > JSONDecoder.probeThreshold { try decoder.probe(Self.self, buffer) }
    // NB: a small document (an action, often an enum case, which a direct read leaves to the
    // tape) is scanned at once: its tape is on the stack, and cheap.
    if buffer.count > JSONDecoder.directThreshold {
      var direct: Self?
      let read = JSONValueReader.readDirectly(buffer) { (root) throws(JSONDeclined) in
        direct = try Self(json: root)
      }
      if read, let direct { return direct }
    }
    if MemoryLayout<Self>.size <= 64 {
      var result: Self?
      try decoder.scan(buffer) { (root) throws(JSONError) in
        do throws(JSONDeclined) {
          result = try Self(json: root)
        } catch {
          result = try root.decodeThroughCodable(Self.self)
        }
      }
      guard let result else { throw JSONError(.shape, "nothing was decoded") }
      return result
    }
    // NB: a large value is made in a slot of its own, and moved out: kept in an optional, an
    // enum with a big payload among its cases was copied out of it and the optional destroyed
    // through its generic value witness, twice, ~500 instructions for an action. (A small one
    // costs less through the optional: the size test folds away.)
    return try withUnsafeTemporaryAllocation(of: Self.self, capacity: 1) {
      (slot) throws(JSONError) -> Self in
      guard let slot = slot.baseAddress else { throw JSONError(.shape, "no memory") }
      var decoded = false
      try decoder.scan(buffer) { (root) throws(JSONError) in
        do throws(JSONDeclined) {
          slot.initialize(to: try Self(json: root))
        } catch {
          slot.initialize(to: try root.decodeThroughCodable(Self.self))
        }
        decoded = true
      }
      guard decoded else { throw JSONError(.shape, "nothing was decoded") }
      return slot.move()
    }
  }
}

/// A type that writes itself straight into ``JSONEncoder``'s output, without Codable's
/// containers: the encoder uses `encode(json:)` whenever the type has it.
///
/// It must write exactly the bytes `encode(to:)` makes ``JSONEncoder`` write (members in the
/// same order, `nil` optionals left out where `encode(to:)` leaves them out). It may decline
/// (NaN, too deep): the encoder then encodes the value through `encode(to:)`, which reports the
/// error with its place.
///
///     extension Todo: JSONEncodable {
///       func encode(json: JSONValueWriter) throws(JSONDeclined) {
///         try json.object { object throws(JSONDeclined) in
///           object.encode(description, forKey: "description")
///           object.encode(id, forKey: "id")
///           object.encode(isComplete, forKey: "isComplete")
///         }
///       }
///     }
public protocol JSONEncodable: Encodable {
  /// Writes the value into `json`, or declines.
  func encode(json: JSONValueWriter) throws(JSONDeclined)
}

/// A type with both direct paths.
public typealias JSONCodable = JSONDecodable & JSONEncodable

/// Thrown by `init(json:)` or `encode(json:)` to leave a value to its Codable conformance.
///
/// It carries nothing on purpose: the Codable path that runs next finds the place and the
/// reason, so declining costs no message and no path.
public struct JSONDeclined: Error, Equatable, Sendable {
  public init() {}
}

// MARK: - The standard library's scalars

extension Bool: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) { self = try json.bool() }
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { json.write(self) }
}

extension String: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) { self = try json.string() }
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { json.write(self) }
}

extension Double: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) { self = try json.double() }
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { try json.write(self) }
}

extension Float: JSONCodable {
  public init(json: JSONValueReader) throws(JSONDeclined) { self = try json.float() }
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { try json.write(self) }
}

// NB: every integer width reads and writes alike; the witnesses made from these are
// specialized for each type.
extension JSONDecodable where Self: FixedWidthInteger {
  public init(json: JSONValueReader) throws(JSONDeclined) { self = try json.integer() }
}

extension JSONEncodable where Self: FixedWidthInteger {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { json.write(integer: self) }
}

extension Int: JSONCodable {}
extension Int8: JSONCodable {}
extension Int16: JSONCodable {}
extension Int32: JSONCodable {}
extension Int64: JSONCodable {}
extension UInt: JSONCodable {}
extension UInt8: JSONCodable {}
extension UInt16: JSONCodable {}
extension UInt32: JSONCodable {}
extension UInt64: JSONCodable {}

// NB: as `RawRepresentable`'s Codable conformance for `String` raw values: the raw value, and
// an unknown one is left to `init(from:)` to report. Such an enum adopts `JSONCodable` with no
// code of its own: `extension Filter: JSONCodable {}`.
extension JSONDecodable where Self: RawRepresentable, RawValue == String {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    guard let value = Self(rawValue: try json.string()) else { throw JSONDeclined() }
    self = value
  }
}

extension JSONEncodable where Self: RawRepresentable, RawValue == String {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) { json.write(rawValue) }
}

// MARK: - Optionals and arrays

// NB: as `Optional`'s Codable conformance: `null` is nil, anything else is the wrapped value.
extension Optional: JSONDecodable where Wrapped: JSONDecodable {
  @inlinable
  public init(json: JSONValueReader) throws(JSONDeclined) {
    self = json.isNull ? nil : try Wrapped(json: json)
  }
}

extension Optional: JSONEncodable where Wrapped: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    if let self { try self.encode(json: json) } else { json.writeNull() }
  }
}

extension Array: JSONDecodable where Element: JSONDecodable {
  // NB: inlinable, so that a caller that knows `Element` (``JSONObjectReader``'s
  // `decode(_:forKey:)`, inlined into a conformance) gets it specialized: each element read by
  // a direct call and stored in place. Unspecialized, every element went through
  // `Element`'s conformance and a generic `initialize(to:)`.
  @inlinable
  public init(json: JSONValueReader) throws(JSONDeclined) {
    if let array = try json.directArray() {
      // NB: a direct read does not know the count before the end: appended, the storage
      // sized once the first element's length is known (``JSONValueReader/directCapacity(_:)``).
      var elements: [Element] = []
      guard let first = try array.nextDirectElement() else {
        self = elements
        return
      }
      elements.append(try Element(json: first))
      if let second = try array.nextDirectElement() {
        elements.reserveCapacity(
          second.directCapacity(first, stride: MemoryLayout<Element>.stride))
        elements.append(try Element(json: second))
        while let element = try array.nextDirectElement() {
          elements.append(try Element(json: element))
        }
      }
      self = elements
      return
    }
    let count = try json.arrayCount()
    var declined = false
    // NB: written in place, not appended: `append` from unspecialized code would look the
    // array's type up at run time for every element.
    self.init(unsafeUninitializedCapacity: count) { (elements, initialized) in
      guard let first = elements.baseAddress else { return }
      var element = json.firstElement
      while initialized < count {
        do throws(JSONDeclined) {
          (first + initialized).initialize(to: try Element(json: element))
        } catch {
          declined = true
          return
        }
        initialized += 1
        element = element.nextElement
      }
    }
    if declined { throw JSONDeclined() }
  }
}

extension Array: JSONEncodable where Element: JSONEncodable {
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.array { (array) throws(JSONDeclined) in
      // NB: each element borrowed from the array's storage: `for element in self` copied each
      // one out, a retain and a release of every reference it holds (a todo's description).
      var declined = false
      withUnsafeBufferPointer { elements in
        for index in elements.indices {
          do throws(JSONDeclined) {
            try array.encode(elements[index])
          } catch {
            declined = true
            return
          }
        }
      }
      if declined { throw JSONDeclined() }
    }
  }
}
