/* The matchscores feature driven end to end from C: the host answers its requests with fixture
 * files in the NBA API's shape (Tests/fixtures/matchscores): paging, search, favorites, failures,
 * pull-to-refresh cancelling a page in flight, answers of the wrong shape; the team detail pushed
 * on the navigation stack, fetching its games, and popped (its fetch cancelled). */
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"
#include "feature_host.h"

static void test_teams(void) {
  feature_host host;
  tca_store *store = feature_store("matchscores", NULL, 1, &host);
  CHECK(value_is(store, "/selectedTab", "\"teams\""));
  CHECK(value_is(store, "/teamList/dataLoadingStatus", "\"notStarted\""));

  /* The list appears: page 1 is asked for. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  int r = last_request(&host, "matchScores.fetchTeams");
  CHECK(r == 0 && strcmp(host.payloads[0], "{\"page\":1}") == 0);
  CHECK(host.kinds[0] == TCA_REQUEST_ONE_SHOT);
  CHECK(value_is(store, "/teamList/isLoading", "true"));
  /* An answer of the wrong shape is refused, and the request still waits. */
  CHECK_STATUS(tca_store_respond(store, host.ids[0], "{\"data\":\"teams\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/data");
  CHECK(value_is(store, "/teamList/isLoading", "true"));
  CHECK_STATUS(respond_with_fixture(store, host.ids[0], "matchscores/teams_page1.json"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(store, host.ids[0], "matchscores/teams_page1.json"),
               TCA_ERR_REQUEST_FINISHED);
  CHECK(value_is(store, "/teamList/dataLoadingStatus", "\"loaded\""));
  CHECK(value_is(store, "/teamList/isLoading", "false"));
  CHECK(value_is(store, "/teamList/page", "1"));
  CHECK(value_is(store, "/teamList/totalPages", "2"));
  CHECK(value_is(store, "/teamList/hasMorePages", "true"));
  CHECK(value_is(store, "/teamList/items/0/full_name", "\"Atlanta Hawks\""));
  CHECK(value_is(store, "/teamList/searchResults/14/full_name", "\"Memphis Grizzlies\""));

  /* Appearing again loads nothing; rows other than the last load nothing. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"rowAppeared\":14}}"), TCA_OK);
  CHECK(host.requests == 1);
  /* The last row: page 2. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"rowAppeared\":15}}"), TCA_OK);
  r = last_request(&host, "matchScores.fetchTeams");
  CHECK(r == 1 && strcmp(host.payloads[1], "{\"page\":2}") == 0);
  CHECK_STATUS(respond_with_fixture(store, host.ids[1], "matchscores/teams_page2.json"), TCA_OK);
  CHECK(value_is(store, "/teamList/items/29/full_name", "\"Washington Wizards\""));
  CHECK(value_is(store, "/teamList/hasMorePages", "false"));
  /* The last page: the last row loads nothing more. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"rowAppeared\":30}}"), TCA_OK);
  CHECK(host.requests == 2);

  /* Search: applied 300 ms after the last keystroke, case-insensitive on the full name, sorted
   * by it in descending order as the seed sorts. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"searchQueryChanged\":\"NE\"}}"), TCA_OK);
  CHECK(value_is(store, "/teamList/searchQuery", "\"NE\""));
  CHECK(value_is(store, "/teamList/appliedSearchQuery", "\"\""));
  CHECK(tca_store_next_deadline_ms(store) == 300);
  CHECK_STATUS(tca_store_advance(store, 200), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"searchQueryChanged\":\"new\"}}"), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 299), TCA_OK);
  CHECK(value_is(store, "/teamList/appliedSearchQuery", "\"\""));
  CHECK_STATUS(tca_store_advance(store, 1), TCA_OK);
  CHECK(value_is(store, "/teamList/appliedSearchQuery", "\"new\""));
  CHECK(value_is(store, "/teamList/searchResults/0/full_name", "\"New York Knicks\""));
  CHECK(value_is(store, "/teamList/searchResults/1/full_name", "\"New Orleans Pelicans\""));
  CHECK(value_contains(store, "/teamList/searchResults", "Pelicans"));
  char *results = value_at(store, "/teamList/searchResults");
  CHECK(results && strstr(results, "Hawks") == NULL);
  free(results);

  /* Typing, then clearing before the search applies: the pending search is cancelled and the
   * whole list shows at once. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"searchQueryChanged\":\"bos\"}}"), TCA_OK);
  CHECK(tca_store_next_deadline_ms(store) == 300);
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":{\"searchQueryChanged\":\"\"}}"), TCA_OK);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK(value_is(store, "/teamList/appliedSearchQuery", "\"\""));
  CHECK(value_is(store, "/teamList/searchResults/29/abbreviation", "\"WAS\""));

  /* Favorites: starred on the teams tab, shown (and removable) on the favorites tab. */
  CHECK_STATUS(tca_store_send(store, "{\"favoriteButtonTapped\":2}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"favoriteButtonTapped\":14}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"favoriteButtonTapped\":999}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"tabSelected\":\"favorites\"}"), TCA_OK);
  CHECK(value_is(store, "/selectedTab", "\"favorites\""));
  CHECK(value_is(store, "/favorites/teams/0/name", "\"Celtics\""));
  CHECK(value_is(store, "/favorites/teams/1/name", "\"Lakers\""));
  CHECK_STATUS(tca_store_send(store, "{\"favoriteButtonTapped\":2}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"favorites\":{\"removeButtonTapped\":14}}"), TCA_OK);
  CHECK(value_is(store, "/favorites/teams", "[]"));

  /* Pull-to-refresh: page 1 again, replacing the list. */
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":\"refresh\"}"), TCA_OK);
  r = last_request(&host, "matchScores.fetchTeams");
  CHECK(r == 2 && strcmp(host.payloads[2], "{\"page\":1}") == 0);
  CHECK_STATUS(respond_with_fixture(store, host.ids[2], "matchscores/teams_page1.json"), TCA_OK);
  CHECK(value_contains(store, "/teamList/page", "1"));
  char *last = value_at(store, "/teamList/items/15");
  CHECK(last == NULL);
  CHECK(host.cancels == 0);
  tca_store_free(store);
}

