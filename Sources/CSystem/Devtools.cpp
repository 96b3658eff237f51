// The inspector's connections (include/Devtools.h; docs/devtools.md, "The protocol").
//
// One thread serves every store's connection with poll(2) over non-blocking sockets. A store's
// thread only appends to its connection's bounded buffer (`put`) and takes the command lines the
// thread read (`take`), each under the connection's mutex: it never waits on the network.
//
// NB: C++ only for its build flags (the library's C++ gets DWARF 4 debug info, which the valgrind
// of `make test-c` reads; see scripts/build-library.sh); the code is C.
#include "Devtools.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

namespace {

// The most a store's buffer holds; lines past it are dropped (and counted by the store).
const size_t kBufferLimit = 8u << 20;
// The longest command line read; a longer one is skipped whole.
const size_t kLineLimit = 1u << 20;
// Commands waiting for the host, at most; more are dropped (the inspector times out).
const size_t kCommandLimit = 256;
// The inspector's answer to the upgrade, at most.
const size_t kHeadLimit = 16384;
const int64_t kFirstBackoff = 100 * 1000000LL;
const int64_t kLastBackoff = 5000 * 1000000LL;
const int64_t kCloseGrace = 2000 * 1000000LL;
// While a connection is open the thread looks at its buffer this often (milliseconds), and a
// store's `put` wakes it only past kKick bytes: a send makes no system call of its own.
const int kFlushMs = 10;
const size_t kKick = 256u << 10;

enum Phase { kIdle, kConnecting, kRequesting, kAnswering, kOpen };

struct Command {
  Command *next;
  size_t length;
  uint8_t bytes[];
};

}  // namespace

struct csystem_devtools {
  pthread_mutex_t lock;
  csystem_devtools *next;
  int fd;
  int wake;
  // Whether `wake` was signalled since the store last cleared it (atomic).
  int signalled;
  Phase phase;
  int64_t retry_at;
  int64_t backoff;
  int64_t close_by;
  bool closing;
  uint64_t generation;
  uint64_t begun;
  // What waits to be sent: out[head, length).
  uint8_t *out;
  size_t head, length, capacity;
  // The upgrade request's bytes sent; what was read of the answer or of a command line.
  size_t requested;
  uint8_t *in;
  size_t in_length;
  bool skipping;
  Command *first, *last;
  size_t commands;
};

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
csystem_devtools *g_connections = nullptr;
int g_wake = -1;
bool g_started = false;
char g_host[256];
char g_port[8];
char g_request[1024];
size_t g_request_length = 0;

int64_t now_ns() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

