/*
 * TCA_DEVTOOLS (docs/devtools.md, "Connecting a store"): this program plays the inspector on a
 * local socket and checks the store's side of the protocol: a store made before the variable is
 * set does not connect; one made after sends its hello, its journal lines, reductions and
 * versions; the inspector's commands wait for the host's next call (the store's descriptor is
 * readable meanwhile) and are applied on the host's thread — a dispatch as a send, a jump with
 * the subscriber told — and each is acknowledged, a malformed one with ok:false.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tca.h"

static char g_in[1 << 16];
static size_t g_length = 0;

/* The next line the store sent (NUL-terminated in place), or NULL after 10 s. */
static char *next_line(int fd) {
  static size_t consumed = 0;
  if (consumed) {
    memmove(g_in, g_in + consumed, g_length - consumed);
    g_length -= consumed;
    consumed = 0;
  }
  for (;;) {
    char *end = memchr(g_in, '\n', g_length);
    if (end) {
      *end = 0;
      consumed = (size_t)(end - g_in) + 1;
      return g_in;
    }
    struct pollfd watched = {fd, POLLIN, 0};
    if (poll(&watched, 1, 10000) <= 0 || g_length == sizeof g_in) return NULL;
    ssize_t got = read(fd, g_in + g_length, sizeof g_in - g_length);
    if (got <= 0) return NULL;
    g_length += (size_t)got;
  }
}

/* The next line containing `needle`, the lines before it skipped. */
static char *line_with(int fd, const char *needle) {
  char *line;
  while ((line = next_line(fd)) != NULL) {
    if (strstr(line, needle)) return line;
  }
  return NULL;
}

static pthread_t g_host_thread;
static int g_told = 0;
static int g_told_on_host_thread = 1;
static char g_last_state[256];

static void on_state(void *userdata, tca_store *store, uint64_t version, const char *json,
                     size_t length) {
  (void)userdata, (void)store, (void)version;
  g_told++;
  if (!pthread_equal(pthread_self(), g_host_thread)) g_told_on_host_thread = 0;
  snprintf(g_last_state, sizeof g_last_state, "%.*s", (int)length, json);
}

static int readable(int fd, int ms) {
  struct pollfd watched = {fd, POLLIN, 0};
  return poll(&watched, 1, ms) == 1;
}

