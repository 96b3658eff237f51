/* Requests awaited inside a `.run` effect (Send.request), as a C host sees them: the counter's
 * "saveNumberFactButtonTapped" fetches a fact, saves it, then shows it. Each step is an ordinary
 * one-shot request, in callback and pull mode; an answer of the wrong shape is refused and the
 * request waits; a failure reaches the state; cancelling the effect tells the host; a recorded
 * store's journal replays to the same state. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

typedef struct {
  int requests;
  uint64_t ids[8];
  char names[8][32];
  char payloads[8][64];
  int cancelled;
  uint64_t cancelled_id;
} host_log;

static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  (void)store;
  host_log *log = userdata;
  if (log->requests < 8) {
    log->ids[log->requests] = request->id;
    snprintf(log->names[log->requests], sizeof log->names[0], "%s", request->name);
    snprintf(log->payloads[log->requests], sizeof log->payloads[0], "%s",
             request->payload_json);
  }
  log->requests += 1;
}

static void on_cancel(void *userdata, tca_store *store, uint64_t id) {
  (void)store;
  host_log *log = userdata;
  log->cancelled += 1;
  log->cancelled_id = id;
}

static tca_store *counter(int32_t requests, int32_t record) {
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  options.requests = requests;
  options.record = record;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", "{\"count\":4}", &options, &store), TCA_OK);
  return store;
}

static void test_two_requests_in_turn(void) {
  tca_store *store = counter(TCA_REQUESTS_CALLBACK, 0);
  host_log log = {0};
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, on_cancel, &log), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"saveNumberFactButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  /* The save is asked for only once the fetch is answered. */
  CHECK(log.requests == 1);
  CHECK(strcmp(log.names[0], "numberFact.fetch") == 0 && strcmp(log.payloads[0], "4") == 0);
  /* An answer of the wrong shape is refused, changing nothing: the request waits. */
  CHECK_STATUS(tca_store_respond(store, log.ids[0], "5"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "request");
  CHECK(log.requests == 1);
  CHECK_STATUS(tca_store_respond(store, log.ids[0], "\"4 is even\""), TCA_OK);
  CHECK(log.requests == 2);
  CHECK(strcmp(log.names[1], "numberFact.save") == 0);
  CHECK(strcmp(log.payloads[1], "\"4 is even\"") == 0);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  CHECK_STATUS(tca_store_respond(store, log.ids[1], "true"), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"4 is even\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK_STATUS(tca_store_respond(store, log.ids[1], "true"), TCA_ERR_REQUEST_FINISHED);
  CHECK(log.cancelled == 0);
  tca_store_free(store);
}

static void test_a_failure_throws(void) {
  tca_store *store = counter(TCA_REQUESTS_CALLBACK, 0);
  host_log log = {0};
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, on_cancel, &log), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"saveNumberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_respond(store, log.ids[0], "\"4 is even\""), TCA_OK);
  CHECK_STATUS(tca_store_fail(store, log.ids[1], "disk full"), TCA_OK);
  CHECK(value_is(store, "/numberFactError", "\"Could not load a number fact: disk full\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK(log.requests == 2);
  tca_store_free(store);
}

static void test_cancelling_the_effect_tells_the_host(void) {
  tca_store *store = counter(TCA_REQUESTS_CALLBACK, 0);
  host_log log = {0};
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, on_cancel, &log), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"saveNumberFactButtonTapped\""), TCA_OK);
  /* The plain fetch runs under the same cancellation id, cancelling what is in flight. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(log.cancelled == 1 && log.cancelled_id == log.ids[0]);
  CHECK_STATUS(tca_store_respond(store, log.ids[0], "\"late\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, log.ids[1], "\"4 is even\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"4 is even\""));
  CHECK(log.requests == 2);

  /* tca_store_cancel_effects reaches an awaited request too. */
  CHECK_STATUS(tca_store_send(store, "\"saveNumberFactButtonTapped\""), TCA_OK);
  uint32_t cancelled = 0;
  CHECK_STATUS(tca_store_cancel_effects(store, &cancelled), TCA_OK);
  CHECK(cancelled >= 1);
  CHECK(log.cancelled == 2 && log.cancelled_id == log.ids[2]);
  /* The effect ended quietly: no failure, and the fetch it was waiting on never came. */
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  tca_store_free(store);
}

/* The id of the first request in a take_requests array, or 0. */
static uint64_t first_id(const char *json) {
  const char *at = json ? strstr(json, "\"id\":") : NULL;
  return at ? strtoull(at + 5, NULL, 10) : 0;
}

static void test_pull_mode_and_replay(void) {
  tca_store *store = counter(TCA_REQUESTS_QUEUED, 1);
  CHECK_STATUS(tca_store_send(store, "\"saveNumberFactButtonTapped\""), TCA_OK);
  char *json = NULL;
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_OK);
  CHECK_CONTAINS(json, "\"name\":\"numberFact.fetch\"");
  uint64_t fetch = first_id(json);
  tca_string_free(json);
  CHECK_STATUS(tca_store_respond(store, fetch, "\"4 is even\""), TCA_OK);
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_OK);
  CHECK_CONTAINS(json, "\"name\":\"numberFact.save\"");
  CHECK_CONTAINS(json, "\"payload\":\"4 is even\"");
  uint64_t save = first_id(json);
  tca_string_free(json);
  CHECK(save == fetch + 1);
  CHECK_STATUS(tca_store_respond(store, save, "true"), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"4 is even\""));

  char *recorded = state_of(store);
  tca_store *replayed = replayed_from(store);
  CHECK(replayed != NULL && state_is(replayed, recorded));
  tca_store_free(replayed);
  tca_string_free(recorded);
  tca_store_free(store);
}

int main(void) {
  test_two_requests_in_turn();
  test_a_failure_throws();
  test_cancelling_the_effect_tells_the_host();
  test_pull_mode_and_replay();
  TEST_SUMMARY();
}
