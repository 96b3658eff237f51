/// How a parent's cancellation reaches its children's effects (docs/kernel.md, "Navigation").
///
/// An effect of a child (an `ifLet` or `ifCaseLet` child, a `forEach` or stack element) runs
/// under its ids inside the child's namespace (``CancelID/scoped(to:)``): the child's
/// `.cancel(id: x)` reaches its own `x` only. A parent's reaches its own `x` and, through
/// ``StoreCore/scopedIDs``, every child's `x` below it, as upstream.
extension StoreCore {
  /// Adds `id`, newly in use inside a child's namespace, to ``scopedIDs``.
  func indexScoped(_ id: CancelID) {
    if scopedIDs == nil { scopedIDs = [:] }
    scopedIDs?[id.namespacedParts.id, default: []].insert(id)
  }

  /// Removes `id` from ``scopedIDs`` once no node runs under it.
  func unindexScoped(_ id: CancelID) {
    guard !isRegistered(id) else { return }
    let given = id.namespacedParts.id
    scopedIDs?[given]?.remove(id)
    if scopedIDs?[given]?.isEmpty == true { scopedIDs?[given] = nil }
    if scopedIDs?.isEmpty == true { scopedIDs = nil }
  }

  /// Cancels, oldest first, the effects running under `id` inside the namespaces of the
  /// children of the feature whose effect cancels it (its `ifLet`, `ifCaseLet` and `forEach`
  /// children, and theirs), except those `region` runs inside; the effects under `id` itself
  /// are left to the caller.
  ///
  /// NB: as upstream, where an id names the effects of the feature that gives it and of its
  /// children: a parent's `.cancel(id: x)` (and `cancelInFlight`) reaches a child's `x`, a
  /// child's never reaches its parent's or its siblings'.
  func cancelChildren(of id: CancelID, sparingAncestorsOf region: EffectNode? = nil) {
    let (namespaces, given) = id.namespacedParts
    guard let candidates = scopedIDs?[given] else { return }
    var targets: [EffectNode] = []
    for candidate in candidates {
      let inner = candidate.namespacedParts.namespaces
      guard inner.count > namespaces.count, inner.starts(with: namespaces) else { continue }
      targets += nodes(for: candidate)
    }
    targets.sort { $0.sequence < $1.sequence }
    for target in targets where !(region.map(target.isAncestor(of:)) ?? false) {
      cancel(target)
    }
  }
}
