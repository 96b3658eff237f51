/* TCA_TRACE=1: every store writes each action, the state change it caused, and each host request
 * to stderr. The environment is read once per process, so this test runs itself as a child with
 * TCA_TRACE set and reads the child's stderr. */
#include <stdlib.h>
#include <sys/wait.h>
#include <tca.h>
#include <unistd.h>

#include "harness.h"
#include "support.h"

static void answer(void *userdata, tca_store *store, uint64_t id, const char *name,
                   const char *payload, size_t length) {
  (void)userdata, (void)name, (void)payload, (void)length;
  tca_store_respond(store, id, "\"a traced fact\"");
}

/* The child: a few actions and a request. */
static int child(void) {
  tca_store *store = NULL;
  if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) return 2;
  tca_store_set_effect_handler(store, answer, NULL, NULL);
  tca_store_send(store, "\"incrementButtonTapped\"");
  tca_store_send(store, "\"numberFactButtonTapped\"");
  tca_store_free(store);
  return 0;
}

/* Runs this program as a child with TCA_TRACE=value (NULL: unset); returns its stderr. */
static char *run_child(const char *self, const char *value) {
  int pipes[2];
  if (pipe(pipes) != 0) return NULL;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipes[1], 2);
    close(pipes[0]);
    close(pipes[1]);
    if (value) setenv("TCA_TRACE", value, 1);
    else unsetenv("TCA_TRACE");
    execl(self, self, "child", (char *)NULL);
    _exit(127);
  }
  close(pipes[1]);
  size_t size = 0, capacity = 65536;
  char *text = malloc(capacity);
  ssize_t got;
  while (text && (got = read(pipes[0], text + size, capacity - size - 1)) > 0) size += (size_t)got;
  close(pipes[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text) text[size] = 0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) return child();

  char *traced = run_child(argv[0], "1");
  CHECK(traced != NULL);
  if (traced) {
    CHECK_CONTAINS(traced, "received action:");
    CHECK_CONTAINS(traced, "Counter.Action.incrementButtonTapped");
    CHECK_CONTAINS(traced, "-   count: 0");
    CHECK_CONTAINS(traced, "+   count: 1");
    CHECK_CONTAINS(traced, "[tca] request #1 \"numberFact.fetch\" 1");
    CHECK_CONTAINS(traced, "a traced fact");
  }
  free(traced);

  char *quiet = run_child(argv[0], NULL);
  CHECK(quiet != NULL && quiet[0] == 0);
  free(quiet);
  quiet = run_child(argv[0], "0");
  CHECK(quiet != NULL && quiet[0] == 0);
  free(quiet);
  TEST_SUMMARY();
}
