import StoreKernel

/// The full-history screen of the dice roller, presented by ``Dice`` through its optional
/// `destination`: every roll, newest first, numbered as the seed's list numbers them.
public struct DiceHistory: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    /// Every roll, newest first (the parent's `rollHistory` when the screen opened, kept in step
    /// while it is open).
    public var rolls: [Int]

    public init(rolls: [Int] = []) { self.rolls = rolls }

    /// One line of the list: "Roll 3: 5". Newest first: the first entry's number is the count.
    public struct Entry: Equatable, Codable, Sendable {
      public var number: Int
      public var value: Int
    }

    /// The lines the screen draws. Encoded with the state, ignored when a snapshot is decoded.
    public var entries: [Entry] {
      rolls.enumerated().map { Entry(number: rolls.count - $0.offset, value: $0.element) }
    }

    enum CodingKeys: String, CodingKey {
      case rolls, entries
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      rolls = try container.decodeIfPresent([Int].self, forKey: .rolls) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rolls, forKey: .rolls)
      try container.encode(entries, forKey: .entries)
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    /// The screen's close button: the screen dismisses itself (the parent then receives
    /// `{"destination":"dismiss"}`).
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}
