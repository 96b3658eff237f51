/*
 * A C host for the inspector's browser test (make test-devtools): a counter store, made with
 * TCA_DEVTOOLS in the environment, driven by an event loop on its wake descriptor.
 *
 * Its subscriber prints each state as one JSON line (what a GUI would redraw). It sends four
 * actions, answers the number fact from its loop (not inside the callback), prints "ready",
 * then waits on tca_store_fd and standard input: when the store's descriptor is readable (an
 * inspector's dispatch or jump waits), it calls tca_store_poll, which applies it. When standard
 * input closes, it writes the store's journal to the file named by its first argument.
 *
 *   cc host.c -ltca -o host && TCA_DEVTOOLS=127.0.0.1:7700/TOKEN ./host journal.jsonl
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tca.h>

static uint64_t pending = 0;

static void on_state(void *userdata, tca_store *store, uint64_t version, const char *json,
                     size_t length) {
  (void)userdata, (void)store, (void)version;
  fwrite(json, 1, length, stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

static void on_request(void *userdata, tca_store *store, uint64_t id, const char *name,
                       const char *payload, size_t length) {
  (void)userdata, (void)store, (void)name, (void)payload, (void)length;
  pending = id;
}

static void check(tca_status status, const char *what) {
  if (status != TCA_OK) {
    fprintf(stderr, "%s: %s\n", what, tca_last_error());
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s JOURNAL\n", argv[0]);
    return 2;
  }
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 5;
  tca_store *store = NULL;
  check(tca_store_new("counter", NULL, &options, &store), "tca_store_new");
  check(tca_store_subscribe_state(store, on_state, NULL, NULL), "subscribe");
  check(tca_store_set_effect_handler(store, on_request, NULL, NULL), "effect handler");
  check(tca_store_send(store, "\"incrementButtonTapped\""), "send");
  check(tca_store_send(store, "\"incrementButtonTapped\""), "send");
  check(tca_store_send(store, "\"numberFactButtonTapped\""), "send");
  if (pending) {
    char answer[64];
    snprintf(answer, sizeof answer, "\"%d is a good number.\"", 2);
    check(tca_store_respond(store, pending, answer), "respond");
    pending = 0;
  }
  check(tca_store_send(store, "\"decrementButtonTapped\""), "send");
  printf("ready\n");
  fflush(stdout);

  int fd = tca_store_fd(store);
  if (fd < 0) check(TCA_ERR_SYSTEM, "tca_store_fd");
  for (;;) {
    struct pollfd watched[2] = {{fd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
    if (poll(watched, 2, -1) < 0) continue;
    if (watched[0].revents & POLLIN) check(tca_store_poll(store, NULL), "poll");
    if (watched[1].revents) {
      char buffer[256];
      if (read(STDIN_FILENO, buffer, sizeof buffer) <= 0) break;
    }
  }
  char *journal = NULL;
  size_t length = 0;
  check(tca_store_journal(store, &journal, &length), "journal");
  FILE *file = fopen(argv[1], "w");
  if (!file || fwrite(journal, 1, length, file) != length || fclose(file) != 0) {
    perror(argv[1]);
    return 1;
  }
  tca_string_free(journal);
  tca_store_free(store);
  return 0;
}
