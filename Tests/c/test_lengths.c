/* The forms of tca.h's functions that take every string with a length (tca_store_new_v2,
 * tca_store_get_n, tca_store_fail_n), as hosts without NUL-terminated strings call them: buffers
 * cut out of longer text, with no NUL after them. Also: the enum constants keep their values. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

/* Records the one request the counter makes. */
typedef struct {
  int requests;
  uint64_t id;
} fact_host;

static void on_effect(void *userdata, tca_store *store, uint64_t id, const char *name,
                      const char *payload, size_t length) {
  (void)store, (void)name, (void)payload, (void)length;
  fact_host *host = userdata;
  host->requests++;
  host->id = id;
}

static void test_enum_values(void) {
  /* The names and values C code compiled against before the enums. */
  CHECK(TCA_OK == 0 && TCA_ERR_INVALID_ARGUMENT == 1 && TCA_ERR_INVALID_HANDLE == 2);
  CHECK(TCA_ERR_UNKNOWN_FEATURE == 3 && TCA_ERR_JSON_SYNTAX == 4 && TCA_ERR_JSON_SHAPE == 5);
  CHECK(TCA_ERR_UNENCODABLE == 6 && TCA_ERR_UNKNOWN_REQUEST == 7);
  CHECK(TCA_ERR_REQUEST_FINISHED == 8 && TCA_ERR_ALREADY_ANSWERED == 9);
  CHECK(TCA_ERR_NOT_A_STREAM == 10 && TCA_ERR_REAL_CLOCK == 11 && TCA_ERR_NOT_FOUND == 12);
  CHECK(TCA_ERR_SYSTEM == 13 && TCA_ERR_NO_MEMORY == 14);
  CHECK(TCA_ERR_CALLBACK_UNWOUND == 15 && TCA_ERR_VERSION_GONE == 16);
  CHECK(TCA_CLOCK_REAL == 0 && TCA_CLOCK_MANUAL == 1);
  CHECK(TCA_REQUEST_ONE_SHOT == 0 && TCA_REQUEST_STREAM == 1 && TCA_REQUEST_FIRE_AND_FORGET == 2);
  /* An enum constant still fits where a tca_status goes. */
  tca_status status = TCA_ERR_JSON_SHAPE;
  CHECK(status == 5);
}

