import JSON

/// State whose fields a host may set by name, through a ``BindingAction``.
///
///     extension Search.State: BindableState {
///       static let bindableFields = BindableFields<Self>()
///         .field("query", \.query)
///         .field("includeArchived", \.includeArchived)
///     }
///
/// Only the fields listed can be set: a host sending any other key gets a shape error, and the
/// state is unchanged.
public protocol BindableState {
  static var bindableFields: BindableFields<Self> { get }
}

/// The fields of `Root` a host may set by name, each with its value type.
public struct BindableFields<Root>: Sendable {
  struct Field: @unchecked Sendable {
    // NB: `@unchecked` for the key path, an immutable value not declared Sendable.
    let keyPath: AnyKeyPath
    let decode: @Sendable (KeyedDecodingContainer<BindingCodingKey>) throws -> BindingAction<Root>
  }

  private(set) var fields: [(name: String, field: Field)] = []

  public init() {}

  /// Adds the field `name`, stored at `keyPath`.
  public func field<Value: Codable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) -> BindableFields {
    let path = UncheckedKeyPath(keyPath)
    var copy = self
    copy.fields.append(
      (
        name,
        Field(keyPath: keyPath) { container in
          let value = try container.decode(Value.self, forKey: .value)
          return BindingAction(key: name, keyPath: path.keyPath, value: value)
        }
      ))
    return copy
  }

  /// Adds the fields of a nested bindable state under `name`: `"settings.volume"`.
  public func nested<Child: BindableState & SendableMetatype>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Child>
  ) -> BindableFields {
    let path = UncheckedKeyPath(keyPath)
    var copy = self
    for (childName, childField) in Child.bindableFields.fields {
      let fullPath = UncheckedAnyKeyPath(
        (keyPath as AnyKeyPath).appending(path: childField.keyPath) ?? keyPath)
      copy.fields.append(
        (
          name + "." + childName,
          Field(keyPath: fullPath.keyPath) { container in
            let child = try childField.decode(container)
            return BindingAction(
              key: name + "." + child.key, keyPath: fullPath.keyPath, value: child.value,
              set: { root in child.set(&root[keyPath: path.keyPath]) },
              isEqual: child.isEqualValue, encode: child.encodeValue)
          }
        ))
    }
    return copy
  }

  func field(named name: String) -> Field? {
    fields.first { $0.name == name }?.field
  }

  func name(of keyPath: AnyKeyPath) -> String? {
    fields.first { $0.field.keyPath == keyPath }?.name
  }

  var names: [String] { fields.map(\.name) }
}

/// Sets one field of `Root`: what a host sends to edit a text field, a toggle, a slider.
///
///     {"binding":{"set":{"key":"query","value":"bos"}}}
///
/// Made in Swift with ``set(_:_:)``: `.binding(.set(\.query, "bos"))`; matched with its key path:
/// `case .binding(\.query):`.
public struct BindingAction<Root>: @unchecked Sendable, CustomStringConvertible {
  // NB: `@unchecked` for the key path, an immutable value not declared Sendable.
  /// The field's name, as the host gives it.
  public let key: String
  /// Where the field is.
  public let keyPath: AnyKeyPath
  /// The new value.
  public let value: any Sendable
  let set: @Sendable (inout Root) -> Void
  let isEqualValue: @Sendable (any Sendable) -> Bool
  let encodeValue: @Sendable (inout KeyedEncodingContainer<BindingCodingKey>) throws -> Void

  init(
    key: String, keyPath: AnyKeyPath, value: any Sendable,
    set: @escaping @Sendable (inout Root) -> Void,
    isEqual: @escaping @Sendable (any Sendable) -> Bool,
    encode: @escaping @Sendable (inout KeyedEncodingContainer<BindingCodingKey>) throws -> Void
  ) {
    self.key = key
    self.keyPath = keyPath
    self.value = value
    self.set = set
    self.isEqualValue = isEqual
    self.encodeValue = encode
  }

