/* Recording and replay (options.record, tca_store_journal, tca_store_replay), the reductions a
 * test store asserts (tca_store_log_reductions, tca_store_take_reductions) and canonical actions
 * (tca_canonical_action). The randomized property test over every feature is Python's
 * bindings/python/tests/test_journal_property.py. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

#include "harness.h"

static char *state_of(tca_store *store) {
  char *json = NULL;
  CHECK_STATUS(tca_store_state(store, &json, NULL), TCA_OK);
  return json;
}

static char *journal_of(tca_store *store) {
  char *json = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_store_journal(store, &json, &length), TCA_OK);
  CHECK(json != NULL && strlen(json) == length);
  return json;
}

static tca_store *recorded(const char *feature, int32_t requests) {
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  options.requests = requests;
  options.record = 1;
  options.seed = 7;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new(feature, NULL, &options, &store), TCA_OK);
  return store;
}

/* The replay of `journal` to its end in pull mode (requests queued for tca_store_take_requests). */
static tca_store *replayed_queued(const char *journal) {
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, strlen(journal), TCA_VERSION_NONE, &options, &replayed),
               TCA_OK);
  return replayed;
}

/* Answers every request at once, from inside the callback. */
static void answer_at_once(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata;
  tca_store_respond(store, request->id, "\"a fact\"");
}

/* Records a session, keeping the state at each version; replays to every version. */
static void test_replay_to_every_version(void) {
  tca_store *store = recorded("counter", TCA_REQUESTS_CALLBACK);
  CHECK_STATUS(tca_store_set_request_handler(store, answer_at_once, NULL, NULL), TCA_OK);
  char *states[16] = {0};
  uint64_t versions[16] = {0};
  int count = 0;
  const char *actions[] = {"\"incrementButtonTapped\"", "{\"incrementButtonTapped\":{}}",
                           "\"numberFactButtonTapped\"", "\"decrementButtonTapped\""};
  versions[count] = tca_store_version(store);
  states[count++] = state_of(store);
  for (int i = 0; i < 4; i++) {
    CHECK_STATUS(tca_store_send(store, actions[i]), TCA_OK);
    versions[count] = tca_store_version(store);
    states[count++] = state_of(store);
  }
  char *journal = journal_of(store);
  const char *header =
      "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"manual\",\"seed\":7,";
  CHECK(strncmp(journal, header, strlen(header)) == 0);
  /* Actions are kept as sent; the answer given inside the callback is an input too. */
  CHECK_CONTAINS(journal, "{\"send\":\"incrementButtonTapped\",\"version\":1}\n");
  CHECK_CONTAINS(journal, "{\"send\":{\"incrementButtonTapped\":{}},\"version\":2}\n");
  CHECK_CONTAINS(journal, "{\"request\":{\"id\":1,\"name\":\"numberFact.fetch\"");
  CHECK_CONTAINS(journal, "{\"respond\":1,\"value\":\"a fact\",");
  for (int i = 0; i < count; i++) {
    tca_store *replayed = NULL;
    CHECK_STATUS(tca_store_replay(journal, strlen(journal), versions[i], NULL, &replayed), TCA_OK);
    char *state = state_of(replayed);
    if (state && strcmp(state, states[i]) != 0) {
      fprintf(stderr, "  version %llu: replayed %s, recorded %s\n",
              (unsigned long long)versions[i], state, states[i]);
    }
    CHECK(state && strcmp(state, states[i]) == 0);
    CHECK(tca_store_version(replayed) == versions[i]);
    tca_string_free(state);
    tca_store_free(replayed);
  }
  /* To the end; a replayed store records, and its journal replays the same. */
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, strlen(journal), TCA_VERSION_NONE, NULL, &replayed),
               TCA_OK);
  char *again = journal_of(replayed);
  tca_store *twice = NULL;
  CHECK_STATUS(tca_store_replay(again, strlen(again), TCA_VERSION_NONE, NULL, &twice), TCA_OK);
  char *state = state_of(twice);
  CHECK(state && strcmp(state, states[count - 1]) == 0);
  tca_string_free(state);
  tca_string_free(again);
  tca_store_free(twice);
  tca_store_free(replayed);
  tca_string_free(journal);
  for (int i = 0; i < count; i++) tca_string_free(states[i]);
  tca_store_free(store);
}

