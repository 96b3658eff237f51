/* libFuzzer harness over journals and replay: the replay round trip (docs/fuzzing.md).
 *
 * An input is either a journal (it starts with `{`: JSON Lines, docs/wire-format.md) or a
 * script in fuzz_store.c's form that drives a recording store, whose journal is then taken:
 *
 *     <feature byte: its value mod 4 picks 0 counter, 1 todos, 2 dice, 3 matchscores; bit 2
 *      (4–7, 12–15, …) makes the store's requests wait to be taken (pull mode); bit 3 fails
 *      every request inside its callback (inputs given together, as a callback gives them)>
 *     S<action JSON>          tca_store_send_n
 *     R<k><response JSON>     tca_store_respond_n to the k-th request seen (k a digit)
 *     F<k><message>           tca_store_fail_n
 *     C<k>                    tca_store_complete
 *     A<milliseconds>         tca_store_advance (manual clock)
 *     P                       tca_store_poll
 *     Q                       tca_store_take_requests (pull mode: the requests are seen then)
 *     <anything else>         sent as an action
 *
 * The round trip, for a journal J: when tca_store_replay(J) succeeds (a store's own journal
 * must), the replayed store's journal J1 replays to the same state and version, and the journal
 * of that replay is J1 again, byte for byte; J and J1 replayed to a version between give the
 * same state. A journal that is refused must be refused with a readable error. Anything else
 * aborts, which libFuzzer reports as a crash.
 *
 * With FUZZ_REPLAY_SEEDS=<directory>, a script's journal is also written there: the seeds of
 * the journals the fuzzer mutates (the Makefile runs the harness once over the script seeds).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tca.h"

static const char *const features[] = {"counter", "todos", "dice", "matchscores"};

enum { MAX_IDS = 16, MAX_ERROR = 4096, MAX_LINES = 64 };

typedef struct {
  uint64_t ids[MAX_IDS];
  int count;
  int fail_at_once;
} requests;

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_replay: %s: %s\n", what, detail ? detail : "(null)");
  abort();
}

/* A failed call's message: at most MAX_ERROR bytes, no control byte. */
static void check_error(tca_status status) {
  if (status == TCA_OK) return;
  const char *message = tca_last_error();
  size_t length = strlen(message);
  if (length == 0) fail("empty tca_last_error() after a failure", tca_status_str(status));
  if (length > MAX_ERROR) fail("tca_last_error() longer than 4096 bytes", "");
  for (size_t i = 0; i < length; i++) {
    if ((unsigned char)message[i] < 0x20 || message[i] == 0x7F) {
      fail("control byte in tca_last_error()", message);
    }
  }
}

static void seen_id(requests *seen, uint64_t id) {
  seen->ids[seen->count % MAX_IDS] = id;
  seen->count++;
}

static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  requests *seen = userdata;
  seen_id(seen, request->id);
  /* NB: a failure decodes for every request: given here, it is an input given inside a
   * callback, applied with the others given there once the callback returns. */
  if (seen->fail_at_once && request->kind != TCA_REQUEST_FIRE_AND_FORGET) {
    check_error(tca_store_fail(store, request->id, "failed at once"));
  }
}

static void on_cancel(void *userdata, tca_store *store, uint64_t request_id) {
  (void)userdata, (void)store, (void)request_id;
}

/* The ids of the requests in a tca_store_take_requests array. */
static void take_requests(tca_store *store, requests *seen) {
  char *json = NULL;
  size_t length = 0;
  tca_status status = tca_store_take_requests(store, &json, &length);
  check_error(status);
  if (status != TCA_OK) return;
  for (const char *at = strstr(json, "{\"id\":"); at; at = strstr(at + 1, "{\"id\":")) {
    seen_id(seen, strtoull(at + 6, NULL, 10));
  }
  tca_string_free(json);
}

/* The k-th request seen, by the digit at `text` (or an id no request has). */
static uint64_t request_id(const requests *seen, const char *text, size_t length) {
  unsigned k = length > 0 ? (unsigned char)text[0] % MAX_IDS : 0;
  if (seen->count == 0) return 1 + k;
  int known = seen->count < MAX_IDS ? seen->count : MAX_IDS;
  return seen->ids[k % (unsigned)known];
}

static char *journal_of(tca_store *store, size_t *length) {
  char *journal = NULL;
  if (tca_store_journal(store, &journal, length) != TCA_OK) {
    fail("tca_store_journal of a replayed or recording store", tca_last_error());
  }
  if (strlen(journal) != *length) fail("tca_store_journal", "wrong length");
  return journal;
}

static char *state_of(tca_store *store, size_t *length) {
  char *state = NULL;
  if (tca_store_state(store, &state, length) != TCA_OK) fail("tca_store_state", tca_last_error());
  return state;
}

/* Two stores have the same state, byte for byte. */
static void check_same(tca_store *a, tca_store *b, const char *what, const char *journal) {
  size_t a_length = 0, b_length = 0;
  char *a_state = state_of(a, &a_length);
  char *b_state = state_of(b, &b_length);
  if (a_length != b_length || memcmp(a_state, b_state, a_length) != 0) {
    fprintf(stderr, "journal:\n%s\nfirst:  %s\nsecond: %s\n", journal, a_state, b_state);
    fail(what, "the states differ");
  }
  tca_string_free(a_state);
  tca_string_free(b_state);
}

/* The round trip (see the top of the file); `own`: the journal is a store's own, which must
 * replay. */
