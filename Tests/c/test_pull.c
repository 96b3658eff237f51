/* Pull mode (tca_options.requests = TCA_REQUESTS_QUEUED): requests and cancellation notices wait
 * in the store until tca_store_take_requests; answers given later, and from another thread; the
 * descriptor readable while requests wait; freeing with requests waiting. Also tca_options
 * version 2 (tca_options_init, version 1 still accepted, reserved fields checked), and
 * tca_store_take_requests_v2 (the same notices as structs, lent per thread). */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

static tca_store *queued_counter(void) {
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  return store;
}

/* The JSON tca_store_take_requests returns (the caller frees it). */
static char *take(tca_store *store) {
  char *json = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_take_requests(store, &json, &length), TCA_OK);
  CHECK(json != NULL && strlen(json) == length);
  return json;
}

static int take_is(tca_store *store, const char *expected) {
  char *json = take(store);
  int same = json != NULL && strcmp(json, expected) == 0;
  if (!same) fprintf(stderr, "  took %s, expected %s\n", json ? json : "(null)", expected);
  tca_string_free(json);
  return same;
}

static int readable(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

static void test_options(void) {
  tca_options options;
  memset(&options, 0xAB, sizeof options);
  tca_options_init(&options);
  CHECK(options.version == TCA_OPTIONS_VERSION && TCA_OPTIONS_VERSION == 2);
  CHECK(options.clock == TCA_CLOCK_REAL && options.threaded == 0);
  CHECK(options.requests == TCA_REQUESTS_CALLBACK && options.answers == TCA_ANSWERS_ANY_THREAD);
  CHECK(options.seed == 0 && options.record == 0);
  CHECK(options.record_limit == 0 && options.shared == TCA_SHARED_PROCESS);
  CHECK(options.reserved32 == 0 && options.reserved[0] == 0 && options.reserved[1] == 0);
  tca_options_init(NULL);
  tca_options literal = TCA_OPTIONS_INIT;
  CHECK(memcmp(&literal, &options, sizeof options) == 0);

  /* Version 1: the first 24 bytes, whatever follows them. */
  tca_store *store = NULL;
  unsigned char v1[64];
  memset(v1, 0x5A, sizeof v1);
  uint32_t version = 1;
  int32_t manual = TCA_CLOCK_MANUAL, zero = 0;
  uint64_t seed = 7;
  memcpy(v1, &version, 4);
  memcpy(v1 + 4, &manual, 4);
  memcpy(v1 + 8, &zero, 4);
  memcpy(v1 + 16, &seed, 8);
  CHECK_STATUS(tca_store_new("counter", NULL, (const tca_options *)(void *)v1, &store), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 1), TCA_OK);
  tca_store_free(store);

  options.requests = 2;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.requests");
  tca_options_init(&options);
  options.answers = -1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.answers");
  tca_options_init(&options);
  options.reserved[1] = 1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.reserved[1]");
  tca_options_init(&options);
  options.reserved32 = 1;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.reserved32");
  tca_options_init(&options);
  options.shared = 2;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "TCA_SHARED_ISOLATED");
  tca_options_init(&options);
  options.record = 2;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.record");
  tca_options_init(&options);
  options.version = 3;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "tca_options_init");
  tca_options_init(&options);
  options.threaded = 1;
  options.answers = TCA_ANSWERS_HOST_THREAD;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_ERR_INVALID_ARGUMENT);
  CHECK(store == NULL);
}

