/* A journal with a limit (options.record_limit): older lines fold into a checkpoint, the journal
 * stays bounded over 200,000 sends, replay works from the checkpoint's version on and refuses an
 * older one (TCA_ERR_VERSION_GONE), request ids go on across the checkpoint, and a store whose
 * request is always in flight stays bounded too (docs/wire-format.md, "Checkpoints"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

#include "harness.h"

static char *state_of(tca_store *store) {
  char *json = NULL;
  CHECK_STATUS(tca_store_state(store, &json, NULL), TCA_OK);
  return json;
}

static char *journal_of(tca_store *store, size_t *length) {
  char *json = NULL;
  CHECK_STATUS(tca_store_journal(store, &json, length), TCA_OK);
  return json;
}

static tca_store *limited(int32_t requests, uint64_t limit) {
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  options.requests = requests;
  options.record = 1;
  options.record_limit = limit;
  options.seed = 7;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  return store;
}

static size_t lines_of(const char *text) {
  size_t count = 0;
  for (const char *p = text; *p; p++) count += *p == '\n';
  return count;
}

/* The version of the journal's checkpoint (its second line), or UINT64_MAX if none. */
static uint64_t checkpoint_version(const char *journal) {
  const char *second = strchr(journal, '\n');
  if (second == NULL || strncmp(second + 1, "{\"checkpoint\":", 14) != 0) return UINT64_MAX;
  const char *end = strchr(second + 1, '\n');
  const char *version = NULL;
  for (const char *p = second + 1; p < end; p++)
    if (strncmp(p, "\"version\":", 10) == 0) version = p + 10;
  return version ? strtoull(version, NULL, 10) : UINT64_MAX;
}

static void answer_at_once(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata;
  CHECK_STATUS(tca_store_respond(store, request->id, "\"a fact\""), TCA_OK);
}

static void test_a_limited_journal_stays_bounded_and_replays(void) {
  tca_store *store = limited(TCA_REQUESTS_CALLBACK, 1000);
  CHECK_STATUS(tca_store_set_request_handler(store, answer_at_once, NULL, NULL), TCA_OK);
  size_t most_lines = 0, most_bytes = 0;
  for (int i = 1; i <= 200000; i++) {
    const char *action = i % 7 == 0   ? "\"numberFactButtonTapped\""
                         : i % 3 == 0 ? "{\"decrementButtonTapped\":{}}"
                                      : "\"incrementButtonTapped\"";
    CHECK_STATUS(tca_store_send(store, action), TCA_OK);
    if (i % 5 == 0) (void)tca_store_version(store);
    if (i % 20000 == 0) {
      size_t length = 0;
      char *journal = journal_of(store, &length);
      size_t lines = lines_of(journal);
      if (lines > most_lines) most_lines = lines;
      if (length > most_bytes) most_bytes = length;
      tca_string_free(journal);
    }
  }
  /* header + checkpoint + at most the limit of lines */
  CHECK(most_lines <= 1002);
  CHECK(most_lines >= 500);
  CHECK(most_bytes < 100000);
  size_t length = 0;
  char *journal = journal_of(store, &length);
  uint64_t oldest = checkpoint_version(journal);
  CHECK(oldest != UINT64_MAX && oldest > 1000);
  char *live = state_of(store);
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &replayed), TCA_OK);
  char *again = state_of(replayed);
  CHECK(strcmp(again, live) == 0);
  CHECK(tca_store_version(replayed) == tca_store_version(store));
  /* the replayed store goes on, with the request ids of the recorded one */
  CHECK_STATUS(tca_store_set_request_handler(replayed, answer_at_once, NULL, NULL),
               TCA_OK);
  CHECK_STATUS(tca_store_send(replayed, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *a = journal_of(store, NULL), *b = journal_of(replayed, NULL);
  CHECK(strstr(a, "\"request\":{\"id\":28572,") != NULL);
  CHECK(strstr(b, "\"request\":{\"id\":28572,") != NULL);
  tca_string_free(a);
  tca_string_free(b);
  tca_store_free(replayed);
  tca_string_free(again);
  /* from the checkpoint's version on; an older one is gone */
  CHECK_STATUS(tca_store_replay(journal, length, oldest, NULL, &replayed), TCA_OK);
  CHECK(tca_store_version(replayed) == oldest);
  tca_store_free(replayed);
  CHECK_STATUS(tca_store_replay(journal, length, oldest - 1, NULL, &replayed),
               TCA_ERR_VERSION_GONE);
  CHECK(replayed == NULL);
  CHECK_CONTAINS(tca_last_error(), "checkpoint");
  char expected[64];
  snprintf(expected, sizeof expected, "versions %llu to", (unsigned long long)oldest);
  CHECK_CONTAINS(tca_last_error(), expected);
  tca_string_free(live);
  tca_string_free(journal);
  tca_store_free(store);
}

static void test_a_request_always_in_flight_stays_bounded(void) {
  tca_store *store = limited(TCA_REQUESTS_QUEUED, 100);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  size_t most = 0;
  for (int i = 0; i < 20000; i++) {
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
    if (i % 1000 == 999) {
      char *journal = journal_of(store, NULL);
      if (lines_of(journal) > most) most = lines_of(journal);
      tca_string_free(journal);
    }
  }
  CHECK(most <= 2 * 100 + 2);
  size_t length = 0;
  char *journal = journal_of(store, &length);
  CHECK_CONTAINS(journal, "\"inFlight\":[");
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &replayed),
               TCA_ERR_VERSION_GONE);
  CHECK_CONTAINS(tca_last_error(), "in flight");
  tca_string_free(journal);
  tca_store_free(store);
}

