/// The actions of a presented child, as upstream's: the child's own actions, or its dismissal
/// (the host's back button or swipe, or the child's ``DismissEffect``).
///
///     enum Action {
///       case destination(PresentationAction<Destination.Action>)
///     }
///
/// Wire form: `{"destination":"dismiss"}` and
/// `{"destination":{"presented":{"history":"closeButtonTapped"}}}` (with the synthesized forms
/// `{"dismiss":{}}` and `{"presented":{"_0":…}}`).
public enum PresentationAction<Action> {
  /// Dismisses the child: ``Reducer/ifLet(_:action:destination:)`` sets its state to nil after
  /// the parent has seen this action, and cancels its effects.
  case dismiss
  /// An action of the presented child. Ignored when nothing is presented.
  ///
  /// NB: indirect, as upstream, so that a feature can present itself (its actions then hold
  /// their own type).
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}