/* Requests wait without any handler, taken oldest first; a re-tap cancels the first one. */
static void test_requests_queued_and_cancelled(void) {
  tca_store *store = queued_counter();
  CHECK(take_is(store, "[]"));
  int fd = tca_store_fd(store);
  CHECK(fd >= 0);
  CHECK(!readable(fd));
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  /* The descriptor is readable while requests wait. */
  CHECK(readable(fd));
  CHECK(take_is(store, "[{\"id\":1,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\","
                       "\"payload\":1}]"));
  CHECK(!readable(fd));
  CHECK(take_is(store, "[]"));

  /* A re-tap cancels #1 and makes #2: both wait, in order. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(readable(fd));
  CHECK(take_is(store, "[{\"cancelled\":1},{\"id\":2,\"name\":\"numberFact.fetch\","
                       "\"kind\":\"oneShot\",\"payload\":1}]"));
  CHECK_STATUS(tca_store_respond(store, 1, "\"too late\""), TCA_ERR_REQUEST_FINISHED);

  /* Answered later. */
  CHECK_STATUS(tca_store_respond(store, 2, "\"1 is the loneliest\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"1 is the loneliest\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK(take_is(store, "[]"));
  CHECK_STATUS(tca_store_take_requests(store, NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  tca_store_free(store);
  char *json = (char *)1;
  CHECK_STATUS(tca_store_take_requests(store, &json, NULL), TCA_ERR_INVALID_HANDLE);
  CHECK(json == NULL);
  CHECK_STATUS(tca_store_take_requests(NULL, &json, NULL), TCA_ERR_INVALID_HANDLE);
}

/* A callback-mode store has nothing to take. */
static void test_callback_mode_takes_nothing(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(value_contains(store, "/numberFactError", "no handler"));
  CHECK(take_is(store, "[]"));
  tca_store_free(store);
}

typedef struct answer_job {
  tca_store *store;
  uint64_t id;
  tca_status status;
} answer_job;

static void *answer_from_thread(void *argument) {
  answer_job *job = argument;
  job->status = tca_store_respond(job->store, job->id, "\"from a worker\"");
  return NULL;
}

static void test_answered_from_another_thread(void) {
  tca_store *store = queued_counter();
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *json = take(store);
  CHECK(json != NULL && strstr(json, "\"id\":1,") != NULL);
  tca_string_free(json);
  answer_job job = {store, 1, -1};
  pthread_t thread;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_OK);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"from a worker\""));
  tca_store_free(store);
}

typedef struct notified {
  int calls;
  uint64_t version;
} notified;

static void count_notices(void *userdata, tca_store *store, uint64_t version) {
  (void)store;
  notified *seen = userdata;
  seen->calls += 1;
  seen->version = version;
}

/* A subscriber that answers the next request it finds waiting, from inside its callback. */
static void answer_inside(void *userdata, tca_store *store, uint64_t version) {
  (void)version;
  int *answered = userdata;
  const tca_request *taken = NULL;
  size_t count = 0;
  if (tca_store_take_requests_v2(store, &taken, &count) != TCA_OK) return;
  for (size_t i = 0; i < count; i++) {
    if (taken[i].kind != TCA_REQUEST_ONE_SHOT) continue;
    if (tca_store_respond(store, taken[i].id, "\"from a subscriber\"") == TCA_OK) *answered += 1;
  }
}

/* An answer given from outside the store is applied by the call that gives it, as a send's
 * action is: when tca_store_respond or tca_store_fail returns, the state has changed and the
 * subscribers have been told. One given inside a callback is applied before the call that
 * delivered the callback returns. */
static void test_answers_applied_by_the_answering_call(void) {
  tca_store *store = queued_counter();
  notified seen = {0, 0};
  uint64_t token = 0;
  CHECK_STATUS(tca_store_subscribe(store, count_notices, &seen, &token), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(take_is(store, "[{\"id\":1,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\","
                       "\"payload\":0}]"));
  int before = seen.calls;
  CHECK_STATUS(tca_store_respond(store, 1, "\"0 is nothing\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"0 is nothing\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK(seen.calls == before + 1 && seen.version == tca_store_version(store));
  /* Answered: refused, and nothing changes. */
  uint64_t version = tca_store_version(store);
  CHECK_STATUS(tca_store_respond(store, 1, "\"again\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, 99, "\"unknown\""), TCA_ERR_UNKNOWN_REQUEST);
  CHECK(tca_store_version(store) == version);

  /* A failure, applied as its failure action; a bad answer before it leaves the request open. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  tca_string_free(take(store));
  CHECK_STATUS(tca_store_respond(store, 2, "7"), TCA_ERR_JSON_SHAPE);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  CHECK_STATUS(tca_store_fail(store, 2, "offline"), TCA_OK);
  CHECK(value_contains(store, "/numberFactError", "offline"));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK_STATUS(tca_store_fail(store, 2, "twice"), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_complete(store, 2), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_unsubscribe(store, token), TCA_OK);

  /* Inside a subscriber: queued, and applied before the send returns. */
  int answered = 0;
  CHECK_STATUS(tca_store_subscribe(store, answer_inside, &answered, &token), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(answered == 1);
  CHECK(value_is(store, "/numberFact", "\"from a subscriber\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  tca_store_free(store);
}

/* Whether the counter's state has no number fact (the member is then left out). */
static int no_fact(tca_store *store) {
  char *json = NULL;
  tca_status status = tca_store_get(store, "/numberFact", &json, NULL);
  tca_string_free(json);
  return status == TCA_ERR_NOT_FOUND;
}

/* An id stays answerable until its {"cancelled":id} notice is taken (tca.h): an answer given
 * while the notice waits, from this thread or another, is checked and accepted as any, and
 * changes nothing; once the notice is taken, answers are refused. Recorded, and replayed. */
static void test_answerable_until_the_notice_is_taken(void) {
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  options.clock = TCA_CLOCK_MANUAL;
  options.record = 1;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  if (store == NULL) return;
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  tca_string_free(take(store));
  /* #1 taken, then cancelled by a re-tap (which makes #2): its notice waits. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  uint64_t version = tca_store_version(store);
  CHECK_STATUS(tca_store_respond(store, 1, "{\"not\":\"a fact\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_complete(store, 1), TCA_ERR_NOT_A_STREAM);
  CHECK_STATUS(tca_store_respond(store, 1, "\"a late fact\""), TCA_OK);
  CHECK(tca_store_version(store) == version);
  CHECK(no_fact(store));
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  /* Answered: a one-shot request takes one answer. */
  CHECK_STATUS(tca_store_respond(store, 1, "\"again\""), TCA_ERR_REQUEST_FINISHED);
  CHECK(take_is(store, "[{\"cancelled\":1},{\"id\":2,\"name\":\"numberFact.fetch\","
                       "\"kind\":\"oneShot\",\"payload\":0}]"));

  /* #2, never taken, cancelled by a re-tap: an answer from another thread is accepted while
   * the notice waits, and changes nothing. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  version = tca_store_version(store);
  answer_job job = {store, 2, -1};
  pthread_t thread;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_OK);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  CHECK(tca_store_version(store) == version);
  CHECK(no_fact(store));
  CHECK(take_is(store, "[{\"cancelled\":2},{\"id\":3,\"name\":\"numberFact.fetch\","
                       "\"kind\":\"oneShot\",\"payload\":0}]"));
  /* The notice taken: refused. */
  CHECK_STATUS(tca_store_fail(store, 2, "offline"), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, 1, "\"later still\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, 3, "\"0 is a fact\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"0 is a fact\""));

  /* The journal replays to the same state and version. */
  char *journal = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(store, &journal, &length), TCA_OK);
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &replayed), TCA_OK);
  if (replayed != NULL) {
    char *a = state_of(store), *b = state_of(replayed);
    CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
    CHECK(tca_store_version(replayed) == tca_store_version(store));
    tca_string_free(a);
    tca_string_free(b);
    tca_store_free(replayed);
  }
  tca_string_free(journal);
  tca_store_free(store);
}

/* Freeing a store with requests (and notices) waiting releases them (valgrind checks). */
static void test_free_with_requests_waiting(void) {
  for (int i = 0; i < 20; i++) {
    tca_store *store = queued_counter();
    tca_store_fd(store);
    for (int j = 0; j <= i % 4; j++) tca_store_send(store, "\"numberFactButtonTapped\"");
    tca_store_free(store);
  }
  tca_store *store = queued_counter();
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  tca_store_free(store);
}

/* ---- answers applied on the host's thread ------------------------------------------------- */

typedef struct watcher {
  int calls;
  int off_host_thread;
  pthread_t host;
} watcher;

static void on_change(void *userdata, tca_store *store, uint64_t version) {
  watcher *w = userdata;
  (void)store, (void)version;
  w->calls++;
  if (!pthread_equal(pthread_self(), w->host)) w->off_host_thread++;
}

static void test_answers_on_the_host_thread(void) {
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  options.answers = TCA_ANSWERS_HOST_THREAD;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  watcher w = {0, 0, pthread_self()};
  CHECK_STATUS(tca_store_subscribe(store, on_change, &w, NULL), TCA_OK);
  int fd = tca_store_fd(store);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(w.calls == 1);
  tca_string_free(take(store));
  CHECK(!readable(fd));

  /* A worker answers: only queued; the fd wakes the host. */
  answer_job job = {store, 1, -1};
  pthread_t thread;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_OK);
  CHECK(readable(fd));
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  CHECK(w.calls == 1);
  /* A second answer is refused at once: the first is accepted, only not yet applied. */
  CHECK_STATUS(tca_store_respond(store, 1, "\"twice\""), TCA_ERR_ALREADY_ANSWERED);

  /* The host's poll applies it, and the subscriber runs here. */
  uint32_t ran = 0;
  CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
  CHECK(ran > 0);
  CHECK(value_is(store, "/numberFact", "\"from a worker\""));
  CHECK(w.calls == 2);
  CHECK(w.off_host_thread == 0);
  CHECK(!readable(fd));

  /* Applied by a send too, before the action sent. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  tca_string_free(take(store));
  job.id = 2;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"from a worker\""));
  CHECK(value_is(store, "/count", "1"));
  CHECK(w.off_host_thread == 0);
  tca_store_free(store);
}

static void test_take_requests_v2(void) {
  tca_store *store = queued_counter();
  const tca_request *taken = (const tca_request *)1;
  size_t count = 9;
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, &count), TCA_OK);
  CHECK(taken == NULL && count == 0);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(readable(tca_store_fd(store)));
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, &count), TCA_OK);
  CHECK(count == 3);
  if (count == 3) {
    CHECK(taken[0].id == 1 && taken[0].kind == TCA_REQUEST_ONE_SHOT);
    CHECK(strcmp(taken[0].name, "numberFact.fetch") == 0);
    CHECK(strcmp(taken[0].payload_json, "1") == 0 && taken[0].payload_length == 1);
    /* The second tap cancelled the first request: its notice, then the second request. */
    CHECK(taken[1].id == 1 && taken[1].kind == TCA_REQUEST_CANCELLED);
    CHECK(strcmp(taken[1].name, "") == 0 && strcmp(taken[1].payload_json, "null") == 0);
    CHECK(taken[1].payload_length == 4);
    CHECK(taken[2].id == 2 && taken[2].kind == TCA_REQUEST_ONE_SHOT);
  }
  CHECK(!readable(tca_store_fd(store)));
  /* The notice was taken: request 1 takes no answer; request 2 does. */
  CHECK_STATUS(tca_store_respond(store, 1, "\"late\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, 2, "\"1 is one\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"1 is one\""));
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, &count), TCA_OK);
  CHECK(taken == NULL && count == 0);

  /* A long payload grows the thread's buffer; what was lent before is not used again. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, &count), TCA_OK);
  CHECK(count == 1 && taken[0].id == 3);
  for (int i = 0; i < 200; i++)
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  for (int i = 0; i < 40; i++)
    CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, &count), TCA_OK);
  CHECK(count == 80);
  if (count == 80) {
    CHECK(taken[0].kind == TCA_REQUEST_CANCELLED && taken[0].id == 3);
    CHECK(taken[79].kind == TCA_REQUEST_ONE_SHOT && taken[79].id == 43);
    CHECK(strcmp(taken[79].payload_json, "201") == 0);
  }

  /* Bad arguments: nothing is taken. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_take_requests_v2(store, NULL, &count), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "out_requests");
  CHECK(count == 0);
  CHECK_STATUS(tca_store_take_requests_v2(store, &taken, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK(taken == NULL);
  CHECK_STATUS(tca_store_take_requests_v2(NULL, &taken, &count), TCA_ERR_INVALID_HANDLE);
  CHECK(take_is(store, "[{\"cancelled\":43},"
                       "{\"id\":44,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\","
                       "\"payload\":201}]"));
  tca_store_free(store);
}

int main(void) {
  test_take_requests_v2();
  test_options();
  test_requests_queued_and_cancelled();
  test_callback_mode_takes_nothing();
  test_answered_from_another_thread();
  test_answerable_until_the_notice_is_taken();
  test_answers_applied_by_the_answering_call();
  test_free_with_requests_waiting();
  test_answers_on_the_host_thread();
  TEST_SUMMARY();
}
