/* tca_store_patch: what changed since a version, as RFC 6902 JSON Patch; its statuses
 * (TCA_ERR_VERSION_GONE past the 16 versions kept), and todos' patches by id. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

/* The patch since `since` as a string (caller frees), or NULL with `*status` set. */
static char *patch_of(tca_store *store, uint64_t since, tca_status *status) {
  char *json = NULL;
  size_t length = 99;
  *status = tca_store_patch(store, since, &json, &length);
  if (*status != TCA_OK) {
    CHECK(json == NULL && length == 0);
    return NULL;
  }
  CHECK(json != NULL && strlen(json) == length);
  return json;
}

static int patch_is(tca_store *store, uint64_t since, const char *expected) {
  tca_status status;
  char *json = patch_of(store, since, &status);
  int same = json != NULL && strcmp(json, expected) == 0;
  if (!same) fprintf(stderr, "patch since %llu: %s\n", (unsigned long long)since, json ? json : "(none)");
  tca_string_free(json);
  return same;
}

static void test_counter(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK(patch_is(store, 0, "[]"));
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) == 1);
  CHECK(patch_is(store, 0, "[{\"op\":\"replace\",\"path\":\"/count\",\"value\":1}]"));
  CHECK(patch_is(store, 1, "[]"));
  CHECK_STATUS(tca_store_send(store, "{\"numberFactResponse\":\"1 is one.\"}"), TCA_OK);
  CHECK(patch_is(store, 1, "[{\"op\":\"add\",\"path\":\"/numberFact\",\"value\":\"1 is one.\"}]"));

  /* 16 versions are kept: the current one and the 15 before it. */
  for (int i = 0; i < 20; i++) {
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
    (void)tca_store_version(store);
  }
  uint64_t version = tca_store_version(store);
  CHECK(version == 22);
  tca_status status;
  CHECK(patch_of(store, version - 16, &status) == NULL && status == TCA_ERR_VERSION_GONE);
  CHECK_CONTAINS(tca_last_error(), "tca_store_patch: version 6 is no longer kept");
  CHECK(patch_of(store, version + 1, &status) == NULL && status == TCA_ERR_VERSION_GONE);
  CHECK_CONTAINS(tca_last_error(), "newer than the current version 22");
  CHECK(patch_is(store, version - 15, "[{\"op\":\"replace\",\"path\":\"/count\",\"value\":21}]"));
  CHECK(strcmp(tca_status_str(TCA_ERR_VERSION_GONE), "version no longer kept") == 0);

  /* Arguments. */
  CHECK_STATUS(tca_store_patch(store, 0, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  char *json = (char *)"x";
  CHECK_STATUS(tca_store_patch(NULL, 0, &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL);
  tca_store_free(store);
}

static void test_todos_by_id(void) {
  const char *snapshot =
      "{\"todos\":[{\"id\":\"00000000-0000-0000-0000-000000000001\",\"description\":\"a\"},"
      "{\"id\":\"00000000-0000-0000-0000-000000000002\",\"description\":\"b\"},"
      "{\"id\":\"00000000-0000-0000-0000-000000000003\",\"description\":\"c\"}]}";
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("todos", snapshot, NULL, &store), TCA_OK);
  uint64_t before = tca_store_version(store);
  /* A toggle patches one member. */
  CHECK_STATUS(tca_store_send(store, "{\"todos\":{\"element\":{\"id\":"
                                     "\"00000000-0000-0000-0000-000000000002\","
                                     "\"action\":\"checkBoxToggled\"}}}"),
               TCA_OK);
  CHECK(patch_is(store, before,
                 "[{\"op\":\"replace\",\"path\":\"/todos/1/isComplete\",\"value\":true}]"));
  before = tca_store_version(store);
  /* A move of the last todo to the top is a move of it (and of its id in filteredTodos, a
   * list of strings, patched by position), not the list replaced. */
  CHECK_STATUS(tca_store_send(store, "{\"move\":{\"from\":[2],\"to\":0}}"), TCA_OK);
  tca_status status;
  char *patch = patch_of(store, before, &status);
  CHECK(patch != NULL);
  if (patch) {
    CHECK_CONTAINS(patch, "{\"op\":\"move\",\"from\":\"/todos/2\",\"path\":\"/todos/0\"}");
    CHECK(strstr(patch, "\"path\":\"/todos\"") == NULL);
    CHECK(strstr(patch, "\"description\"") == NULL);
  }
  tca_string_free(patch);
  tca_store_free(store);
}

static void test_borrowed_state(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  const char *first = NULL, *again = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_state_borrow(store, &first, &length), TCA_OK);
  CHECK(first != NULL && strcmp(first, "{\"count\":0,\"isNumberFactLoading\":false}") == 0);
  CHECK(length == strlen(first));
  /* Unchanged: the same string, not a copy. */
  CHECK_STATUS(tca_store_state_borrow(store, &again, NULL), TCA_OK);
  CHECK(again == first);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_state_borrow(store, &again, &length), TCA_OK);
  CHECK(again != NULL && strcmp(again, "{\"count\":1,\"isNumberFactLoading\":false}") == 0);
  CHECK(length == strlen(again));
  CHECK_STATUS(tca_store_state_borrow(store, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_state_borrow(NULL, &again, &length), TCA_ERR_INVALID_HANDLE);
  CHECK(again == NULL && length == 0);
  tca_store_free(store);
}

int main(void) {
  test_counter();
  test_borrowed_state();
  test_todos_by_id();
  TEST_SUMMARY();
}
