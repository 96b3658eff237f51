/* A state subscriber's (version, state JSON) pair always matches, with several threads sending:
 * on the counter, whose count equals its version, and on todos, whose number of todos does; a
 * pair kept and then patched from its version (tca_store_patch) gives the current state. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <time.h>

#include "harness.h"
#include "support.h"

#define THREADS 4
#define KEPT 16
/* Sends per thread: fewer under valgrind (TCA_TEST_QUICK=1). Todos fewer still: each change
 * is encoded whole for the subscriber. */
static int g_sends = 3000;
static int g_todo_sends = 250;

typedef struct sender {
  tca_store *store;
  const char *action;
  int sends;
  int failures;
} sender;

static void *send_many(void *arg) {
  sender *s = arg;
  for (int i = 0; i < s->sends; i++) {
    if (tca_store_send(s->store, s->action) != TCA_OK) s->failures++;
  }
  return NULL;
}

/* The number of times `needle` occurs in `text`. */
static long occurrences(const char *text, const char *needle) {
  long count = 0;
  for (const char *at = strstr(text, needle); at != NULL; at = strstr(at + 1, needle)) count++;
  return count;
}

/* What a state measures: the counter's count, or the number of todos. */
typedef long (*measure_fn)(const char *json);

static long counter_count(const char *json) {
  const char *at = strstr(json, "\"count\":");
  return at == NULL ? -1 : strtol(at + strlen("\"count\":"), NULL, 10);
}

static long todos_count(const char *json) { return occurrences(json, "\"isComplete\""); }

/* The subscriber: checks each pair, and keeps the last KEPT of them (copies). */
typedef struct pairs {
  measure_fn measure;
  const uint64_t *told; /* the version a subscriber called before it was told (0: none) */
  long ahead;           /* pairs of a version newer than that: the told one was gone */
  long calls;
  long mismatches;
  long nulls;
  long repeats; /* a version given twice, or one older than a version given */
  uint64_t last;
  uint64_t versions[KEPT];
  char *json[KEPT];
  int next;
} pairs;

static void on_state(void *userdata, tca_store *store, uint64_t version, const char *json,
                     size_t length) {
  pairs *p = userdata;
  (void)store;
  p->calls++;
  if (version <= p->last) p->repeats++;
  p->last = version;
  if (p->told != NULL && version > *p->told) p->ahead++;
  if (json == NULL || strlen(json) != length) {
    p->nulls++;
    return;
  }
  long measured = p->measure(json);
  if (measured < 0 || (uint64_t)measured != version) {
    if (p->mismatches++ == 0)
      fprintf(stderr, "  version %llu but the state measures %ld\n",
              (unsigned long long)version, measured);
  }
  free(p->json[p->next]);
  p->json[p->next] = strdup(json);
  p->versions[p->next] = version;
  p->next = (p->next + 1) % KEPT;
}

/* Several threads send `action` to `store`; every pair the subscriber gets measures its
 * version. Fills `p`. */
static void race_on(tca_store *store, const char *action, int sends, pairs *p) {
  CHECK_STATUS(tca_store_subscribe_state(store, on_state, p, NULL), TCA_OK);
  pthread_t threads[THREADS];
  sender senders[THREADS];
  for (int t = 0; t < THREADS; t++) {
    senders[t] = (sender){store, action, sends, 0};
    pthread_create(&threads[t], NULL, send_many, &senders[t]);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    CHECK(senders[t].failures == 0);
  }
  uint64_t sent = (uint64_t)THREADS * (uint64_t)sends;
  CHECK(tca_store_version(store) == sent);
  CHECK(p->calls > 0);
  CHECK(p->nulls == 0);
  CHECK(p->mismatches == 0);
  CHECK(p->repeats == 0);
  if (p->mismatches != 0) fprintf(stderr, "  %ld of %ld pairs did not match\n", p->mismatches,
                                  p->calls);
}

/* race_on a new store of `feature` (the caller frees it). */
static tca_store *race(const char *feature, const char *action, int sends, pairs *p) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new(feature, NULL, NULL, &store), TCA_OK);
  if (store != NULL) race_on(store, action, sends, p);
  return store;
}

static void free_pairs(pairs *p) {
  for (int i = 0; i < KEPT; i++) free(p->json[i]);
}

static void test_counter(void) {
  pairs p;
  memset(&p, 0, sizeof p);
  p.measure = counter_count;
  tca_store *store = race("counter", "\"incrementButtonTapped\"", g_sends, &p);
  tca_store_free(store);
  free_pairs(&p);
}

/* A slow subscriber called first: by the time the state subscriber runs, the version both were
 * told of is often no longer kept (16 newer ones). It gets the current state and version
 * instead, still a pair that matches, and no version twice. */
static void on_version_slowly(void *userdata, tca_store *store, uint64_t version) {
  (void)store;
  *(uint64_t *)userdata = version;
  struct timespec pause = {0, 1000 * 1000L};
  nanosleep(&pause, NULL);
}

static void test_behind_a_slow_subscriber(void) {
  pairs p;
  memset(&p, 0, sizeof p);
  p.measure = counter_count;
  uint64_t told = 0;
  p.told = &told;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  if (store == NULL) return;
  CHECK_STATUS(tca_store_subscribe(store, on_version_slowly, &told, NULL), TCA_OK);
  race_on(store, "\"incrementButtonTapped\"", g_sends / 10, &p);
  printf("  behind a slow subscriber: %ld of %ld pairs were of a newer version than told\n",
         p.ahead, p.calls);
  tca_store_free(store);
  free_pairs(&p);
}

/* Todos: each add puts a todo on top. A kept pair patched from its version to the current one
 * has the current number of todos: the adds of the patch are those made since that version. */
static void test_todos_patched(void) {
  pairs p;
  memset(&p, 0, sizeof p);
  p.measure = todos_count;
  tca_store *store = race("todos", "\"addTodoButtonTapped\"", g_todo_sends, &p);
  if (store == NULL) return;
  uint64_t current = tca_store_version(store);
  int patched = 0;
  for (int i = 0; i < KEPT; i++) {
    if (p.json[i] == NULL) continue;
    char *patch = NULL;
    if (tca_store_patch(store, p.versions[i], &patch, NULL) != TCA_OK) continue;
    patched++;
    long adds = occurrences(patch, "\"op\":\"add\",\"path\":\"/todos/");
    long removes = occurrences(patch, "\"op\":\"remove\",\"path\":\"/todos/");
    long after = todos_count(p.json[i]) + adds - removes;
    CHECK(after == (long)current);
    if (after != (long)current)
      fprintf(stderr, "  the pair of version %llu patched has %ld todos, not %llu\n",
              (unsigned long long)p.versions[i], after, (unsigned long long)current);
    tca_string_free(patch);
  }
  CHECK(patched > 0);
  tca_store_free(store);
  free_pairs(&p);
}

int main(void) {
  if (getenv("TCA_TEST_QUICK") != NULL) {
    g_sends = 150;
    g_todo_sends = 40;
  }
  test_counter();
  test_behind_a_slow_subscriber();
  test_todos_patched();
  TEST_SUMMARY();
}
