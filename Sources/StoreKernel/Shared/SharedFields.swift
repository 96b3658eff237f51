@_spi(Reflection) import Swift

/// The shared fields of a state type, found once per type by reflection: the state's stored
/// properties and, recursively, those of its struct-typed properties (not inside optionals,
/// collections, enums or classes).
///
/// NB: found, not declared: a feature writes `@Shared(…) var x`, as upstream, and nothing more.
/// The walk costs once per state type (cached); a state with no shared field costs its store
/// nothing after that.
enum SharedFields {
  // NB: `nonisolated(unsafe)`: read and written only under its own lock.
  nonisolated(unsafe) private static let cache = Guarded<[ObjectIdentifier: Any]>.make([:])

  /// `_EachFieldOptions.ignoreUnknown` (a `static var` of the standard library, which strict
  /// concurrency refuses to read).
  private static let ignoreUnknown = _EachFieldOptions(rawValue: 1 << 1)

  /// The accessors of `Root`'s shared fields, in declaration order (empty: none).
  static func of<Root>(_ root: Root.Type) -> [SharedAccessor<Root>] {
    let id = ObjectIdentifier(root)
    if let found = cache.withLock({ $0[id] }) as? [SharedAccessor<Root>] { return found }
    let accessors = collect(Root.self, depth: 0)
    cache.withLock { $0[id] = accessors }
    return accessors
  }

  /// The accessors of the shared fields under `Root`.
  ///
  /// NB: a nested field is reached through its parent's key path and then its own, composed
  /// as functions: a key path appended to one `_forEachFieldWithKeyPath` made (offset-based)
  /// read out of bounds.
  private static func collect<Root>(_: Root.Type, depth: Int) -> [SharedAccessor<Root>] {
    // NB: a few levels are enough for a feature's nested states; the bound also stops a walk
    // through a recursive type.
    guard depth < 6 else { return [] }
    var accessors: [SharedAccessor<Root>] = []
    _ = _forEachFieldWithKeyPath(of: Root.self, options: ignoreUnknown) { _, path in
      let valueType = type(of: path).valueType
      if let field = valueType as? any SharedField.Type {
        if let accessor = field.accessor(at: path, in: Root.self) { accessors.append(accessor) }
      } else if descends(into: valueType) {
        func nested<Value>(_: Value.Type) {
          guard let outer = path as? WritableKeyPath<Root, Value> else { return }
          accessors += collect(Value.self, depth: depth + 1).map { $0.lifted(through: outer) }
        }
        _openExistential(valueType, do: nested)
      }
      return true
    }
    return accessors
  }

  /// Whether a field of this type may hold shared fields: a struct of the program's own, not
  /// one of the standard library's (whose stored properties are its storage). Enums and tuples
  /// have no fields to walk; classes are skipped.
  private static func descends(into type: Any.Type) -> Bool {
    guard !(type is AnyClass) else { return false }
    let name = _typeName(type, qualified: true)
    return !name.hasPrefix("Swift.") && !name.hasPrefix("JSON.")
  }
}

extension SharedAccessor {
  /// This accessor of a field of `Root`, reached from `Outer` through `outer`.
  func lifted<Outer>(through outer: WritableKeyPath<Outer, Root>) -> SharedAccessor<Outer> {
    let (key, value, take, encoded) = (self.key, self.value, self.take, self.encoded)
    return SharedAccessor<Outer>(
      key: { key($0[keyPath: outer]) },
      value: { value($0[keyPath: outer]) },
      take: { take(&$0[keyPath: outer], $1) },
      encoded: { encoded($0[keyPath: outer]) },
      encodeValue: encodeValue, decode: decode, writes: writes)
  }
}
