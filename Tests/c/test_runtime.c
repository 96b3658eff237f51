/* The runtime's concurrency contracts (issue 13): an answer accepted with TCA_OK is applied in
 * the order the host gave it; a store freed while other threads call it leaks nothing (valgrind
 * runs this program); two stores whose subscribers send to each other, driven by two threads,
 * finish; tca_store_version and tca_store_fd never wait for a callback on another thread.
 * A watchdog (alarm) turns a hang into a failure. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "support.h"

static void on_hang(int signal) {
  (void)signal;
  static const char message[] = "test_runtime: FAILED: hung (watchdog)\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(1);
}

static tca_store *counter(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  return store;
}

/* ---- 1. an accepted answer is applied before what the host sent after it ------------------ */

typedef struct host {
  int requests;
  uint64_t ids[8];
  int cancels;
  uint64_t cancelled[8];
  int from_worker; /* 1: a worker thread answers, joined inside the callback */
  tca_status answer_status;
} host;

typedef struct answer_job {
  tca_store *store;
  uint64_t id;
  tca_status status;
} answer_job;

static void *answer_from_worker(void *argument) {
  answer_job *job = argument;
  job->status = tca_store_respond(job->store, job->id, "\"a fact\"");
  return NULL;
}

static void answer_then_retap(void *userdata, tca_store *store, uint64_t id, const char *name,
                              const char *payload, size_t length) {
  host *h = userdata;
  (void)name, (void)payload, (void)length;
  if (h->requests < 8) h->ids[h->requests] = id;
  h->requests++;
  if (h->requests != 1) return;
  if (h->from_worker) {
    answer_job job = {store, id, -1};
    pthread_t worker;
    pthread_create(&worker, NULL, answer_from_worker, &job);
    pthread_join(worker, NULL);
    h->answer_status = job.status;
  } else {
    h->answer_status = tca_store_respond(store, id, "\"a fact\"");
  }
  /* Sent after the answer was accepted: it must be reduced after the answer is applied. */
  tca_store_send(store, "\"numberFactButtonTapped\"");
}

static void on_cancel(void *userdata, tca_store *store, uint64_t id) {
  host *h = userdata;
  (void)store;
  if (h->cancels < 8) h->cancelled[h->cancels] = id;
  h->cancels++;
}

