/* Shared state from C: the dice history kept by the host (`shared.load`, `shared.save`, in
 * callback and pull mode), and matchscores' favorites shared by two stores — one store's change
 * reaching the other at its next turn, through its wake descriptor, version, patch and journal. */
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"
#include "feature_host.h"

static void test_dice_history_is_the_hosts(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  /* Nothing is asked before the first turn: the host had no handler when the store was made. */
  CHECK(host.requests == 0);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK(last_request(&host, "shared.load") == 0);
  CHECK(strcmp(host.payloads[0], "{\"key\":\"dice.history\"}") == 0);
  /* An answer of the wrong shape is refused, and the request still waits. */
  CHECK_STATUS(tca_store_respond(store, host.ids[0], "{\"rolls\":1}"), TCA_ERR_JSON_SHAPE);
  CHECK(value_is(store, "/rollHistory", "[]"));
  CHECK_STATUS(tca_store_respond(store, host.ids[0], "[3,4]"), TCA_OK);
  CHECK(value_is(store, "/rollHistory", "[3,4]"));
  CHECK(value_is(store, "/lastFiveRolls", "[3,4]"));
  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 500), TCA_OK);
  CHECK(last_request(&host, "shared.save") == 2);
  CHECK(strcmp(host.payloads[2], "{\"key\":\"dice.history\",\"value\":[5,3,4]}") == 0);
  tca_store_free(store);

  /* No store holds it any more: a snapshot's history is the store's. */
  store = feature_store("dice", "{\"rollHistory\":[2]}", 7, &host);
  CHECK(value_is(store, "/rollHistory", "[2]"));
  /* `null`: the host has nothing saved; the history stays. */
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK_STATUS(tca_store_respond(store, host.ids[0], "null"), TCA_OK);
  CHECK(value_is(store, "/rollHistory", "[2]"));
  tca_store_free(store);
}

static void test_dice_history_in_pull_mode(void) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 7;
  options.requests = TCA_REQUESTS_QUEUED;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("dice", NULL, &options, &store), TCA_OK);
  /* The load waits for the first turn; the descriptor says there is one to take. */
  int fd = tca_store_fd(store);
  struct pollfd watch = {fd, POLLIN, 0};
  CHECK(fd >= 0 && poll(&watch, 1, 0) == 1);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  char *taken = NULL;
  CHECK_STATUS(tca_store_take_requests(store, &taken, NULL), TCA_OK);
  CHECK(taken != NULL && strstr(taken, "\"name\":\"shared.load\"") != NULL);
  CHECK(taken != NULL && strstr(taken, "\"payload\":{\"key\":\"dice.history\"}") != NULL);
  tca_string_free(taken);
  /* The id of the first request a store makes is 1. */
  CHECK_STATUS(tca_store_respond(store, 1, "[6]"), TCA_OK);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK(value_is(store, "/rollHistory", "[6]"));
  CHECK_STATUS(tca_store_send(store, "\"undoLastRoll\""), TCA_OK);
  CHECK_STATUS(tca_store_take_requests(store, &taken, NULL), TCA_OK);
  CHECK(taken != NULL && strstr(taken, "{\"key\":\"dice.history\",\"value\":[]}") != NULL);
  tca_string_free(taken);
  tca_store_free(store);
}

/* Two match-scores stores (two windows): a team starred in one shows in the other's patch. */
static void test_favorites_between_two_stores(void) {
  feature_host host_a, host_b;
  tca_store *a = feature_store("matchscores", NULL, 1, &host_a);
  tca_store *b = feature_store("matchscores", NULL, 1, &host_b);
  CHECK_STATUS(tca_store_send(a, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(a, host_a.ids[0], "matchscores/teams_page1.json"), TCA_OK);
  uint64_t before = tca_store_version(b);
  int fd = tca_store_fd(b);
  struct pollfd watch = {fd, POLLIN, 0};
  CHECK(fd >= 0 && poll(&watch, 1, 0) == 0);

  CHECK_STATUS(tca_store_send(a, "{\"favoriteButtonTapped\":2}"), TCA_OK);
  CHECK(value_is(a, "/favorites/teams/0/name", "\"Celtics\""));
  /* B takes the change at its next turn, on its own thread: its descriptor says so. */
  CHECK(poll(&watch, 1, 0) == 1);
  CHECK(tca_store_version(b) == before);
  uint32_t ran = 0;
  CHECK_STATUS(tca_store_poll(b, &ran), TCA_OK);
  CHECK(ran > 0);
  CHECK(tca_store_version(b) == before + 1);
  CHECK(poll(&watch, 1, 0) == 0);
  char *patch = NULL;
  CHECK_STATUS(tca_store_patch(b, before, &patch, NULL), TCA_OK);
  CHECK(patch != NULL && strstr(patch, "\"/favorites/teams/0\"") != NULL);
  CHECK(patch != NULL && strstr(patch, "\"Celtics\"") != NULL);
  tca_string_free(patch);

  /* And back: B removes it on its favorites tab; A's next send sees it gone first. */
  CHECK_STATUS(tca_store_send(b, "{\"favorites\":{\"removeButtonTapped\":2}}"), TCA_OK);
  CHECK(value_is(b, "/favorites/teams", "[]"));
  CHECK_STATUS(tca_store_send(a, "{\"tabSelected\":\"favorites\"}"), TCA_OK);
  CHECK(value_is(a, "/favorites/teams", "[]"));
  tca_store_free(b);
  tca_store_free(a);
}

static void fail_at_once(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata;
  tca_store_fail(store, request->id, "failed at once");
}

/* A recorded dice store whose first turn was a poll (not journaled) asked for its history
 * there: its journal's answer to that request replays (the fuzzer found it did not). */
static void test_a_load_made_at_a_polled_first_turn_replays(void) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 7;
  options.record = 1;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("dice", NULL, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_set_request_handler(store, fail_at_once, NULL, NULL), TCA_OK);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  char *journal = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(store, &journal, &length), TCA_OK);
  CHECK_CONTAINS(journal, "{\"fail\":1,\"message\":\"failed at once\",\"version\":0}");
  tca_string_free(journal);
  tca_store *replayed = replayed_from(store);
  CHECK(replayed != NULL);
  char *recorded = state_of(store);
  CHECK(replayed != NULL && state_is(replayed, recorded));
  tca_string_free(recorded);
  tca_store_free(replayed);
  tca_store_free(store);
}

