extension Reducer {
  /// Writes each action, and the change it made to the state field by field, to `sink`.
  ///
  ///     Counter()._printChanges()
  ///
  /// prints
  ///
  ///     received action:
  ///       Counter.Action.incrementButtonTapped
  ///       Counter.State(
  ///     -   count: 0
  ///     +   count: 1
  ///       )
  ///
  /// A debugging aid: it describes the whole state before and after every action.
  public func _printChanges(to sink: TraceSink = .standardOutput) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, sink: sink)
  }
}

/// The reducer of ``Reducer/_printChanges(to:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let sink: TraceSink

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = Dump.lines(of: state)
    let effect = base.reduce(into: &state, action: action)
    let after = Dump.lines(of: state)
    var message = "received action:\n"
    message += Dump.lines(of: action, qualifyEnum: true).map { "  " + $0 }.joined(separator: "\n")
    if let diff = Dump.diff(before, after) {
      message += "\n" + diff.joined(separator: "\n")
    } else {
      message += "\n  (No state changes)"
    }
    sink.write(message)
    return effect
  }
}

extension _PrintChangesReducer: Sendable where Base: Sendable {}