static void test_answer_applied_in_order(int from_worker) {
  tca_store *store = counter();
  host h;
  memset(&h, 0, sizeof h);
  h.from_worker = from_worker;
  CHECK_STATUS(tca_store_set_effect_handler(store, answer_then_retap, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(h.answer_status, TCA_OK);
  CHECK(h.requests == 2);
  /* #1 was answered: it is never reported cancelled, and takes no second answer. */
  CHECK(h.cancels == 0);
  CHECK_STATUS(tca_store_respond(store, h.ids[0], "\"again\""), TCA_ERR_REQUEST_FINISHED);
  /* The re-tap's request #2 waits, and its answer shows. */
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  CHECK_STATUS(tca_store_respond(store, h.ids[1], "\"another fact\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"another fact\""));
  tca_store_free(store);
  CHECK(h.cancels == 0);
}

/* ---- 2. free racing with answers and sends from 4 threads: nothing leaks ------------------- */

#define RACERS 4

typedef struct race {
  const char *answer; /* long, to widen the window between an answer's check and its queueing */
  tca_store *volatile current;
  volatile int done;
  long calls;
} race;

static void *race_calls(void *argument) {
  race *r = argument;
  long calls = 0;
  unsigned turn = 0;
  while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
    tca_store *store = __atomic_load_n(&r->current, __ATOMIC_ACQUIRE);
    switch (turn++ % 3) {
    case 0: tca_store_respond(store, 1, r->answer); break;
    case 1: tca_store_fail(store, 1, "raced"); break;
    default: tca_store_send(store, "\"numberFactButtonTapped\""); break;
    }
    calls++;
    /* Leave the freeing thread room to run (valgrind runs one thread at a time). */
    sched_yield();
  }
  __atomic_add_fetch(&r->calls, calls, __ATOMIC_RELAXED);
  return NULL;
}

static void ignore_request(void *userdata, tca_store *store, uint64_t id, const char *name,
                           const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id, (void)name, (void)payload, (void)length;
}

static void test_free_racing_with_calls(void) {
  race r;
  memset(&r, 0, sizeof r);
  char answer[8192];
  memset(answer, 'x', sizeof answer);
  answer[0] = '"';
  answer[sizeof answer - 2] = '"';
  answer[sizeof answer - 1] = 0;
  r.answer = answer;
  tca_store *store = counter();
  tca_store_set_effect_handler(store, ignore_request, NULL, NULL);
  tca_store_send(store, "\"numberFactButtonTapped\"");
  __atomic_store_n(&r.current, store, __ATOMIC_RELEASE);
  pthread_t threads[RACERS];
  for (int i = 0; i < RACERS; i++) pthread_create(&threads[i], NULL, race_calls, &r);
  int made = 1;
  for (int i = 1; i < 1500; i++) {
    tca_store *next = counter();
    tca_store_set_effect_handler(next, ignore_request, NULL, NULL);
    tca_store_send(next, "\"numberFactButtonTapped\"");
    tca_store *old = __atomic_exchange_n(&r.current, next, __ATOMIC_ACQ_REL);
    /* Let the racers reach the old store's inbox before it goes. */
    for (int spin = 0; spin < 3; spin++) sched_yield();
    tca_store_free(old);
    made++;
  }
  __atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
  for (int i = 0; i < RACERS; i++) pthread_join(threads[i], NULL);
  tca_store_free(__atomic_load_n(&r.current, __ATOMIC_ACQUIRE));
  CHECK(made == 1500);
  CHECK(r.calls > 0);
}

/* ---- 3. two stores whose subscribers send to each other, driven by two threads ------------ */

typedef struct store_link {
  tca_store *other;
  volatile int budget; /* sends left to the other store */
  int calls;
  int sent; /* sends made to the other store */
  volatile int *inside; /* shared: how many subscribers have met (see send_to_other) */
} store_link;

static void send_to_other(void *userdata, tca_store *store, uint64_t version) {
  store_link *l = userdata;
  (void)store, (void)version;
  if (l->calls++ == 0) {
    /* The first call of each subscriber waits (up to ~2 s) for the other's: both stores are then
       inside a subscriber at once, each about to send to the other — the deadlock of a store
       that holds its lock while callbacks run. */
    __atomic_add_fetch(l->inside, 1, __ATOMIC_ACQ_REL);
    for (int spin = 0; spin < 2000 && __atomic_load_n(l->inside, __ATOMIC_ACQUIRE) < 2; spin++) {
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
    }
  }
  if (__atomic_sub_fetch(&l->budget, 1, __ATOMIC_ACQ_REL) >= 0 &&
      tca_store_send(l->other, "\"incrementButtonTapped\"") == TCA_OK)
    __atomic_add_fetch(&l->sent, 1, __ATOMIC_ACQ_REL);
}

typedef struct driver {
  tca_store *store;
  int sends;
  int failures;
} driver;

static void *drive(void *argument) {
  driver *d = argument;
  for (int i = 0; i < d->sends; i++)
    if (tca_store_send(d->store, "\"incrementButtonTapped\"") != TCA_OK) d->failures++;
  return NULL;
}

static void test_cross_store_subscribers(void) {
  int sends = getenv("TCA_TEST_QUICK") ? 200 : 2000;
  tca_store *a = counter(), *b = counter();
  volatile int inside = 0;
  store_link to_b = {b, sends, 0, 0, &inside}, to_a = {a, sends, 0, 0, &inside};
  CHECK_STATUS(tca_store_subscribe(a, send_to_other, &to_b, NULL), TCA_OK);
  CHECK_STATUS(tca_store_subscribe(b, send_to_other, &to_a, NULL), TCA_OK);
  driver da = {a, sends, 0}, db = {b, sends, 0};
  pthread_t ta, tb;
  pthread_create(&ta, NULL, drive, &da);
  pthread_create(&tb, NULL, drive, &db);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  CHECK(da.failures == 0 && db.failures == 0);
  CHECK(to_a.calls > 0 && to_b.calls > 0);
  CHECK(inside == 2);
  /* Every send reached its store: each got its driver's sends plus those the other's subscriber
     made. NB: not always the whole budget: a subscriber is called once per delivery, and the
     changes of calls whose callbacks another thread delivered can come in one (tca.h). */
  CHECK(to_a.sent > 0 && to_a.sent <= sends && to_b.sent > 0 && to_b.sent <= sends);
  char expected_a[32], expected_b[32];
  snprintf(expected_a, sizeof expected_a, "%d", sends + to_a.sent);
  snprintf(expected_b, sizeof expected_b, "%d", sends + to_b.sent);
  tca_store_poll(a, NULL);
  tca_store_poll(b, NULL);
  CHECK(value_is(a, "/count", expected_a));
  CHECK(value_is(b, "/count", expected_b));
  tca_store_free(a);
  tca_store_free(b);
}

/* ---- 9. version and fd never wait for a callback running on another thread --------------- */

typedef struct gate {
  pthread_mutex_t mutex;
  pthread_cond_t changed;
  int inside;  /* the subscriber is running */
  int release; /* the subscriber may return */
} gate;

static void blocking_subscriber(void *userdata, tca_store *store, uint64_t version) {
  gate *g = userdata;
  (void)store, (void)version;
  pthread_mutex_lock(&g->mutex);
  g->inside = 1;
  pthread_cond_broadcast(&g->changed);
  while (!g->release) pthread_cond_wait(&g->changed, &g->mutex);
  g->inside = 0;
  pthread_mutex_unlock(&g->mutex);
}

static void *send_once(void *argument) {
  tca_store_send(argument, "\"incrementButtonTapped\"");
  return NULL;
}

static void test_reads_never_wait_for_callbacks(void) {
  tca_store *store = counter();
  gate g;
  memset(&g, 0, sizeof g);
  pthread_mutex_init(&g.mutex, NULL);
  pthread_cond_init(&g.changed, NULL);
  CHECK_STATUS(tca_store_subscribe(store, blocking_subscriber, &g, NULL), TCA_OK);
  pthread_t sender;
  pthread_create(&sender, NULL, send_once, store);
  pthread_mutex_lock(&g.mutex);
  while (!g.inside) pthread_cond_wait(&g.changed, &g.mutex);
  pthread_mutex_unlock(&g.mutex);

  /* The sender is inside the subscriber: these return at once (the watchdog fails a hang). */
  CHECK(tca_store_version(store) == 1);
  int fd = tca_store_fd(store);
  CHECK(fd >= 0);
  CHECK(tca_store_fd(store) == fd);
  CHECK(value_is(store, "/count", "1"));
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  /* A send from this thread is reduced now; its notification waits for the busy thread. */
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) == 2);

  pthread_mutex_lock(&g.mutex);
  g.release = 1;
  pthread_cond_broadcast(&g.changed);
  pthread_mutex_unlock(&g.mutex);
  pthread_join(sender, NULL);
  tca_store_free(store);
  pthread_mutex_destroy(&g.mutex);
  pthread_cond_destroy(&g.changed);
}

int main(void) {
  signal(SIGALRM, on_hang);
  alarm(getenv("TCA_TEST_QUICK") ? 600 : 120);
  test_answer_applied_in_order(0);
  test_answer_applied_in_order(1);
  test_reads_never_wait_for_callbacks();
  test_cross_store_subscribers();
  test_free_racing_with_calls();
  TEST_SUMMARY();
}
