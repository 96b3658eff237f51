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

  /// The accessors of `Root`'s shared fields, in declaration order (empty: none).
  static func of<Root>(_ root: Root.Type) -> [SharedAccessor<Root>] {
    let id = ObjectIdentifier(root)
    if let found = cache.withLock({ $0[id] }) as? [SharedAccessor<Root>] { return found }
    var accessors: [SharedAccessor<Root>] = []
    var paths: [AnyKeyPath] = []
    collect(Root.self, prefix: nil, depth: 0, into: &paths)
    for path in paths {
      guard let field = type(of: path).valueType as? any SharedField.Type,
        let accessor = field.accessor(at: path, in: Root.self)
      else { continue }
      accessors.append(accessor)
    }
    cache.withLock { $0[id] = accessors }
    return accessors
  }

  /// `_EachFieldOptions.ignoreUnknown` (a `static var` of the standard library, which strict
  /// concurrency refuses to read).
  private static let ignoreUnknown = _EachFieldOptions(rawValue: 1 << 1)

  /// The paths from the root to each shared field under `type` (reached through `prefix`).
  private static func collect(
    _ type: Any.Type, prefix: AnyKeyPath?, depth: Int, into paths: inout [AnyKeyPath]
  ) {
    // NB: a few levels are enough for a feature's nested states; the bound also stops a walk
    // through a recursive type.
    guard depth < 6 else { return }
    func visit<T>(_: T.Type) {
      _ = _forEachFieldWithKeyPath(of: T.self, options: ignoreUnknown) { _, path in
        let full: AnyKeyPath? = prefix.map { $0.appending(path: path) } ?? path
        guard let full else { return true }
        let valueType = Swift.type(of: path).valueType
        if valueType is any SharedField.Type {
          paths.append(full)
        } else if descends(into: valueType) {
          collect(valueType, prefix: full, depth: depth + 1, into: &paths)
        }
        return true
      }
    }
    _openExistential(type, do: visit)
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
