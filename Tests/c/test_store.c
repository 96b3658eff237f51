/* The store functions of tca.h, driven as a host would, including bad input of every kind. */
#include <stdint.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

static void test_library(void) {
  CHECK(strcmp(tca_version(), "0.1.0") == 0);
  char *features = tca_features();
  CHECK(features != NULL);
  if (features) {
    CHECK_CONTAINS(features, "\"name\":\"counter\"");
    CHECK_CONTAINS(features, "\"initialState\":{\"count\":0,");
    CHECK_CONTAINS(features, "\"requests\":[\"numberFact.fetch\",\"numberFact.save\"]");
  }
  tca_string_free(features);
  tca_string_free(NULL);
  CHECK(strcmp(tca_status_str(TCA_OK), "ok") == 0);
  CHECK(strcmp(tca_status_str(TCA_ERR_INVALID_HANDLE), "invalid store handle") == 0);
  CHECK(strcmp(tca_status_str(9999), "unknown status") == 0);
  CHECK(strcmp(tca_status_str(-1), "unknown status") == 0);
  /* Every code has its own text. */
  for (tca_status a = TCA_OK; a <= TCA_ERR_NO_MEMORY; a++) {
    CHECK(strcmp(tca_status_str(a), "unknown status") != 0);
    for (tca_status b = TCA_OK; b < a; b++) CHECK(strcmp(tca_status_str(a), tca_status_str(b)) != 0);
  }
  CHECK(strcmp(tca_status_str(TCA_ERR_REAL_CLOCK), "the store's clock is real") == 0);
  CHECK(tca_last_error() != NULL);
}

/* The library reads tca_options and writes tca_request at these offsets (StoreExports.swift,
 * EffectExports.swift). */