void signal_fd(int fd) {
  uint64_t one = 1;
  while (write(fd, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

// Makes the store's wake descriptor readable, unless it is already.
void signal_store(csystem_devtools *conn) {
  if (!__atomic_exchange_n(&conn->signalled, 1, __ATOMIC_ACQ_REL)) signal_fd(conn->wake);
}

void clear_fd(int fd) {
  uint64_t count;
  while (read(fd, &count, sizeof count) < 0 && errno == EINTR) {
  }
}

bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_' || c == '.' || c == '~';
}

// HOST:PORT[/TOKEN] into g_host, g_port and the upgrade request.
bool parse(const char *spec) {
  const char *slash = strchr(spec, '/');
  size_t address = slash ? (size_t)(slash - spec) : strlen(spec);
  const char *token = slash ? slash + 1 : "";
  for (const char *c = token; *c; c++) {
    if (!token_char(*c)) return false;
  }
  if (strlen(token) > 512) return false;
  const char *host = spec;
  size_t host_length;
  const char *port;
  if (address > 0 && spec[0] == '[') {
    const char *close = (const char *)memchr(spec, ']', address);
    if (!close || close + 1 >= spec + address || close[1] != ':') return false;
    host = spec + 1;
    host_length = (size_t)(close - host);
    port = close + 2;
  } else {
    const char *colon = nullptr;
    for (const char *c = spec; c < spec + address; c++) {
      if (*c == ':') colon = c;
    }
    if (!colon) return false;
    host_length = (size_t)(colon - spec);
    port = colon + 1;
  }
  size_t port_length = (size_t)(spec + address - port);
  if (host_length == 0 || host_length >= sizeof g_host) return false;
  if (port_length == 0 || port_length > 5) return false;
  long number = 0;
  for (size_t i = 0; i < port_length; i++) {
    if (port[i] < '0' || port[i] > '9') return false;
    number = number * 10 + (port[i] - '0');
  }
  if (number <= 0 || number > 65535) return false;
  for (size_t i = 0; i < host_length; i++) {
    char c = host[i];
    if (!(token_char(c) || c == ':' || c == '%')) return false;
  }
  memcpy(g_host, host, host_length);
  g_host[host_length] = 0;
  snprintf(g_port, sizeof g_port, "%ld", number);
  bool v6 = strchr(g_host, ':') != nullptr;
  int written = snprintf(
      g_request, sizeof g_request,
      "GET /store%s%s HTTP/1.1\r\nHost: %s%s%s:%s\r\nUpgrade: tca-store/1\r\n"
      "Connection: Upgrade\r\n\r\n",
      *token ? "?token=" : "", token, v6 ? "[" : "", g_host, v6 ? "]" : "", g_port);
  if (written <= 0 || (size_t)written >= sizeof g_request) return false;
  g_request_length = (size_t)written;
  return true;
}

void free_commands(csystem_devtools *conn) {
  while (conn->first) {
    Command *next = conn->first->next;
    free(conn->first);
    conn->first = next;
  }
  conn->last = nullptr;
  conn->commands = 0;
}

// The connection failed (or ended): back to idle, tried again after the back-off.
void fail(csystem_devtools *conn) {
  pthread_mutex_lock(&conn->lock);
  if (conn->fd >= 0) close(conn->fd);
  conn->fd = -1;
  conn->phase = kIdle;
  conn->head = conn->length = 0;
  conn->in_length = 0;
  conn->skipping = false;
  conn->retry_at = now_ns() + conn->backoff;
  conn->backoff = conn->backoff * 2 > kLastBackoff ? kLastBackoff : conn->backoff * 2;
  pthread_mutex_unlock(&conn->lock);
}

void try_connect(csystem_devtools *conn) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  struct addrinfo *found = nullptr;
  // NB: a name is resolved on this thread: it may wait, but only for the inspector's lines.
  if (getaddrinfo(g_host, g_port, &hints, &found) != 0 || !found) {
    if (found) freeaddrinfo(found);
    return fail(conn);
  }
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int made = fd < 0 ? -1 : connect(fd, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  if (fd < 0) return fail(conn);
  pthread_mutex_lock(&conn->lock);
  conn->fd = fd;
  conn->requested = 0;
  conn->in_length = 0;
  conn->phase = made == 0 ? kRequesting : kConnecting;
  pthread_mutex_unlock(&conn->lock);
  if (made != 0 && errno != EINPROGRESS) fail(conn);
}

// NB: the phase is written under the lock (the stores' threads read it there); only this
// thread writes it, so this thread reads it without.
void set_phase(csystem_devtools *conn, Phase phase) {
  pthread_mutex_lock(&conn->lock);
  conn->phase = phase;
  pthread_mutex_unlock(&conn->lock);
}

bool grow_in(csystem_devtools *conn, size_t wanted) {
  if (wanted <= kLineLimit + 65536 && conn->in) return true;
  if (!conn->in) {
    conn->in = (uint8_t *)malloc(kLineLimit + 65536);
    return conn->in != nullptr;
  }
  return false;
}

// Splits what was read into command lines.
void take_lines(csystem_devtools *conn) {
  size_t start = 0;
  for (size_t i = 0; i < conn->in_length; i++) {
    if (conn->in[i] != '\n') continue;
    size_t length = i - start;
    if (!conn->skipping && length > 0 && conn->commands < kCommandLimit) {
      Command *command = (Command *)malloc(sizeof(Command) + length);
      if (command) {
        command->next = nullptr;
        command->length = length;
        memcpy(command->bytes, conn->in + start, length);
        pthread_mutex_lock(&conn->lock);
        if (conn->last) {
          conn->last->next = command;
        } else {
          conn->first = command;
        }
        conn->last = command;
        conn->commands++;
        pthread_mutex_unlock(&conn->lock);
        signal_store(conn);
      }
    }
    conn->skipping = false;
    start = i + 1;
  }
  memmove(conn->in, conn->in + start, conn->in_length - start);
  conn->in_length -= start;
  if (conn->in_length > kLineLimit) {
    // NB: a line past the limit is skipped up to its newline, whole.
    conn->skipping = true;
    conn->in_length = 0;
  }
}

void on_readable(csystem_devtools *conn) {
  if (!grow_in(conn, 0)) return fail(conn);
  for (;;) {
    size_t room = kLineLimit + 65536 - conn->in_length;
    ssize_t got = recv(conn->fd, conn->in + conn->in_length, room > 65536 ? 65536 : room, 0);
    if (got == 0) return fail(conn);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      return fail(conn);
    }
    conn->in_length += (size_t)got;
    if (conn->phase == kAnswering) {
      uint8_t *end = (uint8_t *)memmem(conn->in, conn->in_length, "\r\n\r\n", 4);
      if (!end) {
        if (conn->in_length > kHeadLimit) return fail(conn);
        continue;
      }
      if (conn->in_length < 12 || memcmp(conn->in, "HTTP/1.1 101", 12) != 0) return fail(conn);
      size_t head = (size_t)(end + 4 - conn->in);
      memmove(conn->in, end + 4, conn->in_length - head);
      conn->in_length -= head;
      pthread_mutex_lock(&conn->lock);
      conn->phase = kOpen;
      conn->generation++;
      conn->backoff = kFirstBackoff;
      conn->head = conn->length = 0;
      pthread_mutex_unlock(&conn->lock);
      signal_store(conn);
    }
    take_lines(conn);
  }
}

void on_writable(csystem_devtools *conn) {
  if (conn->phase == kConnecting) {
    int error = 0;
    socklen_t size = sizeof error;
    if (getsockopt(conn->fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0) {
      return fail(conn);
    }
    set_phase(conn, kRequesting);
  }
  if (conn->phase == kRequesting) {
    while (conn->requested < g_request_length) {
      ssize_t sent = send(conn->fd, g_request + conn->requested,
                          g_request_length - conn->requested, MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        return fail(conn);
      }
      conn->requested += (size_t)sent;
    }
    set_phase(conn, kAnswering);
    return;
  }
  if (conn->phase != kOpen) return;
  pthread_mutex_lock(&conn->lock);
  bool failed = false;
  while (conn->head < conn->length) {
    ssize_t sent = send(conn->fd, conn->out + conn->head, conn->length - conn->head,
                        MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR) continue;
      failed = errno != EAGAIN && errno != EWOULDBLOCK;
      break;
    }
    conn->head += (size_t)sent;
  }
  if (conn->head == conn->length) conn->head = conn->length = 0;
  pthread_mutex_unlock(&conn->lock);
  if (failed) fail(conn);
}

void destroy(csystem_devtools *conn) {
  if (conn->fd >= 0) {
    shutdown(conn->fd, SHUT_RDWR);
    close(conn->fd);
  }
  close(conn->wake);
  free_commands(conn);
  free(conn->out);
  free(conn->in);
  pthread_mutex_destroy(&conn->lock);
  free(conn);
}

void *serve(void *) {
  struct pollfd *fds = nullptr;
  csystem_devtools **owners = nullptr;
  size_t room = 0;
  for (;;) {
    int64_t now = now_ns();
    int64_t wait = 1000;
    // Connections that are due a try, and closed ones that are done, first.
    pthread_mutex_lock(&g_lock);
    csystem_devtools **link = &g_connections;
    while (*link) {
      csystem_devtools *conn = *link;
      pthread_mutex_lock(&conn->lock);
      bool done = conn->closing &&
                  (conn->phase != kOpen || conn->head == conn->length || now > conn->close_by);
      pthread_mutex_unlock(&conn->lock);
      if (done) {
        *link = conn->next;
        destroy(conn);
        continue;
      }
      link = &conn->next;
    }
    size_t count = 0;
    for (csystem_devtools *conn = g_connections; conn; conn = conn->next) count++;
    csystem_devtools *list = g_connections;
    pthread_mutex_unlock(&g_lock);
    // NB: only this thread unlinks connections: those seen above stay valid until it does.
    if (count + 1 > room) {
      room = (count + 1) * 2;
      fds = (struct pollfd *)realloc(fds, room * sizeof *fds);
      owners = (csystem_devtools **)realloc(owners, room * sizeof *owners);
      if (!fds || !owners) abort();
    }
    size_t used = 0;
    fds[used].fd = g_wake;
    fds[used].events = POLLIN;
    owners[used++] = nullptr;
    for (csystem_devtools *conn = list; conn && used < count + 1; conn = conn->next) {
      if (conn->phase == kIdle && !__atomic_load_n(&conn->closing, __ATOMIC_ACQUIRE)) {
        if (now >= conn->retry_at) {
          try_connect(conn);
        } else {
          int64_t left = (conn->retry_at - now) / 1000000 + 1;
          if (left < wait) wait = left;
        }
      }
      if (conn->fd < 0) continue;
      if (conn->phase == kOpen && wait > kFlushMs) wait = kFlushMs;
      short events = 0;
      switch (conn->phase) {
      case kConnecting:
      case kRequesting: events = POLLOUT; break;
      case kAnswering: events = POLLIN; break;
      case kOpen:
        pthread_mutex_lock(&conn->lock);
        events = POLLIN | (conn->head < conn->length ? POLLOUT : 0);
        pthread_mutex_unlock(&conn->lock);
        break;
      case kIdle: break;
      }
      fds[used].fd = conn->fd;
      fds[used].events = events;
      fds[used].revents = 0;
      owners[used++] = conn;
    }
    fds[0].revents = 0;
    if (poll(fds, used, (int)wait) < 0 && errno != EINTR) {
      struct timespec pause = {0, 10000000};
      nanosleep(&pause, nullptr);
    }
    if (fds[0].revents) clear_fd(g_wake);
    for (size_t i = 1; i < used; i++) {
      csystem_devtools *conn = owners[i];
      short got = fds[i].revents;
      if (!got || conn->fd != fds[i].fd) continue;
      if (got & POLLOUT) on_writable(conn);
      if (conn->fd >= 0 && (got & (POLLIN | POLLHUP | POLLERR))) {
        if (conn->phase == kConnecting || conn->phase == kRequesting) {
          if (got & (POLLHUP | POLLERR)) fail(conn);
        } else {
          on_readable(conn);
        }
      }
    }
  }
  return nullptr;
}

}  // namespace

