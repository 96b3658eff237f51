import StoreKernel
import JSON

/// The dice roller of dice-roller-tca-readme.md: a roll button that starts an animation at once
/// and lands on 1...6 from the store's random source 500 ms later (store clock), a roll history
/// with undo and reset, the last five rolls for the preview card, and a full-history screen
/// presented through `destination`, a ``PresentationState`` (the screen closes itself with the
/// dismiss dependency). Haptic feedback is a fire-and-forget host request, `haptics.impact` with
/// `{"style":"medium"}`.
///
///     "rollButtonTapped"   (or {"view":"rollButtonTapped"})
///        → haptics.impact, startAnimation; 500 ms later rollCompleted(4)
///     "viewFullHistoryTapped"  →  destination: {"history":{"rolls":[4],…}}
///     {"destination":"dismiss"}
///     "resetButtonTapped"  →  alert: {"title":"Reset the history?",…,"buttons":[…]}
///     {"alert":{"presented":{"confirmReset":{}}}}  →  the history is reset
///
/// Actions follow the seed's structure: `view` (what the user did), `internal` (what effects
/// feed back), `destination` (the presented screen), `alert` (the reset confirmation, an
/// ``AlertState``). A host may send a view or internal action
/// bare, without its group: `"rollButtonTapped"` is `{"view":"rollButtonTapped"}`.
public struct Dice: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    /// The face showing; nil before the first roll (and after a reset or undoing every roll).
    public var currentRoll: Int?
    /// From the tap until the roll lands: the view animates, the button is disabled.
    public var isRolling: Bool
    /// Every roll, newest first: shared state the host keeps between runs (the requests
    /// `shared.load` at the store's first turn and `shared.save` after each change, key
    /// `dice.history`; docs/features.md). Change it with `$rollHistory.withLock { … }`.
    @Shared(Dice.historyKey) public var rollHistory: [Int] = []
    /// Turns by 360 at each roll's start: drives the rotation animation.
    public var rollAnimationAngle: Double
    /// The screen presented over the roller, if any.
    @PresentationState public var destination: Destination.State?
    /// The alert that confirms a reset, while it shows.
    @PresentationState public var alert: AlertState<Action.Alert>?

    public init(
      currentRoll: Int? = nil, isRolling: Bool = false, rollHistory: [Int] = [],
      rollAnimationAngle: Double = 0, destination: Destination.State? = nil,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.currentRoll = currentRoll
      self.isRolling = isRolling
      self._rollHistory = Shared(value: rollHistory, Dice.historyKey)
      self.rollAnimationAngle = rollAnimationAngle
      self.destination = destination
      self.alert = alert
    }

    /// The preview card's rolls: the last five, newest first. Encoded with the state, ignored
    /// when a snapshot is decoded.
    public var lastFiveRolls: [Int] { Array(rollHistory.prefix(5)) }

    enum CodingKeys: String, CodingKey {
      case currentRoll, isRolling, rollHistory, rollAnimationAngle, destination, alert
      case lastFiveRolls
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      currentRoll = try container.decodeIfPresent(Int.self, forKey: .currentRoll)
      isRolling = try container.decodeIfPresent(Bool.self, forKey: .isRolling) ?? false
      _rollHistory = Shared(
        value: try container.decodeIfPresent([Int].self, forKey: .rollHistory) ?? [],
        Dice.historyKey)
      rollAnimationAngle =
        try container.decodeIfPresent(Double.self, forKey: .rollAnimationAngle) ?? 0
      destination = try container.decodeIfPresent(Destination.State.self, forKey: .destination)
      alert = try container.decodeIfPresent(AlertState<Action.Alert>.self, forKey: .alert)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(currentRoll, forKey: .currentRoll)
      try container.encode(isRolling, forKey: .isRolling)
      try container.encode(rollHistory, forKey: .rollHistory)
      try container.encode(rollAnimationAngle, forKey: .rollAnimationAngle)
      try container.encode(destination, forKey: .destination)
      try container.encode(alert, forKey: .alert)
      try container.encode(lastFiveRolls, forKey: .lastFiveRolls)
    }
  }

  public enum Action: Equatable, Encodable, Sendable {
    case view(ViewAction)
    case `internal`(InternalAction)
    case destination(PresentationAction<Destination.Action>)
    case alert(PresentationAction<Alert>)

    /// The actions of the reset alert's buttons.
    public enum Alert: Equatable, Codable, Sendable {
      case confirmReset
    }

    /// What the user did.
    public enum ViewAction: Equatable, Codable, Sendable {
      /// Ignored while a roll is under way (the seed's button is disabled then).
      case rollButtonTapped
      case undoLastRoll
      /// Clears the history and stops a roll under way.
      case resetHistory
      /// The reset button: asks first, with an alert (its Reset button resets the history).
      case resetButtonTapped
      case viewFullHistoryTapped
    }

    /// What the feature's effects feed back.
    public enum InternalAction: Equatable, Codable, Sendable {
      /// The roll landed on this face (1...6; anything else is ignored).
      case rollCompleted(Int)
      case startAnimation
    }
  }

  /// The screens ``Dice`` presents.
  public struct Destination: Reducer, Sendable {
    public enum State: Equatable, Codable, Sendable {
      case history(DiceHistory.State)

      // NB: written `{"history":{…}}`, without the `_0` level of the synthesized form, so that a
      // host reads `destination.history.rolls`.
      enum CodingKeys: String, CodingKey { case history }

      public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .history(try container.decode(DiceHistory.State.self, forKey: .history))
      }

      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .history(history): try container.encode(history, forKey: .history)
        }
      }
    }

    public enum Action: Equatable, Codable, Sendable {
      case history(DiceHistory.Action)
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      Scope(
        state: AnyCasePath<State, DiceHistory.State>(
          embed: State.history,
          extract: { if case let .history(history) = $0 { history } else { nil } }),
        action: AnyCasePath<Action, DiceHistory.Action>(
          embed: Action.history,
          extract: { if case let .history(action) = $0 { action } else { nil } })
      ) {
        DiceHistory()
      }
    }
  }

  /// The host request for haptic feedback (fire-and-forget).
  public static let hapticsRequest = "haptics.impact"

  /// Where the roll history is kept: by the host (a game saves it next to its saves).
  public static let historyKey = SharedKey.host("dice.history")

  /// The payload of ``hapticsRequest``: `{"style":"medium"}`.
  public struct Haptic: Equatable, Codable, Sendable {
    public var style: String
    public init(style: String) { self.style = style }
  }

  enum CancelID { case roll }

  @Dependency(\.clock) var clock
  @Dependency(\.random) var random

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .view(.rollButtonTapped):
        guard !state.isRolling else { return .none }
        state.isRolling = true
        return .merge(
          .fireAndForget(Dice.hapticsRequest, payload: Haptic(style: "medium")),
          .send(.internal(.startAnimation)),
          .run { [clock, random] send in
            try await clock.sleep(for: .milliseconds(500))
            await send(.internal(.rollCompleted(random.int(in: 1...6))))
          }
          .cancellable(id: CancelID.roll)
        )

      case .view(.undoLastRoll):
        guard !state.rollHistory.isEmpty else { return .none }
        state.$rollHistory.withLock { _ = $0.removeFirst() }
        state.currentRoll = state.rollHistory.first
        state.syncPresentedHistory()
        return .none

      case .view(.resetHistory), .alert(.presented(.confirmReset)):
        state.$rollHistory.withLock { $0 = [] }
        state.currentRoll = nil
        state.isRolling = false
        state.syncPresentedHistory()
        return .cancel(id: CancelID.roll)

      case .view(.resetButtonTapped):
        state.alert = .resetConfirmation(rolls: state.rollHistory.count)
        return .none

      case .alert(.dismiss):
        return .none

      case .view(.viewFullHistoryTapped):
        state.destination = .history(DiceHistory.State(rolls: state.rollHistory))
        return .none

      case let .internal(.rollCompleted(result)):
        guard (1...6).contains(result) else { return .none }
        state.isRolling = false
        state.currentRoll = result
        state.$rollHistory.withLock { $0.insert(result, at: 0) }
        state.syncPresentedHistory()
        return .none

      case .internal(.startAnimation):
        state.rollAnimationAngle += 360
        return .none

      case .destination:
        // NB: the `ifLet` below dismisses on `.dismiss` (the host's back button, or the screen's
        // close button through the dismiss dependency).
        return .none
      }
    }
    .ifLet(
      \.$destination,
      action: AnyCasePath<Action, PresentationAction<Destination.Action>>(
        embed: Action.destination,
        extract: { if case let .destination(action) = $0 { action } else { nil } })
    ) {
      Destination()
    }
    .ifLet(
      \.$alert,
      action: AnyCasePath<Action, PresentationAction<Action.Alert>>(
        embed: Action.alert,
        extract: { if case let .alert(action) = $0 { action } else { nil } }))
  }
}