static void test_players_failure_and_cancellation(void) {
  feature_host host;
  tca_store *store = feature_store("matchscores", "{\"selectedTab\":\"players\"}", 1, &host);
  CHECK(value_is(store, "/selectedTab", "\"players\""));
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":\"onAppear\"}"), TCA_OK);
  int r = last_request(&host, "matchScores.fetchPlayers");
  CHECK(r == 0 && strcmp(host.payloads[0], "{\"page\":1}") == 0);

  /* A failed request sets the error status with a readable message. */
  CHECK_STATUS(tca_store_fail(store, host.ids[0], "The Internet connection appears to be offline."),
               TCA_OK);
  CHECK(value_is(store, "/playerList/dataLoadingStatus", "\"error\""));
  CHECK(value_is(store, "/playerList/shouldShowError", "true"));
  CHECK(value_is(store, "/playerList/errorMessage",
                 "\"Could not load players: The Internet connection appears to be offline.\""));

  /* Pull-to-refresh retries. */
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":\"refresh\"}"), TCA_OK);
  CHECK(value_is(store, "/playerList/errorMessage", "null"));
  r = last_request(&host, "matchScores.fetchPlayers");
  CHECK(r == 1);
  CHECK_STATUS(respond_with_fixture(store, host.ids[1], "matchscores/players_page1.json"), TCA_OK);
  CHECK(value_is(store, "/playerList/items/1/last_name", "\"Curry\""));
  CHECK(value_is(store, "/playerList/items/0/team/full_name", "\"Milwaukee Bucks\""));

  /* The last row asks for page 2; a refresh while it is in flight cancels it (the host hears of
   * it) and its late answer is refused. */
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":{\"rowAppeared\":145}}"), TCA_OK);
  r = last_request(&host, "matchScores.fetchPlayers");
  CHECK(r == 2 && strcmp(host.payloads[2], "{\"page\":2}") == 0);
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":\"refresh\"}"), TCA_OK);
  CHECK(host.cancels == 1 && host.cancelled[0] == host.ids[2]);
  CHECK_STATUS(respond_with_fixture(store, host.ids[2], "matchscores/players_page2.json"),
               TCA_ERR_REQUEST_FINISHED);
  r = last_request(&host, "matchScores.fetchPlayers");
  CHECK(r == 3 && strcmp(host.payloads[3], "{\"page\":1}") == 0);
  CHECK_STATUS(respond_with_fixture(store, host.ids[3], "matchscores/players_page1.json"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":{\"rowAppeared\":145}}"), TCA_OK);
  r = last_request(&host, "matchScores.fetchPlayers");
  CHECK(r == 4);
  CHECK_STATUS(respond_with_fixture(store, host.ids[4], "matchscores/players_page2.json"), TCA_OK);
  CHECK(value_is(store, "/playerList/items/7/first_name", "\"Jayson\""));
  CHECK(value_is(store, "/playerList/items/7/height_feet", "null"));
  CHECK(value_is(store, "/playerList/hasMorePages", "false"));

  /* Players are searched by "first last". */
  CHECK_STATUS(tca_store_send(store, "{\"playerList\":{\"searchQueryChanged\":\"lebron j\"}}"),
               TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 300), TCA_OK);
  CHECK(value_is(store, "/playerList/searchResults/0/id", "237"));
  CHECK(value_contains(store, "/playerList/searchResults", "\"LeBron\""));

  /* Freeing the store with a request in flight tells the host. */
  CHECK_STATUS(tca_store_send(store, "{\"gameList\":\"onAppear\"}"), TCA_OK);
  r = last_request(&host, "matchScores.fetchGames");
  CHECK(r == 5);
  tca_store_free(store);
  CHECK(host.cancels == 2 && host.cancelled[1] == host.ids[5]);
}

