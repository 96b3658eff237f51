/* libFuzzer harness over the C API: the JSON decoder and every store function (docs/fuzzing.md).
 *
 * An input is a feature choice and a script, one operation a line:
 *
 *     <feature byte: its value mod 4 picks 0 counter, 1 todos, 2 dice, 3 matchscores; an odd
 *      value divided by 4 makes the store record (options.record = 1)>
 *     S<action JSON>          tca_store_send_n
 *     N<state JSON>           tca_store_new_n (a snapshot); on success it replaces the store
 *     R<k><response JSON>     tca_store_respond_n to the k-th request seen (k a digit)
 *     F<k><message>           tca_store_fail
 *     C<k>                    tca_store_complete
 *     G<JSON pointer>         tca_store_get
 *     A<milliseconds>         tca_store_advance (manual clock)
 *     P                       tca_store_poll
 *     D<k>                    tca_store_patch since the version k before the current one (k a
 *                             digit; D alone: since version 0)
 *     B                       tca_store_state_borrow
 *     V                       tca_store_version
 *     Q                       tca_store_take_requests
 *     K<action JSON>          tca_canonical_action_n of the store's feature
 *     J                       tca_store_journal, then tca_store_replay of it: the replayed
 *                             store's state must be the store's, byte for byte
 *     Y<journal text>         tca_store_replay of the text (a journal line per `|`)
 *     L<0|1>                  tca_store_log_reductions
 *     T                       tca_store_take_reductions
 *     <anything else>         sent as an action
 *
 * After every failed call, tca_last_error() must be a short line of printable text (no control
 * byte: input is quoted escaped). After each input, the state must round-trip: a store made from
 * its snapshot has the same snapshot. Anything else aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tca.h"

static const char *const features[] = {"counter", "todos", "dice", "matchscores"};

enum { MAX_IDS = 16, MAX_ERROR = 4096 };

typedef struct {
  uint64_t ids[MAX_IDS];
  int count;
} requests;

static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  (void)store;
  requests *seen = userdata;
  seen->ids[seen->count % MAX_IDS] = request->id;
  seen->count++;
}

static void on_cancel(void *userdata, tca_store *store, uint64_t request_id) {
  (void)userdata, (void)store, (void)request_id;
}

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_store: %s: %s\n", what, detail ? detail : "(null)");
  abort();
}

/* A failed call's message: at most MAX_ERROR bytes, no control byte (tab neither). */
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

static int recording;

static tca_store *make_store(const char *feature, const char *state, size_t length,
                             requests *seen) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL;
  options.seed = 7;
  options.record = recording;
  tca_store *store = NULL;
  tca_status status = tca_store_new_n(feature, state, length, &options, &store);
  check_error(status);
  if (status != TCA_OK) return NULL;
  if (tca_store_set_request_handler(store, on_request, on_cancel, seen) != TCA_OK) {
    fail("tca_store_set_request_handler", tca_last_error());
  }
  return store;
}

/* A returned string: NUL-terminated at the length given. */
static void check_string(const char *what, tca_status status, const char *json, size_t length) {
  check_error(status);
  if (status == TCA_OK && (!json || strlen(json) != length)) fail(what, "wrong length");
}

/* The store's state JSON (caller frees). */
static char *state_of(tca_store *store, size_t *length) {
  char *state = NULL;
  if (tca_store_state(store, &state, length) != TCA_OK) fail("tca_store_state", tca_last_error());
  return state;
}

/* A journal replayed in full gives the store's state, byte for byte. */
static void check_replay(tca_store *store, const char *journal, size_t length) {
  tca_store *copy = NULL;
  tca_status status = tca_store_replay(journal, length, TCA_VERSION_NONE, NULL, &copy);
  if (status != TCA_OK) {
    fprintf(stderr, "journal:\n%s\n", journal);
    fail("a store's own journal does not replay", tca_last_error());
  }
  size_t state_length = 0, copy_length = 0;
  char *state = state_of(store, &state_length);
  char *again = state_of(copy, &copy_length);
  if (state_length != copy_length || memcmp(state, again, state_length) != 0) {
    fprintf(stderr, "journal:\n%s\nstate:    %s\nreplayed: %s\n", journal, state, again);
    fail("the replayed state differs", "");
  }
  tca_string_free(state);
  tca_string_free(again);
  tca_store_free(copy);
}

