/* A callback that unwinds out of libtca (here: longjmp; C++ exceptions in test_unwind_throw.cpp)
 * must not leave a silent corpse: every later call on the store, from every thread, is refused
 * with TCA_ERR_CALLBACK_UNWOUND and a message saying so; nothing hangs; other stores keep
 * working; the store can still be freed. A watchdog (alarm) turns a hang into a failure. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <unistd.h>

#include "harness.h"
#include "support.h"

static jmp_buf escape;

static void on_hang(int signal) {
  (void)signal;
  static const char message[] = "test_unwind: FAILED: hung (watchdog)\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(1);
}

static void jump_out_of_request(void *userdata, tca_store *store, uint64_t id, const char *name,
                                const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id, (void)name, (void)payload, (void)length;
  longjmp(escape, 1);
}

static void jump_out_of_subscriber(void *userdata, tca_store *store, uint64_t version) {
  (void)userdata, (void)store, (void)version;
  longjmp(escape, 1);
}

typedef struct attempt {
  tca_store *store;
  tca_status send_status;
  tca_status state_status;
  char message[256];
} attempt;

static void *call_from_another_thread(void *argument) {
  attempt *a = argument;
  a->send_status = tca_store_send(a->store, "\"incrementButtonTapped\"");
  snprintf(a->message, sizeof a->message, "%s", tca_last_error());
  char *json = NULL;
  a->state_status = tca_store_state(a->store, &json, NULL);
  tca_string_free(json);
  return NULL;
}

/* Every call is refused, on this thread and on another one. */
static void check_refused(tca_store *store) {
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_ERR_CALLBACK_UNWOUND);
  CHECK_CONTAINS(tca_last_error(), "a callback unwound through libtca");
  CHECK(strcmp(tca_status_str(TCA_ERR_CALLBACK_UNWOUND), "a callback unwound through libtca") ==
        0);
  char *json = (char *)1;
  CHECK_STATUS(tca_store_state(store, &json, NULL), TCA_ERR_CALLBACK_UNWOUND);
  CHECK(json == NULL);
  CHECK(tca_store_version(store) == TCA_VERSION_NONE);
  CHECK(tca_store_fd(store) == -1);
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_ERR_CALLBACK_UNWOUND);
  CHECK_STATUS(tca_store_respond(store, 1, "\"x\""), TCA_ERR_CALLBACK_UNWOUND);
  CHECK_STATUS(tca_store_subscribe(store, jump_out_of_subscriber, NULL, NULL),
               TCA_ERR_CALLBACK_UNWOUND);

  attempt a;
  memset(&a, 0, sizeof a);
  a.store = store;
  pthread_t thread;
  pthread_create(&thread, NULL, call_from_another_thread, &a);
  pthread_join(thread, NULL);
  CHECK_STATUS(a.send_status, TCA_ERR_CALLBACK_UNWOUND);
  CHECK_CONTAINS(a.message, "a callback unwound through libtca");
  CHECK_STATUS(a.state_status, TCA_ERR_CALLBACK_UNWOUND);
}

static void test_longjmp_out_of_a_request_callback(void) {
  tca_store *store = NULL, *other = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &other), TCA_OK);
  CHECK_STATUS(tca_store_set_effect_handler(store, jump_out_of_request, NULL, NULL), TCA_OK);
  volatile int jumped = 0;
  if (setjmp(escape) == 0) {
    tca_store_send(store, "\"numberFactButtonTapped\"");
  } else {
    jumped = 1;
  }
  CHECK(jumped == 1);
  check_refused(store);
  /* Another store is untouched. */
  CHECK_STATUS(tca_store_send(other, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(other, "/count", "1"));
  tca_store_free(store);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_ERR_INVALID_HANDLE);
  tca_store_free(other);
}

/* Another thread calls before the unwinding thread does: it does not hang (it may still work);
 * once this thread calls again, every call is refused. */
static void test_longjmp_out_of_a_subscriber(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_subscribe(store, jump_out_of_subscriber, NULL, NULL), TCA_OK);
  volatile int jumped = 0;
  if (setjmp(escape) == 0) {
    tca_store_send(store, "\"incrementButtonTapped\"");
  } else {
    jumped = 1;
  }
  CHECK(jumped == 1);
  attempt a;
  memset(&a, 0, sizeof a);
  a.store = store;
  pthread_t thread;
  pthread_create(&thread, NULL, call_from_another_thread, &a);
  pthread_join(thread, NULL);
  CHECK(a.send_status == TCA_OK || a.send_status == TCA_ERR_CALLBACK_UNWOUND);
  check_refused(store);
  tca_store_free(store);
}

/* A worker thread's callback longjmps to the top of the worker, which ends without calling
 * libtca again: the store is unwound when the thread ends; free returns. */
static jmp_buf worker_escape;

static void jump_to_worker_top(void *userdata, tca_store *store, uint64_t id, const char *name,
                               const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id, (void)name, (void)payload, (void)length;
  longjmp(worker_escape, 1);
}

static void *send_then_jump(void *argument) {
  if (setjmp(worker_escape) == 0) tca_store_send(argument, "\"numberFactButtonTapped\"");
  return NULL;
}

static void test_worker_that_ends_after_a_longjmp(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  CHECK_STATUS(tca_store_set_effect_handler(store, jump_to_worker_top, NULL, NULL), TCA_OK);
  pthread_t worker;
  pthread_create(&worker, NULL, send_then_jump, store);
  pthread_join(worker, NULL);
  check_refused(store);
  tca_store_free(store); /* the watchdog fails the test if this hangs */
}

int main(void) {
  signal(SIGALRM, on_hang);
  alarm(getenv("TCA_TEST_QUICK") ? 600 : 60);
  test_longjmp_out_of_a_request_callback();
  test_longjmp_out_of_a_subscriber();
  test_worker_that_ends_after_a_longjmp();
  TEST_SUMMARY();
}