static void test_games(void) {
  feature_host host;
  tca_store *store = feature_store("matchscores", NULL, 1, &host);
  CHECK_STATUS(tca_store_send(store, "{\"tabSelected\":\"games\"}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"gameList\":\"onAppear\"}"), TCA_OK);
  int r = last_request(&host, "matchScores.fetchGames");
  CHECK(r == 0 && strcmp(host.payloads[0], "{\"page\":1}") == 0);
  CHECK_STATUS(respond_with_fixture(store, host.ids[0], "matchscores/games_page1.json"), TCA_OK);
  CHECK(value_is(store, "/gameList/items/0/home_team/full_name", "\"Boston Celtics\""));
  CHECK(value_is(store, "/gameList/items/0/home_team_score", "126"));
  CHECK(value_is(store, "/gameList/hasMorePages", "false"));
  /* Games are searched by either team or the date, in the list's order. */
  CHECK_STATUS(tca_store_send(store, "{\"gameList\":{\"searchQueryChanged\":\"2019-02\"}}"),
               TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 300), TCA_OK);
  CHECK(value_is(store, "/gameList/searchResults/0/id", "48751"));
  CHECK(value_is(store, "/gameList/searchResults/1/id", "48739"));
  char *third = value_at(store, "/gameList/searchResults/2");
  CHECK(third == NULL);
  /* Bad actions are refused. */
  CHECK_STATUS(tca_store_send(store, "{\"tabSelected\":\"stats\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"gameList\":{\"rowAppeared\":\"1\"}}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/gameList/rowAppeared");
  tca_store_free(store);
}

/* The team detail: pushed on the stack by a tap, it fetches the team's games with a request of
 * its own; popping it (the host's back button, or its close button) cancels its fetch. Ids are
 * never reused. */
