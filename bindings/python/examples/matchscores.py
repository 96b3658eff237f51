"""The match-scores app driven from Python: the teams, players and games lists, paged in as the
last row appears, searched, starred. The host performs the feature's requests: here a "network"
thread answers them 150 ms later from the fixture files in the NBA API's shape
(Tests/fixtures/matchscores), and the loop waits on the store's descriptor, then polls.

    python bindings/python/examples/matchscores.py
"""

import select
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tca

FIXTURES = Path(__file__).resolve().parents[3] / "Tests" / "fixtures" / "matchscores"
network = ThreadPoolExecutor(max_workers=2)


def fetch(kind, page):
    """What a real host would get from https://www.balldontlie.io/api/v1/<kind>?page=<page>."""
    time.sleep(0.15)
    path = FIXTURES / f"{kind}_page{page}.json"
    if not path.exists():
        raise LookupError(f"HTTP 404 for /{kind}?page={page}")
    return path.read_bytes()


def offline(kind, page):
    time.sleep(0.15)
    raise ConnectionError("The Internet connection appears to be offline.")


def wait_until(store, done, timeout=5.0):
    """The host's event loop: sleep on the store's descriptor (or its next timer), then poll."""
    deadline = time.monotonic() + timeout
    while not done(store.state):
        if time.monotonic() > deadline:
            raise TimeoutError("the store did not get there")
        timer = store.next_deadline()
        select.select([store.fileno()], [], [], 0.05 if timer is None else timer / 1000)
        store.poll()


def draw(title, items, name, columns=2, width=30):
    print(f"  {title}")
    for row in range(0, len(items), columns):
        cells = [f"#{item['id']:<4}{name(item)}"[: width - 1].ljust(width) for item in items[row : row + columns]]
        print("    " + "".join(cells).rstrip())


def team_name(team):
    return team["full_name"]


with tca.Store("matchscores") as store:
    for kind in ("teams", "players", "games"):
        # NB: a handler that returns a Future answers when it resolves, from the network thread.
        store.effect(f"matchScores.fetch{kind.capitalize()}")(
            lambda payload, kind=kind: network.submit(fetch, kind, payload["page"])
        )

    print("== teams tab: the list appears")
    store.send({"teamList": "onAppear"})
    print("  status:", store.state["teamList"]["dataLoadingStatus"])
    wait_until(store, lambda s: not s["teamList"]["isLoading"])
    teams = store.state["teamList"]
    print(f"  status: {teams['dataLoadingStatus']}, page {teams['page']} of {teams['totalPages']}")
    draw(f"{len(teams['items'])} teams", teams["searchResults"], team_name)

    print("== scrolled to the last row: the next page")
    store.send({"teamList": {"rowAppeared": teams["items"][-1]["id"]}})
    wait_until(store, lambda s: not s["teamList"]["isLoading"])
    teams = store.state["teamList"]
    print(f"  page {teams['page']} of {teams['totalPages']}, {len(teams['items'])} teams, "
          f"more pages: {teams['hasMorePages']}")

    print('== search: "ERS" (applied 300 ms after the last keystroke; sorted as the seed sorts)')
    store.send({"teamList": {"searchQueryChanged": "E"}})
    store.send({"teamList": {"searchQueryChanged": "ER"}})
    store.send({"teamList": {"searchQueryChanged": "ERS"}})
    wait_until(store, lambda s: s["teamList"]["appliedSearchQuery"] == "ERS")
    draw("results", store.state["teamList"]["searchResults"], team_name, columns=1)
    store.send({"teamList": {"searchQueryChanged": ""}})

    print("== starring the Celtics and the Lakers, then the favorites tab")
    store.send({"favoriteButtonTapped": 2})
    store.send({"favoriteButtonTapped": 14})
    store.send({"tabSelected": "favorites"})
    draw("favorites", store.state["favorites"]["teams"], team_name)

    print("== players tab")
    store.send({"tabSelected": "players"})
    store.send({"playerList": "onAppear"})
    wait_until(store, lambda s: not s["playerList"]["isLoading"])
    store.send({"playerList": {"rowAppeared": store.get("/playerList/items/4/id")}})
    wait_until(store, lambda s: not s["playerList"]["isLoading"])
    players = store.state["playerList"]
    draw(f"{len(players['items'])} players", players["searchResults"],
         lambda p: f"{p['first_name']} {p['last_name']}")

    print("== games tab")
    store.send({"tabSelected": "games"})
    store.send({"gameList": "onAppear"})
    wait_until(store, lambda s: not s["gameList"]["isLoading"])
    for game in store.state["gameList"]["searchResults"]:
        print(f"    {game['date'][:10]}  {game['home_team']['abbreviation']} "
              f"{game['home_team_score']:>3} - {game['visitor_team_score']:<3} "
              f"{game['visitor_team']['abbreviation']}  {game['status']}")

    print("== pull to refresh while offline")
    store.effect("matchScores.fetchGames")(
        lambda payload: network.submit(offline, "games", payload["page"])
    )
    store.send({"gameList": "refresh"})
    wait_until(store, lambda s: not s["gameList"]["isLoading"])
    games = store.state["gameList"]
    print(f"  status: {games['dataLoadingStatus']}: {games['errorMessage']}")
    print(f"  still showing {len(games['searchResults'])} games")

network.shutdown()