extern "C" int csystem_devtools_start(const char *spec) {
  static bool warned = false;
  pthread_mutex_lock(&g_lock);
  int result = 0;
  if (!g_started) {
    result = -1;
    if (!spec || !parse(spec)) {
      if (!warned) {
        warned = true;
        fprintf(stderr,
                "libtca: TCA_DEVTOOLS=\"%.80s\" is not HOST:PORT or HOST:PORT/TOKEN (a token of "
                "letters, digits, -._~): no store connects to an inspector\n",
                spec ? spec : "");
      }
    } else {
      g_wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
      pthread_t thread;
      pthread_attr_t attributes;
      pthread_attr_init(&attributes);
      pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
      if (g_wake >= 0 && pthread_create(&thread, &attributes, serve, nullptr) == 0) {
        g_started = true;
        result = 0;
      } else if (g_wake >= 0) {
        close(g_wake);
        g_wake = -1;
      }
      pthread_attr_destroy(&attributes);
    }
  }
  pthread_mutex_unlock(&g_lock);
  return result;
}

extern "C" csystem_devtools *csystem_devtools_open(void) {
  csystem_devtools *conn = (csystem_devtools *)calloc(1, sizeof *conn);
  if (!conn) return nullptr;
  conn->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (conn->wake < 0) {
    free(conn);
    return nullptr;
  }
  pthread_mutex_init(&conn->lock, nullptr);
  conn->fd = -1;
  conn->phase = kIdle;
  conn->backoff = kFirstBackoff;
  pthread_mutex_lock(&g_lock);
  if (!g_started) {
    pthread_mutex_unlock(&g_lock);
    close(conn->wake);
    pthread_mutex_destroy(&conn->lock);
    free(conn);
    return nullptr;
  }
  conn->next = g_connections;
  g_connections = conn;
  pthread_mutex_unlock(&g_lock);
  signal_fd(g_wake);
  return conn;
}

