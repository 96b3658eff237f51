import JSON

/// A value of a feature's state that several stores share, and that may outlive them
/// (upstream's `@Shared`):
///
///     struct State: Equatable, Codable {
///       @Shared(.host("dice.history")) var history: [Int] = []
///     }
///
///     state.$history.withLock { $0.insert(roll, at: 0) }
///
/// The state keeps the value itself, so versions, subscribers, patches and a test store's
/// assertions see it as any other field. A change made through ``withLock(_:)`` inside a store
/// reaches every other store holding a field of the same ``SharedKey``, at that store's next
/// turn (docs/kernel.md, "Shared state"). It encodes as its value.
///
/// The value a field starts with is the key's, if some store or the key's storage has one; else
/// the default written in the state (or the snapshot's).
@propertyWrapper
public struct Shared<Value: Codable & Sendable>: Sendable {
  /// Where the value lives.
  public let key: SharedKey
  @usableFromInline var value: Value

  public init(wrappedValue: Value, _ key: SharedKey) {
    self.key = key
    self.value = wrappedValue
  }

  /// A field of `key` starting from `value` (a custom `init(from:)` decodes the value, then
  /// makes the field: `_history = Shared(value: rolls, .host("dice.history"))`).
  public init(value: Value, _ key: SharedKey) {
    self.init(wrappedValue: value, key)
  }

  /// The value. Read-only: change it with ``withLock(_:)``, as upstream.
  public var wrappedValue: Value { value }

  /// The field itself, for ``withLock(_:)``: `state.$history.withLock { … }`.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value, and the key's: every store sharing the key takes the change at its next
  /// turn, and the key's storage saves it (``SharedKey/Kind``).
  ///
  /// Called outside a store's call (a test's expected state), changes this copy only.
  @discardableResult
  public mutating func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    let result = try operation(&value)
    DependencyContext.current?.sharedScope?.changed(key, to: value)
    return result
  }
}

/// A read-only view of a shared value (upstream's `SharedReader`): it follows the key's changes
/// as a ``Shared`` field does, but cannot change it.
@propertyWrapper
public struct SharedReader<Value: Codable & Sendable>: Sendable {
  public let key: SharedKey
  @usableFromInline var value: Value

  public init(wrappedValue: Value, _ key: SharedKey) {
    self.key = key
    self.value = wrappedValue
  }

  public init(value: Value, _ key: SharedKey) {
    self.init(wrappedValue: value, key)
  }

  /// A reader of `shared`'s key and value.
  public init(_ shared: Shared<Value>) {
    self.init(wrappedValue: shared.value, shared.key)
  }

  public var wrappedValue: Value { value }

  public var projectedValue: SharedReader<Value> { self }
}

// MARK: - Equality, coding, dumps

extension Shared: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.key == rhs.key && lhs.value == rhs.value
  }
}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.key == rhs.key && lhs.value == rhs.value
  }
}

extension Shared: Encodable {
  /// Encodes the value alone (the key is the feature's, not the wire's).
  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}

extension SharedReader: Encodable {
  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}

extension Shared: CustomReflectable {
  /// The value's mirror: dumps and test failures show the value.
  public var customMirror: Mirror { Mirror(reflecting: value) }
}

extension SharedReader: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: value) }
}

// MARK: - What a store reaches of a field

/// A shared field, as a store finds it in its state (``SharedFields``).
protocol SharedField {
  var key: SharedKey { get }
  var anyValue: any Sendable { get }
  /// Takes `value` if it is of the field's type; returns whether it did.
  mutating func take(_ value: any Sendable) -> Bool
  /// The value as JSON (nil if it cannot be encoded).
  func encodedValue() -> [UInt8]?
  /// A function that writes a value of the field's type as JSON (nil for another type or a
  /// value that cannot be encoded), made once per accessor.
  ///
  /// NB: the encoder prepared once, by the path the type has (``JSONEncodable`` or Codable):
  /// made per save, a `JSONEncoder` found that path again through run-time type lookups, ~9,000
  /// instructions for a short array (docs/benchmarks.md, "Dice on the direct path").
  static func valueEncoder() -> (any Sendable) -> [UInt8]?
  /// A value of the field's type decoded from `json`.
  static func decodeValue(_ json: [UInt8]) throws(JSONError) -> any Sendable
  /// Whether the field may change its key's value (a ``Shared``, not a ``SharedReader``).
  static var writes: Bool { get }
}

extension SharedField {
  /// The accessor of the field at `path` of `Root` (nil if `path` cannot write it).
  static func accessor<Root>(at path: AnyKeyPath, in _: Root.Type) -> SharedAccessor<Root>? {
    guard let path = path as? WritableKeyPath<Root, Self> else { return nil }
    return SharedAccessor(
      key: { $0[keyPath: path].key },
      value: { $0[keyPath: path].anyValue },
      take: { $0[keyPath: path].take($1) },
      encoded: { $0[keyPath: path].encodedValue() },
      encodeValue: valueEncoder(),
      decode: { (json) throws(JSONError) in try Self.decodeValue(json) },
      writes: writes)
  }
}

/// A shared field that holds its value (``Shared``, ``SharedReader``): what a store reaches of
/// it, the same for both.
protocol SharedValueField: SharedField {
  associatedtype Value: Codable & Sendable
  var value: Value { get set }
}

extension SharedValueField {
  var anyValue: any Sendable { value }
  mutating func take(_ value: any Sendable) -> Bool {
    guard let value = value as? Value else { return false }
    self.value = value
    return true
  }
  func encodedValue() -> [UInt8]? { try? JSONEncoder().encode(value) }
  static func valueEncoder() -> (any Sendable) -> [UInt8]? {
    let encode = JSONEncoder().encoding(Value.self)
    return { value in (value as? Value).flatMap { try? encode($0) } }
  }
  static func decodeValue(_ json: [UInt8]) throws(JSONError) -> any Sendable {
    try JSONDecoder().decode(Value.self, from: json)
  }
}

extension Shared: SharedValueField {
  static var writes: Bool { true }
}

extension SharedReader: SharedValueField {
  static var writes: Bool { false }
}

/// Reads and writes one shared field of a `Root` state.
struct SharedAccessor<Root> {
  let key: (Root) -> SharedKey
  let value: (Root) -> any Sendable
  let take: (inout Root, any Sendable) -> Bool
  let encoded: (Root) -> [UInt8]?
  let encodeValue: (any Sendable) -> [UInt8]?
  let decode: ([UInt8]) throws(JSONError) -> any Sendable
  let writes: Bool
}
