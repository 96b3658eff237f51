"""The matchscores feature end to end from Python: the host answers its requests with the fixture
files in the NBA API's shape (Tests/fixtures/matchscores): paging, search, favorites, failures,
pull-to-refresh cancelling a page in flight; the team detail pushed on the navigation stack,
fetching its games with its own request, and popped (its fetch cancelled)."""

from pathlib import Path

import pytest

import tca

FIXTURES = Path(__file__).resolve().parents[3] / "Tests" / "fixtures" / "matchscores"


def fixture(name):
    return (FIXTURES / name).read_bytes()  # bytes are sent to the library as they are


def names(items, key="full_name"):
    return [item[key] for item in items]


@pytest.fixture
def store():
    with tca.Store("matchscores", clock="manual") as store:
        yield store


def test_teams_page_search_and_favorites(store):
    asked = []

    @store.effect("matchScores.fetchTeams")
    def fetch_teams(payload):
        asked.append(payload)
        return fixture(f"teams_page{payload['page']}.json")

    assert store.state["teamList"]["dataLoadingStatus"] == "notStarted"
    store.send({"teamList": "onAppear"})
    teams = store.state["teamList"]
    assert asked == [{"page": 1}]
    assert teams["dataLoadingStatus"] == "loaded"
    assert (teams["page"], teams["totalPages"], teams["hasMorePages"]) == (1, 2, True)
    assert len(teams["items"]) == 15

    store.send({"teamList": "onAppear"})  # already loaded
    store.send({"teamList": {"rowAppeared": 14}})  # not the last row
    assert asked == [{"page": 1}]
    store.send({"teamList": {"rowAppeared": 15}})
    assert asked == [{"page": 1}, {"page": 2}]
    teams = store.state["teamList"]
    assert len(teams["items"]) == 30 and teams["hasMorePages"] is False
    store.send({"teamList": {"rowAppeared": 30}})  # the last page
    assert len(asked) == 2

    # Search: 300 ms after the last keystroke; the seed's filter and descending sort.
    store.send({"teamList": {"searchQueryChanged": "an"}})
    store.advance(150)
    store.send({"teamList": {"searchQueryChanged": "AN"}})
    store.advance(299)
    assert store.get("/teamList/appliedSearchQuery") == ""
    store.advance(1)
    results = names(store.state["teamList"]["searchResults"])
    assert results == sorted(
        (name for name in names(store.state["teamList"]["items"]) if "an" in name.lower()),
        key=str.lower,
        reverse=True,
    )
    assert results[0] == "San Antonio Spurs" and results[-1] == "Atlanta Hawks"

    # Clearing cancels the search in flight and shows everything at once.
    store.send({"teamList": {"searchQueryChanged": "bos"}})
    store.send({"teamList": {"searchQueryChanged": ""}})
    assert store.next_deadline() is None
    assert len(store.state["teamList"]["searchResults"]) == 30

    store.send({"favoriteButtonTapped": 2})
    store.send({"favoriteButtonTapped": 23})
    store.send({"favoriteButtonTapped": 999})  # not a loaded team
    store.send({"tabSelected": "favorites"})
    state = store.state
    assert state["selectedTab"] == "favorites"
    assert names(state["favorites"]["teams"], "name") == ["Celtics", "76ers"]
    store.send({"favoriteButtonTapped": 2})
    store.send({"favorites": {"removeButtonTapped": 23}})
    assert store.state["favorites"]["teams"] == []


def test_players_failure_refresh_and_cancellation(store):
    requests = []
    cancelled = []

    @store.on_request
    def later(request):  # answered by the test, after the call that made it
        request.on_cancel(lambda: cancelled.append(request.id))
        requests.append(request)

    store.send({"tabSelected": "players"})
    store.send({"playerList": "onAppear"})
    (first,) = requests
    assert (first.name, first.payload) == ("matchScores.fetchPlayers", {"page": 1})
    assert store.state["playerList"]["isLoading"] is True
    first.fail(ConnectionError("The Internet connection appears to be offline."))
    players = store.state["playerList"]
    assert players["dataLoadingStatus"] == "error"
    assert players["shouldShowError"] is True
    assert players["errorMessage"] == (
        "Could not load players: The Internet connection appears to be offline."
    )

    store.send({"playerList": "refresh"})
    with pytest.raises(tca.JSONShapeError):
        requests[-1].respond({"data": "nobody"})  # refused; the request still waits
    requests[-1].respond(fixture("players_page1.json"))
    assert names(store.state["playerList"]["items"], "last_name")[:2] == ["Antetokounmpo", "Curry"]

    # Page 2 is in flight when the user pulls to refresh: the host hears it is cancelled.
    store.send({"playerList": {"rowAppeared": 145}})
    page2 = requests[-1]
    assert page2.payload == {"page": 2}
    store.send({"playerList": "refresh"})
    assert cancelled == [page2.id]
    with pytest.raises(tca.RequestFinishedError):
        page2.respond(fixture("players_page2.json"))
    requests[-1].respond(fixture("players_page1.json"))
    store.send({"playerList": {"rowAppeared": 145}})
    requests[-1].respond(fixture("players_page2.json"))
    players = store.state["playerList"]
    assert len(players["items"]) == 8 and players["hasMorePages"] is False
    assert players["items"][-1]["height_feet"] is None

    store.send({"playerList": {"searchQueryChanged": "lebron j"}})
    store.advance(300)
    assert [p["id"] for p in store.state["playerList"]["searchResults"]] == [237]


