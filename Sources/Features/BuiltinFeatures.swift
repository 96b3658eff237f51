import StoreKernel

/// The features compiled into libtca, in the order `tca_features()` lists them. Each declares
/// its host requests with their types, so that its schema (`tca_feature_schema`) is exact.
public enum BuiltinFeatures {
  public static let all: [FeatureDescriptor] = [
    FeatureDescriptor(
      name: "counter",
      summary: "A count with increment and decrement buttons, and a number fact from the host.",
      requests: [
        .oneShot(Counter.fetchNumberFact, payload: Int.self, response: String.self),
        .oneShot(Counter.saveNumberFact, payload: String.self, response: Bool.self),
      ],
      initialState: Counter.State(),
      reducer: Counter()
    ),
    FeatureDescriptor(
      name: "todos",
      summary:
        "A todo list: add, edit, check off, delete, move, filter; completed todos sink after 1 s.",
      requests: [],
      initialState: Todos.State(),
      reducer: Todos()
    ),
    FeatureDescriptor(
      name: "dice",
      summary:
        "A dice roller: a 500 ms animated roll, history with undo and reset, a history screen.",
      requests: [.fireAndForget(Dice.hapticsRequest, payload: Dice.Haptic.self)]
        + HostRequestDeclaration.sharedState([Int].self),
      initialState: Dice.State(),
      reducer: Dice()
    ),
    FeatureDescriptor(
      name: "matchscores",
      summary:
        "NBA teams, games, players and favorites in tabs: paged lists fetched by the host, search;"
        + " a team's detail pushed on a stack.",
      requests: [
        .oneShot(Team.fetchRequest, payload: PageRequest.self, response: PageResponse<Team>.self),
        .oneShot(Game.fetchRequest, payload: PageRequest.self, response: PageResponse<Game>.self),
        .oneShot(
          Player.fetchRequest, payload: PageRequest.self, response: PageResponse<Player>.self),
        .oneShot(
          TeamDetail.fetchGamesRequest, payload: TeamDetail.GamesRequest.self,
          response: PageResponse<Game>.self),
      ],
      initialState: MatchScores.State(),
      reducer: MatchScores()
    ),
  ]
}
