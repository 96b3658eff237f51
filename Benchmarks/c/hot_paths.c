/* The library's hot paths, for profiling: scripts/order-symbols.sh runs this under callgrind to
 * list the functions they run, which the link then places side by side (scripts/tca.order).
 *
 *   hot_paths roundtrip N   N counter number facts, each answered inside the request callback
 *   hot_paths pull N        N counter number facts in pull mode: send, take the request,
 *                           answer it (tca_store_take_requests, tca_store_respond)
 *   hot_paths pullv2 N      the same, taking the request as a struct (tca_store_take_requests_v2)
 *   hot_paths send N        N counter increments
 *   hot_paths toggle N      N toggles of one of 1,000 todos
 *   hot_paths recsend N     N counter increments to a store with options.record = 1
 *   hot_paths tab N         N matchscores tab switches ({"tabSelected":…}, two tabs in turn)
 *   hot_paths dice N        N dice rolls as a game loop runs them: pull mode, a manual clock;
 *                           each roll sent, its requests taken, the clock moved past the roll,
 *                           then undone (so that the history stays short)
 *   hot_paths scaffold N [NAME]
 *                           N "incrementTapped" sends to a feature made by scripts/new-feature.sh
 *                           (NAME, "scaffold" by default), in the library this is linked with
 */
#include "tca.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void answer(void *userdata, tca_store *store, uint64_t id, const char *name,
                   const char *payload, size_t length) {
  (void)userdata, (void)name, (void)payload, (void)length;
  if (tca_store_respond(store, id, "\"a fact\"") != TCA_OK) {
    fprintf(stderr, "tca_store_respond: %s\n", tca_last_error());
    exit(1);
  }
}

