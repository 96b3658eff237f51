/* Many threads on one store: exact final state, callbacks never concurrent, free racing with
 * calls, threaded stores. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <time.h>

#include "harness.h"
#include "support.h"

#define THREADS 8
#define SENDS 5000

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* ---- 8 threads sending to one store ------------------------------------------------------ */

typedef struct sender {
  tca_store *store;
  int index;
  int failures;
} sender;

static void *send_many(void *arg) {
  sender *s = arg;
  for (int i = 0; i < SENDS; i++) {
    /* Every thread sends 3 increments for each decrement; odd threads use the long form. */
    const char *action = i % 4 == 3 ? (s->index % 2 ? "{\"decrementButtonTapped\":{}}"
                                                    : "\"decrementButtonTapped\"")
                                    : (s->index % 2 ? "{\"incrementButtonTapped\":{}}"
                                                    : "\"incrementButtonTapped\"");
    if (tca_store_send(s->store, action) != TCA_OK) s->failures++;
    if (i % 500 == 0) {
      char *json = NULL;
      if (tca_store_state(s->store, &json, NULL) != TCA_OK) s->failures++;
      tca_string_free(json);
    }
  }
  return NULL;
}

/* A subscriber that checks no two callbacks of the store ever overlap. */
typedef struct overlap_check {
  pthread_mutex_t inside;
  int calls;
  int overlaps;
  uint64_t last_version;
  int versions_went_back;
} overlap_check;

static void on_change(void *userdata, tca_store *store, uint64_t version) {
  overlap_check *c = userdata;
  (void)store;
  if (pthread_mutex_trylock(&c->inside) != 0) {
    c->overlaps++; /* racy by design: any count > 0 is a failure */
    return;
  }
  c->calls++;
  if (version <= c->last_version) c->versions_went_back++;
  c->last_version = version;
  sleep_ms(0);
  pthread_mutex_unlock(&c->inside);
}

static void test_eight_threads_one_store(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  overlap_check check;
  memset(&check, 0, sizeof check);
  pthread_mutex_init(&check.inside, NULL);
  CHECK_STATUS(tca_store_subscribe(store, on_change, &check, NULL), TCA_OK);

  pthread_t threads[THREADS];
  sender senders[THREADS];
  for (int i = 0; i < THREADS; i++) {
    senders[i].store = store;
    senders[i].index = i;
    senders[i].failures = 0;
    pthread_create(&threads[i], NULL, send_many, &senders[i]);
  }
  int failures = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    failures += senders[i].failures;
  }
  CHECK(failures == 0);
  /* Each thread: SENDS * 3/4 increments, SENDS / 4 decrements. */
  char expected[64];
  snprintf(expected, sizeof expected, "%d", THREADS * (SENDS / 4) * 2);
  CHECK(value_is(store, "/count", expected));
  CHECK(check.overlaps == 0);
  CHECK(check.versions_went_back == 0);
  CHECK(check.calls > 0);
  tca_store_free(store);
  pthread_mutex_destroy(&check.inside);
}

/* ---- effects answered by many threads at once -------------------------------------------- */

static void answer_at_once(void *userdata, tca_store *store, uint64_t id, const char *name,
                           const char *payload, size_t payload_length) {
  (void)userdata;
  (void)name;
  (void)payload_length;
  char answer[64];
  snprintf(answer, sizeof answer, "\"fact about %s\"", payload);
  tca_store_respond(store, id, answer);
}

static void *tap_and_count(void *arg) {
  sender *s = arg;
  for (int i = 0; i < SENDS / 5; i++) {
    if (tca_store_send(s->store, "\"numberFactButtonTapped\"") != TCA_OK) s->failures++;
    if (tca_store_send(s->store, "\"incrementButtonTapped\"") != TCA_OK) s->failures++;
  }
  return NULL;
}

static void test_effects_from_many_threads(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_set_effect_handler(store, answer_at_once, NULL, NULL), TCA_OK);
  pthread_t threads[THREADS];
  sender senders[THREADS];
  for (int i = 0; i < THREADS; i++) {
    senders[i].store = store;
    senders[i].index = i;
    senders[i].failures = 0;
    pthread_create(&threads[i], NULL, tap_and_count, &senders[i]);
  }
  int failures = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    failures += senders[i].failures;
  }
  CHECK(failures == 0);
  char expected[64];
  snprintf(expected, sizeof expected, "%d", THREADS * (SENDS / 5));
  CHECK(value_is(store, "/count", expected));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK(value_contains(store, "/numberFact", "fact about"));
  tca_store_free(store);
}