extern "C" void csystem_devtools_close(csystem_devtools *conn) {
  if (!conn) return;
  pthread_mutex_lock(&conn->lock);
  __atomic_store_n(&conn->closing, true, __ATOMIC_RELEASE);
  conn->close_by = now_ns() + kCloseGrace;
  pthread_mutex_unlock(&conn->lock);
  signal_fd(g_wake);
}

extern "C" uint64_t csystem_devtools_generation(csystem_devtools *conn) {
  pthread_mutex_lock(&conn->lock);
  uint64_t generation = conn->phase == kOpen ? conn->generation : 0;
  pthread_mutex_unlock(&conn->lock);
  return generation;
}

extern "C" void csystem_devtools_begin(csystem_devtools *conn, uint64_t generation) {
  pthread_mutex_lock(&conn->lock);
  conn->begun = generation;
  conn->head = conn->length = 0;
  pthread_mutex_unlock(&conn->lock);
}

extern "C" int csystem_devtools_put(csystem_devtools *conn, const uint8_t *line, size_t length) {
  pthread_mutex_lock(&conn->lock);
  if (conn->phase != kOpen || conn->begun != conn->generation) {
    pthread_mutex_unlock(&conn->lock);
    return 1;
  }
  size_t pending = conn->length - conn->head;
  if (length + 1 > kBufferLimit - pending) {
    pthread_mutex_unlock(&conn->lock);
    return 2;
  }
  if (conn->head > 0 && conn->length + length + 1 > conn->capacity) {
    memmove(conn->out, conn->out + conn->head, pending);
    conn->head = 0;
    conn->length = pending;
  }
  if (conn->length + length + 1 > conn->capacity) {
    size_t capacity = conn->capacity ? conn->capacity : 65536;
    while (capacity < conn->length + length + 1) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(conn->out, capacity);
    if (!grown) {
      pthread_mutex_unlock(&conn->lock);
      return 2;
    }
    conn->out = grown;
    conn->capacity = capacity;
  }
  memcpy(conn->out + conn->length, line, length);
  conn->out[conn->length + length] = '\n';
  conn->length += length + 1;
  pthread_mutex_unlock(&conn->lock);
  // NB: the thread drains the buffer every kFlushMs anyway; it is woken only when the buffer
  // fills faster than that.
  if (pending < kKick && pending + length + 1 >= kKick) signal_fd(g_wake);
  return 0;
}

