/* Effect callbacks and answers: the counter's number fact (host request "numberFact.fetch",
 * payload: the count, answer: a JSON string), answered at once, later, from other threads; failed,
 * cancelled, answered twice, answered after free; every parameter given bad values. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"

#define MAX_SEEN 16

/* What a test host saw, and how it answers. */
typedef struct host {
  int answer_inside;       /* 1: respond inside the callback */
  const char *answer;      /* the JSON it responds with */
  int answer_twice;        /* 1: respond twice inside the callback */
  tca_status second_status;
  int send_inside;         /* 1: send "incrementButtonTapped" from inside the callback */
  int free_inside;         /* 1: free the store from inside the callback */
  int answer_after_free;   /* 1: then respond to the request, with the freed handle */
  tca_status after_free_status;
  int read_inside;         /* 1: read the state from inside the callback */
  char state_inside[256];
  uint32_t poll_ran_inside;
  tca_status poll_status_inside;
  int requests;
  uint64_t ids[MAX_SEEN];
  char names[MAX_SEEN][64];
  char payloads[MAX_SEEN][64];
  int32_t kinds[MAX_SEEN];
  int cancels;
  uint64_t cancelled[MAX_SEEN];
  pthread_t cancel_thread;
  tca_store *stores[MAX_SEEN]; /* the handle each callback got */
} host;

static void record(host *h, tca_store *store, uint64_t id, const char *name, const char *payload,
                   size_t payload_length, int32_t kind) {
  if (h->requests < MAX_SEEN) {
    h->ids[h->requests] = id;
    snprintf(h->names[h->requests], 64, "%s", name);
    snprintf(h->payloads[h->requests], 64, "%.*s", (int)payload_length, payload);
    h->kinds[h->requests] = kind;
    h->stores[h->requests] = store;
  }
  h->requests++;
}

static void act(host *h, tca_store *store, uint64_t id) {
  if (h->read_inside) {
    char *json = state_of(store);
    snprintf(h->state_inside, sizeof h->state_inside, "%s", json ? json : "(null)");
    tca_string_free(json);
    h->poll_status_inside = tca_store_poll(store, &h->poll_ran_inside);
  }
  if (h->send_inside) tca_store_send(store, "\"incrementButtonTapped\"");
  if (h->answer_inside) {
    tca_store_respond(store, id, h->answer);
    if (h->answer_twice) h->second_status = tca_store_respond(store, id, "\"again\"");
  }
  if (h->free_inside) {
    tca_store_free(store);
    if (h->answer_after_free) h->after_free_status = tca_store_respond(store, id, "\"x\"");
  }
}

static void on_effect(void *userdata, tca_store *store, uint64_t id, const char *name,
                      const char *payload, size_t payload_length) {
  host *h = userdata;
  record(h, store, id, name, payload, payload_length, -1);
  act(h, store, id);
}

static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  host *h = userdata;
  record(h, store, request->id, request->name, request->payload_json, request->payload_length,
         request->kind);
  act(h, store, request->id);
}

static void on_cancel(void *userdata, tca_store *store, uint64_t id) {
  host *h = userdata;
  (void)store;
  if (h->cancels < MAX_SEEN) h->cancelled[h->cancels] = id;
  h->cancels++;
  h->cancel_thread = pthread_self();
}

static tca_store *counter(const char *state) {
  tca_store *store = NULL;
  if (tca_store_new("counter", state, NULL, &store) != TCA_OK) {
    fprintf(stderr, "tca_store_new: %s\n", tca_last_error());
    abort();
  }
  return store;
}

/* ---- a table of facts, answered inside the callback ---------------------------------------- */

static void fact_table(void *userdata, tca_store *store, uint64_t id, const char *name,
                       const char *payload, size_t payload_length) {
  static const char *const facts[] = {"\"0 is the additive identity.\"",
                                      "\"1 is the first odd number.\"",
                                      "\"2 is the only even prime.\""};
  int *calls = userdata;
  (*calls)++;
  (void)name;
  long n = strtol(payload, NULL, 10);
  (void)payload_length;
  if (n >= 0 && n < 3)
    tca_store_respond(store, id, facts[n]);
  else
    tca_store_fail(store, id, "no fact in the table");
}

