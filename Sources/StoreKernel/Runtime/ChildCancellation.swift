/// How a parent's cancellation reaches its children's effects (docs/kernel.md, "Navigation").
///
/// An effect of a child (an `ifLet` or `ifCaseLet` child, a `forEach` or stack element) runs
/// under its ids inside the child's namespace (``CancelID/scoped(to:)``): the child's
/// `.cancel(id: x)` reaches its own `x` only. A parent's reaches its own `x` and, through
/// ``StoreCore/scopedIDs``, every child's `x` below it, as upstream.
extension StoreCore {
  /// Adds `id`, newly in use inside a child's namespace, to ``scopedIDs``.
  ///
  /// NB: never inlined, nor are the two below: the store's hot paths (registering and
  /// unregistering a cancellable effect, `cancelInFlight`) only test whether to call them, and
  /// stay small enough to be inlined where they are used (docs/benchmarks.md, "Issue 17's
  /// effect round trip").
  @inline(never)
  func indexScoped(_ id: CancelID) {
    if scopedIDs == nil { scopedIDs = [:] }
    scopedIDs?[id.namespacedParts.id, default: []].insert(id)
  }

  /// Removes `id` from ``scopedIDs`` once no node runs under it.
  @inline(never)
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
  @inline(never)
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

extension CancelID {
  /// This identifier as an effect running at `node` gives it: inside the namespace of the
  /// innermost child (an `ifLet` child, a `forEach` element…) whose effects `node` runs in, as
  /// that child's `.cancellable(id:)` would be; itself outside every child.
  ///
  /// NB: for `withTaskCancellation(id:)` and `Task.cancel(id:)`, which a task calls: a child's
  /// namespace is the id of the region of its effects (a ``NavigationID``, inside the
  /// namespaces of the children around it).
  func inNamespace(of node: EffectNode) -> CancelID {
    var region = node.parent
    while let current = region {
      if let namespace = current.cancelID, namespace.namesChild {
        let (outer, child) = namespace.namespacedParts
        return CancelID(Scoped(namespaces: outer + [child], id: self))
      }
      region = current.parent
    }
    return self
  }

  /// Whether this is the namespace of a child's effects (however deep).
  var namesChild: Bool { navigationID != nil }

  /// The child this identifier is the namespace of, if it is one (however deep).
  var navigationID: NavigationID? {
    guard let box = namespacedParts.id.box,
      ObjectIdentifier(type(of: box)) == ObjectIdentifier(TypedCancelIDBox<NavigationID>.self)
    else { return nil }
    return unsafeDowncast(box, to: TypedCancelIDBox<NavigationID>.self).value
  }
}