static void round_trip(const char *journal, size_t length, int own) {
  tca_store *first = NULL;
  tca_status status = tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &first);
  check_error(status);
  if (status != TCA_OK) {
    if (own) {
      fprintf(stderr, "journal:\n%.*s\n", (int)length, journal);
      fail("a store's own journal does not replay", tca_last_error());
    }
    return;
  }
  uint64_t version = tca_store_version(first);
  if (version == TCA_VERSION_NONE) fail("a replayed store's version is TCA_VERSION_NONE", "");
  size_t again_length = 0;
  char *again = journal_of(first, &again_length);
  tca_store *second = NULL;
  if (tca_store_replay(again, again_length, TCA_VERSION_NONE, NULL, &second) != TCA_OK) {
    fprintf(stderr, "journal:\n%.*s\nreplayed store's journal:\n%s\n", (int)length, journal,
            again);
    fail("a replayed store's journal does not replay", tca_last_error());
  }
  check_same(first, second, "a replayed store's journal replays to another state", again);
  if (tca_store_version(second) != version) {
    fprintf(stderr, "journal:\n%.*s\nreplayed store's journal:\n%s\n", (int)length, journal,
            again);
    fail("a replayed store's journal replays to another version", "");
  }
  size_t thrice_length = 0;
  char *thrice = journal_of(second, &thrice_length);
  if (thrice_length != again_length || memcmp(thrice, again, again_length) != 0) {
    fprintf(stderr, "replayed store's journal:\n%s\nits replay's:\n%s\n", again, thrice);
    fail("a replayed store's journal is not its replay's", "");
  }
  /* To a version on the way: the same state from J and from J1. */
  if (version > 0) {
    uint64_t to = (uint64_t)length % version;
    tca_store *x = NULL, *y = NULL;
    if (tca_store_replay(journal, length, to, NULL, &x) != TCA_OK ||
        tca_store_replay(again, again_length, to, NULL, &y) != TCA_OK) {
      fail("a journal that replays does not replay to a version on the way", tca_last_error());
    }
    check_same(x, y, "a journal and its replay's journal differ at a version on the way", again);
    tca_store_free(x);
    tca_store_free(y);
  }
  tca_string_free(thrice);
  tca_string_free(again);
  tca_store_free(second);
  tca_store_free(first);
}

static void run_line(tca_store *store, requests *seen, const char *line, size_t length) {
  const char *rest = line + 1;
  size_t rest_length = length > 0 ? length - 1 : 0;
  const char *argument = rest_length > 0 ? rest + 1 : rest;
  size_t argument_length = rest_length > 0 ? rest_length - 1 : 0;
  switch (length > 0 ? line[0] : 0) {
    case 'S':
      check_error(tca_store_send_n(store, rest, rest_length));
      break;
    case 'R':
      check_error(tca_store_respond_n(store, request_id(seen, rest, rest_length), argument,
                                      argument_length));
      break;
    case 'F':
      check_error(tca_store_fail_n(store, request_id(seen, rest, rest_length), argument,
                                   argument_length));
      break;
    case 'C':
      check_error(tca_store_complete(store, request_id(seen, rest, rest_length)));
      break;
    case 'A': {
      uint64_t milliseconds = 0;
      for (size_t i = 0; i < rest_length && i < 7; i++) {
        unsigned char c = (unsigned char)rest[i];
        if (c < '0' || c > '9') break;
        milliseconds = milliseconds * 10 + (c - '0');
      }
      check_error(tca_store_advance(store, milliseconds));
      break;
    }
    case 'P':
      check_error(tca_store_poll(store, NULL));
      break;
    case 'Q':
      take_requests(store, seen);
      break;
    default:
      check_error(tca_store_send_n(store, line, length));
      break;
  }
}

/* Writes `journal` into the seed directory, if one is named. */
static void keep_seed(const char *journal, size_t length) {
  static unsigned written = 0;
  const char *directory = getenv("FUZZ_REPLAY_SEEDS");
  if (directory == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/journal-%04u", directory, written++);
  FILE *file = fopen(path, "wb");
  if (file == NULL) fail("cannot write a seed", path);
  fwrite(journal, 1, length, file);
  fclose(file);
}

/* A script's recording store: run, then its journal round-tripped. */
static void run_script(const uint8_t *data, size_t size) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 7;
  options.record = 1;
  options.requests = data[0] & 4 ? TCA_REQUESTS_QUEUED : TCA_REQUESTS_CALLBACK;
  requests seen = {{0}, 0, (data[0] & 8) != 0};
  tca_store *store = NULL;
  if (tca_store_new(features[data[0] % 4], NULL, &options, &store) != TCA_OK) {
    fail("a default store", tca_last_error());
  }
  if (options.requests == TCA_REQUESTS_CALLBACK &&
      tca_store_set_request_handler(store, on_request, on_cancel, &seen) != TCA_OK) {
    fail("tca_store_set_request_handler", tca_last_error());
  }
  const char *text = (const char *)data + 1;
  size_t remaining = size - 1;
  /* The lines after the first byte's line. */
  const char *newline = memchr(text, '\n', remaining);
  size_t skip = newline ? (size_t)(newline - text) + 1 : remaining;
  text += skip;
  remaining -= skip;
  for (int lines = 0; remaining > 0 && lines < MAX_LINES; lines++) {
    newline = memchr(text, '\n', remaining);
    size_t length = newline ? (size_t)(newline - text) : remaining;
    run_line(store, &seen, text, length);
    text += length + (newline ? 1 : 0);
    remaining -= length + (newline ? 1 : 0);
  }
  size_t length = 0;
  char *journal = journal_of(store, &length);
  keep_seed(journal, length);
  round_trip(journal, length, 1);
  tca_string_free(journal);
  tca_store_free(store);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  if (data[0] == '{') {
    round_trip((const char *)data, size, 0);
  } else {
    run_script(data, size);
  }
  return 0;
}
