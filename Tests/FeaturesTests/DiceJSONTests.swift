import Features
import JSON
import Testing

// Dice's direct action path (DiceActionJSON.swift) against its `init(from:)`: the same value or
// the same error for every form a host sends, and the direct path taken for each valid one.

private let diceActions: [Example<Dice.Action>] = [
  Example(#""rollButtonTapped""#, .direct(.view(.rollButtonTapped))),
  Example(#"{"rollButtonTapped":{}}"#, .direct(.view(.rollButtonTapped))),
  Example(#"{"view":"rollButtonTapped"}"#, .direct(.view(.rollButtonTapped))),
  Example(#""undoLastRoll""#, .direct(.view(.undoLastRoll))),
  Example(#""resetHistory""#, .direct(.view(.resetHistory))),
  Example(#""resetButtonTapped""#, .direct(.view(.resetButtonTapped))),
  Example(#""viewFullHistoryTapped""#, .direct(.view(.viewFullHistoryTapped))),
  Example(#"{"rollCompleted":4}"#, .direct(.internal(.rollCompleted(4)))),
  Example(#"{"internal":{"rollCompleted":4}}"#, .direct(.internal(.rollCompleted(4)))),
  Example(#""startAnimation""#, .direct(.internal(.startAnimation))),
  Example(#"{"internal":"startAnimation"}"#, .direct(.internal(.startAnimation))),
  Example(#"{"alert":"dismiss"}"#, .direct(.alert(.dismiss))),
  Example(#"{"alert":{"presented":"confirmReset"}}"#, .direct(.alert(.presented(.confirmReset)))),
  Example(#"{"destination":"dismiss"}"#, .direct(.destination(.dismiss))),
  Example(
    #"{"destination":{"presented":{"history":"closeButtonTapped"}}}"#,
    .direct(.destination(.presented(.history(.closeButtonTapped))))),
  Example(#""jump""#, .error),
  Example(#"{"view":"jump"}"#, .error),
  Example(#"{"rollCompleted":"four"}"#, .error),
  Example(#"{"internal":{"rollCompleted":"x"}}"#, .error),
  Example(#"{"rollButtonTapped":{},"undoLastRoll":{}}"#, .error),
  Example("[]", .error),
  Example("{}", .error),
  Example("4", .error),
]

@Test(arguments: diceActions)
private func diceActionsDecodeTheSameOnBothPaths(_ example: Example<Dice.Action>) {
  check(example)
}