static tca_store *make_todos(void) {
  size_t capacity = 128 * 1000 + 64, length = 0;
  char *snapshot = malloc(capacity);
  if (snapshot == NULL) return NULL;
  length += (size_t)snprintf(snapshot, capacity, "{\"editMode\":false,\"filter\":\"all\",\"todos\":[");
  for (int i = 0; i < 1000; i++) {
    length += (size_t)snprintf(
        snapshot + length, capacity - length,
        "%s{\"description\":\"Walk the dog (item %d)\","
        "\"id\":\"00000000-0000-4000-8000-%012d\",\"isComplete\":%s}",
        i ? "," : "", i, i, i % 3 ? "false" : "true");
  }
  snprintf(snapshot + length, capacity - length, "]}");
  tca_store *store = NULL;
  int status = tca_store_new("todos", snapshot, NULL, &store);
  free(snapshot);
  return status == TCA_OK ? store : NULL;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s roundtrip|pull|send|recsend|toggle|tab|dice|scaffold N [NAME]\n",
            argv[0]);
    return 2;
  }
  long n = atol(argv[2]);
  const char *feature = strcmp(argv[1], "tab") == 0        ? "matchscores"
                        : strcmp(argv[1], "dice") == 0     ? "dice"
                        : strcmp(argv[1], "scaffold") == 0 ? (argc == 4 ? argv[3] : "scaffold")
                                                           : "counter";
  tca_store *store = NULL;
  if (strcmp(argv[1], "toggle") == 0) {
    store = make_todos();
  } else if (strcmp(argv[1], "recsend") == 0) {
    tca_options options = TCA_OPTIONS_INIT;
    options.record = 1;
    if (tca_store_new(feature, NULL, &options, &store) != TCA_OK) store = NULL;
  } else if (strcmp(argv[1], "dice") == 0) {
    tca_options options;
    tca_options_init(&options);
    options.clock = TCA_CLOCK_MANUAL;
    options.requests = TCA_REQUESTS_QUEUED;
    if (tca_store_new_v2(feature, strlen(feature), NULL, 0, &options, &store) != TCA_OK)
      store = NULL;
  } else if (strcmp(argv[1], "pull") == 0 || strcmp(argv[1], "pullv2") == 0) {
    tca_options options;
    tca_options_init(&options);
    options.requests = TCA_REQUESTS_QUEUED;
    if (tca_store_new(feature, NULL, &options, &store) != TCA_OK) store = NULL;
  } else if (tca_store_new(feature, NULL, NULL, &store) != TCA_OK) {
    store = NULL;
  }
  if (store == NULL) {
    fprintf(stderr, "no store: %s\n", tca_last_error());
    return 1;
  }
  int status = TCA_OK;
  if (strcmp(argv[1], "roundtrip") == 0) {
    status = tca_store_set_effect_handler(store, answer, NULL, NULL);
    for (long i = 0; i < n && status == TCA_OK; i++)
      status = tca_store_send(store, "\"numberFactButtonTapped\"");
  } else if (strcmp(argv[1], "pull") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++) {
      char *taken = NULL;
      status = tca_store_send(store, "\"numberFactButtonTapped\"");
      if (status == TCA_OK) status = tca_store_take_requests(store, &taken, NULL);
      const char *id = taken ? strstr(taken, "\"id\":") : NULL;
      if (status == TCA_OK && id == NULL) {
        fprintf(stderr, "no request taken: %s\n", taken ? taken : "(null)");
        status = TCA_ERR_INVALID_ARGUMENT;
      }
      if (status == TCA_OK)
        status = tca_store_respond(store, strtoull(id + 5, NULL, 10), "\"a fact\"");
      tca_string_free(taken);
    }
  } else if (strcmp(argv[1], "pullv2") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++) {
      const tca_request *taken = NULL;
      size_t count = 0;
      status = tca_store_send(store, "\"numberFactButtonTapped\"");
      if (status == TCA_OK) status = tca_store_take_requests_v2(store, &taken, &count);
      if (status == TCA_OK && count != 1) {
        fprintf(stderr, "%zu requests taken\n", count);
        status = TCA_ERR_INVALID_ARGUMENT;
      }
      if (status == TCA_OK) status = tca_store_respond(store, taken[0].id, "\"a fact\"");
    }
  } else if (strcmp(argv[1], "send") == 0 || strcmp(argv[1], "recsend") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++)
      status = tca_store_send(store, "\"incrementButtonTapped\"");
  } else if (strcmp(argv[1], "toggle") == 0) {
    char action[160];
    for (long i = 0; i < n && status == TCA_OK; i++) {
      snprintf(action, sizeof action,
               "{\"todos\":{\"element\":{\"id\":\"00000000-0000-4000-8000-%012ld\","
               "\"action\":\"checkBoxToggled\"}}}",
               1 + i % 999);
      status = tca_store_send(store, action);
    }
  } else if (strcmp(argv[1], "tab") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++)
      status = tca_store_send(store, i % 2 ? "{\"tabSelected\":\"teams\"}"
                                           : "{\"tabSelected\":\"games\"}");
  } else if (strcmp(argv[1], "dice") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++) {
      char *requests = NULL;
      status = tca_store_send(store, "\"rollButtonTapped\"");
      if (status == TCA_OK) status = tca_store_take_requests(store, &requests, NULL);
      tca_string_free(requests);
      if (status == TCA_OK) status = tca_store_advance(store, 500);
      if (status == TCA_OK) status = tca_store_send(store, "\"undoLastRoll\"");
    }
  } else if (strcmp(argv[1], "scaffold") == 0) {
    for (long i = 0; i < n && status == TCA_OK; i++)
      status = tca_store_send(store, "\"incrementTapped\"");
  } else {
    fprintf(stderr, "unknown path %s\n", argv[1]);
    status = TCA_ERR_INVALID_ARGUMENT;
  }
  if (status != TCA_OK) fprintf(stderr, "%s\n", tca_last_error());
  tca_store_free(store);
  return status == TCA_OK ? 0 : 1;
}
