/* The store functions of tca.h, driven as a host would, including bad input of every kind. */
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"

static char *state_of(tca_store *store) {
  char *json = NULL;
  size_t length = 0;
  if (tca_store_state(store, &json, &length) != TCA_OK) return NULL;
  if (json != NULL && strlen(json) != length) {
    tca_string_free(json);
    return NULL;
  }
  return json;
}

/* Whether the state's JSON starts with `expected` (the counter's state starts with its count). */
static int state_is(tca_store *store, const char *expected) {
  char *json = state_of(store);
  int same = json != NULL && strncmp(json, expected, strlen(expected)) == 0;
  if (!same) fprintf(stderr, "  state is %s, expected %s…\n", json ? json : "(null)", expected);
  tca_string_free(json);
  return same;
}

static void test_library(void) {
  CHECK(strcmp(tca_version(), "0.1.0") == 0);
  char *features = tca_features();
  CHECK(features != NULL);
  if (features) {
    CHECK_CONTAINS(features, "\"name\":\"counter\"");
    CHECK_CONTAINS(features, "\"initialState\":{\"count\":0,");
    CHECK_CONTAINS(features, "\"requests\":[\"numberFact.fetch\"]");
  }
  tca_string_free(features);
  tca_string_free(NULL);
  CHECK(strcmp(tca_status_str(TCA_OK), "ok") == 0);
  CHECK(strcmp(tca_status_str(TCA_ERR_INVALID_HANDLE), "invalid store handle") == 0);
  CHECK(strcmp(tca_status_str(9999), "unknown status") == 0);
  CHECK(tca_last_error() != NULL);
}

static void test_thousand_increments(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK(state_is(store, "{\"count\":0,"));
  int failures = 0;
  for (int i = 0; i < 1000; i++) {
    if (tca_store_send(store, "\"incrementButtonTapped\"") != TCA_OK) failures++;
  }
  CHECK(failures == 0);
  CHECK(state_is(store, "{\"count\":1000,"));
  const char *decrement = "{\"decrementButtonTapped\":{}}trailing bytes not sent";
  CHECK_STATUS(tca_store_send_n(store, decrement, 28), TCA_OK);
  CHECK(state_is(store, "{\"count\":999,"));
  tca_store_free(store);
}

static void test_bad_actions_change_nothing(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", "{\"count\":5}", NULL, &store), TCA_OK);

  CHECK_STATUS(tca_store_send(store, "\"jumpButtonTapped\""), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "tca_store_send");
  CHECK_CONTAINS(tca_last_error(), "jumpButtonTapped");

  CHECK_STATUS(tca_store_send(store, "{\"incrementButtonTapped\":"), TCA_ERR_JSON_SYNTAX);
  CHECK_CONTAINS(tca_last_error(), "at byte");

  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\" x"), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_send(store, "\"increment\xff\""), TCA_ERR_JSON_SYNTAX);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
  CHECK_STATUS(tca_store_send(store, "42"), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, ""), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_send(store, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_send_n(store, NULL, 3), TCA_ERR_INVALID_ARGUMENT);

  /* Hostile nesting depth: an error, not a stack overflow. */
  size_t depth = 100000;
  char *deep = malloc(depth + 1);
  memset(deep, '[', depth);
  deep[depth] = 0;
  CHECK_STATUS(tca_store_send(store, deep), TCA_ERR_JSON_SYNTAX);
  CHECK_CONTAINS(tca_last_error(), "nesting");
  free(deep);

  CHECK(state_is(store, "{\"count\":5,"));
  tca_store_free(store);
}

static void test_store_new_errors(void) {
  tca_store *store = (tca_store *)0x1;
  CHECK_STATUS(tca_store_new("nope", NULL, NULL, &store), TCA_ERR_UNKNOWN_FEATURE);
  CHECK(store == NULL);
  CHECK_CONTAINS(tca_last_error(), "nope");
  CHECK_STATUS(tca_store_new(NULL, NULL, NULL, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_new("counter", "{\"count\":\"x\"}", NULL, &store), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/count");
  CHECK_STATUS(tca_store_new("counter", "{", NULL, &store), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_new("counter", "{\"count\":99999999999999999999}", NULL, &store),
               TCA_ERR_JSON_SHAPE);

  tca_options options = TCA_OPTIONS_INIT;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  tca_store_free(store);
  options.version = 77;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
}

static void test_handles_are_checked(void) {
  tca_store *store = NULL;
  char *json = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  tca_store_free(store);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_state(store, &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL);
  tca_store_free(store); /* a second free is ignored */

  CHECK_STATUS(tca_store_send(NULL, "\"incrementButtonTapped\""), TCA_ERR_INVALID_HANDLE);
  int not_a_store = 42;
  CHECK_STATUS(tca_store_send((tca_store *)&not_a_store, "\"incrementButtonTapped\""),
               TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_send((tca_store *)(uintptr_t)0xdeadbeef, "\"incrementButtonTapped\""),
               TCA_ERR_INVALID_HANDLE);
  tca_store_free((tca_store *)&not_a_store);
  tca_store_free(NULL);

  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_state(store, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  tca_store_free(store);
}

int main(void) {
  test_library();
  test_thousand_increments();
  test_bad_actions_change_nothing();
  test_store_new_errors();
  test_handles_are_checked();
  TEST_SUMMARY();
}