/* ---- free racing with calls -------------------------------------------------------------- */

typedef struct racer {
  tca_store *store;
  int unexpected; /* statuses other than OK / INVALID_HANDLE */
  int refused;
} racer;

static volatile int g_freed; /* set once tca_store_free has returned */
static int g_late_callbacks;

static void count_late(void *userdata, tca_store *store, uint64_t version) {
  (void)userdata;
  (void)store;
  (void)version;
  if (g_freed) g_late_callbacks++;
}

static void *send_until_refused(void *arg) {
  racer *r = arg;
  for (;;) {
    tca_status status = tca_store_send(r->store, "\"incrementButtonTapped\"");
    if (status == TCA_ERR_INVALID_HANDLE) break;
    if (status != TCA_OK) r->unexpected++;
    char *json = NULL;
    status = tca_store_state(r->store, &json, NULL);
    tca_string_free(json);
    if (status != TCA_OK && status != TCA_ERR_INVALID_HANDLE) r->unexpected++;
  }
  r->refused = 1;
  return NULL;
}

static void test_free_racing_with_calls(void) {
  for (int round = 0; round < 20; round++) {
    tca_store *store = NULL;
    tca_options options = TCA_OPTIONS_INIT;
    options.threaded = round % 2;
    CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
    g_freed = 0;
    tca_store_subscribe(store, count_late, NULL, NULL);
    pthread_t threads[4];
    racer racers[4];
    for (int i = 0; i < 4; i++) {
      racers[i].store = store;
      racers[i].unexpected = 0;
      racers[i].refused = 0;
      pthread_create(&threads[i], NULL, send_until_refused, &racers[i]);
    }
    sleep_ms(2);
    tca_store_free(store);
    g_freed = 1;
    int unexpected = 0, refused = 0;
    for (int i = 0; i < 4; i++) {
      pthread_join(threads[i], NULL);
      unexpected += racers[i].unexpected;
      refused += racers[i].refused;
    }
    CHECK(unexpected == 0);
    CHECK(refused == 4);
  }
  CHECK(g_late_callbacks == 0);
}

/* ---- threaded stores ----------------------------------------------------------------------- */

typedef struct later {
  pthread_mutex_t lock;
  uint64_t id;
  int requests;
} later;

static void remember(void *userdata, tca_store *store, uint64_t id, const char *name,
                     const char *payload, size_t payload_length) {
  later *l = userdata;
  (void)store;
  (void)name;
  (void)payload;
  (void)payload_length;
  pthread_mutex_lock(&l->lock);
  l->id = id;
  l->requests++;
  pthread_mutex_unlock(&l->lock);
}

static void test_threaded_stores(void) {
  /* Made and freed many times: the thread is joined, nothing leaks (valgrind). */
  for (int i = 0; i < 50; i++) {
    tca_store *store = NULL;
    tca_options options = TCA_OPTIONS_INIT;
    options.threaded = 1;
    options.clock = i % 2 ? TCA_CLOCK_MANUAL : TCA_CLOCK_REAL;
    if (tca_store_new("counter", NULL, &options, &store) != TCA_OK) {
      CHECK(0);
      break;
    }
    tca_store_send(store, "\"incrementButtonTapped\"");
    tca_store_free(store);
  }

  tca_store *store = NULL;
  tca_options options = TCA_OPTIONS_INIT;
  options.threaded = 1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  later l;
  memset(&l, 0, sizeof l);
  pthread_mutex_init(&l.lock, NULL);
  CHECK_STATUS(tca_store_set_effect_handler(store, remember, NULL, &l), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(l.requests == 1);
  CHECK_STATUS(tca_store_respond(store, l.id, "\"threaded\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"threaded\""));
  /* A request in flight at free: cancelled, the thread joined. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  tca_store_free(store);
  CHECK_STATUS(tca_store_respond(store, l.id, "\"late\""), TCA_ERR_INVALID_HANDLE);
  pthread_mutex_destroy(&l.lock);
}

int main(void) {
  test_eight_threads_one_store();
  test_effects_from_many_threads();
  test_free_racing_with_calls();
  test_threaded_stores();
  TEST_SUMMARY();
}