/* A store made with options.shared = TCA_SHARED_ISOLATED shares nothing: the others' changes do
 * not reach it, nor its theirs. */
static void test_an_isolated_store_shares_nothing(void) {
  feature_host host_a, host_b, host_i;
  tca_store *a = feature_store("matchscores", NULL, 1, &host_a);
  tca_store *b = feature_store("matchscores", NULL, 1, &host_b);
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.shared = TCA_SHARED_ISOLATED;
  tca_store *isolated = feature_store_with("matchscores", NULL, &options, &host_i);
  CHECK_STATUS(tca_store_send(a, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(a, host_a.ids[0], "matchscores/teams_page1.json"), TCA_OK);
  CHECK_STATUS(tca_store_send(isolated, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(isolated, host_i.ids[0], "matchscores/teams_page1.json"),
               TCA_OK);
  uint64_t before = tca_store_version(isolated);
  CHECK_STATUS(tca_store_send(a, "{\"favoriteButtonTapped\":2}"), TCA_OK);
  CHECK_STATUS(tca_store_poll(b, NULL), TCA_OK);
  CHECK_STATUS(tca_store_poll(isolated, NULL), TCA_OK);
  CHECK(value_is(b, "/favorites/teams/0/name", "\"Celtics\""));
  CHECK(value_is(isolated, "/favorites/teams", "[]"));
  CHECK(tca_store_version(isolated) == before);
  /* Its own change stays its own. */
  CHECK_STATUS(tca_store_send(isolated, "{\"favoriteButtonTapped\":3}"), TCA_OK);
  CHECK(value_is(isolated, "/favorites/teams/0/id", "3"));
  CHECK_STATUS(tca_store_poll(a, NULL), TCA_OK);
  CHECK_STATUS(tca_store_poll(b, NULL), TCA_OK);
  char *json = NULL;
  for (int i = 0; i < 2; i++) {
    tca_store *other = i ? b : a;
    CHECK(value_is(other, "/favorites/teams/0/id", "2"));
    CHECK_STATUS(tca_store_get(other, "/favorites/teams/1", &json, NULL), TCA_ERR_NOT_FOUND);
  }
  tca_store_free(isolated);
  tca_store_free(b);
  tca_store_free(a);
}

/* A recorded store journals the changes it took from another store, and replays them. */
static void test_outside_changes_are_journaled(void) {
  feature_host host_a, host_b;
  tca_store *a = feature_store("matchscores", NULL, 1, &host_a);
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 1;
  options.record = 1;
  tca_store *b = NULL;
  CHECK_STATUS(tca_store_new("matchscores", NULL, &options, &b), TCA_OK);
  memset(&host_b, 0, sizeof host_b);
  CHECK_STATUS(tca_store_set_request_handler(b, feature_host_request, feature_host_cancel,
                                             &host_b),
               TCA_OK);
  CHECK_STATUS(tca_store_send(a, "{\"teamList\":\"onAppear\"}"), TCA_OK);
  CHECK_STATUS(respond_with_fixture(a, host_a.ids[0], "matchscores/teams_page1.json"), TCA_OK);
  CHECK_STATUS(tca_store_send(a, "{\"favoriteButtonTapped\":2}"), TCA_OK);
  CHECK_STATUS(tca_store_send(b, "{\"tabSelected\":\"favorites\"}"), TCA_OK);
  char *journal = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(b, &journal, &length), TCA_OK);
  CHECK(journal != NULL &&
        strstr(journal, "{\"shared\":\"inMemory:matchscores.favorites\",\"value\":[{") != NULL);
  /* The shared line comes before the send during which B took it. */
  char *shared = journal ? strstr(journal, "\"shared\"") : NULL;
  char *send = journal ? strstr(journal, "\"send\"") : NULL;
  CHECK(shared != NULL && send != NULL && shared < send);
  char *expected = state_of(b);
  tca_store_free(a);
  tca_store_free(b);

  /* Replayed with no other store about, the favorites come from the journal. */
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, length, UINT64_MAX, NULL, &replayed), TCA_OK);
  char *again = replayed ? state_of(replayed) : NULL;
  CHECK(again != NULL && expected != NULL && strcmp(again, expected) == 0);
  tca_string_free(again);
  tca_string_free(expected);
  tca_string_free(journal);
  tca_store_free(replayed);
}

int main(void) {
  test_a_load_made_at_a_polled_first_turn_replays();
  test_an_isolated_store_shares_nothing();
  test_dice_history_is_the_hosts();
  test_dice_history_in_pull_mode();
  test_favorites_between_two_stores();
  test_outside_changes_are_journaled();
  TEST_SUMMARY();
}
