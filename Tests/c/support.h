/* Helpers shared by the C tests: reading a store's state and parts of it. */
#ifndef TCA_TEST_SUPPORT_H
#define TCA_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

/* The state's JSON (the caller frees it with tca_string_free), or NULL. */
static inline char *state_of(tca_store *store) {
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
static inline int state_is(tca_store *store, const char *expected) {
  char *json = state_of(store);
  int same = json != NULL && strncmp(json, expected, strlen(expected)) == 0;
  if (!same) fprintf(stderr, "  state is %s, expected %s…\n", json ? json : "(null)", expected);
  tca_string_free(json);
  return same;
}

/* Whether the value at `pointer` is exactly `expected` (JSON text). */
static inline int value_is(tca_store *store, const char *pointer, const char *expected) {
  char *json = NULL;
  size_t length = 0;
  tca_status status = tca_store_get(store, pointer, &json, &length);
  int same = status == TCA_OK && json != NULL && strcmp(json, expected) == 0 &&
             length == strlen(expected);
  if (!same)
    fprintf(stderr, "  %s is %s (%s), expected %s\n", pointer, json ? json : "(null)",
            status == TCA_OK ? "ok" : tca_last_error(), expected);
  tca_string_free(json);
  return same;
}

/* Whether the value at `pointer` contains `needle`. */
static inline int value_contains(tca_store *store, const char *pointer, const char *needle) {
  char *json = NULL;
  int found = tca_store_get(store, pointer, &json, NULL) == TCA_OK && strstr(json, needle) != NULL;
  if (!found) fprintf(stderr, "  %s is %s, expected to contain %s\n", pointer, json ? json : "(null)", needle);
  tca_string_free(json);
  return found;
}

/* A store replayed (in pull mode) from the whole journal of `store`, or NULL; the caller frees
 * it. */
static inline tca_store *replayed_from(tca_store *store) {
  char *journal = NULL;
  size_t length = 0;
  if (tca_store_journal(store, &journal, &length) != TCA_OK) return NULL;
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  tca_store *replayed = NULL;
  if (tca_store_replay(journal, length, TCA_VERSION_NONE, &options, &replayed) != TCA_OK)
    replayed = NULL;
  tca_string_free(journal);
  return replayed;
}

/* Whether the library was built with the feature `name`. */
static inline int library_has_feature(const char *name) {
  char *features = tca_features();
  char needle[64];
  snprintf(needle, sizeof needle, "\"name\":\"%s\"", name);
  int found = features != NULL && strstr(features, needle) != NULL;
  tca_string_free(features);
  return found;
}

/* A string of `depth` '[' (hostile nesting); the caller frees it. */
static inline char *deep_json(size_t depth) {
  char *deep = malloc(depth + 1);
  if (deep == NULL) abort();
  memset(deep, '[', depth);
  deep[depth] = 0;
  return deep;
}

#endif
