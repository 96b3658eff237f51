/* The counter with its number fact, the effect answered by this C host.
 *
 * The counter asks the host for a fact about its count (host request "numberFact.fetch", payload:
 * the count, answer: a JSON string). This host knows a few facts by heart and answers those at
 * once, inside the callback; for any other number it starts a worker thread that "looks it up"
 * and answers later, from that thread. Meanwhile the main thread waits on the store's descriptor,
 * as an event loop would.
 *
 *   cc examples/c/counter_fact.c -Iinclude -Lbuild/lib -ltca -lpthread -Wl,-rpath,build/lib -o counter_fact
 *   cc examples/c/counter_fact.c $(pkg-config --cflags --libs tca) -lpthread -o counter_fact   # after make install
 */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>
#include <time.h>

/* ---- the host's side of the effect ---------------------------------------------------------- */

static const char *const known_facts[] = {
    "\"0 is the only number that is neither positive nor negative.\"",
    "\"1 is the first and second number of the Fibonacci sequence.\"",
    "\"2 is the only even prime.\"",
    "\"3 is the number of spatial dimensions we perceive.\"",
};

typedef struct lookup {
  tca_store *store;
  uint64_t request_id;
  long number;
} lookup;

/* The worker thread: a slow "lookup", then the answer, from this thread. */
static void *look_up_later(void *arg) {
  lookup *job = arg;
  struct timespec delay = {0, 200 * 1000000L};
  nanosleep(&delay, NULL);
  char answer[128];
  snprintf(answer, sizeof answer, "\"%ld is a number the worker thread looked up.\"", job->number);
  tca_status status = job->number < 0 ? tca_store_fail(job->store, job->request_id, "no facts about negative numbers")
                                      : tca_store_respond(job->store, job->request_id, answer);
  if (status != TCA_OK)
    printf("  worker: request #%llu refused: %s\n", (unsigned long long)job->request_id, tca_last_error());
  free(job);
  return NULL;
}

typedef struct host {
  pthread_t workers[8];
  int worker_count;
} host;

/* Called by the store, inside tca_store_send, on the thread that sent. */
static void on_request(void *userdata, tca_store *store, uint64_t request_id, const char *name,
                       const char *payload_json, size_t payload_length) {
  host *h = userdata;
  (void)payload_length;
  if (strcmp(name, "numberFact.fetch") != 0) {
    tca_store_fail(store, request_id, "this host does not know that request");
    return;
  }
  long number = strtol(payload_json, NULL, 10);
  printf("  host: request #%llu %s %s\n", (unsigned long long)request_id, name, payload_json);
  if (number >= 0 && number < 4) {
    /* Known: answer at once. The answer is applied right after this callback returns. */
    tca_store_respond(store, request_id, known_facts[number]);
    return;
  }
  lookup *job = malloc(sizeof *job);
  if (job == NULL || h->worker_count == 8) {
    free(job);
    tca_store_fail(store, request_id, "the host is too busy");
    return;
  }
  job->store = store;
  job->request_id = request_id;
  job->number = number;
  pthread_create(&h->workers[h->worker_count++], NULL, look_up_later, job);
}

static void on_cancel(void *userdata, tca_store *store, uint64_t request_id) {
  (void)userdata;
  (void)store;
  printf("  host: request #%llu cancelled\n", (unsigned long long)request_id);
}

/* ---- drawing ---------------------------------------------------------------------------- */

static pthread_t main_thread;

/* Called at the end of each call into the store that changed the state, on that call's thread:
 * the main thread for its sends, the worker's thread for an answer it gives. */
static void on_state(void *userdata, tca_store *store, uint64_t version, const char *state_json,
                     size_t length) {
  (void)userdata;
  (void)store;
  (void)length;
  printf("  state v%llu%s: %s\n", (unsigned long long)version,
         pthread_equal(pthread_self(), main_thread) ? "" : " (on the worker thread)", state_json);
}

static void send_action(tca_store *store, const char *action) {
  printf("send %s\n", action);
  if (tca_store_send(store, action) != TCA_OK) printf("  refused: %s\n", tca_last_error());
}

/* Waits, as an event loop would, until no fact is loading: on the store's descriptor (readable when
 * work is due), running what is due with tca_store_poll. */
static void wait_for_fact(tca_store *store) {
  struct pollfd watch = {tca_store_fd(store), POLLIN, 0};
  for (int rounds = 0; rounds < 100; rounds++) {
    char *loading = NULL;
    tca_store_get(store, "/isNumberFactLoading", &loading, NULL);
    int done = loading != NULL && strcmp(loading, "false") == 0;
    tca_string_free(loading);
    if (done) return;
    if (poll(&watch, 1, 50) > 0) tca_store_poll(store, NULL);
  }
}

int main(void) {
  main_thread = pthread_self();
  tca_store *store;
  if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) {
    fprintf(stderr, "%s\n", tca_last_error());
    return 1;
  }
  host h;
  memset(&h, 0, sizeof h);
  tca_store_set_effect_handler(store, on_request, on_cancel, &h);
  tca_store_subscribe_state(store, on_state, NULL, NULL);

  printf("-- a fact the host knows: answered inside the callback\n");
  send_action(store, "\"incrementButtonTapped\"");
  send_action(store, "\"numberFactButtonTapped\"");

  printf("-- a fact the host looks up: answered later, from a worker thread\n");
  for (int i = 0; i < 4; i++) tca_store_send(store, "\"incrementButtonTapped\"");
  send_action(store, "\"numberFactButtonTapped\"");
  wait_for_fact(store);

  printf("-- tapped twice: the first fetch is cancelled, its late answer refused\n");
  send_action(store, "\"incrementButtonTapped\"");
  send_action(store, "\"numberFactButtonTapped\"");
  send_action(store, "\"numberFactButtonTapped\"");
  wait_for_fact(store);

  for (int i = 0; i < h.worker_count; i++) pthread_join(h.workers[i], NULL);
  char *state;
  tca_store_state(store, &state, NULL);
  printf("final state: %s\n", state);
  tca_string_free(state);
  tca_store_free(store);
  return 0;
}
