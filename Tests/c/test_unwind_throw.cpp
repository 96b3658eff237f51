// A C++ exception thrown through a callback of libtca (issue 15): the exception reaches the
// host's catch, and the store does not become a silent corpse: every later call on it, from
// every thread, is refused with TCA_ERR_CALLBACK_UNWOUND; nothing hangs; other stores work.
// Built with exceptions on (make test-unwind-cxx).
#include <tca.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

static int passed = 0, failed = 0;
#define CHECK(condition)                                                                \
  do {                                                                                  \
    if (condition) {                                                                    \
      passed++;                                                                         \
    } else {                                                                            \
      failed++;                                                                         \
      std::fprintf(stderr, "%s:%d: FAILED: %s (%s)\n", __FILE__, __LINE__, #condition, \
                   tca_last_error());                                                   \
    }                                                                                   \
  } while (0)

static void on_hang(int) {
  static const char message[] = "test_unwind_throw: FAILED: hung (watchdog)\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(1);
}

static void throw_from_request(void *, tca_store *, const tca_request *request) {
  throw std::runtime_error("no network for " + std::string(request->name));
}

static void throw_from_subscriber(void *, tca_store *, uint64_t version) {
  throw std::runtime_error("subscriber failed at version " + std::to_string(version));
}

struct attempt {
  tca_store *store;
  tca_status status;
  std::string message;
};

static void *send_from_thread(void *argument) {
  auto *a = static_cast<attempt *>(argument);
  a->status = tca_store_send(a->store, "\"incrementButtonTapped\"");
  a->message = tca_last_error();
  return nullptr;
}

static void check_refused(tca_store *store) {
  CHECK(tca_store_send(store, "\"incrementButtonTapped\"") == TCA_ERR_CALLBACK_UNWOUND);
  CHECK(std::strstr(tca_last_error(), "a callback unwound through libtca") != nullptr);
  CHECK(tca_store_version(store) == TCA_VERSION_NONE);
  CHECK(tca_store_poll(store, nullptr) == TCA_ERR_CALLBACK_UNWOUND);
  attempt a{store, -1, ""};
  pthread_t thread;
  pthread_create(&thread, nullptr, send_from_thread, &a);
  pthread_join(thread, nullptr);
  CHECK(a.status == TCA_ERR_CALLBACK_UNWOUND);
  CHECK(a.message.find("a callback unwound through libtca") != std::string::npos);
}

static void test_throw_from_request_callback() {
  tca_store *store = nullptr, *other = nullptr;
  CHECK(tca_store_new("counter", nullptr, nullptr, &store) == TCA_OK);
  CHECK(tca_store_new("counter", nullptr, nullptr, &other) == TCA_OK);
  CHECK(tca_store_set_request_handler(store, throw_from_request, nullptr, nullptr) == TCA_OK);
  std::string caught;
  try {
    tca_store_send(store, "\"numberFactButtonTapped\"");
  } catch (const std::runtime_error &error) {
    caught = error.what();
  }
  CHECK(caught == "no network for numberFact.fetch");
  check_refused(store);
  CHECK(tca_store_send(other, "\"incrementButtonTapped\"") == TCA_OK);
  CHECK(tca_store_version(other) == 1);
  tca_store_free(store);
  tca_store_free(other);
}

static void test_throw_from_subscriber() {
  tca_store *store = nullptr;
  CHECK(tca_store_new("counter", nullptr, nullptr, &store) == TCA_OK);
  CHECK(tca_store_subscribe(store, throw_from_subscriber, nullptr, nullptr) == TCA_OK);
  std::string caught;
  try {
    tca_store_send(store, "\"incrementButtonTapped\"");
  } catch (const std::runtime_error &error) {
    caught = error.what();
  }
  CHECK(caught == "subscriber failed at version 1");
  check_refused(store);
  tca_store_free(store);
}

// A worker thread's callback throws; the worker catches it at its top and ends without calling
// libtca again. The store is unwound at once: other threads are refused, and free returns.
static void *send_and_catch_at_top(void *argument) {
  try {
    tca_store_send(static_cast<tca_store *>(argument), "\"numberFactButtonTapped\"");
  } catch (const std::runtime_error &) {
  }
  return nullptr;
}

static void test_worker_that_dies_unwinding() {
  tca_store *store = nullptr;
  CHECK(tca_store_new("counter", nullptr, nullptr, &store) == TCA_OK);
  CHECK(tca_store_set_request_handler(store, throw_from_request, nullptr, nullptr) == TCA_OK);
  pthread_t worker;
  pthread_create(&worker, nullptr, send_and_catch_at_top, store);
  pthread_join(worker, nullptr);
  check_refused(store);
  tca_store_free(store);  // the watchdog fails the test if this hangs
}

// After an exception left a callback, a call from a frame deeper than the dead callback's (a
// helper with a large buffer) is refused, not queued as if made from inside the callback.
__attribute__((noinline)) static tca_status send_from_deep_frame(tca_store *store) {
  volatile char buffer[4096];
  buffer[0] = 1;
  buffer[sizeof buffer - 1] = buffer[0];
  return tca_store_send(store, "\"incrementButtonTapped\"");
}

__attribute__((noinline)) static tca_status respond_from_deep_frame(tca_store *store) {
  volatile char buffer[4096];
  buffer[0] = 1;
  buffer[sizeof buffer - 1] = buffer[0];
  return tca_store_respond(store, 1, "\"a fact\"");
}

static void test_call_from_a_deeper_frame_after_a_throw() {
  tca_store *store = nullptr;
  CHECK(tca_store_new("counter", nullptr, nullptr, &store) == TCA_OK);
  CHECK(tca_store_set_request_handler(store, throw_from_request, nullptr, nullptr) == TCA_OK);
  try {
    tca_store_send(store, "\"numberFactButtonTapped\"");
  } catch (const std::runtime_error &) {
  }
  CHECK(send_from_deep_frame(store) == TCA_ERR_CALLBACK_UNWOUND);
  CHECK(respond_from_deep_frame(store) == TCA_ERR_CALLBACK_UNWOUND);
  check_refused(store);
  tca_store_free(store);
}

// pthread_exit inside a callback unwinds it (a forced unwind): the store is unwound at once.
static void exit_thread_from_request(void *, tca_store *, const tca_request *) {
  pthread_exit(nullptr);
}

static void *send_then_exit(void *argument) {
  tca_store_send(static_cast<tca_store *>(argument), "\"numberFactButtonTapped\"");
  return nullptr;
}

static void test_pthread_exit_inside_a_callback() {
  tca_store *store = nullptr;
  CHECK(tca_store_new("counter", nullptr, nullptr, &store) == TCA_OK);
  CHECK(tca_store_set_request_handler(store, exit_thread_from_request, nullptr, nullptr) ==
        TCA_OK);
  pthread_t worker;
  pthread_create(&worker, nullptr, send_then_exit, store);
  pthread_join(worker, nullptr);
  check_refused(store);
  tca_store_free(store);
}

int main() {
  signal(SIGALRM, on_hang);
  alarm(60);
  test_throw_from_request_callback();
  test_throw_from_subscriber();
  test_worker_that_dies_unwinding();
  test_call_from_a_deeper_frame_after_a_throw();
  test_pthread_exit_inside_a_callback();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