def test_games(store):
    @store.effect("matchScores.fetchGames")
    def fetch_games(payload):
        assert payload == {"page": 1}
        return fixture("games_page1.json")

    store.send({"tabSelected": "games"})
    store.send({"gameList": "onAppear"})
    games = store.state["gameList"]
    assert len(games["items"]) == 4 and games["hasMorePages"] is False
    assert games["items"][0]["home_team"]["full_name"] == "Boston Celtics"
    store.send({"gameList": {"searchQueryChanged": "2019-02"}})
    store.advance(300)
    assert [g["id"] for g in store.state["gameList"]["searchResults"]] == [48751, 48739]
    with pytest.raises(tca.JSONShapeError):
        store.send({"tabSelected": "stats"})


def test_team_detail_is_pushed_fetches_its_games_and_is_popped(store):
    requests = []
    cancelled = []

    @store.effect("matchScores.fetchTeams")
    def fetch_teams(payload):
        return fixture(f"teams_page{payload['page']}.json")

    @store.on_request
    def later(request):  # the team's games are answered by the test
        request.on_cancel(lambda: cancelled.append(request.id))
        requests.append(request)

    store.send({"teamList": "onAppear"})
    assert store.get("/path") == {"elements": [], "nextID": 0}

    # A tap pushes the Celtics' detail (id 0), which asks for their games.
    store.send({"teamTapped": 2})
    (element,) = store.state["path"]["elements"]
    assert element["id"] == 0
    detail = element["state"]["teamDetail"]
    assert detail["team"]["full_name"] == "Boston Celtics" and detail["isLoading"] is True
    (celtics,) = requests
    assert celtics.name == "matchScores.fetchTeamGames"
    assert celtics.payload == {"team_id": 2, "page": 1}
    celtics.respond(fixture("games_page1.json"))
    detail = store.get("/path/elements/0/state/teamDetail")
    assert detail["dataLoadingStatus"] == "loaded" and len(detail["games"]) == 4

    # A second screen on top (id 1); the host's back button pops it and cancels its fetch.
    store.send({"teamTapped": 1})
    hawks = requests[-1]
    assert hawks.payload == {"team_id": 1, "page": 1}
    assert [e["id"] for e in store.state["path"]["elements"]] == [0, 1]
    store.send({"path": {"popFrom": {"id": 1}}})
    assert cancelled == [hawks.id]
    assert [e["id"] for e in store.state["path"]["elements"]] == [0]
    with pytest.raises(tca.RequestFinishedError):
        hawks.respond(fixture("games_page1.json"))

    # The host pushes a screen itself: an id given out before is ignored, a fresh one is taken.
    team = store.get("/teamList/items/0")
    store.send({"path": {"push": {"id": 1, "state": {"teamDetail": {"team": team}}}}})
    assert len(store.state["path"]["elements"]) == 1
    store.send({"path": {"push": {"id": 3, "state": {"teamDetail": {"team": team}}}}})
    assert store.get("/path/nextID") == 4
    store.send({"path": {"element": {"id": 3, "action": {"teamDetail": "onAppear"}}}})
    mine = requests[-1]
    assert mine.payload == {"team_id": team["id"], "page": 1}
    # The screen's own close button pops it (the dismiss dependency); its fetch is cancelled.
    store.send({"path": {"element": {"id": 3, "action": {"teamDetail": "closeButtonTapped"}}}})
    assert cancelled == [hawks.id, mine.id]
    store.send({"path": {"popFrom": {"id": 0}}})
    assert store.get("/path") == {"elements": [], "nextID": 4}
    with pytest.raises(tca.JSONShapeError):
        store.send({"path": {"popFrom": {"id": -1}}})


def test_features_lists_the_requests():
    features = {f["name"]: f for f in tca.features()}
    assert features["matchscores"]["requests"] == [
        "matchScores.fetchTeams",
        "matchScores.fetchGames",
        "matchScores.fetchPlayers",
        "matchScores.fetchTeamGames",
    ]
    assert features["dice"]["requests"] == ["haptics.impact", "shared.load", "shared.save"]
    assert features["todos"]["requests"] == []
    assert features["matchscores"]["initialState"]["selectedTab"] == "teams"
    assert features["matchscores"]["initialState"]["path"] == {"elements": [], "nextID": 0}
    for feature in features.values():
        assert feature["description"]


def test_the_matchscores_example_runs():
    import subprocess
    import sys

    example = Path(__file__).resolve().parents[1] / "examples" / "matchscores.py"
    result = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  page 2 of 2, 30 teams, more pages: False" in lines
    assert "    #25  Portland Trail Blazers" in lines
    assert "  status: error: Could not load games: The Internet connection appears to be offline." in lines