/* The k-th request seen, by the digit at `text` (or an id no request has). */
static uint64_t request_id(const requests *seen, const char *text, size_t length) {
  unsigned k = length > 0 ? (unsigned char)text[0] % MAX_IDS : 0;
  if (seen->count == 0) return 1 + k;
  int known = seen->count < MAX_IDS ? seen->count : MAX_IDS;
  return seen->ids[k % (unsigned)known];
}

/* A NUL-terminated copy (the functions without _n); NULL if the text holds a NUL. */
static char *terminated(const char *text, size_t length) {
  if (memchr(text, 0, length)) return NULL;
  char *copy = malloc(length + 1);
  if (!copy) fail("malloc", "");
  memcpy(copy, text, length);
  copy[length] = 0;
  return copy;
}

static void run_line(tca_store **store, const char *feature, requests *seen, const char *line,
                     size_t length) {
  const char *rest = line + 1;
  size_t rest_length = length > 0 ? length - 1 : 0;
  char *copy = NULL;
  char *json = NULL;
  size_t json_length = 0;
  switch (length > 0 ? line[0] : 0) {
    case 'S':
      check_error(tca_store_send_n(*store, rest, rest_length));
      break;
    case 'N': {
      requests fresh = {{0}, 0};
      tca_store *next = make_store(feature, rest, rest_length, &fresh);
      if (next) {
        tca_store_free(*store);
        *store = next;
        *seen = fresh;
        /* NB: the handler's userdata is `seen`, which outlives both stores. */
        if (tca_store_set_request_handler(next, on_request, on_cancel, seen) != TCA_OK) {
          fail("tca_store_set_request_handler", tca_last_error());
        }
      }
      break;
    }
    case 'R': {
      uint64_t id = request_id(seen, rest, rest_length);
      const char *response = rest_length > 0 ? rest + 1 : rest;
      check_error(tca_store_respond_n(*store, id, response, rest_length > 0 ? rest_length - 1 : 0));
      break;
    }
    case 'F': {
      uint64_t id = request_id(seen, rest, rest_length);
      copy = terminated(rest_length > 0 ? rest + 1 : rest, rest_length > 0 ? rest_length - 1 : 0);
      if (copy) check_error(tca_store_fail(*store, id, copy));
      break;
    }
    case 'C':
      check_error(tca_store_complete(*store, request_id(seen, rest, rest_length)));
      break;
    case 'G':
      copy = terminated(rest, rest_length);
      if (copy) {
        check_string("tca_store_get", tca_store_get(*store, copy, &json, &json_length), json,
                     json_length);
      }
      break;
    case 'A': {
      uint64_t milliseconds = 0;
      for (size_t i = 0; i < rest_length && i < 7; i++) {
        unsigned char c = (unsigned char)rest[i];
        if (c < '0' || c > '9') break;
        milliseconds = milliseconds * 10 + (c - '0');
      }
      check_error(tca_store_advance(*store, milliseconds));
      break;
    }
    case 'P': {
      uint32_t ran = 0;
      check_error(tca_store_poll(*store, &ran));
      break;
    }
    case 'D': {
      uint64_t version = tca_store_version(*store);
      uint64_t back = rest_length > 0 ? (unsigned char)rest[0] % 10 : version;
      tca_status status =
          tca_store_patch(*store, back <= version ? version - back : 0, &json, &json_length);
      if (status != TCA_ERR_VERSION_GONE) check_string("tca_store_patch", status, json, json_length);
      if (status == TCA_OK && json[0] != '[') fail("a patch that is not an array", json);
      break;
    }
    case 'B': {
      const char *lent = NULL;
      size_t lent_length = 0;
      check_string("tca_store_state_borrow", tca_store_state_borrow(*store, &lent, &lent_length),
                   lent, lent_length);
      break;
    }
    case 'V':
      (void)tca_store_version(*store);
      break;
    case 'Q':
      check_string("tca_store_take_requests", tca_store_take_requests(*store, &json, &json_length),
                   json, json_length);
      break;
    case 'K':
      check_string("tca_canonical_action_n",
                   tca_canonical_action_n(feature, strlen(feature), rest, rest_length, &json,
                                          &json_length),
                   json, json_length);
      break;
    case 'J': {
      tca_status status = tca_store_journal(*store, &json, &json_length);
      check_string("tca_store_journal", status, json, json_length);
      if (status == TCA_OK) check_replay(*store, json, json_length);
      break;
    }
    case 'Y': {
      copy = malloc(rest_length + 1);
      if (!copy) fail("malloc", "");
      for (size_t i = 0; i < rest_length; i++) copy[i] = rest[i] == '|' ? '\n' : rest[i];
      tca_store *replayed = NULL;
      check_error(tca_store_replay(copy, rest_length, TCA_VERSION_NONE, NULL, &replayed));
      tca_store_free(replayed);
      break;
    }
    case 'L':
      check_error(tca_store_log_reductions(*store, rest_length > 0 ? rest[0] - '0' : 1));
      break;
    case 'T':
      check_string("tca_store_take_reductions",
                   tca_store_take_reductions(*store, &json, &json_length), json, json_length);
      break;
    default:
      check_error(tca_store_send_n(*store, line, length));
      break;
  }
  tca_string_free(json);
  free(copy);
}