static void test_struct_layouts(void) {
  CHECK(offsetof(tca_options, version) == 0);
  CHECK(offsetof(tca_options, clock) == 4);
  CHECK(offsetof(tca_options, threaded) == 8);
  CHECK(offsetof(tca_options, requests) == 12);
  CHECK(offsetof(tca_options, seed) == 16);
  CHECK(offsetof(tca_options, answers) == 24);
  CHECK(offsetof(tca_options, record) == 28);
  CHECK(offsetof(tca_options, record_limit) == 32);
  CHECK(offsetof(tca_options, shared) == 40);
  CHECK(offsetof(tca_options, reserved32) == 44);
  CHECK(offsetof(tca_options, reserved) == 48);
  CHECK(sizeof(tca_options) == 64);
  CHECK(offsetof(tca_request, id) == 0);
  CHECK(offsetof(tca_request, name) == 8);
  CHECK(offsetof(tca_request, payload_json) == 16);
  CHECK(offsetof(tca_request, payload_length) == 24);
  CHECK(offsetof(tca_request, kind) == 32);
  CHECK(sizeof(tca_request) == 40);
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


static void test_snapshot_and_restore(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  for (int i = 0; i < 42; i++) tca_store_send(store, "\"incrementButtonTapped\"");
  char *snapshot = state_of(store);
  CHECK(snapshot != NULL);
  tca_store_free(store);

  tca_store *restored = NULL;
  CHECK_STATUS(tca_store_new("counter", snapshot, NULL, &restored), TCA_OK);
  char *again = state_of(restored);
  CHECK(again != NULL && snapshot != NULL && strcmp(again, snapshot) == 0);
  CHECK(tca_store_version(restored) == 0);
  tca_string_free(again);
  tca_store_free(restored);

  /* tca_store_new_n: the snapshot need not be NUL-terminated. */
  size_t length = strlen(snapshot);
  char *unterminated = malloc(length + 8);
  memcpy(unterminated, snapshot, length);
  memcpy(unterminated + length, "garbage", 8);
  CHECK_STATUS(tca_store_new_n("counter", unterminated, length, NULL, &restored), TCA_OK);
  CHECK(value_is(restored, "/count", "42"));
  tca_store_free(restored);
  CHECK_STATUS(tca_store_new_n("counter", unterminated, length + 3, NULL, &restored),
               TCA_ERR_JSON_SYNTAX);
  CHECK(restored == NULL);
  CHECK_CONTAINS(tca_last_error(), "tca_store_new_n: state_json");
  CHECK_STATUS(tca_store_new_n("counter", unterminated, SIZE_MAX, NULL, &restored),
               TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_new_n("counter", NULL, 12345, NULL, &restored), TCA_OK);
  CHECK(value_is(restored, "/count", "0"));
  tca_store_free(restored);
  CHECK_STATUS(tca_store_new_n(NULL, NULL, 0, NULL, &restored), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_new_n("counter", NULL, 0, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  free(unterminated);
  tca_string_free(snapshot);

  /* A partial snapshot: the rest takes defaults. Hostile ones are refused. */
  CHECK_STATUS(tca_store_new("counter", "{\"count\":-3}", NULL, &restored), TCA_OK);
  CHECK(state_is(restored, "{\"count\":-3,"));
  tca_store_free(restored);
  char *deep = deep_json(100000);
  CHECK_STATUS(tca_store_new("counter", deep, NULL, &restored), TCA_ERR_JSON_SYNTAX);
  free(deep);
  CHECK_STATUS(tca_store_new("counter", "{\"count\":\"\xff\"}", NULL, &restored), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_new("counter", "[]", NULL, &restored), TCA_ERR_JSON_SHAPE);
  CHECK(restored == NULL);
}

static void test_get(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", "{\"count\":5}", NULL, &store), TCA_OK);
  CHECK(value_is(store, "/count", "5"));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  char *whole = state_of(store);
  CHECK(whole != NULL && value_is(store, "", whole));
  tca_string_free(whole);

  char *json = (char *)1;
  size_t length = 99;
  CHECK_STATUS(tca_store_get(store, "/nope", &json, &length), TCA_ERR_NOT_FOUND);
  CHECK(json == NULL && length == 0);
  CHECK_CONTAINS(tca_last_error(), "tca_store_get");
  CHECK_CONTAINS(tca_last_error(), "nope");
  CHECK_STATUS(tca_store_get(store, "/count/0", &json, NULL), TCA_ERR_NOT_FOUND);
  CHECK_STATUS(tca_store_get(store, "count", &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get(store, "/a~2b", &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get(store, "/\xff", &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
  CHECK_STATUS(tca_store_get(store, NULL, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get(store, "/count", NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  tca_store_free(store);
  CHECK_STATUS(tca_store_get(store, "/count", &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_get(NULL, "/count", &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL);
}

static void test_options(void) {
  tca_store *store = NULL;
  tca_options options = TCA_OPTIONS_INIT;
  CHECK(options.version == TCA_OPTIONS_VERSION);
  CHECK(options.clock == TCA_CLOCK_REAL);
  CHECK(options.threaded == 0 && options.seed == 0);

  /* A real clock cannot be advanced. */
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 10), TCA_ERR_REAL_CLOCK);
  CHECK_CONTAINS(tca_last_error(), "tca_store_advance");
  CHECK(tca_store_next_deadline_ms(store) == -1);
  tca_store_free(store);

  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 1234;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 10), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 0), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, UINT64_MAX), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, UINT64_MAX), TCA_OK);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/count", "1"));
  tca_store_free(store);

  options.threaded = 1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/count", "1"));
  tca_store_free(store);

  options = (tca_options)TCA_OPTIONS_INIT;
  options.clock = 2;
  store = (tca_store *)1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.clock");
  CHECK(store == NULL);
  options.clock = -1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  options = (tca_options)TCA_OPTIONS_INIT;
  options.threaded = 7;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.threaded");
  options = (tca_options)TCA_OPTIONS_INIT;
  options.version = 0;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "TCA_OPTIONS_INIT");
  CHECK_STATUS(tca_store_new("co\xffunter", NULL, NULL, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
}

static void test_poll_and_fd(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  uint32_t ran = 99;
  CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
  CHECK(ran == 0);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  int fd = tca_store_fd(store);
  CHECK(fd >= 0);
  CHECK(tca_store_fd(store) == fd);
  /* Nothing due: not readable. */
  struct pollfd watch = {fd, POLLIN, 0};
  CHECK(poll(&watch, 1, 0) == 0);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(poll(&watch, 1, 0) == 0);
  CHECK(value_is(store, "/count", "1"));
  tca_store_free(store);

  CHECK_STATUS(tca_store_poll(store, &ran), TCA_ERR_INVALID_HANDLE);
  CHECK(ran == 0);
  CHECK_STATUS(tca_store_poll(NULL, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_advance(store, 1), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_advance(NULL, 1), TCA_ERR_INVALID_HANDLE);
  CHECK(tca_store_fd(store) == -1);
  CHECK_CONTAINS(tca_last_error(), "tca_store_fd");
  CHECK(tca_store_fd(NULL) == -1);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_CONTAINS(tca_last_error(), "tca_store_next_deadline_ms");
  CHECK(tca_store_next_deadline_ms(NULL) == -1);
  int not_a_store;
  CHECK(tca_store_fd((tca_store *)&not_a_store) == -1);
  CHECK_STATUS(tca_store_poll((tca_store *)&not_a_store, NULL), TCA_ERR_INVALID_HANDLE);
}

static void test_send_n_lengths(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_send_n(store, "\"incrementButtonTapped\"", SIZE_MAX),
               TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_send_n(store, "\"incrementButtonTapped\"", 0), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_send_n(store, "\"incrementButtonTapped\"\0x", 25), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_send(store, "{\"setCount\":5}"), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"incrementButtonTapped\":{},\"decrementButtonTapped\":{}}"),
               TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"numberFactResponse\":42}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "numberFactResponse");
  CHECK(value_is(store, "/count", "0"));
  CHECK(tca_store_version(store) == 0);
  tca_store_free(store);
}

static void noop_state(void *userdata, tca_store *store, uint64_t version) {
  (void)userdata, (void)store, (void)version;
}
static void noop_state_json(void *userdata, tca_store *store, uint64_t version, const char *json,
                            size_t length) {
  (void)userdata, (void)store, (void)version, (void)json, (void)length;
}
static void noop_effect(void *userdata, tca_store *store, uint64_t id, const char *name,
                        const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id, (void)name, (void)payload, (void)length;
}
static void noop_request(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata, (void)store, (void)request;
}

/* Every function that takes a store, given a NULL, a freed and a foreign handle: an error (or the
 * documented value), never a crash, and out-parameters cleared. */
static void test_every_function_checks_its_handle(void) {
  tca_store *freed = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &freed), TCA_OK);
  tca_store_free(freed);
  long on_stack = 0;
  tca_store *bad[4] = {NULL, freed, (tca_store *)&on_stack, (tca_store *)(uintptr_t)0x17};
  for (int i = 0; i < 4; i++) {
    tca_store *store = bad[i];
    char *json = (char *)1;
    size_t length = 99;
    uint64_t token = 99;
    uint32_t ran = 99;
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_send_n(store, "\"incrementButtonTapped\"", 23), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_state(store, &json, &length), TCA_ERR_INVALID_HANDLE);
    CHECK(json == NULL && length == 0);
    json = (char *)1;
    CHECK_STATUS(tca_store_get(store, "/count", &json, &length), TCA_ERR_INVALID_HANDLE);
    CHECK(json == NULL && length == 0);
    CHECK(tca_store_version(store) == TCA_VERSION_NONE);
    CHECK_STATUS(tca_store_subscribe(store, noop_state, NULL, &token), TCA_ERR_INVALID_HANDLE);
    CHECK(token == 0);
    CHECK_STATUS(tca_store_subscribe_state(store, noop_state_json, NULL, &token),
                 TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_unsubscribe(store, 1), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_set_effect_handler(store, noop_effect, NULL, NULL), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_set_request_handler(store, noop_request, NULL, NULL),
                 TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_respond(store, 1, "\"x\""), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_respond_n(store, 1, "\"x\"", 3), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_fail(store, 1, "x"), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_complete(store, 1), TCA_ERR_INVALID_HANDLE);
    CHECK_STATUS(tca_store_poll(store, &ran), TCA_ERR_INVALID_HANDLE);
    CHECK(ran == 0);
    CHECK_STATUS(tca_store_advance(store, 1), TCA_ERR_INVALID_HANDLE);
    CHECK(tca_store_next_deadline_ms(store) == -1);
    CHECK(tca_store_fd(store) == -1);
    CHECK_CONTAINS(tca_last_error(), "tca_store_fd: ");
    tca_store_free(store);
  }
  CHECK(on_stack == 0);
}

int main(void) {
  test_library();
  test_struct_layouts();
  test_thousand_increments();
  test_bad_actions_change_nothing();
  test_store_new_errors();
  test_handles_are_checked();
  test_snapshot_and_restore();
  test_get();
  test_options();
  test_poll_and_fd();
  test_send_n_lengths();
  test_every_function_checks_its_handle();
  TEST_SUMMARY();
}