/* A replay makes no request; the one the journal left unanswered waits, with its id. */
static void test_replay_leaves_unanswered_requests(void) {
  tca_store *store = recorded("counter", TCA_REQUESTS_QUEUED);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *taken = NULL;
  CHECK_STATUS(tca_store_take_requests(store, &taken, NULL), TCA_OK);
  CHECK_CONTAINS(taken, "\"id\":1");
  tca_string_free(taken);
  char *journal = journal_of(store);
  tca_store *replayed = replayed_queued(journal);
  CHECK_STATUS(tca_store_take_requests(replayed, &taken, NULL), TCA_OK);
  CHECK(taken && strcmp(taken, "[{\"id\":1,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\","
                               "\"payload\":0}]") == 0);
  tca_string_free(taken);
  CHECK_STATUS(tca_store_take_requests(replayed, &taken, NULL), TCA_OK);
  CHECK(taken && strcmp(taken, "[]") == 0);
  tca_string_free(taken);
  CHECK_STATUS(tca_store_respond(replayed, 1, "\"zero\""), TCA_OK);
  char *state = state_of(replayed);
  CHECK_CONTAINS(state, "zero");
  tca_string_free(state);
  tca_store_free(replayed);
  tca_string_free(journal);
  tca_store_free(store);
}

static uint64_t delivered = 0;

static void answer_and_note(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata;
  delivered = request->id;
  tca_store_respond(store, request->id, "\"late\"");
}

/* In callback mode, what the journal left unanswered reaches the handler at the first poll,
 * send or advance once one is set, not before. */
static void test_replay_in_callback_mode_delivers_later(void) {
  tca_store *store = recorded("counter", TCA_REQUESTS_QUEUED);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *journal = journal_of(store);
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, strlen(journal), TCA_VERSION_NONE, NULL, &replayed),
               TCA_OK);
  CHECK_STATUS(tca_store_poll(replayed, NULL), TCA_OK);
  CHECK(delivered == 0);
  CHECK_STATUS(tca_store_set_request_handler(replayed, answer_and_note, NULL, NULL), TCA_OK);
  CHECK(delivered == 0);
  CHECK_STATUS(tca_store_poll(replayed, NULL), TCA_OK);
  CHECK(delivered == 1);
  char *state = state_of(replayed);
  CHECK_CONTAINS(state, "\"numberFact\":\"late\"");
  tca_string_free(state);
  tca_store_free(replayed);
  tca_string_free(journal);
  tca_store_free(store);
}

/* A recorded store without a request handler fails requests through its journal. */
static void test_no_handler_fails_through_the_journal(void) {
  tca_store *store = recorded("counter", TCA_REQUESTS_CALLBACK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  char *state = state_of(store);
  CHECK_CONTAINS(state, "no handler for \\\"numberFact.fetch\\\"");
  char *journal = journal_of(store);
  CHECK_CONTAINS(journal, "{\"fail\":1,\"message\":\"no handler for \\\"numberFact.fetch\\\"");
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, strlen(journal), TCA_VERSION_NONE, NULL, &replayed),
               TCA_OK);
  char *again = state_of(replayed);
  CHECK(again && state && strcmp(again, state) == 0);
  tca_string_free(again);
  tca_store_free(replayed);
  tca_string_free(journal);
  tca_string_free(state);
  tca_store_free(store);
}

static void advance_then_undo(void *userdata, tca_store *store, const tca_request *request) {
  (void)userdata;
  (void)request;
  tca_store_advance(store, 500);
  tca_store_send(store, "\"undoLastRoll\"");
}

/* A callback that moves the clock, then sends: the store applies the send first (a callback's
 * clock moves run after its other inputs), and so does the replay. */
