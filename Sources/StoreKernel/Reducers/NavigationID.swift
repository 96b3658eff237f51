/// Identifies one presentation of a child (an `ifLet` child, an `ifCaseLet` case, a `forEach`
/// element): its effects run under it, and are cancelled through it when the child goes away.
@usableFromInline
struct NavigationID: Hashable, Sendable {
  /// Where in the parent: the operator's key path or case path.
  let site: CancelID
  /// Which child: its id (`Identifiable` state or `forEach` element), or nil.
  let identity: CancelID?
  /// Whether the child can dismiss itself (``DismissEffect``): a presented child or a stack
  /// element.
  let isDismissible: Bool

  @usableFromInline
  init(site: CancelID, identity: CancelID?, isDismissible: Bool = false) {
    self.site = site
    self.identity = identity
    self.isDismissible = isDismissible
  }

  @usableFromInline
  var cancelID: CancelID { CancelID(self) }
}

extension Effect {
  /// Cancels the effects of the child presented as `before` if it is gone (or replaced) `after`.
  @inlinable
  static func dismissal(from before: NavigationID?, to after: NavigationID?) -> Effect {
    guard let before, before != after else { return .none }
    return .cancel(id: before.cancelID)
  }

  /// Merges into this effect the cancellation of the effects of each child in `before` that is
  /// gone `after` (a `forEach` element removed, a stack element popped).
  ///
  /// NB: ids are compared by buffer identity first (Array's ==), so an action that does not touch
  /// the ids costs O(1) here however many there are.
  @inlinable
  func dismissing<ID: Hashable>(
    _ before: [ID], keeping after: [ID], by navigationID: (ID) -> NavigationID
  ) -> Effect {
    guard before != after else { return self }
    let remaining = Set(after)
    var effect = self
    for id in before where !remaining.contains(id) {
      effect = effect.merge(with: .cancel(id: navigationID(id).cancelID))
    }
    return effect
  }
}

/// The id of `value` if it is `Identifiable`, or if it is an enum in a case whose payload is
/// (`case child(Child.State)` of an enum destination), as upstream.
@usableFromInline
func identity<Value>(of value: Value) -> CancelID? {
  if let identifiable = value as? any Identifiable { return cancelID(of: identifiable) }
  // NB: the payload's type is looked up first (once per case), so that the payload of a case
  // that has no id is not copied out.
  guard let payloadType = EnumReflection.payloadType(of: value)?.type,
    payloadType is any Identifiable.Type,
    let payload = EnumReflection.payloadValue(of: value) as? any Identifiable
  else { return nil }
  return cancelID(of: payload)
}

private func cancelID<T: Identifiable>(of value: T) -> CancelID? {
  CancelID(unchecked: AnyHashable(value.id))
}

extension Optional {
  /// Runs `body` on the wrapped value in place (nil: not run).
  ///
  /// NB: takes the value out first, so that it is uniquely referenced while `body` mutates it
  /// (no copy-on-write of its collections), and puts it back after.
  @usableFromInline
  mutating func modify<R>(_ body: (inout Wrapped) -> R) -> R? {
    guard var wrapped = self else { return nil }
    self = nil
    defer { self = wrapped }
    return body(&wrapped)
  }
}
