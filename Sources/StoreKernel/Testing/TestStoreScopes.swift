extension TestStore {
  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then sets it back.
  ///
  ///     store.withExhaustivity(.off) {
  ///       store.send(.refresh)
  ///       store.skipReceivedActions(strict: false)
  ///     }
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try operation()
  }

  /// Runs `operation` with the dependencies changed by `updateValuesForOperation`: the actions
  /// reduced meanwhile (sent, received, fed back by the clock or an answer) and the effects they
  /// return see the change, even once the operation has ended; other actions do not.
  ///
  ///     store.withDependencies {
  ///       $0.date = .constant(Timestamp(millisecondsSince1970: 1_000))
  ///     } operation: {
  ///       store.send(.addTodoButtonTapped) { … }
  ///     }
  public func withDependencies<R>(
    _ updateValuesForOperation: @escaping (_ dependencies: inout Dependencies) -> Void,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = overrides.update
    overrides.update = { dependencies in
      previous?(&dependencies)
      updateValuesForOperation(&dependencies)
    }
    defer { overrides.update = previous }
    return try operation()
  }
}

/// The dependencies `TestStore.withDependencies` sets for what is reduced meanwhile.
final class DependencyOverrides: @unchecked Sendable {
  // NB: touched only by the test's thread (which holds the store while reducing).
  var update: ((inout Dependencies) -> Void)?
}
