import Synchronization

/// Cancellation: the registry of cancellation ids, and cancelling regions, tasks, timers and
/// requests.
extension StoreCore {
  // MARK: - Cancellation (holder)

  func spawn(
    id: CancelID, cancelInFlight: Bool, from leaf: TaskLeaf,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let parent = leaf.parent ?? root
    let id = id.inNamespace(of: leaf)
    if cancelInFlight { cancel(id: id, sparingAncestorsOf: parent) }
    let region = Region(id: id)
    attach(region, to: parent)
    region.bodyDone = true
    register(region, id: id)
    let child = TaskLeaf()
    attach(child, to: region)
    child.origin = leaf.origin
    child.place = leaf.place
    child.host = self
    let task = Task(executorPreference: executor) { [self] in
      await TaskLeaf.$current.withValue(child) { await operation() }
      self.onHolder { self.finish(child) }
    }
    child.task = task
    if parent.isCancelled || leaf.isCancelled || isClosed { cancel(child) }
    return task
  }

  func cancelFromEffect(id: CancelID, from leaf: TaskLeaf) {
    onHolder { [self] in self.cancel(id: id.inNamespace(of: leaf)) }
  }

  func dismissFromEffect(_ leaf: TaskLeaf) {
    onHolder { [self] in
      guard leaf.parent != nil, !leaf.isCancelled, !self.isClosed,
        !leaf.isInsideDismissibleChild
      else { return }
      if let rootDismissal = self.rootDismissal { return rootDismissal() }
      // NB: what a host sees of it: the request "dismiss" (docs/wire-format.md).
      self.startAtRoot(Effect<Action>.fireAndForget("dismiss"))
    }
  }

  /// Adds `node` (a region, or a lone request) as the newest node running under `id`.
  func register(_ node: EffectNode, id: CancelID) {
    node.cancelID = id
    // NB: one probe when the id is new (the usual case: a lookup, then an insert, was two).
    guard let oldest = cancellables.updateValue(node, forKey: id) else {
      if id.isScoped { indexScoped(id) }
      return
    }
    cancellables.updateValue(oldest, forKey: id)
    var newest = oldest
    while let next = newest.nextWithSameID { newest = next }
    newest.nextWithSameID = node
    node.previousWithSameID = newest
  }

  func unregister(_ node: EffectNode, id: CancelID) {
    let next = node.nextWithSameID
    if let previous = node.previousWithSameID {
      previous.nextWithSameID = next
      next?.previousWithSameID = previous
    } else if let next {
      if cancellables[id] === node {
        next.previousWithSameID = nil
        cancellables.updateValue(next, forKey: id)
      }
    } else {
      cancellables.remove(node, forKey: id)
      if id.isScoped { unindexScoped(id) }
    }
    node.nextWithSameID = nil
    node.previousWithSameID = nil
  }

  /// Whether some node runs under `id`.
  func isRegistered(_ id: CancelID) -> Bool { cancellables[id] != nil }

  /// The nodes (regions, lone requests) running under `id`, oldest first.
  func nodes(for id: CancelID) -> [EffectNode] {
    var nodes: [EffectNode] = []
    var node = cancellables[id]
    while let current = node {
      nodes.append(current)
      node = current.nextWithSameID
    }
    return nodes
  }

  func cancel(id: CancelID) {
    if scopedIDs != nil { cancelChildren(of: id) }
    guard let oldest = cancellables[id] else { return }
    // NB: a copy of the chain first (cancelling a region may finish others of the id), except
    // for the usual single region.
    guard oldest.nextWithSameID != nil else { return cancel(oldest) }
    for region in nodes(for: id) { cancel(region) }
  }

  /// Cancels the effects running under `id` except those `region` runs inside: what
  /// `cancelInFlight` does.
  ///
  /// NB: `.cancellable(id: x, cancelInFlight: true)` nested in another of the same id would
  /// otherwise cancel the effect it is part of, and deliver nothing (upstream delivers once).
  func cancel(id: CancelID, sparingAncestorsOf region: EffectNode) {
    if scopedIDs != nil { cancelChildren(of: id, sparingAncestorsOf: region) }
    guard let oldest = cancellables[id] else { return }
    guard oldest.nextWithSameID != nil else {
      if !oldest.isAncestor(of: region) { cancel(oldest) }
      return
    }
    for target in nodes(for: id) where !target.isAncestor(of: region) { cancel(target) }
  }

  func cancel(_ node: EffectNode) {
    switch node {
    case let region as Region:
      guard !region.isCancelled else { return }
      region.isCancelled = true
      // NB: one child (a debounce's timer, a request) is cancelled without a copy of the list.
      if let only = region.firstChild, only.next == nil {
        cancel(only)
      } else {
        for child in region.orderedChildren { cancel(child) }
      }
    case let leaf as TaskLeaf:
      guard !leaf.isCancelled else { return }
      leaf.isCancelled = true
      // NB: the leaf finishes when its task returns (at its next job); `send` is already inert.
      leaf.task?.cancel()
    case let leaf as TimerLeaf:
      if let ticket = leaf.timer { _ = clock.madeTimers?.cancel(ticket) }
      finish(leaf)
    case let leaf as HostRequest<Action>:
      // NB: a request that has finished is not cancelled again (no cancel notice for it).
      guard leaf.parent != nil else { return }
      report("request #\(leaf.id) \"\(leaf.name)\" cancelled")
      if queuedRequests {
        // NB: in pull mode the id stays answerable until the host takes the notice (tca.h): the
        // request stays in the table, kept by it, and an answer to it is checked and accepted
        // as any, then dropped (`apply`: the leaf has finished); taking the notice ends it there
        // (`endCancelled`). A host answering before it looks at its notices gets no error.
        withRequests { table in table.cancelledWaiting[leaf.id] = leaf }
        inbox.push(notice: .cancelled(leaf.id))
      } else {
        withRequests { table in table.finish(leaf) }
        if hasHandler { post(.cancel(leaf.id)) }
      }
      finish(leaf)
    default:
      break
    }
  }

  /// Pull mode: ends the requests cancelled whose notices the host has just taken (see
  /// `cancel`): from now on they refuse answers.
  ///
  /// NB: what it adds to a take that brings no cancellation is a look at each notice's kind.
  func endCancelled(in notices: [HostRequestNotice]) {
    guard notices.contains(where: \.isCancellation) else { return }
    let ended = withRequests { table -> [HostRequest<Action>] in
      var ended: [HostRequest<Action>] = []
      for case let .cancelled(id) in notices {
        guard let leaf = table.cancelledWaiting.removeValue(forKey: id) else { continue }
        table.finish(leaf)
        ended.append(leaf)
      }
      return ended
    }
    // NB: let go outside the lock.
    _ = consume ended
  }

  /// The leaves still running, for a test store's failure message.
  var liveLeaves: [EffectNode] { liveLeaves(in: [root]) }

  /// The leaves still running inside `nodes` (or among them), oldest first.
  func liveLeaves(in nodes: [EffectNode]) -> [EffectNode] {
    var leaves: [EffectNode] = []
    var regions: [Region] = []
    for node in nodes {
      if let region = node as? Region { regions.append(region) } else { leaves.append(node) }
    }
    while let region = regions.popLast() {
      for child in region.orderedChildren {
        if let child = child as? Region { regions.append(child) } else { leaves.append(child) }
      }
    }
    return leaves.sorted { $0.sequence < $1.sequence }
  }

}
