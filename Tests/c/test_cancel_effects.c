/* tca_store_running_effects and tca_store_cancel_effects (what Python's TestStore
 * .skip_in_flight_effects stands on): requests in flight cancelled and their host told (callback
 * and pull mode), a timer dropped, the store still open, bad arguments refused, and a recorded
 * store's cancellation journaled so that a replay cancels too. */
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

typedef struct {
  int requests;
  int cancelled;
  uint64_t cancelled_id;
} host_log;

static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  (void)store;
  (void)request;
  ((host_log *)userdata)->requests += 1;
}

static void on_cancel(void *userdata, tca_store *store, uint64_t id) {
  (void)store;
  host_log *log = userdata;
  log->cancelled += 1;
  log->cancelled_id = id;
}

static tca_store *manual(const char *feature, int32_t requests, int32_t record) {
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  options.requests = requests;
  options.record = record;
  options.seed = 3;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new(feature, NULL, &options, &store), TCA_OK);
  return store;
}

static int running_is(tca_store *store, const char *expected) {
  char *json = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_running_effects(store, &json, &length), TCA_OK);
  int same = json != NULL && strlen(json) == length && strcmp(json, expected) == 0;
  if (!same) fprintf(stderr, "  running %s, expected %s\n", json ? json : "(null)", expected);
  tca_string_free(json);
  return same;
}

static void test_a_request_in_flight_is_cancelled_and_its_host_told(void) {
  tca_store *store = manual("counter", TCA_REQUESTS_CALLBACK, 0);
  host_log log = {0};
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, on_cancel, &log), TCA_OK);
  uint32_t cancelled = 99;
  CHECK_STATUS(tca_store_cancel_effects(store, &cancelled), TCA_OK);
  CHECK(cancelled == 0);
  CHECK(running_is(store, "[]"));

  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(log.requests == 1);
  CHECK(running_is(store, "[\"host request #1 \\\"numberFact.fetch\\\"\"]"));
  CHECK_STATUS(tca_store_cancel_effects(store, &cancelled), TCA_OK);
  CHECK(cancelled == 1);
  CHECK(log.cancelled == 1 && log.cancelled_id == 1);
  CHECK(running_is(store, "[]"));
  CHECK_STATUS(tca_store_respond(store, 1, "\"too late\""), TCA_ERR_REQUEST_FINISHED);

  /* The store stays open. */
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/count", "1"));
  CHECK_STATUS(tca_store_cancel_effects(store, NULL), TCA_OK);
  tca_store_free(store);
}

static void test_pull_mode_gets_a_notice(void) {
  tca_store *store = manual("counter", TCA_REQUESTS_QUEUED, 0);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *json = NULL;
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_OK);
  tca_string_free(json);
  CHECK_STATUS(tca_store_cancel_effects(store, NULL), TCA_OK);
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_OK);
  CHECK(json != NULL && strcmp(json, "[{\"cancelled\":1}]") == 0);
  tca_string_free(json);
  tca_store_free(store);
}

static void test_a_timer_is_dropped(void) {
  if (!library_has_feature("dice")) return;
  tca_store *store = manual("dice", TCA_REQUESTS_QUEUED, 0);
  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK(tca_store_next_deadline_ms(store) == 500);
  uint32_t cancelled = 0;
  CHECK_STATUS(tca_store_cancel_effects(store, &cancelled), TCA_OK);
  CHECK(cancelled >= 1);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_STATUS(tca_store_advance(store, 1000), TCA_OK);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK(value_is(store, "/rollHistory", "[]"));
  tca_store_free(store);
}

static void test_bad_arguments(void) {
  uint32_t cancelled = 7;
  CHECK_STATUS(tca_store_cancel_effects(NULL, &cancelled), TCA_ERR_INVALID_HANDLE);
  CHECK(cancelled == 0);
  char *json = (char *)1;
  size_t length = 5;
  CHECK_STATUS(tca_store_running_effects(NULL, &json, &length), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL && length == 0);
  tca_store *store = manual("counter", TCA_REQUESTS_QUEUED, 0);
  CHECK_STATUS(tca_store_running_effects(store, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "out_json");
  tca_store_free(store);
}

static void test_a_replay_cancels_too(void) {
  tca_store *store = manual("counter", TCA_REQUESTS_QUEUED, 1);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *json = NULL;
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_OK);
  tca_string_free(json);
  CHECK_STATUS(tca_store_cancel_effects(store, NULL), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  char *journal = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(store, &journal, &length), TCA_OK);
  CHECK_CONTAINS(journal, "{\"cancelEffects\":true,\"version\":1}");
  char *recorded = state_of(store);
  tca_store *replayed = replayed_from(store);
  CHECK(replayed != NULL && state_is(replayed, recorded));
  CHECK(running_is(replayed, "[]"));
  CHECK_STATUS(tca_store_take_requests(replayed, &json, NULL), TCA_OK);
  CHECK(json != NULL && strcmp(json, "[]") == 0);
  tca_string_free(json);
  tca_store_free(replayed);
  tca_string_free(recorded);
  tca_string_free(journal);
  tca_store_free(store);
}

int main(void) {
  test_a_request_in_flight_is_cancelled_and_its_host_told();
  test_pull_mode_gets_a_notice();
  test_a_timer_is_dropped();
  test_bad_arguments();
  test_a_replay_cancels_too();
  TEST_SUMMARY();
}
