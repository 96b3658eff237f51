/// The oldest node running under each cancellation id (see `StoreCore.cancellables`): the one id
/// in use in a slot of its own, the others in a dictionary.
///
///     var registry = CancelRegistry()
///     registry.updateValue(node, forKey: id)   // nil: the id was free (node.cancelID == id)
///     registry[id]                             // node
///     registry.remove(node, forKey: id)        // registry[id] is nil (if node was there)
///
/// NB: a store usually has at most one id in use at a time (a fetch replacing the one in
/// flight, a debounce): its node sits in `first`, found by comparing the id it carries, with no
/// hashing. The two `Dictionary` probes of each cancellable effect (registering and
/// unregistering it) cost ~400 instructions (docs/benchmarks.md: the effect round trip).
struct CancelRegistry {
  /// The node of one id (its `cancelID`), while no other id has one in `others` or while it was
  /// put here first.
  ///
  /// NB: not retained: a node is registered only while it runs (its region keeps it) and is
  /// removed before it finishes. Compared and read without a retain either (docs/benchmarks.md: the
  /// effect round trip).
  private var first: Unmanaged<EffectNode>?
  /// The other ids' nodes; nil while there are none.
  ///
  /// NB: nil rather than empty: a look at an empty dictionary retained and released its (shared,
  /// empty) storage, ~50 instructions per `.cancellable(id:cancelInFlight: true)` request (issue
  /// 17: the effect round trip).
  private var others: [CancelID: EffectNode]?

  init() {}

  /// Whether `node` runs under `id`.
  ///
  /// NB: the identities first (two words, nothing copied): the same box or the same type is
  /// the same id. Only ids of other identities are compared as values (`cancelID` copied).
  @inline(__always)
  private static func isUnder(_ node: Unmanaged<EffectNode>, _ id: CancelID, identity: UInt)
    -> Bool
  {
    node._withUnsafeGuaranteedRef { $0.cancelIdentity == identity || $0.cancelID == id }
  }

  /// The node under `id`, or nil.
  subscript(id: CancelID) -> EffectNode? {
    if let first, Self.isUnder(first, id, identity: id.identity) {
      return first.takeUnretainedValue()
    }
    return others?[id]
  }

  /// Puts `node` under `id`, which must be `node.cancelID`; returns the node it replaced, if any.
  @discardableResult
  mutating func updateValue(_ node: EffectNode, forKey id: CancelID) -> EffectNode? {
    if let first {
      if Self.isUnder(first, id, identity: id.identity) {
        self.first = Unmanaged.passUnretained(node)
        return first.takeUnretainedValue()
      }
    } else if others == nil {
      // NB: only while `others` is empty, where `id` cannot be: an id is in one place only.
      first = Unmanaged.passUnretained(node)
      return nil
    }
    if others == nil { others = [:] }
    return others?.updateValue(node, forKey: id) ?? nil
  }

  /// Removes `node` from under `id`, if it is the node there.
  ///
  /// NB: compared where it is, not taken out and put back (a retain and two releases).
  mutating func remove(_ node: EffectNode, forKey id: CancelID) {
    if first?.toOpaque() == Unmanaged.passUnretained(node).toOpaque() {
      first = nil
    } else if others?[id] === node {
      others?[id] = nil
      if others?.isEmpty == true { others = nil }
    }
  }
}
