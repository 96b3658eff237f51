/* Time and scheduling through tca.h, on the dice feature (a roll lands 500 ms after the tap, on
 * the store's clock): the manual clock, deadlines, the descriptor of a real-clock store, a
 * threaded store running its timers by itself, advancing from inside a callback, freeing with
 * timers pending. */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <time.h>

#include "harness.h"
#include "support.h"

static const char *const ROLL = "\"rollButtonTapped\"";

static tca_store *dice(int clock, int threaded, uint64_t seed) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = clock;
  options.threaded = threaded;
  options.seed = seed;
  tca_store *store = NULL;
  if (tca_store_new("dice", NULL, &options, &store) != TCA_OK) {
    fprintf(stderr, "tca_store_new: %s\n", tca_last_error());
    abort();
  }
  return store;
}

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void test_manual_clock(void) {
  tca_store *store = dice(TCA_CLOCK_MANUAL, 0, 42);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK(tca_store_next_deadline_ms(store) == 500);
  CHECK_STATUS(tca_store_advance(store, 499), TCA_OK);
  CHECK(tca_store_next_deadline_ms(store) == 1);
  CHECK(value_is(store, "/isRolling", "true"));
  /* Polling a manual clock fires nothing: time has not moved. */
  uint32_t ran = 99;
  CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
  CHECK(ran == 0);
  CHECK_STATUS(tca_store_advance(store, 1), TCA_OK);
  CHECK(value_is(store, "/isRolling", "false"));
  CHECK(tca_store_next_deadline_ms(store) == -1);
  char *first = NULL;
  CHECK_STATUS(tca_store_get(store, "/currentRoll", &first, NULL), TCA_OK);

  /* The same seed and the same actions give the same roll. */
  tca_store *twin = dice(TCA_CLOCK_MANUAL, 0, 42);
  CHECK_STATUS(tca_store_send(twin, ROLL), TCA_OK);
  CHECK_STATUS(tca_store_advance(twin, 10000), TCA_OK);
  CHECK(first != NULL && value_is(twin, "/currentRoll", first));
  tca_string_free(first);
  tca_store_free(twin);

  /* Freeing with a timer pending: nothing fires afterwards, nothing leaks (valgrind). */
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  CHECK(tca_store_next_deadline_ms(store) == 500);
  tca_store_free(store);
  CHECK(tca_store_next_deadline_ms(store) == -1);
}

/* ---- advancing from inside a callback ------------------------------------------------------ */

typedef struct advancer {
  int calls;
  tca_status status;
} advancer;

static void advance_inside(void *userdata, tca_store *store, uint64_t version) {
  advancer *a = userdata;
  (void)version;
  if (a->calls++ == 0) a->status = tca_store_advance(store, 500);
}

static void test_advance_inside_a_callback(void) {
  tca_store *store = dice(TCA_CLOCK_MANUAL, 0, 1);
  advancer a = {0, -1};
  CHECK_STATUS(tca_store_subscribe(store, advance_inside, &a, NULL), TCA_OK);
  /* The subscriber advances the clock from inside the send: queued, done before send returns. */
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  CHECK_STATUS(a.status, TCA_OK);
  CHECK(a.calls == 2);
  CHECK(value_is(store, "/isRolling", "false"));
  CHECK(value_contains(store, "/rollHistory", "["));
  tca_store_free(store);
}

/* ---- a real clock and the store's descriptor ------------------------------------------------- */

static void test_real_clock_descriptor(void) {
  tca_store *store = dice(TCA_CLOCK_REAL, 0, 3);
  int fd = tca_store_fd(store);
  CHECK(fd >= 0);
  struct pollfd watch = {fd, POLLIN, 0};
  /* The first turn has work: the dice's history is asked of the host (shared state). */
  CHECK(poll(&watch, 1, 0) == 1);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK(poll(&watch, 1, 0) == 0);
  uint64_t start = now_ms();
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  int64_t deadline = tca_store_next_deadline_ms(store);
  CHECK(deadline > 400 && deadline <= 500);
  /* Not readable before the deadline, readable at it: a loop sleeps exactly as long as needed. */
  CHECK(poll(&watch, 1, 100) == 0);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK(poll(&watch, 1, 2000) == 1);
  uint64_t waited = now_ms() - start;
  CHECK(waited >= 490 && waited < 1500);
  uint32_t ran = 0;
  CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
  CHECK(ran > 0);
  CHECK(value_is(store, "/isRolling", "false"));
  /* Once polled, not readable again: the loop never spins. */
  CHECK(poll(&watch, 1, 0) == 0);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
  CHECK(ran == 0);
  tca_store_free(store);
}

/* ---- a threaded store runs its own timers ----------------------------------------------------- */

typedef struct watcher {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int landed;
  int on_store_thread; /* the landing was reported on a thread other than the test's */
  pthread_t test_thread;
} watcher;

static void on_change(void *userdata, tca_store *store, uint64_t version, const char *json,
                      size_t length) {
  watcher *w = userdata;
  (void)store;
  (void)version;
  (void)length;
  pthread_mutex_lock(&w->lock);
  if (json != NULL && strstr(json, "\"isRolling\":false") != NULL &&
      strstr(json, "\"rollHistory\":[]") == NULL) {
    w->landed++;
    w->on_store_thread = !pthread_equal(pthread_self(), w->test_thread);
    pthread_cond_signal(&w->changed);
  }
  pthread_mutex_unlock(&w->lock);
}

static void test_threaded_store_fires_timers_itself(void) {
  tca_store *store = dice(TCA_CLOCK_REAL, 1, 5);
  watcher w;
  memset(&w, 0, sizeof w);
  pthread_mutex_init(&w.lock, NULL);
  pthread_cond_init(&w.changed, NULL);
  w.test_thread = pthread_self();
  CHECK_STATUS(tca_store_subscribe_state(store, on_change, &w, NULL), TCA_OK);
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  /* No poll: wait for the store's thread to land the roll (up to 5 s). */
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 5;
  pthread_mutex_lock(&w.lock);
  while (w.landed == 0) {
    if (pthread_cond_timedwait(&w.changed, &w.lock, &until) != 0) break;
  }
  int landed = w.landed, on_store_thread = w.on_store_thread;
  pthread_mutex_unlock(&w.lock);
  CHECK(landed == 1);
  CHECK(on_store_thread);
  CHECK(value_is(store, "/isRolling", "false"));

  /* Freed with a roll under way: the thread is stopped and joined, the roll never lands. */
  CHECK_STATUS(tca_store_send(store, ROLL), TCA_OK);
  tca_store_free(store);
  CHECK(w.landed == 1);
  pthread_cond_destroy(&w.changed);
  pthread_mutex_destroy(&w.lock);
}

int main(void) {
  if (!library_has_feature("dice")) {
    fprintf(stderr, "this library has no dice feature\n");
    return 1;
  }
  test_manual_clock();
  test_advance_inside_a_callback();
  test_real_clock_descriptor();
  test_threaded_store_fires_timers_itself();
  TEST_SUMMARY();
}
