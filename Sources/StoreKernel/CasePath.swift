/// A path to one case of an enum: how to embed a value in the case, and extract it back.
///
/// The macro-free stand-in for upstream's `\.child` case key paths. Spelled out:
///
///     AnyCasePath<Action, Child.Action>(
///       embed: Action.child,
///       extract: { if case let .child(action) = $0 { action } else { nil } }
///     )
///
/// or, shortest, from the case alone (extraction then uses reflection, about a microsecond):
///
///     AnyCasePath(Action.child)
///
/// Operators that take a case path also take the bare case (`action: Action.child`).
public struct AnyCasePath<Root, Value>: Sendable {
  @usableFromInline let _embed: @Sendable (Value) -> Root
  @usableFromInline let _extract: @Sendable (Root) -> Value?

  /// A case path from its two directions.
  @inlinable
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// A case path from the case's constructor (`Action.child`); extraction reflects on the value.
  ///
  /// NB: a value is extracted when reflection finds a payload of type `Value` and embedding that
  /// payload again gives the same case name, so cases that share a payload type stay apart.
  /// Cases without a payload cannot be told apart this way: spell those out.
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    self._embed = embed
    self._extract = { root in
      guard let (label, payload) = enumPayload(of: root),
        let value = payload as? Value,
        enumPayload(of: embed(value))?.label == label
      else { return nil }
      return value
    }
  }

  @inlinable
  public func embed(_ value: Value) -> Root { _embed(value) }

  @inlinable
  public func extract(from root: Root) -> Value? { _extract(root) }
}

/// The case name and payload of an enum value with a payload.
private func enumPayload(of value: Any) -> (label: String, payload: Any)? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let child = mirror.children.first,
    let label = child.label
  else { return nil }
  return (label, child.value)
}