  init<Value: Codable & Equatable & Sendable>(
    key: String, keyPath: WritableKeyPath<Root, Value>, value: Value
  ) {
    let path = UncheckedKeyPath(keyPath)
    self.init(
      key: key, keyPath: keyPath, value: value,
      set: { $0[keyPath: path.keyPath] = value },
      isEqual: { ($0 as? Value) == value },
      encode: { try $0.encode(value, forKey: .value) })
  }

  /// Sets the field at `keyPath` to `value`.
  public static func set<Value: Codable & Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> BindingAction {
    let name = (Root.self as? any BindableState.Type).flatMap { fieldName(of: keyPath, in: $0) }
    return BindingAction(key: name ?? "\(keyPath)", keyPath: keyPath, value: value)
  }

  /// Applies the action to `root`.
  public func apply(to root: inout Root) { set(&root) }

  public var description: String { "set(\(key), \(value))" }

  /// Matches a binding action by its field: `case .binding(\.query):`.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, Value>, action: BindingAction
  ) -> Bool {
    action.keyPath == keyPath
  }
}

private func fieldName(of keyPath: AnyKeyPath, in type: any BindableState.Type) -> String? {
  func open<T: BindableState>(_: T.Type) -> String? { T.bindableFields.name(of: keyPath) }
  return open(type)
}

/// NB: carries a key path into `@Sendable` closures; key paths are immutable.
struct UncheckedKeyPath<Root, Value>: @unchecked Sendable {
  let keyPath: WritableKeyPath<Root, Value>
  init(_ keyPath: WritableKeyPath<Root, Value>) { self.keyPath = keyPath }
}

/// NB: carries a key path into `@Sendable` closures; key paths are immutable.
struct UncheckedAnyKeyPath: @unchecked Sendable {
  let keyPath: AnyKeyPath
  init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

@usableFromInline
enum BindingCodingKey: String, CodingKey {
  case set, key, value
}

extension BindingAction: Equatable {
  public static func == (lhs: BindingAction, rhs: BindingAction) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.key == rhs.key && lhs.isEqualValue(rhs.value)
  }
}

extension BindingAction: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var outer = encoder.container(keyedBy: BindingCodingKey.self)
    var inner = outer.nestedContainer(keyedBy: BindingCodingKey.self, forKey: .set)
    try inner.encode(key, forKey: .key)
    try encodeValue(&inner)
  }
}

extension BindingAction: Decodable where Root: BindableState {
  public init(from decoder: any Decoder) throws {
    let outer = try decoder.container(keyedBy: BindingCodingKey.self)
    let inner = try outer.nestedContainer(keyedBy: BindingCodingKey.self, forKey: .set)
    let key = try inner.decode(String.self, forKey: .key)
    guard let field = Root.bindableFields.field(named: key) else {
      let known = Root.bindableFields.names.map { "\"\($0)\"" }.joined(separator: ", ")
      throw DecodingError.dataCorruptedError(
        forKey: .key, in: inner,
        debugDescription: "no bindable field \(JSONError.quoted(key)) (the fields are: \(known))")
    }
    self = try field.decode(inner)
  }
}

/// An action enum with a case for binding actions: `case binding(BindingAction<State>)`.
public protocol BindableAction {
  associatedtype State
  /// The binding case: satisfied by `case binding(BindingAction<State>)`.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action, if this is one.
  ///
  /// NB: the default reflects on the value (a few hundred nanoseconds per action through a
  /// ``BindingReducer``); write it out with `if case` where that matters.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    let mirror = Mirror(reflecting: self)
    guard mirror.displayStyle == .enum, let child = mirror.children.first else { return nil }
    return child.value as? BindingAction<State>
  }
}

/// Applies binding actions to the state.
///
///     var body: some Reducer<State, Action> {
///       BindingReducer()
///       Reduce { state, action in
///         switch action {
///         case .binding(\.query): return .send(.search)
///         case .binding: return .none
///         …
///         }
///       }
///     }
public struct BindingReducer<State, Action: BindableAction>: Reducer, Sendable
where Action.State == State {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.apply(to: &state)
    return .none
  }
}