static void test_answered_inside_the_callback(void) {
  tca_store *store = counter(NULL);
  int calls = 0;
  CHECK_STATUS(tca_store_set_effect_handler(store, fact_table, NULL, &calls), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(calls == 1);
  CHECK(value_is(store, "/numberFact", "\"0 is the additive identity.\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  tca_store_send(store, "\"incrementButtonTapped\"");
  tca_store_send(store, "\"incrementButtonTapped\"");
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"2 is the only even prime.\""));
  tca_store_send(store, "\"incrementButtonTapped\"");
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *none = (char *)1;
  CHECK_STATUS(tca_store_get(store, "/numberFact", &none, NULL), TCA_ERR_NOT_FOUND);
  CHECK(none == NULL);
  CHECK(value_contains(store, "/numberFactError", "no fact in the table"));
  CHECK(calls == 3);
  tca_store_free(store);
}

static void test_request_details_and_callbacks_inside(void) {
  tca_store *store = counter("{\"count\":7}");
  host h;
  memset(&h, 0, sizeof h);
  h.answer_inside = 1;
  h.answer = "\"7 is lucky\"";
  h.answer_twice = 1;
  h.send_inside = 1;
  h.read_inside = 1;
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK(h.ids[0] > 0);
  CHECK(strcmp(h.names[0], "numberFact.fetch") == 0);
  CHECK(strcmp(h.payloads[0], "7") == 0);
  CHECK(h.stores[0] == store);
  /* Inside the callback: the state reads as it is (loading), poll runs nothing, a second answer
   * to the one-shot request is refused, and the send is queued, not recursed into. */
  CHECK_CONTAINS(h.state_inside, "\"isNumberFactLoading\":true");
  CHECK_STATUS(h.poll_status_inside, TCA_OK);
  CHECK(h.poll_ran_inside == 0);
  CHECK_STATUS(h.second_status, TCA_ERR_ALREADY_ANSWERED);
  CHECK(value_is(store, "/numberFact", "\"7 is lucky\""));
  CHECK(value_is(store, "/count", "8"));
  /* Once applied, the request has finished. */
  CHECK_STATUS(tca_store_respond(store, h.ids[0], "\"late\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_CONTAINS(tca_last_error(), "tca_store_respond");
  CHECK_STATUS(tca_store_fail(store, h.ids[0], "late"), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_complete(store, h.ids[0]), TCA_ERR_REQUEST_FINISHED);
  CHECK(h.cancels == 0);
  CHECK(value_is(store, "/numberFact", "\"7 is lucky\""));
  tca_store_free(store);
}

static void test_request_handler_gives_the_kind(void) {
  tca_store *store = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK(h.kinds[0] == TCA_REQUEST_ONE_SHOT);
  CHECK(strcmp(h.names[0], "numberFact.fetch") == 0);
  CHECK(strcmp(h.payloads[0], "0") == 0);
  CHECK_STATUS(tca_store_respond_n(store, h.ids[0], "\"zero\"trailing", 6), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"zero\""));

  /* The two setters share one slot. */
  host other;
  memset(&other, 0, sizeof other);
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, NULL, &other), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK(other.requests == 1);
  tca_store_free(store);
}

/* ---- answered later ------------------------------------------------------------------------ */

