import StoreKernel

extension MatchScores {
  /// The screens the match-scores app pushes on its navigation stack (``MatchScores/State/path``).
  ///
  ///     {"path":{"elements":[{"id":0,"state":{"teamDetail":{"team":{…},…}}}],"nextID":1}}
  public struct Path: Reducer, Sendable {
    public enum State: Equatable, Codable, Sendable {
      case teamDetail(TeamDetail.State)

      // NB: written `{"teamDetail":{…}}`, without the `_0` level of the synthesized form, so
      // that a host reads `state.teamDetail.games`.
      enum CodingKeys: String, CodingKey { case teamDetail }

      public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .teamDetail(try container.decode(TeamDetail.State.self, forKey: .teamDetail))
      }

      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .teamDetail(detail): try container.encode(detail, forKey: .teamDetail)
        }
      }
    }

    public enum Action: Equatable, Codable, Sendable {
      case teamDetail(TeamDetail.Action)
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      Scope(
        state: AnyCasePath<State, TeamDetail.State>(
          embed: State.teamDetail,
          extract: { if case let .teamDetail(detail) = $0 { detail } else { nil } }),
        action: AnyCasePath<Action, TeamDetail.Action>(
          embed: Action.teamDetail,
          extract: { if case let .teamDetail(action) = $0 { action } else { nil } })
      ) {
        TeamDetail()
      }
    }
  }
}