static void test_new_v2(void) {
  /* "counterXYZ" cut to its first 7 bytes: the name has no NUL after it. */
  const char names[] = {'c', 'o', 'u', 'n', 't', 'e', 'r', 'X', 'Y', 'Z'};
  const char state[] = "{\"count\":41,\"isNumberFactLoading\":false}trailing";
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new_v2(names, 7, state, 40, NULL, &store), TCA_OK);
  CHECK(store != NULL);
  CHECK(state_is(store, "{\"count\":41,"));
  tca_store_free(store);

  /* The default state: state_json NULL, its length ignored. */
  store = NULL;
  CHECK_STATUS(tca_store_new_v2(names, 7, NULL, 99, NULL, &store), TCA_OK);
  CHECK(state_is(store, "{\"count\":0,"));
  tca_store_free(store);

  /* With options: a manual clock. */
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  store = NULL;
  CHECK_STATUS(tca_store_new_v2("counter", 7, NULL, 0, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 16), TCA_OK);
  tca_store_free(store);

  /* Bad input: named in the message, out set to NULL, nothing made. */
  store = (tca_store *)&options;
  CHECK_STATUS(tca_store_new_v2(names, 10, NULL, 0, NULL, &store), TCA_ERR_UNKNOWN_FEATURE);
  CHECK(store == NULL);
  CHECK_CONTAINS(tca_last_error(), "counterXYZ");
  CHECK_STATUS(tca_store_new_v2("counter\0x", 9, NULL, 0, NULL, &store),
               TCA_ERR_UNKNOWN_FEATURE);
  CHECK_STATUS(tca_store_new_v2(NULL, 7, NULL, 0, NULL, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "feature");
  CHECK_STATUS(tca_store_new_v2("counter", SIZE_MAX, NULL, 0, NULL, &store),
               TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "tca_store_new_v2");
  CHECK_STATUS(tca_store_new_v2("co\xffnter", 8, NULL, 0, NULL, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
  CHECK_STATUS(tca_store_new_v2("counter", 7, "{\"count\":1}", 5, NULL, &store),
               TCA_ERR_JSON_SYNTAX);
  CHECK(store == NULL);
  CHECK_STATUS(tca_store_new_v2("counter", 7, NULL, 0, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  /* A zero-length name names no feature. */
  CHECK_STATUS(tca_store_new_v2("", 0, NULL, 0, NULL, &store), TCA_ERR_UNKNOWN_FEATURE);
}

static void test_get_n(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", "{\"count\":7,\"isNumberFactLoading\":false}", NULL,
                             &store),
               TCA_OK);
  const char pointers[] = "/count/isNumberFactLoading";
  char *json = NULL;
  size_t length = 99;
  CHECK_STATUS(tca_store_get_n(store, pointers, 6, &json, &length), TCA_OK);
  CHECK(json != NULL && strcmp(json, "7") == 0 && length == 1);
  tca_string_free(json);
  CHECK_STATUS(tca_store_get_n(store, pointers + 6, 20, &json, &length), TCA_OK);
  CHECK(json != NULL && strcmp(json, "false") == 0 && length == 5);
  tca_string_free(json);
  /* The whole state: a zero-length pointer. */
  CHECK_STATUS(tca_store_get_n(store, pointers, 0, &json, NULL), TCA_OK);
  CHECK(json != NULL && strncmp(json, "{\"count\":7,", 11) == 0);
  tca_string_free(json);

  /* Bad input: out-parameters cleared, message names the place. */
  json = (char *)pointers;
  length = 99;
  CHECK_STATUS(tca_store_get_n(store, pointers, 3, &json, &length), TCA_ERR_NOT_FOUND);
  CHECK(json == NULL && length == 0);
  CHECK_CONTAINS(tca_last_error(), "/co");
  CHECK_STATUS(tca_store_get_n(store, "/count\0", 7, &json, NULL), TCA_ERR_NOT_FOUND);
  CHECK_STATUS(tca_store_get_n(store, "count", 5, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get_n(store, NULL, 5, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get_n(store, "/\xff", 2, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get_n(store, "/count", SIZE_MAX, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get_n(store, "/count", 6, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_get_n(NULL, "/count", 6, &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL);
  tca_store_free(store);
  CHECK_STATUS(tca_store_get_n(store, "/count", 6, &json, NULL), TCA_ERR_INVALID_HANDLE);
}

static void test_fail_n(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  fact_host host = {0, 0};
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, NULL, &host), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(host.requests == 1);
  uint64_t version = tca_store_version(store);

  /* Bad input changes nothing: the request still waits. */
  CHECK_STATUS(tca_store_fail_n(store, host.id, NULL, 3), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_fail_n(store, host.id, "bad \xff", 5), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
  CHECK_STATUS(tca_store_fail_n(store, host.id, "x", SIZE_MAX), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_fail_n(store, host.id + 100, "x", 1), TCA_ERR_UNKNOWN_REQUEST);
  CHECK_STATUS(tca_store_fail_n(NULL, host.id, "x", 1), TCA_ERR_INVALID_HANDLE);
  CHECK(tca_store_version(store) == version);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));

  /* The message is its first 20 bytes only. */
  const char message[] = "the network is down, and more";
  CHECK_STATUS(tca_store_fail_n(store, host.id, message, 20), TCA_OK);
  CHECK(value_contains(store, "/numberFactError", "the network is down"));
  char *error = NULL;
  CHECK_STATUS(tca_store_get(store, "/numberFactError", &error, NULL), TCA_OK);
  CHECK(error != NULL && strstr(error, "and more") == NULL);
  tca_string_free(error);
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK_STATUS(tca_store_fail_n(store, host.id, "again", 5), TCA_ERR_REQUEST_FINISHED);
  tca_store_free(store);
}

int main(void) {
  test_enum_values();
  test_new_v2();
  test_get_n();
  test_fail_n();
  TEST_SUMMARY();
}