/* The state's snapshot makes a store with the same snapshot. */
static void check_round_trip(tca_store *store, const char *feature) {
  char *state = NULL;
  size_t length = 0;
  tca_status status = tca_store_state(store, &state, &length);
  if (status != TCA_OK) fail("tca_store_state", tca_last_error());
  requests seen = {{0}, 0};
  tca_store *copy = make_store(feature, state, length, &seen);
  if (!copy) fail("a snapshot does not make a store", tca_last_error());
  char *again = NULL;
  size_t again_length = 0;
  if (tca_store_state(copy, &again, &again_length) != TCA_OK) {
    fail("tca_store_state of the copy", tca_last_error());
  }
  if (again_length != length || memcmp(state, again, length) != 0) {
    fprintf(stderr, "before: %s\nafter:  %s\n", state, again);
    fail("the snapshot does not round-trip", feature);
  }
  tca_string_free(again);
  tca_string_free(state);
  tca_store_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const char *feature = features[data[0] % 4];
  recording = (data[0] / 4) % 2;
  const char *text = (const char *)data + 1;
  size_t remaining = size - 1;
  requests seen = {{0}, 0};
  tca_store *store = make_store(feature, NULL, 0, &seen);
  if (!store) fail("a default store", tca_last_error());
  /* The lines after the first byte's line. */
  const char *newline = memchr(text, '\n', remaining);
  size_t skip = newline ? (size_t)(newline - text) + 1 : remaining;
  text += skip;
  remaining -= skip;
  int lines = 0;
  while (remaining > 0 && lines < 64) {
    newline = memchr(text, '\n', remaining);
    size_t length = newline ? (size_t)(newline - text) : remaining;
    run_line(&store, feature, &seen, text, length);
    text += length + (newline ? 1 : 0);
    remaining -= length + (newline ? 1 : 0);
    lines++;
  }
  check_round_trip(store, feature);
  if (recording) {
    char *journal = NULL;
    size_t journal_length = 0;
    if (tca_store_journal(store, &journal, &journal_length) != TCA_OK) {
      fail("tca_store_journal of a recording store", tca_last_error());
    }
    check_replay(store, journal, journal_length);
    tca_string_free(journal);
  }
  tca_store_free(store);
  return 0;
}