extern "C" uint8_t *csystem_devtools_take(csystem_devtools *conn, size_t *length) {
  pthread_mutex_lock(&conn->lock);
  Command *command = conn->first;
  if (command) {
    conn->first = command->next;
    if (!conn->first) conn->last = nullptr;
    conn->commands--;
  }
  pthread_mutex_unlock(&conn->lock);
  if (!command) return nullptr;
  // NB: the line moved to the front of its own block: one allocation, freed by the caller.
  size_t size = command->length;
  memmove(command, command->bytes, size);
  *length = size;
  return (uint8_t *)command;
}

extern "C" int csystem_devtools_wake_fd(csystem_devtools *conn) { return conn->wake; }

extern "C" void csystem_devtools_clear_wake(csystem_devtools *conn) {
  // NB: read, then the flag cleared: a signal between the two finds the flag set and writes
  // nothing, but what it signalled (a command, a connection) is there before the caller looks.
  if (!__atomic_load_n(&conn->signalled, __ATOMIC_ACQUIRE)) return;
  clear_fd(conn->wake);
  __atomic_store_n(&conn->signalled, 0, __ATOMIC_RELEASE);
}

extern "C" int csystem_devtools_watch(csystem_devtools *conn, int epoll_fd) {
  struct epoll_event watch;
  memset(&watch, 0, sizeof watch);
  watch.events = EPOLLIN;
  watch.data.fd = conn->wake;
  if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, conn->wake, &watch) == 0) return 0;
  return errno == EEXIST ? 0 : -1;
}