static void on_change(void *userdata, tca_store *store, uint64_t version) {
  (void)store;
  *(uint64_t *)userdata = version;
}

/* A host that learns versions from its subscriber alone replays to each of them. */
static void test_versions_a_subscriber_was_told_of(void) {
  tca_store *store = limited(TCA_REQUESTS_CALLBACK, 0);
  uint64_t told[3] = {0, 0, 0}, last = 0;
  uint64_t token = 0;
  CHECK_STATUS(tca_store_subscribe(store, on_change, &last, &token), TCA_OK);
  for (int i = 0; i < 3; i++) {
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
    told[i] = last;
  }
  CHECK(told[0] < told[1] && told[1] < told[2]);
  size_t length = 0;
  char *journal = journal_of(store, &length);
  for (int i = 0; i < 3; i++) {
    tca_store *replayed = NULL;
    CHECK_STATUS(tca_store_replay(journal, length, told[i], NULL, &replayed), TCA_OK);
    char *state = state_of(replayed);
    char expected[64];
    snprintf(expected, sizeof expected, "\"count\":%d", i + 1);
    CHECK_CONTAINS(state, expected);
    tca_string_free(state);
    tca_store_free(replayed);
  }
  tca_string_free(journal);
  tca_store_free(store);
}

/* The largest limit is no limit in practice, and no overflow. */
static void test_the_largest_limit(void) {
  tca_store *store = limited(TCA_REQUESTS_CALLBACK, UINT64_MAX);
  for (int i = 0; i < 10; i++)
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  size_t length = 0;
  char *journal = journal_of(store, &length);
  CHECK(lines_of(journal) == 11);
  tca_string_free(journal);
  tca_store_free(store);
}

static void test_a_limit_needs_record(void) {
  tca_options options;
  tca_options_init(&options);
  options.record_limit = 10;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.record_limit");
}

int main(void) {
  test_a_limited_journal_stays_bounded_and_replays();
  test_a_request_always_in_flight_stays_bounded();
  test_versions_a_subscriber_was_told_of();
  test_the_largest_limit();
  test_a_limit_needs_record();
  TEST_SUMMARY();
}