extension AlertState where Action == Dice.Action.Alert {
  /// The alert of the reset button: "Reset the history?", Reset (destructive) and Cancel.
  static func resetConfirmation(rolls: Int) -> Self {
    let message =
      switch rolls {
      case 0: "There are no rolls yet."
      case 1: "The roll is forgotten."
      default: "All \(rolls) rolls are forgotten."
      }
    return AlertState(
      title: "Reset the history?", message: message,
      buttons: [
        ButtonState(role: .destructive, action: .confirmReset, label: "Reset"),
        ButtonState(role: .cancel, label: "Cancel"),
      ])
  }
}

extension Dice.State {
  /// Keeps an open history screen showing the current history.
  mutating func syncPresentedHistory() {
    guard case var .history(history)? = destination, history.rolls != rollHistory else { return }
    history.rolls = rollHistory
    destination = .history(history)
  }
}

extension Dice.Action: Decodable {
  // NB: the seed's grouping, plus the host's shorthand of a bare view or internal action
  // ("rollButtonTapped", {"rollCompleted":4}). The case name picks the form, so that an error
  // names the place in the form the host meant.
  public init(from decoder: any Decoder) throws {
    let names = (try? decoder.container(keyedBy: CaseName.self))?.allKeys.map(\.stringValue)
    switch names?.first {
    case let name? where names?.count == 1 && ViewAction.caseNames.contains(name):
      self = .view(try ViewAction(from: decoder))
    case let name? where names?.count == 1 && InternalAction.caseNames.contains(name):
      self = .internal(try InternalAction(from: decoder))
    case let name? where names?.count == 1 && !Self.groupNames.contains(name):
      // NB: a name of no case: the error lists every case a host may send here, the view and
      // internal ones too, as the decoder lists an enum's.
      let bare = (try? decoder.singleValueContainer().decode(String.self)) != nil
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: JSONError.unknownCase(
            name, bare: bare,
            cases: Self.groupNames + ViewAction.caseNames + InternalAction.caseNames)))
    default:
      self = try Grouped(from: decoder).action
    }
  }

  /// The cases of the grouped form.
  static let groupNames = ["view", "internal", "destination", "alert"]

  /// Any member name but `_0`: the decoder then reads a bare string as a case name.
  private struct CaseName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) {
      guard stringValue != "_0" else { return nil }
      self.stringValue = stringValue
    }
    init?(intValue: Int) { nil }
  }

  /// The synthesized form of the grouped action.
  fileprivate enum Grouped: Decodable {
    case view(ViewAction)
    case `internal`(InternalAction)
    case destination(PresentationAction<Dice.Destination.Action>)
    case alert(PresentationAction<Dice.Action.Alert>)

    var action: Dice.Action {
      switch self {
      case let .view(action): return .view(action)
      case let .internal(action): return .internal(action)
      case let .destination(action): return .destination(action)
      case let .alert(action): return .alert(action)
      }
    }
  }
}

extension Dice.Action: JSONSchemaDescribing {
  /// The grouped cases (`view`, `internal`, `destination`, `alert`), then the view and internal
  /// actions the decoder also takes without their group (`"rollButtonTapped"`).
  ///
  /// NB: given, not derived: the decoder reads the member names of any object (its keys are
  /// not an enum), which a derivation cannot follow.
  public static func jsonSchema(
    in builder: JSONSchemaBuilder
  ) throws(JSONSchemaError) -> JSONValue {
    try builder.define(Self.self, kind: "action") { () throws(JSONSchemaError) in
      let cases =
        try builder.actionCases(of: Grouped.self) + builder.actionCases(of: ViewAction.self)
        + builder.actionCases(of: InternalAction.self)
      return .object([("oneOf", .array(cases))])
    }
  }
}

extension Dice.Action.ViewAction {
  static let caseNames: Set<String> = [
    "rollButtonTapped", "undoLastRoll", "resetHistory", "resetButtonTapped",
    "viewFullHistoryTapped",
  ]
}

extension Dice.Action.InternalAction {
  static let caseNames: Set<String> = ["rollCompleted", "startAnimation"]
}
