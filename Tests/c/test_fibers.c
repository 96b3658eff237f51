/* Callbacks on fibers (ucontext): a request callback that switches to another stack and comes
 * back later returned normally, and its store must keep working. The unwind watch must not take
 * a call made on another stack, nor a dispatch ended out of order, for an unwound callback
 * (tca.h: "Callbacks must not unwind"). A watchdog (alarm) turns a hang into a failure. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness.h"
#include "support.h"

enum { FIBER_STACK = 256 * 1024 };

static ucontext_t main_context, fiber_context, callback_context;
/* Where the fiber goes when it yields: the context that last switched into it. */
static ucontext_t *resume_point;
static tca_store *first, *second;
static uint64_t first_request;
static int first_send_returned;
static tca_status first_send_status;

static void on_hang(int signal) {
  (void)signal;
  static const char message[] = "test_fibers: FAILED: hung (watchdog)\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(1);
}

/* The first store's request callback, on the fiber: yields, and returns once resumed. */
static void yield_inside_request(void *userdata, tca_store *store, uint64_t id, const char *name,
                                 const char *payload, size_t length) {
  (void)userdata, (void)store, (void)name, (void)payload, (void)length;
  first_request = id;
  swapcontext(&fiber_context, resume_point);
}

static void fiber_body(void) {
  first_send_status = tca_store_send(first, "\"numberFactButtonTapped\"");
  first_send_returned = 1;
  swapcontext(&fiber_context, resume_point);
}

/* The second store's request callback, on the main stack: resumes the fiber, whose callback of
 * the first store then returns and whose dispatch ends, inside this one. */
static void resume_fiber_inside_request(void *userdata, tca_store *store, uint64_t id,
                                        const char *name, const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id, (void)name, (void)payload, (void)length;
  resume_point = &callback_context;
  swapcontext(&callback_context, &fiber_context);
}

static void test_a_callback_suspended_on_a_fiber(void) {
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &first), TCA_OK);
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &second), TCA_OK);
  CHECK_STATUS(tca_store_set_effect_handler(first, yield_inside_request, NULL, NULL), TCA_OK);

  void *stack = malloc(FIBER_STACK);
  CHECK(stack != NULL);
  getcontext(&fiber_context);
  fiber_context.uc_stack.ss_sp = stack;
  fiber_context.uc_stack.ss_size = FIBER_STACK;
  fiber_context.uc_link = &main_context;
  makecontext(&fiber_context, fiber_body, 0);
  resume_point = &main_context;
  swapcontext(&main_context, &fiber_context);
  CHECK(first_request != 0);
  CHECK(first_send_returned == 0);

  /* The first store's callback is suspended on the fiber: a call on another store, made on
   * the main stack, is not taken for a sign that it unwound. */
  CHECK_STATUS(tca_store_send(second, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(second, "/count", "1"));
  CHECK(tca_store_version(first) != TCA_VERSION_NONE);

  /* The second store's callback resumes the fiber: the first store's callback returns and its
   * dispatch ends while the second's, begun after it, is still running. */
  CHECK_STATUS(tca_store_set_effect_handler(second, resume_fiber_inside_request, NULL, NULL),
               TCA_OK);
  CHECK_STATUS(tca_store_send(second, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK(first_send_returned == 1);
  CHECK_STATUS(first_send_status, TCA_OK);

  /* Neither store was taken for unwound. */
  CHECK_STATUS(tca_store_send(second, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(value_is(second, "/count", "2"));
  CHECK_STATUS(tca_store_send(first, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_respond(first, first_request, "\"a fact\""), TCA_OK);
  CHECK(value_is(first, "/numberFact", "\"a fact\""));
  CHECK(value_is(first, "/count", "1"));

  tca_store_free(first);
  tca_store_free(second);
  free(stack);
}

int main(void) {
  signal(SIGALRM, on_hang);
  alarm(getenv("TCA_TEST_QUICK") ? 600 : 60);
  test_a_callback_suspended_on_a_fiber();
  TEST_SUMMARY();
}