static void test_inputs_of_a_callback_replay_in_the_order_applied(void) {
  tca_store *store = recorded("dice", TCA_REQUESTS_CALLBACK);
  CHECK_STATUS(tca_store_set_request_handler(store, advance_then_undo, NULL, NULL), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  char *state = state_of(store);
  CHECK_CONTAINS(state, "\"isRolling\":false");
  char *journal = journal_of(store);
  char *undo = strstr(journal, "undoLastRoll");
  char *advance = strstr(journal, "{\"advance\":500");
  CHECK(undo && advance && undo < advance);
  tca_store *replayed = NULL;
  CHECK_STATUS(tca_store_replay(journal, strlen(journal), TCA_VERSION_NONE, NULL, &replayed),
               TCA_OK);
  char *again = state_of(replayed);
  if (again && state && strcmp(again, state) != 0) {
    fprintf(stderr, "  replayed %s\n  recorded %s\n%s", again, state, journal);
  }
  CHECK(again && state && strcmp(again, state) == 0);
  tca_string_free(again);
  tca_store_free(replayed);
  tca_string_free(journal);
  tca_string_free(state);
  tca_store_free(store);
}

static void test_replay_refuses_bad_journals(void) {
  tca_store *out = (tca_store *)&out;
  const char *garbage = "not json\n";
  CHECK_STATUS(tca_store_replay(garbage, strlen(garbage), TCA_VERSION_NONE, NULL, &out),
               TCA_ERR_JSON_SYNTAX);
  CHECK(out == NULL);
  CHECK_CONTAINS(tca_last_error(), "journal line 1");
  const char *other = "{\"tcaJournal\":1,\"feature\":\"nope\",\"clock\":\"manual\",\"seed\":1,"
                      "\"version\":0,\"state\":{}}\n";
  CHECK_STATUS(tca_store_replay(other, strlen(other), TCA_VERSION_NONE, NULL, &out),
               TCA_ERR_UNKNOWN_FEATURE);
  const char *future = "{\"tcaJournal\":99,\"feature\":\"counter\"}\n";
  CHECK_STATUS(tca_store_replay(future, strlen(future), TCA_VERSION_NONE, NULL, &out),
               TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "journal format 99");
  const char *unknown = "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"manual\","
                        "\"seed\":1,\"version\":0,\"state\":{}}\n"
                        "{\"send\":\"incrementButtonTapped\",\"version\":1}\n"
                        "{\"respond\":9,\"value\":\"x\",\"version\":2}\n";
  CHECK_STATUS(tca_store_replay(unknown, strlen(unknown), TCA_VERSION_NONE, NULL, &out),
               TCA_ERR_UNKNOWN_REQUEST);
  CHECK_CONTAINS(tca_last_error(), "journal line 3");
  CHECK(out == NULL);
  /* To version 1 the bad line is never reached. */
  CHECK_STATUS(tca_store_replay(unknown, strlen(unknown), 1, NULL, &out), TCA_OK);
  char *state = state_of(out);
  CHECK(state && strcmp(state, "{\"count\":1,\"isNumberFactLoading\":false}") == 0);
  tca_string_free(state);
  tca_store_free(out);
  CHECK_STATUS(tca_store_replay(NULL, 0, TCA_VERSION_NONE, NULL, &out), TCA_ERR_INVALID_ARGUMENT);
}

/* ---- the versions a journal's lines carry ---------------------------------------------------- */

#define COUNTER_HEADER                                                                      \
  "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"manual\",\"seed\":7,\"version\":0," \
  "\"state\":{\"count\":0,\"isNumberFactLoading\":false}}\n"
#define INCREMENT(version) "{\"send\":{\"incrementButtonTapped\":{}},\"version\":" version "}\n"

/* Replays `journal` to `to`: the status, and the store (NULL on failure) in `out`. */
static tca_status replay(const char *journal, uint64_t to, tca_store **out) {
  *out = NULL;
  return tca_store_replay(journal, strlen(journal), to, NULL, out);
}

/* A journal is refused with TCA_ERR_JSON_SHAPE, the message naming `line` and saying `why`. */
static void refused(const char *journal, const char *line, const char *why) {
  tca_store *out = NULL;
  CHECK_STATUS(replay(journal, TCA_VERSION_NONE, &out), TCA_ERR_JSON_SHAPE);
  CHECK(out == NULL);
  if (strstr(tca_last_error(), line) == NULL || strstr(tca_last_error(), why) == NULL)
    fprintf(stderr, "  the error: %s\n", tca_last_error());
  CHECK_CONTAINS(tca_last_error(), line);
  CHECK_CONTAINS(tca_last_error(), why);
  tca_store_free(out);
}

/* Replays `journal`, then the replayed store's own journal, then that one's: the same state and
 * version each time, and to every version the same state both ways. */
static void round_trips(const char *journal, uint64_t versions) {
  tca_store *first = NULL, *second = NULL, *third = NULL;
  CHECK_STATUS(replay(journal, TCA_VERSION_NONE, &first), TCA_OK);
  if (first == NULL) return;
  char *again = journal_of(first);
  CHECK_STATUS(replay(again, TCA_VERSION_NONE, &second), TCA_OK);
  char *thrice = second ? journal_of(second) : NULL;
  if (thrice != NULL) CHECK_STATUS(replay(thrice, TCA_VERSION_NONE, &third), TCA_OK);
  if (second != NULL && third != NULL) {
    char *a = state_of(first), *b = state_of(second), *c = state_of(third);
    CHECK(a && b && c && strcmp(a, b) == 0 && strcmp(b, c) == 0);
    CHECK(tca_store_version(first) == versions && tca_store_version(second) == versions);
    CHECK(tca_store_version(third) == versions);
    /* The replayed store's journal replays as its own does (byte for byte, once replayed). */
    CHECK(strcmp(again, thrice) == 0);
    tca_string_free(a), tca_string_free(b), tca_string_free(c);
    for (uint64_t v = 0; v <= versions; v++) {
      tca_store *x = NULL, *y = NULL;
      CHECK_STATUS(replay(journal, v, &x), TCA_OK);
      CHECK_STATUS(replay(again, v, &y), TCA_OK);
      char *sx = x ? state_of(x) : NULL, *sy = y ? state_of(y) : NULL;
      CHECK(sx && sy && strcmp(sx, sy) == 0);
      tca_string_free(sx), tca_string_free(sy);
      tca_store_free(x), tca_store_free(y);
    }
  }
  tca_string_free(again);
  tca_string_free(thrice);
  tca_store_free(first), tca_store_free(second), tca_store_free(third);
}

/* TCA_VERSION_NONE's value as a version: a line is refused (a replayed store reported it as its
 * version, as if it were gone), and so is a header that does not start at 0. */
static void test_a_version_of_none_is_refused(void) {
  refused(COUNTER_HEADER INCREMENT("18446744073709551615"), "journal line 2",
          "TCA_VERSION_NONE");
  refused(COUNTER_HEADER INCREMENT("1") INCREMENT("18446744073709551615"), "journal line 3",
          "TCA_VERSION_NONE");
  const char *header =
      "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"manual\",\"seed\":7,"
      "\"version\":18446744073709551615,\"state\":{\"count\":0,\"isNumberFactLoading\":false}}\n";
  refused(header, "journal line 1", "starts at version 0");
  /* Consistent versions: the replayed store's version is the journal's. */
  tca_store *out = NULL;
  CHECK_STATUS(replay(COUNTER_HEADER INCREMENT("1") INCREMENT("2"), TCA_VERSION_NONE, &out),
               TCA_OK);
  CHECK(out != NULL && tca_store_version(out) == 2);
  tca_store_free(out);
}

/* Versions 1, 2, 1: the third line goes back (to_version = 1 would name two states). */
static void test_versions_never_go_back(void) {
  refused(COUNTER_HEADER INCREMENT("1") INCREMENT("2") INCREMENT("1"), "journal line 4",
          "versions never go back");
  /* Refused to any version that reaches the line; to 1, the line is not reached. */
  tca_store *out = NULL;
  CHECK_STATUS(replay(COUNTER_HEADER INCREMENT("1") INCREMENT("2") INCREMENT("1"), 1, &out),
               TCA_OK);
  char *state = out ? state_of(out) : NULL;
  CHECK(state && strcmp(state, "{\"count\":1,\"isNumberFactLoading\":false}") == 0);
  tca_string_free(state);
  tca_store_free(out);
}

/* A fact fetched, the fetch cancelled by a re-tap, and a late answer given before the host took
 * the notice (pull mode): the store accepted it and it changed nothing, so the replay skips it.
 * With the version it was recorded with, the journal replays, and the replayed store's journal
 * reproduces it; with a version that claims a change, it is refused. */
#define RETAP                                                                                  \
  "{\"send\":{\"numberFactButtonTapped\":{}},\"version\":1}\n"                                \
  "{\"request\":{\"id\":1,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\",\"payload\":0}}\n" \
  "{\"send\":{\"numberFactButtonTapped\":{}},\"version\":1}\n"
#define CANCELLED_AND_RETRIED                                                             \
  "{\"cancelled\":1}\n"                                                                   \
  "{\"request\":{\"id\":2,\"name\":\"numberFact.fetch\",\"kind\":\"oneShot\",\"payload\":0}}\n"

static void test_a_skipped_answer_keeps_its_version(void) {
  const char *recorded = COUNTER_HEADER RETAP "{\"respond\":1,\"value\":\"late\",\"version\":1}\n"
      CANCELLED_AND_RETRIED INCREMENT("2");
  round_trips(recorded, 2);
  /* The skipped answer last: its version is the journal's last. */
  round_trips(COUNTER_HEADER RETAP "{\"respond\":1,\"value\":\"late\",\"version\":1}\n", 1);
  refused(COUNTER_HEADER RETAP "{\"respond\":1,\"value\":\"late\",\"version\":2}\n",
          "journal line 5", "changed the state 0 times");
  refused(COUNTER_HEADER RETAP "{\"respond\":1,\"value\":\"late\",\"version\":2}\n"
          CANCELLED_AND_RETRIED INCREMENT("3"),
          "journal line 5", "changed the state 0 times");
}

/* Hand edits: a version raised past the changes made, or kept over a change, is refused; one
 * that keeps the journal consistent replays. */
static void test_hand_edited_journals(void) {
  refused(COUNTER_HEADER INCREMENT("1") INCREMENT("5"), "journal line 3",
          "is 4 above the 1 before it, but the inputs since changed the state 1 time");
  refused(COUNTER_HEADER INCREMENT("0"), "journal line 2", "the inputs since changed the state");
  refused(COUNTER_HEADER "{\"send\":{\"incrementButtonTapped\":{}},\"version\":-1}\n",
          "journal line 2", "not a state version");
  /* An increment and a decrement each raise the version; an input that changes nothing keeps
   * it; two inputs given together in a callback may share one. */
  round_trips(COUNTER_HEADER INCREMENT("1")
              "{\"send\":{\"decrementButtonTapped\":{}},\"version\":2}\n"
              "{\"advance\":100,\"version\":2}\n" INCREMENT("3") INCREMENT("3"),
              3);
}

static void test_stores_that_do_not_record(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  char *json = NULL;
  CHECK_STATUS(tca_store_journal(store, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "options.record");
  CHECK_STATUS(tca_store_log_reductions(store, 1), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_take_reductions(store, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK(json == NULL);
  tca_store_free(store);
  CHECK_STATUS(tca_store_journal(store, &json, NULL), TCA_ERR_INVALID_HANDLE);
}

static void test_reductions_with_their_origin(void) {
  tca_store *store = recorded("counter", TCA_REQUESTS_QUEUED);
  char *json = NULL;
  CHECK_STATUS(tca_store_take_reductions(store, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "tca_store_log_reductions");
  CHECK_STATUS(tca_store_log_reductions(store, 2), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_store_log_reductions(store, 1), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"numberFactButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_respond(store, 1, "\"a fact\""), TCA_OK);
  size_t length = 0;
  CHECK_STATUS(tca_store_take_reductions(store, &json, &length), TCA_OK);
  const char *expected =
      "[{\"origin\":\"host\",\"action\":{\"numberFactButtonTapped\":{}},"
      "\"state\":{\"count\":0,\"isNumberFactLoading\":true}},"
      "{\"origin\":\"effect\",\"action\":{\"numberFactResponse\":{\"_0\":\"a fact\"}},"
      "\"state\":{\"count\":0,\"numberFact\":\"a fact\",\"isNumberFactLoading\":false}}]";
  if (json && strcmp(json, expected) != 0) fprintf(stderr, "  reductions %s\n", json);
  CHECK(json && strcmp(json, expected) == 0 && strlen(json) == length);
  tca_string_free(json);
  CHECK_STATUS(tca_store_take_reductions(store, &json, NULL), TCA_OK);
  CHECK(json && strcmp(json, "[]") == 0);
  tca_string_free(json);
  tca_store_free(store);
}

static void test_canonical_actions(void) {
  char *json = NULL;
  size_t length = 0;
  CHECK_STATUS(tca_canonical_action("counter", "\"incrementButtonTapped\"", &json, &length),
               TCA_OK);
  CHECK(json && strcmp(json, "{\"incrementButtonTapped\":{}}") == 0 && length == 28);
  tca_string_free(json);
  const char *nested = "{\"history\":{\"rollTapped\":3}}xx";
  CHECK_STATUS(tca_canonical_action_n("counter", 7, nested, 5, &json, NULL), TCA_ERR_JSON_SYNTAX);
  CHECK(json == NULL);
  CHECK_STATUS(tca_canonical_action("counter", "\"nope\"", &json, NULL), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_canonical_action("nope", "\"nope\"", &json, NULL), TCA_ERR_UNKNOWN_FEATURE);
  CHECK_STATUS(tca_canonical_action("counter", NULL, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_canonical_action_n("counterXX", 7, "\"incrementButtonTapped\"   ", 23, &json,
                                      NULL),
               TCA_OK);
  CHECK(json && strcmp(json, "{\"incrementButtonTapped\":{}}") == 0);
  tca_string_free(json);
}

/* A real clock's input line carries the first and the last time its call read the clock: a
 * replay sets its clock to "from" before the input (firing nothing), and moves it to "at" after
 * (firing what is due). An input that reads no time carries neither. */
static void test_real_clock_lines_carry_the_times_read(void) {
  tca_options options;
  tca_options_init(&options);
  options.record = 1;
  tca_store *counter = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, &options, &counter), TCA_OK);
  CHECK_STATUS(tca_store_send(counter, "\"incrementButtonTapped\""), TCA_OK);
  char *journal = journal_of(counter);
  CHECK_CONTAINS(journal, "\n{\"send\":\"incrementButtonTapped\",\"version\":1}\n");
  tca_string_free(journal);
  tca_store_free(counter);

  /* The second roll starts 0.6 s after the first landed: from the first roll's time, its
   * 500 ms would have passed by its "at", and the replay would land it. */
  const char *dice =
      "{\"tcaJournal\":1,\"feature\":\"dice\",\"clock\":\"real\",\"seed\":5,\"version\":0,"
      "\"state\":{\"currentRoll\":null,\"isRolling\":false,\"rollHistory\":[],"
      "\"rollAnimationAngle\":0,\"destination\":null,\"alert\":null,\"lastFiveRolls\":[]}}\n"
      "{\"send\":\"rollButtonTapped\",\"from\":1000,\"at\":2000,\"version\":1}\n"
      "{\"poll\":true,\"at\":600000000,\"version\":2}\n"
      "{\"send\":\"rollButtonTapped\",\"from\":1200000000,\"at\":1200001000,\"version\":3}\n";
  tca_store *replayed = replayed_queued(dice);
  CHECK(tca_store_version(replayed) == 3);
  char *state = state_of(replayed);
  CHECK_CONTAINS(state, "\"isRolling\":true");
  tca_string_free(state);
  /* The replay's own journal keeps the line's "from", and moves its clock to "at". */
  journal = journal_of(replayed);
  CHECK_CONTAINS(journal, "{\"send\":\"rollButtonTapped\",\"from\":1200000000,\"version\":3}");
  CHECK_CONTAINS(journal, "{\"clock\":1200001000,\"version\":3}");
  tca_store *again = replayed_queued(journal);
  CHECK(tca_store_version(again) == 3);
  state = state_of(again);
  CHECK_CONTAINS(state, "\"isRolling\":true");
  tca_string_free(state);
  tca_string_free(journal);
  tca_store_free(again);
  tca_store_free(replayed);

  const char *bad = "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"real\",\"seed\":1,"
                    "\"version\":0,\"state\":{}}\n"
                    "{\"send\":\"incrementButtonTapped\",\"from\":\"soon\",\"version\":1}\n";
  tca_store *out = NULL;
  CHECK_STATUS(tca_store_replay(bad, strlen(bad), TCA_VERSION_NONE, NULL, &out),
               TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "\"from\" is not a number of nanoseconds");
  CHECK(out == NULL);
}

int main(void) {
  test_replay_to_every_version();
  test_replay_leaves_unanswered_requests();
  test_replay_in_callback_mode_delivers_later();
  test_no_handler_fails_through_the_journal();
  test_inputs_of_a_callback_replay_in_the_order_applied();
  test_replay_refuses_bad_journals();
  test_a_version_of_none_is_refused();
  test_versions_never_go_back();
  test_a_skipped_answer_keeps_its_version();
  test_hand_edited_journals();
  test_stores_that_do_not_record();
  test_reductions_with_their_origin();
  test_canonical_actions();
  test_real_clock_lines_carry_the_times_read();
  TEST_SUMMARY();
}
