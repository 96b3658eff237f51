/* A recording host for the end-to-end feature tests: it keeps every request the store makes (and
 * every cancellation) for the test to answer, and reads fixture files. */
#ifndef TCA_TEST_FEATURE_HOST_H
#define TCA_TEST_FEATURE_HOST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

#define HOST_MAX 64

typedef struct feature_host {
  int requests;
  uint64_t ids[HOST_MAX];
  char names[HOST_MAX][64];
  char payloads[HOST_MAX][256];
  int32_t kinds[HOST_MAX];
  int cancels;
  uint64_t cancelled[HOST_MAX];
} feature_host;

static void feature_host_request(void *userdata, tca_store *store, const tca_request *request) {
  (void)store;
  feature_host *host = userdata;
  if (host->requests < HOST_MAX) {
    host->ids[host->requests] = request->id;
    snprintf(host->names[host->requests], 64, "%s", request->name);
    snprintf(host->payloads[host->requests], 256, "%.*s", (int)request->payload_length,
             request->payload_json);
    host->kinds[host->requests] = request->kind;
  }
  host->requests++;
}

static void feature_host_cancel(void *userdata, tca_store *store, uint64_t request_id) {
  (void)store;
  feature_host *host = userdata;
  if (host->cancels < HOST_MAX) host->cancelled[host->cancels] = request_id;
  host->cancels++;
}

/* A store of `feature` made with `options`, its requests going to `host`. */
static inline tca_store *feature_store_with(const char *feature, const char *state,
                                            const tca_options *options, feature_host *host) {
  tca_store *store = NULL;
  if (tca_store_new(feature, state, options, &store) != TCA_OK) {
    fprintf(stderr, "tca_store_new(%s): %s\n", feature, tca_last_error());
    exit(1);
  }
  memset(host, 0, sizeof *host);
  if (tca_store_set_request_handler(store, feature_host_request, feature_host_cancel, host) !=
      TCA_OK) {
    fprintf(stderr, "tca_store_set_request_handler: %s\n", tca_last_error());
    exit(1);
  }
  return store;
}

/* A store of `feature` on a manual clock with `seed`, its requests going to `host`. */
static inline tca_store *feature_store(const char *feature, const char *state, uint64_t seed,
                                       feature_host *host) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = seed;
  return feature_store_with(feature, state, &options, host);
}

/* The index of the last request, which must be named `name` (else -1, reported). */
static inline int last_request(const feature_host *host, const char *name) {
  int last = host->requests - 1;
  if (last < 0 || last >= HOST_MAX || strcmp(host->names[last], name) != 0) {
    fprintf(stderr, "  the last request is %s, expected %s\n",
            last >= 0 && last < HOST_MAX ? host->names[last] : "(none)", name);
    return -1;
  }
  return last;
}

/* The JSON text at `pointer` in the state (the caller frees it), or NULL. */
static inline char *value_at(tca_store *store, const char *pointer) {
  char *json = NULL;
  if (tca_store_get(store, pointer, &json, NULL) != TCA_OK) return NULL;
  return json;
}

/* The contents of Tests/fixtures/`path` (the caller frees it); exits if it cannot be read.
 * TCA_FIXTURES overrides the folder (the tests run from the project's root). */
static inline char *fixture(const char *path) {
  const char *folder = getenv("TCA_FIXTURES");
  char full[1024];
  snprintf(full, sizeof full, "%s/%s", folder ? folder : "Tests/fixtures", path);
  FILE *file = fopen(full, "rb");
  if (file == NULL) {
    fprintf(stderr, "cannot open fixture %s\n", full);
    exit(1);
  }
  size_t capacity = 1 << 16, length = 0;
  char *text = malloc(capacity);
  if (text == NULL) abort();
  size_t count;
  while ((count = fread(text + length, 1, capacity - length - 1, file)) > 0) {
    length += count;
    if (capacity - length - 1 == 0) {
      capacity *= 2;
      text = realloc(text, capacity);
      if (text == NULL) abort();
    }
  }
  fclose(file);
  text[length] = 0;
  return text;
}

/* Answers request `id` with the fixture at `path`. */
static inline tca_status respond_with_fixture(tca_store *store, uint64_t id, const char *path) {
  char *text = fixture(path);
  tca_status status = tca_store_respond(store, id, text);
  free(text);
  return status;
}

#endif