int main(void) {
  g_host_thread = pthread_self();
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  unsetenv("TCA_DEVTOOLS");
  tca_store *plain = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &plain), TCA_OK);

  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
  CHECK(listen(listener, 4) == 0);
  CHECK(getsockname(listener, (struct sockaddr *)&address, &size) == 0);
  char spec[64];
  snprintf(spec, sizeof spec, "127.0.0.1:%d/tok", ntohs(address.sin_port));
  setenv("TCA_DEVTOOLS", spec, 1);

  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &store), TCA_OK);
  CHECK_STATUS(tca_store_subscribe_state(store, on_state, NULL, NULL), TCA_OK);
  /* Sent before the connection is made: it goes out after the hello. */
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);

  int fd = accept(listener, NULL, NULL);
  CHECK(fd >= 0);
  char request[1024] = {0};
  size_t got = 0;
  while (got < sizeof request - 1 && !strstr(request, "\r\n\r\n")) {
    ssize_t n = read(fd, request + got, sizeof request - 1 - got);
    if (n <= 0) break;
    got += (size_t)n;
    request[got] = 0;
  }
  CHECK_CONTAINS(request, "GET /store?token=tok HTTP/1.1\r\n");
  CHECK_CONTAINS(request, "\r\nUpgrade: tca-store/1\r\n");
  const char *upgrade = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: tca-store/1\r\n\r\n";
  CHECK(write(fd, upgrade, strlen(upgrade)) == (ssize_t)strlen(upgrade));

  /* The connection wakes the store's descriptor; its poll sends the hello and the backlog. */
  int wake = tca_store_fd(store);
  CHECK(wake >= 0);
  CHECK(readable(wake, 10000));
  CHECK_STATUS(tca_store_poll(store, NULL), TCA_OK);
  char *line = next_line(fd);
  CHECK(line && strstr(line, "{\"type\":\"hello\",\"protocol\":1,") == line);
  CHECK(line && strstr(line, "\"feature\":\"counter\""));
  CHECK(line && strstr(line, "\"header\":{\"tcaJournal\":1,\"feature\":\"counter\""));
  line = next_line(fd);
  /* The journal keeps the action as sent; the reduction, its canonical form. */
  CHECK(line && !strcmp(line, "{\"type\":\"entry\",\"line\":{\"send\":"
                              "\"incrementButtonTapped\",\"version\":1}}"));
  line = next_line(fd);
  CHECK(line && !strcmp(line, "{\"type\":\"reduction\",\"origin\":\"host\",\"action\":"
                              "{\"incrementButtonTapped\":{}},\"version\":1}"));
  line = next_line(fd);
  CHECK(line && !strcmp(line, "{\"type\":\"version\",\"version\":1,\"patch\":"
                              "[{\"op\":\"replace\",\"path\":\"/count\",\"value\":1}]}"));

  /* Commands wait for the host's call: the descriptor is readable, nothing is applied yet. */
  const char *commands =
      "{\"type\":\"dispatch\",\"id\":1,\"action\":\"incrementButtonTapped\"}\n"
      "not json\n"
      "{\"type\":\"jump\",\"id\":2,\"version\":\"0\"}\n"
      "{\"type\":\"jump\",\"id\":3,\"version\":0}\n";
  CHECK(write(fd, commands, strlen(commands)) == (ssize_t)strlen(commands));
  CHECK(readable(wake, 10000));
  int told = g_told;
  CHECK(tca_store_version(store) == 1);
  /* NB: the connection's thread may queue the four lines over several reads (a loaded machine,
   * valgrind): polled until all four ran. */
  uint32_t ran = 0, total = 0;
  for (int tries = 0; tries < 400 && total < 4; tries++) {
    if (tries > 0) readable(wake, 50);
    CHECK_STATUS(tca_store_poll(store, &ran), TCA_OK);
    total += ran;
  }
  CHECK(total >= 4);
  CHECK(tca_store_version(store) == 3);
  CHECK(g_told > told && g_told_on_host_thread);
  CHECK_CONTAINS(g_last_state, "\"count\":0");
  line = line_with(fd, "\"type\":\"ack\"");
  CHECK(line && !strcmp(line, "{\"type\":\"ack\",\"id\":1,\"ok\":true}"));
  line = line_with(fd, "\"type\":\"ack\"");
  CHECK(line && strstr(line, "{\"type\":\"ack\",\"id\":null,\"ok\":false,\"error\":") == line);
  line = line_with(fd, "\"type\":\"ack\"");
  CHECK(line && strstr(line, "{\"type\":\"ack\",\"id\":2,\"ok\":false,\"error\":") == line);
  line = line_with(fd, "\"type\":\"entry\"");
  CHECK(line && !strcmp(line, "{\"type\":\"entry\",\"line\":{\"jump\":0,\"state\":"
                              "{\"count\":0,\"isNumberFactLoading\":false},\"version\":3}}"));
  line = line_with(fd, "\"type\":\"ack\"");
  CHECK(line && !strcmp(line, "{\"type\":\"ack\",\"id\":3,\"ok\":true}"));

  /* The journal has the jump, and the library replays it. */
  char *journal = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(store, &journal, &length), TCA_OK);
  CHECK(journal && strstr(journal, "{\"jump\":0,\"state\":{\"count\":0,"));
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &replayed), TCA_OK);
  CHECK(tca_store_version(replayed) == 3);
  char *state = NULL;
  CHECK_STATUS(tca_store_state(replayed, &state, NULL), TCA_OK);
  CHECK(state && strstr(state, "\"count\":0"));
  tca_string_free(state);
  tca_string_free(journal);
  tca_store_free(replayed);

  /* The store made before the variable was set never connected. */
  CHECK_STATUS(tca_store_send(plain, "\"incrementButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_journal(plain, &journal, NULL), TCA_ERR_INVALID_ARGUMENT);
  tca_store_free(plain);
  tca_store_free(store);
  close(fd);
  close(listener);
  TEST_SUMMARY();
}