static void test_answered_later_and_failed(void) {
  tca_store *store = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));
  uint64_t id = h.ids[0];
  uint64_t version = tca_store_version(store);

  /* Bad answers are refused and change nothing: the request still waits for a good one. */
  CHECK_STATUS(tca_store_respond(store, id, "42"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "still waiting");
  CHECK_STATUS(tca_store_respond(store, id, "\"unterminated"), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_respond(store, id, "\"bad \xc3\x28 utf-8\""), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_respond(store, id, ""), TCA_ERR_JSON_SYNTAX);
  CHECK_STATUS(tca_store_respond(store, id, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_respond_n(store, id, NULL, 4), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_respond_n(store, id, "\"x\"", SIZE_MAX), TCA_ERR_INVALID_ARGUMENT);
  char *deep = deep_json(100000);
  CHECK_STATUS(tca_store_respond(store, id, deep), TCA_ERR_JSON_SYNTAX);
  free(deep);
  CHECK_STATUS(tca_store_fail(store, id, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_fail(store, id, "bad \xff utf-8"), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "UTF-8");
  CHECK_STATUS(tca_store_complete(store, id), TCA_ERR_NOT_A_STREAM);
  CHECK_CONTAINS(tca_last_error(), "tca_store_complete");
  CHECK_STATUS(tca_store_respond(store, 0, "\"x\""), TCA_ERR_UNKNOWN_REQUEST);
  CHECK_STATUS(tca_store_respond(store, id + 1000, "\"x\""), TCA_ERR_UNKNOWN_REQUEST);
  CHECK_STATUS(tca_store_fail(store, UINT64_MAX, "x"), TCA_ERR_UNKNOWN_REQUEST);
  CHECK_STATUS(tca_store_complete(store, 777), TCA_ERR_UNKNOWN_REQUEST);
  CHECK(tca_store_version(store) == version);
  CHECK(value_is(store, "/isNumberFactLoading", "true"));

  /* A failure reaches the feature with the host's message. */
  CHECK_STATUS(tca_store_fail(store, id, "the network is down"), TCA_OK);
  CHECK(value_contains(store, "/numberFactError", "the network is down"));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  CHECK_STATUS(tca_store_respond(store, id, "\"late\""), TCA_ERR_REQUEST_FINISHED);

  /* A good answer, later. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 2);
  CHECK(h.ids[1] != id);
  CHECK_STATUS(tca_store_respond(store, h.ids[1], "\"0 is round\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"0 is round\""));
  CHECK(h.cancels == 0);
  tca_store_free(store);
}

/* ---- cancellation -------------------------------------------------------------------------- */

static void test_cancellation_notices(void) {
  tca_store *store = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  /* The counter cancels a fetch in flight when another starts. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 2);
  CHECK(h.cancels == 1);
  CHECK(h.cancelled[0] == h.ids[0]);
  CHECK(pthread_equal(h.cancel_thread, pthread_self()));
  CHECK_STATUS(tca_store_respond(store, h.ids[0], "\"too late\""), TCA_ERR_REQUEST_FINISHED);
  CHECK_STATUS(tca_store_respond(store, h.ids[1], "\"in time\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"in time\""));

  /* Freeing the store tells the host of each request in flight, on the freeing thread. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 3);
  tca_store_free(store);
  CHECK(h.cancels == 2);
  CHECK(h.cancelled[1] == h.ids[2]);
  /* Answers after free are refused; nothing is called. */
  CHECK_STATUS(tca_store_respond(store, h.ids[2], "\"after free\""), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_fail(store, h.ids[2], "after free"), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_complete(store, h.ids[2]), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_respond_n(store, h.ids[2], "\"x\"", 3), TCA_ERR_INVALID_HANDLE);
  CHECK(h.cancels == 2);
}

/* ---- no handler, removing the handler ---------------------------------------------------- */

static void test_without_a_handler(void) {
  tca_store *store = counter(NULL);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(value_contains(store, "/numberFactError", "no handler"));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));

  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK_STATUS(tca_store_set_effect_handler(store, NULL, on_cancel, &h), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "on_cancel");
  CHECK_STATUS(tca_store_set_effect_handler(store, NULL, NULL, NULL), TCA_OK);
  CHECK_STATUS(tca_store_set_request_handler(store, NULL, NULL, NULL), TCA_OK);
  /* The request made before still takes its answer. */
  CHECK_STATUS(tca_store_respond(store, h.ids[0], "\"kept\""), TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"kept\""));
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  CHECK(value_contains(store, "/numberFactError", "no handler"));
  tca_store_free(store);
  CHECK(h.cancels == 0);

  /* Bad handles. */
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, NULL, &h), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_set_request_handler(store, on_request, NULL, &h), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_set_effect_handler(NULL, on_effect, NULL, &h), TCA_ERR_INVALID_HANDLE);
  int not_a_store;
  CHECK_STATUS(tca_store_set_effect_handler((tca_store *)&not_a_store, on_effect, NULL, &h),
               TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_respond(NULL, 1, "\"x\""), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_respond((tca_store *)&not_a_store, 1, "\"x\""), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_fail((tca_store *)&not_a_store, 1, "x"), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_complete(NULL, 1), TCA_ERR_INVALID_HANDLE);
}