static void test_team_detail(void) {
  feature_host host;
  tca_store *store = feature_store("matchscores", NULL, 1, &host);
  CHECK(value_is(store, "/path", "{\"elements\":[],\"nextID\":0}"));
  CHECK_STATUS(tca_store_send(store, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(store, host.ids[0], "matchscores/teams_page1.json"), TCA_OK);

  /* A tap pushes the Celtics' detail with id 0, which asks for their games. */
  CHECK_STATUS(tca_store_send(store, "{\"teamTapped\":2}"), TCA_OK);
  CHECK(value_is(store, "/path/elements/0/id", "0"));
  CHECK(value_is(store, "/path/elements/0/state/teamDetail/team/full_name",
                 "\"Boston Celtics\""));
  CHECK(value_is(store, "/path/elements/0/state/teamDetail/isLoading", "true"));
  CHECK(value_is(store, "/path/nextID", "1"));
  int r = last_request(&host, "matchScores.fetchTeamGames");
  CHECK(r == 1 && strcmp(host.payloads[1], "{\"team_id\":2,\"page\":1}") == 0);
  CHECK(host.kinds[1] == TCA_REQUEST_ONE_SHOT);
  CHECK_STATUS(respond_with_fixture(store, host.ids[1], "matchscores/games_page1.json"), TCA_OK);
  CHECK(value_is(store, "/path/elements/0/state/teamDetail/dataLoadingStatus", "\"loaded\""));
  CHECK(value_is(store, "/path/elements/0/state/teamDetail/games/0/home_team/name",
                 "\"Celtics\""));

  /* A second screen on top: the Hawks (id 1). Popping it while its fetch is in flight cancels
   * the fetch (the host hears of it) and a late answer is refused. */
  CHECK_STATUS(tca_store_send(store, "{\"teamTapped\":1}"), TCA_OK);
  CHECK(value_is(store, "/path/elements/1/id", "1"));
  r = last_request(&host, "matchScores.fetchTeamGames");
  CHECK(r == 2 && strcmp(host.payloads[2], "{\"team_id\":1,\"page\":1}") == 0);
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"popFrom\":{\"id\":1}}}"), TCA_OK);
  CHECK(host.cancels == 1 && host.cancelled[0] == host.ids[2]);
  CHECK_STATUS(respond_with_fixture(store, host.ids[2], "matchscores/games_page1.json"),
               TCA_ERR_REQUEST_FINISHED);
  CHECK(value_at(store, "/path/elements/1") == NULL);

  /* The host's own push, with an id given out before: ignored. With a fresh id: pushed. */
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"push\":{\"id\":1,\"state\":{\"teamDetail\":"
                                     "{\"team\":{\"id\":9,\"full_name\":\"X\"}}}}}}"),
               TCA_OK);
  CHECK(value_at(store, "/path/elements/1") == NULL);
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"push\":{\"id\":4,\"state\":{\"teamDetail\":"
                                     "{\"team\":{\"id\":9,\"full_name\":\"X\"}}}}}}"),
               TCA_OK);
  CHECK(value_is(store, "/path/elements/1/id", "4"));
  CHECK(value_is(store, "/path/nextID", "5"));
  /* Its actions are addressed by id; its close button pops it. */
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"element\":{\"id\":4,\"action\":"
                                     "{\"teamDetail\":\"onAppear\"}}}}"),
               TCA_OK);
  r = last_request(&host, "matchScores.fetchTeamGames");
  CHECK(r == 3 && strcmp(host.payloads[3], "{\"team_id\":9,\"page\":1}") == 0);
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"element\":{\"id\":4,\"action\":"
                                     "{\"teamDetail\":\"closeButtonTapped\"}}}}"),
               TCA_OK);
  CHECK(host.cancels == 2 && host.cancelled[1] == host.ids[3]);
  CHECK(value_at(store, "/path/elements/1") == NULL);

  /* Bad stack actions are refused with the place; actions for ids not there do nothing. */
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"popFrom\":{\"id\":-1}}}"),
               TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/path/popFrom/id");
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"popFrom\":{\"id\":7}}}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"element\":{\"id\":7,\"action\":"
                                     "{\"teamDetail\":\"refresh\"}}}}"),
               TCA_OK);
  CHECK(host.requests == 4);

  /* The back button on the last screen: the stack is empty; the next push gets id 5. */
  CHECK_STATUS(tca_store_send(store, "{\"path\":{\"popFrom\":{\"id\":0}}}"), TCA_OK);
  CHECK(value_is(store, "/path", "{\"elements\":[],\"nextID\":5}"));
  CHECK_STATUS(tca_store_send(store, "{\"teamTapped\":2}"), TCA_OK);
  CHECK(value_is(store, "/path/elements/0/id", "5"));
  tca_store_free(store);
  /* Freeing the store cancelled the fetch of that last screen. */
  CHECK(host.cancels == 3 && host.cancelled[2] == host.ids[4]);
}

int main(void) {
  test_teams();
  test_players_failure_and_cancellation();
  test_games();
  test_team_detail();
  TEST_SUMMARY();
}
