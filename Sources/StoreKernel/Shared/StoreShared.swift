import JSON

extension Store {
  /// The binding of the state's shared fields (nil: it has none).
  var sharedBinding: SharedBinding<State, Action>? {
    dependencyBox.sharedScope as? SharedBinding<State, Action>
  }

  /// Sets the shared fields of `key` to the value `json` encodes, as a change from outside the
  /// store (a journal's `shared` line, replayed).
  func applyShared(_ key: SharedKey, json: [UInt8]) throws(StoreError) {
    guard let binding = sharedBinding else {
      throw .json(JSONError(.shape, "the state has no shared field of key \"\(key)\""))
    }
    guard !core.isClosed else { throw .closed }
    var failure: JSONError?
    _ = hold {
      do throws(JSONError) {
        try binding.apply(key, json: json)
      } catch {
        failure = error
      }
    }
    if let failure { throw .json(failure) }
  }

  /// Calls `observer` with each change of a shared key the store takes from outside (another
  /// store, a file) and its value, on the thread holding the store: what a recording store
  /// journals.
  func observeShared(_ observer: @escaping (SharedKey, [UInt8]) -> Void) {
    locked { sharedBinding?.observer = observer }
  }
}

extension StoreOptions {
  /// The dependencies' change that gives a store ``sharedRegistry``, if set, or a registry of
  /// its own (``isolatesSharedState``).
  @usableFromInline
  var sharedDependencies: (inout Dependencies) -> Void {
    let isolated = isolatesSharedState
      ? SharedRegistry(performsFileIO: true, asksHost: true) : nil
    guard let registry = sharedRegistry ?? isolated else { return { _ in } }
    return { $0[SharedRegistryKey.self] = registry }
  }
}
