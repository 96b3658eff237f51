/* Subscriptions and versions: called once per call that changed the state, with the new version
 * (and state JSON), on the calling thread; unsubscribing, from outside and from inside callbacks. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

typedef struct watcher {
  int calls;
  uint64_t versions[32];
  char last_json[256];
  size_t last_length;
  int json_matches_state; /* the JSON it got equals tca_store_state inside the callback */
  int on_calling_thread;
  pthread_t thread;
  tca_store *store_seen;
  /* Actions to take inside the callback. */
  int send_once;               /* send "incrementButtonTapped" on the first call */
  uint64_t unsubscribe_token;  /* unsubscribe this token (then clear it) */
  tca_status unsubscribe_status;
} watcher;

static void seen(watcher *w, tca_store *store, uint64_t version) {
  if (w->calls < 32) w->versions[w->calls] = version;
  w->calls++;
  w->store_seen = store;
  w->on_calling_thread = pthread_equal(w->thread, pthread_self());
  if (w->send_once) {
    w->send_once = 0;
    tca_store_send(store, "\"incrementButtonTapped\"");
  }
  if (w->unsubscribe_token) {
    w->unsubscribe_status = tca_store_unsubscribe(store, w->unsubscribe_token);
    w->unsubscribe_token = 0;
  }
}

static void on_state(void *userdata, tca_store *store, uint64_t version) {
  seen(userdata, store, version);
}

static void on_state_json(void *userdata, tca_store *store, uint64_t version, const char *json,
                          size_t length) {
  watcher *w = userdata;
  snprintf(w->last_json, sizeof w->last_json, "%s", json ? json : "(null)");
  w->last_length = length;
  char *state = state_of(store);
  w->json_matches_state = json != NULL && state != NULL && strcmp(state, json) == 0 &&
                          strlen(json) == length && tca_store_version(store) == version;
  tca_string_free(state);
  seen(w, store, version);
}

static tca_store *counter(void) {
  tca_store *store = NULL;
  if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) abort();
  return store;
}

static void answer_at_once(void *userdata, tca_store *store, uint64_t id, const char *name,
                           const char *payload, size_t payload_length) {
  (void)userdata;
  (void)name;
  (void)payload;
  (void)payload_length;
  tca_store_respond(store, id, "\"a fact\"");
}

