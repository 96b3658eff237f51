/// A path to one case of an enum: how to embed a value in the case, and extract it back.
///
/// The macro-free stand-in for upstream's `\.child` case key paths. Spelled out:
///
///     AnyCasePath<Action, Child.Action>(
///       embed: Action.child,
///       extract: { if case let .child(action) = $0 { action } else { nil } }
///     )
///
/// or, shortest, from the case alone:
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
  /// NB: a payload is extracted when it is of type `Value` and embedding it again gives the same
  /// case, so cases that share a payload type stay apart. The runtime's metadata answers in tens
  /// of nanoseconds for plain enums (see `EnumReflection`); anything else goes through `Mirror`.
  /// Cases without a payload cannot be extracted this way: spell those out.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    self._embed = embed
    self._extract = { root in
      switch EnumReflection.payload(of: root, as: Value.self) {
      case .some(.none):
        return nil
      case let .some(.some(value)):
        return EnumReflection.tag(of: embed(value)) == EnumReflection.tag(of: root) ? value : nil
      case .none:
        return reflectivelyExtract(from: root, embed: embed)
      }
    }
  }

  @inlinable
  public func embed(_ value: Value) -> Root { _embed(value) }

  @inlinable
  public func extract(from root: Root) -> Value? { _extract(root) }
}

/// Extracts a payload with `Mirror`: slow, but right for any enum.
@usableFromInline
func reflectivelyExtract<Root, Value>(from root: Root, embed: (Value) -> Root) -> Value? {
  guard let (label, payload) = enumPayload(of: root), let value = payload as? Value,
    enumPayload(of: embed(value))?.label == label
  else { return nil }
  return value
}

/// The case name and payload of an enum value with a payload.
private func enumPayload(of value: Any) -> (label: String, payload: Any)? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let child = mirror.children.first,
    let label = child.label
  else { return nil }
  return (label, child.value)
}
