/* Two threads touch a new store's table of requests at the same moment (each answers a request
 * the store never made): the table is made once, and the copy that loses the race is freed with
 * everything it holds. Over many stores, the heap in use must not grow (glibc's mallinfo2; the
 * valgrind run fails on a definite leak instead). */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

/* Rounds (a store each): fewer under valgrind (TCA_TEST_QUICK=1), which also serializes the
 * threads, so that races are rarer there. */
static int g_rounds = 10000;

/* The main thread makes a store and bumps `round`, then touches the store; the other thread,
 * spinning on `round`, touches it too, a few hundred nanoseconds apart at most (a barrier or a
 * condition variable would wake it microseconds later). The two are kept on two processors:
 * left to the scheduler, a loaded machine often runs both on one, where they never race. */
typedef struct round_state {
  tca_store *store;
  int round;
  int finished;
  int stop;
  int unexpected;
} round_state;

/* The first use of the table from this thread: the store made no request 1. */
static void touch(round_state *r) {
  if (tca_store_respond(r->store, 1, "\"fact\"") != TCA_ERR_UNKNOWN_REQUEST)
    __atomic_add_fetch(&r->unexpected, 1, __ATOMIC_RELAXED);
}

/* Keeps the calling thread on processor `cpu` (when the machine has it). */
static void pin(int cpu) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *toucher(void *arg) {
  round_state *r = arg;
  pin(1);
  int seen = 0;
  for (;;) {
    int round;
    /* NB: spins, yielding now and then: the machine may have fewer cores than threads. */
    for (int spins = 0; (round = __atomic_load_n(&r->round, __ATOMIC_ACQUIRE)) == seen; spins++) {
      if (spins % 65536 == 65535) sched_yield();
    }
    seen = round;
    if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) return NULL;
    touch(r);
    __atomic_store_n(&r->finished, round, __ATOMIC_RELEASE);
  }
}

/* Runs `rounds` stores through the two threads. */
static void run(round_state *r, int rounds) {
  for (int i = 0; i < rounds; i++) {
    tca_store *store = NULL;
    if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) {
      r->unexpected++;
      continue;
    }
    r->store = store;
    int round = __atomic_add_fetch(&r->round, 1, __ATOMIC_RELEASE);
    /* NB: the other thread sees the round a little later: a delay that varies from round to
     * round (up to a few microseconds) lines the two up in some of them. */
    for (volatile int spin = 0; spin < (i % 64) * 32; spin++) {
    }
    touch(r);
    while (__atomic_load_n(&r->finished, __ATOMIC_ACQUIRE) != round) sched_yield();
    tca_store_free(store);
  }
}

/* Bytes allocated and not freed: in the heap, and in chunks of their own (mmap). */
static size_t heap_in_use(void) {
  malloc_trim(0);
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

int main(void) {
  int quick = getenv("TCA_TEST_QUICK") != NULL;
  if (quick) g_rounds = 400;
  round_state r;
  memset(&r, 0, sizeof r);
  pin(0);
  pthread_t thread;
  pthread_create(&thread, NULL, toucher, &r);

  /* Warm up (the Swift runtime's caches, the allocator's per-thread caches), then measure. */
  run(&r, 200);
  size_t before = heap_in_use();
  run(&r, g_rounds);
  size_t after = heap_in_use();

  __atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&r.round, 1, __ATOMIC_RELEASE);
  pthread_join(thread, NULL);
  CHECK(r.unexpected == 0);
  if (!quick) {
    /* NB: 56 bytes a lost race (before the fix: ~100 KB here, a race in every few rounds). The
     * slack is the allocator's own bookkeeping (per-thread caches count as in use). */
    long grown = (long)after - (long)before;
    printf("  heap in use grew by %ld bytes over %d stores\n", grown, g_rounds);
    CHECK(grown < 16384);
  }
  TEST_SUMMARY();
}
