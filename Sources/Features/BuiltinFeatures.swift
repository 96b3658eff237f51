import StoreKernel

/// The features compiled into libtca, in the order `tca_features()` lists them.
public enum BuiltinFeatures {
  public static let all: [FeatureDescriptor] = [
    FeatureDescriptor(
      name: "counter",
      summary: "A count with increment and decrement buttons, and a number fact from the host.",
      requests: [Counter.fetchNumberFact],
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
      requests: [Dice.hapticsRequest],
      initialState: Dice.State(),
      reducer: Dice()
    ),
    FeatureDescriptor(
      name: "matchscores",
      summary:
        "NBA teams, games, players and favorites in tabs: paged lists fetched by the host, search;"
        + " a team's detail pushed on a stack.",
      requests: [
        Team.fetchRequest, Game.fetchRequest, Player.fetchRequest, TeamDetail.fetchGamesRequest,
      ],
      initialState: MatchScores.State(),
      reducer: MatchScores()
    ),
  ]
}
