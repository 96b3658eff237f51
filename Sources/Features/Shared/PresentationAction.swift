import StoreKernel

/// The actions of a presented child (a sheet, a pushed screen), as upstream's: the child's own
/// actions, or the host's dismissal of it (a back button, a swipe).
///
///     {"destination":"dismiss"}
///     {"destination":{"presented":{"history":"closeButtonTapped"}}}
///
/// The parent's reducer sets its optional destination state to nil on `.dismiss`; the `ifLet`
/// that runs the child then cancels the child's effects.
public enum PresentationAction<Action> {
  case dismiss
  case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}

extension RandomAccessCollection where Index == Int {
  /// The element at `index`, or nil when it is out of range: for positions a host sends.
  subscript(safe index: Int) -> Element? {
    index >= startIndex && index < endIndex ? self[index] : nil
  }
}