/* ---- freeing from inside a callback ------------------------------------------------------ */

static void test_free_inside_a_callback(void) {
  tca_store *store = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.free_inside = 1;
  h.answer_after_free = 1;
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  tca_status status = tca_store_send(store, "\"numberFactButtonTapped\"");
  CHECK(status == TCA_OK || status == TCA_ERR_INVALID_HANDLE);
  CHECK(h.requests == 1);
  /* Retired at once: no cancel notice, the handle is dead. */
  CHECK(h.cancels == 0);
  /* Inside the callback, once freed, the handle is dead too (not found without the table). */
  CHECK_STATUS(h.after_free_status, TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(tca_store_respond(store, h.ids[0], "\"x\""), TCA_ERR_INVALID_HANDLE);
}

/* ---- answers for other stores, inside a callback ----------------------------------------- */

/* Inside a callback of one store, answers name their store by handle: the callback's own, another
 * store's, or a handle that names none. */
typedef struct crossing {
  tca_store *other;
  uint64_t other_id;
  tca_status own_status, other_status, bogus_status;
} crossing;

static void answer_both(void *userdata, tca_store *store, uint64_t id, const char *name,
                        const char *payload, size_t payload_length) {
  crossing *c = userdata;
  (void)name;
  (void)payload;
  (void)payload_length;
  c->other_status = tca_store_respond(c->other, c->other_id, "\"from the other store\"");
  c->bogus_status = tca_store_respond((tca_store *)(uintptr_t)0x1237, id, "\"bogus\"");
  c->own_status = tca_store_respond(store, id, "\"own\"");
}

static void test_answers_for_other_stores_inside_a_callback(void) {
  tca_store *first = counter(NULL), *second = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_effect_handler(second, on_effect, NULL, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(second, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(h.requests == 1);
  crossing c = {second, h.ids[0], -1, -1, -1};
  CHECK_STATUS(tca_store_set_effect_handler(first, answer_both, NULL, &c), TCA_OK);
  CHECK_STATUS(tca_store_send(first, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(c.other_status, TCA_OK);
  CHECK_STATUS(c.bogus_status, TCA_ERR_INVALID_HANDLE);
  CHECK_STATUS(c.own_status, TCA_OK);
  CHECK(value_is(first, "/numberFact", "\"own\""));
  CHECK(value_is(second, "/numberFact", "\"from the other store\""));
  tca_store_free(first);
  tca_store_free(second);
}

/* ---- answers from other threads ---------------------------------------------------------- */

typedef struct answer_job {
  tca_store *store;
  uint64_t id;
  const char *answer;
  tca_status status;
} answer_job;

static void *answer_from_thread(void *arg) {
  answer_job *job = arg;
  job->status = tca_store_respond(job->store, job->id, job->answer);
  return NULL;
}

/* Answers from another thread while this one holds the store (inside the callback): the answer is
 * queued and applied by this thread's call before it returns. */
typedef struct relay {
  answer_job job;
  int requests;
} relay;

static void answer_through_a_thread(void *userdata, tca_store *store, uint64_t id, const char *name,
                                    const char *payload, size_t payload_length) {
  relay *r = userdata;
  (void)name;
  (void)payload;
  (void)payload_length;
  r->requests++;
  r->job.store = store;
  r->job.id = id;
  pthread_t thread;
  pthread_create(&thread, NULL, answer_from_thread, &r->job);
  pthread_join(thread, NULL);
}

static void test_answers_from_other_threads(void) {
  tca_store *store = counter(NULL);
  host h;
  memset(&h, 0, sizeof h);
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, on_cancel, &h), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  answer_job job = {store, h.ids[0], "\"from a thread\"", -1};
  pthread_t thread;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"from a thread\""));
  /* A second answer from another thread is refused. */
  job.status = -1;
  pthread_create(&thread, NULL, answer_from_thread, &job);
  pthread_join(thread, NULL);
  CHECK_STATUS(job.status, TCA_ERR_REQUEST_FINISHED);
  tca_store_free(store);

  store = counter(NULL);
  relay r;
  memset(&r, 0, sizeof r);
  r.job.answer = "\"relayed\"";
  r.job.status = -1;
  CHECK_STATUS(tca_store_set_effect_handler(store, answer_through_a_thread, NULL, &r), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(r.requests == 1);
  CHECK_STATUS(r.job.status, TCA_OK);
  CHECK(value_is(store, "/numberFact", "\"relayed\""));
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  tca_store_free(store);
}

/* A handler that replaces itself inside its own callback: its answer still counts, and the next
 * request goes to the new handler. Then one that removes itself: the next request fails at once
 * for want of a handler. */
typedef struct swapper {
  int swapped_calls;
  host next;
} swapper;

static void swap_then_answer(void *userdata, tca_store *store, uint64_t id, const char *name,
                             const char *payload, size_t payload_length) {
  (void)name;
  (void)payload;
  (void)payload_length;
  swapper *s = userdata;
  s->swapped_calls++;
  CHECK_STATUS(tca_store_set_effect_handler(store, on_effect, NULL, &s->next), TCA_OK);
  CHECK_STATUS(tca_store_respond(store, id, "\"from the old handler\""), TCA_OK);
}

static void remove_then_answer(void *userdata, tca_store *store, uint64_t id, const char *name,
                               const char *payload, size_t payload_length) {
  (void)name;
  (void)payload;
  (void)payload_length;
  int *calls = userdata;
  (*calls)++;
  CHECK_STATUS(tca_store_set_effect_handler(store, NULL, NULL, NULL), TCA_OK);
  CHECK_STATUS(tca_store_respond(store, id, "\"answered, then no handler\""), TCA_OK);
}

static void test_handler_replaced_inside_its_callback(void) {
  tca_store *store = counter(NULL);
  swapper s;
  memset(&s, 0, sizeof s);
  s.next.answer_inside = 1;
  s.next.answer = "\"from the new handler\"";
  CHECK_STATUS(tca_store_set_effect_handler(store, swap_then_answer, NULL, &s), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(s.swapped_calls == 1);
  CHECK(value_is(store, "/numberFact", "\"from the old handler\""));
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(s.swapped_calls == 1);
  CHECK(s.next.requests == 1);
  CHECK(value_is(store, "/numberFact", "\"from the new handler\""));
  tca_store_free(store);

  store = counter(NULL);
  int calls = 0;
  CHECK_STATUS(tca_store_set_effect_handler(store, remove_then_answer, NULL, &calls), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(calls == 1);
  CHECK(value_is(store, "/numberFact", "\"answered, then no handler\""));
  /* No handler now: the request fails at once, the failure action saying so. */
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(calls == 1);
  CHECK(value_is(store, "/isNumberFactLoading", "false"));
  tca_store_free(store);
}

int main(void) {
  test_answered_inside_the_callback();
  test_request_details_and_callbacks_inside();
  test_request_handler_gives_the_kind();
  test_answered_later_and_failed();
  test_cancellation_notices();
  test_without_a_handler();
  test_free_inside_a_callback();
  test_answers_for_other_stores_inside_a_callback();
  test_answers_from_other_threads();
  test_handler_replaced_inside_its_callback();
  TEST_SUMMARY();
}
