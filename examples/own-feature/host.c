/* A C host of the stopwatch library: the same tca.h as libtca, another library.
 *
 *   cc host.c -I<libtca>/include -Lbuild/lib -lstopwatch -Wl,-rpath,$PWD/build/lib -o host
 */
#include <stdio.h>
#include <string.h>
#include <tca.h>

static int failures = 0;

#define EXPECT(condition)                                                    \
  do {                                                                       \
    if (!(condition)) {                                                      \
      fprintf(stderr, "host.c:%d: FAILED: %s\n", __LINE__, #condition);      \
      failures++;                                                            \
    }                                                                        \
  } while (0)

static int state_has(tca_store *store, const char *fragment) {
  char *json = NULL;
  if (tca_store_state(store, &json, NULL) != TCA_OK) return 0;
  int found = strstr(json, fragment) != NULL;
  if (!found) fprintf(stderr, "  state %s lacks %s\n", json, fragment);
  tca_string_free(json);
  return found;
}

/* Answers stopwatch.save at once, inside the callback. */
static void on_request(void *userdata, tca_store *store, uint64_t request_id, const char *name,
                       const char *payload_json, size_t payload_length) {
  int *requests = userdata;
  (*requests)++;
  printf("host request %llu: %s %.*s\n", (unsigned long long)request_id, name,
         (int)payload_length, payload_json);
  if (strcmp(name, "stopwatch.save") == 0) {
    tca_store_respond(store, request_id, "\"laps-1.json\"");
  } else {
    tca_store_fail(store, request_id, "this host does not do that");
  }
}

int main(void) {
  char *features = tca_features();
  EXPECT(features != NULL);
  if (features) {
    printf("features: %s\n", features);
    EXPECT(strstr(features, "\"name\":\"stopwatch\"") != NULL);
    EXPECT(strstr(features, "\"name\":\"counter\"") != NULL);
    EXPECT(strstr(features, "\"name\":\"dice\"") == NULL); /* not opted into */
  }
  tca_string_free(features);

  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  tca_store *store = NULL;
  EXPECT(tca_store_new("stopwatch", NULL, &options, &store) == TCA_OK);
  int requests = 0;
  EXPECT(tca_store_set_effect_handler(store, on_request, NULL, &requests) == TCA_OK);

  EXPECT(tca_store_send(store, "\"startTapped\"") == TCA_OK);
  EXPECT(tca_store_advance(store, 350) == TCA_OK);
  EXPECT(state_has(store, "\"elapsedMilliseconds\":300"));
  EXPECT(tca_store_send(store, "\"lapTapped\"") == TCA_OK);
  EXPECT(tca_store_send(store, "\"stopTapped\"") == TCA_OK);
  EXPECT(tca_store_advance(store, 1000) == TCA_OK);
  EXPECT(state_has(store, "\"elapsedMilliseconds\":300"));
  EXPECT(tca_store_send(store, "\"saveTapped\"") == TCA_OK);
  EXPECT(requests == 1);
  EXPECT(state_has(store, "\"savedAs\":\"laps-1.json\""));
  EXPECT(state_has(store, "\"laps\":[300]"));

  EXPECT(tca_store_send(store, "\"rollButtonTapped\"") == TCA_ERR_JSON_SHAPE);
  tca_store_free(store);

  /* A partial snapshot: the State's Codable is synthesized, and the members left out still take
   * the initial state's values. A member of the wrong type names its path. */
  store = NULL;
  EXPECT(tca_store_new("stopwatch", "{\"laps\":[300]}", &options, &store) == TCA_OK);
  EXPECT(state_has(store, "{\"elapsedMilliseconds\":0,\"isRunning\":false,\"laps\":[300]}"));
  tca_store_free(store);
  store = NULL;
  EXPECT(tca_store_new("stopwatch", "{\"laps\":\"x\"}", &options, &store) == TCA_ERR_JSON_SHAPE);
  EXPECT(strstr(tca_last_error(), "at /laps:") != NULL);
  EXPECT(store == NULL);

  printf("%s\n", failures == 0 ? "stopwatch host: all checks passed" : "stopwatch host: FAILED");
  return failures == 0 ? 0 : 1;
}