static void test_versions(void) {
  tca_store *store = counter();
  CHECK(tca_store_version(store) == 0);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) == 1);
  CHECK_STATUS(tca_store_send(store, "\"jump\""), TCA_ERR_JSON_SHAPE);
  CHECK(tca_store_version(store) == 1);
  /* A change and its undoing between two reads: the state is equal, so is the version. */
  CHECK_STATUS(tca_store_send(store, "\"decrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) == 1);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) == 2);
  tca_store_free(store);
  CHECK(tca_store_version(store) == TCA_VERSION_NONE);
  CHECK_CONTAINS(tca_last_error(), "tca_store_version");
  CHECK(tca_store_version(NULL) == TCA_VERSION_NONE);
  int not_a_store;
  CHECK(tca_store_version((const tca_store *)&not_a_store) == TCA_VERSION_NONE);
}

static void test_subscribers_are_told_once_per_call(void) {
  tca_store *store = counter();
  watcher w, j;
  memset(&w, 0, sizeof w);
  memset(&j, 0, sizeof j);
  w.thread = j.thread = pthread_self();
  uint64_t token = 0, json_token = 0;
  CHECK_STATUS(tca_store_subscribe(store, on_state, &w, &token), TCA_OK);
  CHECK_STATUS(tca_store_subscribe_state(store, on_state_json, &j, &json_token), TCA_OK);
  CHECK(token != 0);
  CHECK(json_token != 0 && json_token != token);

  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(w.calls == 1 && w.versions[0] == 1);
  CHECK(w.on_calling_thread);
  CHECK(w.store_seen == store);
  CHECK(j.calls == 1 && j.versions[0] == 1);
  CHECK(j.json_matches_state);
  CHECK(strncmp(j.last_json, "{\"count\":1,", 11) == 0);
  CHECK(j.last_length == strlen(j.last_json));

  /* A failed send, or one that changes nothing, tells no one. */
  CHECK_STATUS(tca_store_send(store, "{\"incrementButtonTapped\""), TCA_ERR_JSON_SYNTAX);
  CHECK(w.calls == 1);

  /* One call, many changes (loading, then the answer): one notification. */
  CHECK_STATUS(tca_store_set_effect_handler(store, answer_at_once, NULL, NULL), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(w.calls == 2);
  CHECK(w.versions[1] == tca_store_version(store));
  CHECK(j.calls == 2);
  CHECK_CONTAINS(j.last_json, "\"numberFact\":\"a fact\"");

  /* Unsubscribed: not called again. */
  CHECK_STATUS(tca_store_unsubscribe(store, token), TCA_OK);
  CHECK_STATUS(tca_store_unsubscribe(store, token), TCA_ERR_NOT_FOUND);
  CHECK_CONTAINS(tca_last_error(), "tca_store_unsubscribe");
  CHECK_STATUS(tca_store_unsubscribe(store, 0), TCA_ERR_NOT_FOUND);
  CHECK_STATUS(tca_store_unsubscribe(store, 987654), TCA_ERR_NOT_FOUND);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(w.calls == 2);
  CHECK(j.calls == 3);
  tca_store_free(store);
  CHECK(j.calls == 3);
}

static void test_callbacks_that_call_back(void) {
  tca_store *store = counter();
  watcher a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.thread = b.thread = pthread_self();
  uint64_t token_a = 0, token_b = 0;
  /* NULL out_token is allowed. */
  CHECK_STATUS(tca_store_subscribe(store, on_state, &a, NULL), TCA_OK);
  tca_store_free(store);

  store = counter();
  memset(&a, 0, sizeof a);
  a.thread = pthread_self();
  CHECK_STATUS(tca_store_subscribe(store, on_state, &a, &token_a), TCA_OK);
  CHECK_STATUS(tca_store_subscribe(store, on_state, &b, &token_b), TCA_OK);
  /* a sends from inside its callback (queued: the state changes again, a second round follows
   * in the same call) and unsubscribes b before b is called in this round. */
  a.send_once = 1;
  a.unsubscribe_token = token_b;
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(a.unsubscribe_status, TCA_OK);
  CHECK(b.calls == 0);
  CHECK(a.calls == 2);
  CHECK(a.versions[0] == 1 && a.versions[1] == 2);
  CHECK(state_is(store, "{\"count\":2,"));

  /* A subscriber unsubscribing itself. */
  a.unsubscribe_token = token_a;
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(a.unsubscribe_status, TCA_OK);
  CHECK(a.calls == 3);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(a.calls == 3);
  tca_store_free(store);
}

static void test_bad_subscriptions(void) {
  tca_store *store = counter();
  watcher w;
  memset(&w, 0, sizeof w);
  uint64_t token = 77;
  CHECK_STATUS(tca_store_subscribe(store, NULL, &w, &token), TCA_ERR_INVALID_ARGUMENT);
  CHECK(token == 0);
  CHECK_STATUS(tca_store_subscribe_state(store, NULL, &w, &token), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "fn is NULL");
  tca_store_free(store);
  CHECK_STATUS(tca_store_subscribe(store, on_state, &w, &token), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_subscribe_state(store, on_state_json, &w, &token), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_unsubscribe(store, 1), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_subscribe(NULL, on_state, &w, &token), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_unsubscribe(NULL, 1), TCA_ERR_INVALID_HANDLE);
  int not_a_store;
  CHECK_STATUS(tca_store_subscribe((tca_store *)&not_a_store, on_state, &w, &token),
               TCA_ERR_INVALID_HANDLE);
  CHECK(w.calls == 0);
}

int main(void) {
  test_versions();
  test_subscribers_are_told_once_per_call();
  test_callbacks_that_call_back();
  test_bad_subscriptions();
  TEST_SUMMARY();
}
