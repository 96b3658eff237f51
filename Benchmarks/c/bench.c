/*
 * bench.c — the C rows of `make bench` (docs/benchmarks.md): the C ABI against a direct C call,
 * and memory. Prints one JSON line per row on stdout; progress goes to stderr.
 *
 *   build/bench/cbench        C ABI rows (send, state reads, effect round trip, pull mode)
 *   build/bench/cbench mem    memory rows (bytes per idle store, RSS across 1,000,000 sends)
 *   build/bench/cbench inspector   a send with the inspector attached (TCA_DEVTOOLS, to a local
 *                                  listener that reads and discards) against a plain send
 *
 * Settings from the environment: BENCH_SAMPLES (default 41), BENCH_SAMPLE_MS (default 120).
 *
 * Rows that need parts of libtca that have not landed print "na" with what they need; they switch
 * on by themselves (look for SWITCH-ON below):
 *   - the 1,000-todo state reads run when tca_features() lists a "todos" feature;
 *   - the effect round trip is compiled when include/tca.h declares tca_store_set_effect_handler
 *     (the Makefile then passes -DBENCH_HAVE_EFFECTS).
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "noop.h"
#include "tca.h"

/* ---- settings, clock, output ----------------------------------------------------------------- */

static int g_samples = 41;
static uint64_t g_sample_ns = 120000000;
static double g_timer_overhead_ns; /* one empty now_ns() pair, subtracted by per-call timing */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what) {
  fprintf(stderr, "cbench: %s: %s\n", what, tca_last_error());
  exit(1);
}

static void json_string(const char *text) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p == '"' || *p == '\\') printf("\\%c", *p);
    else if (*p < 0x20) printf("\\u%04x", *p);
    else putchar(*p);
  }
  putchar('"');
}

/* ---- candidates and rows --------------------------------------------------------------------- */

/* Runs the workload n times and returns the nanoseconds it measured. Most bodies time their whole
 * loop; a body that must do untimed work between calls (a fresh read needs a change first) times
 * each call and subtracts g_timer_overhead_ns. */
typedef double (*run_fn)(void *ctx, long n);

typedef struct candidate {
  const char *label;
  const char *kind; /* ours | floor | reference | baseline */
  run_fn run;
  void *ctx;
  const char *na; /* not NULL: cannot be measured yet; says what it needs */
} candidate;

typedef struct stats {
  double median, min, max;
  int samples;
  long iterations;
} stats;

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static stats summarize(double *values, int count, long iterations) {
  stats s;
  qsort(values, (size_t)count, sizeof *values, compare_doubles);
  s.median = count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
  s.min = values[0];
  s.max = values[count - 1];
  s.samples = count;
  s.iterations = iterations;
  return s;
}

/* Iterations that make one sample last about g_sample_ns of wall time. */
static long calibrate(const candidate *c) {
  c->run(c->ctx, 1); /* warm up */
  long n = 1;
  for (;;) {
    uint64_t start = now_ns();
    c->run(c->ctx, n);
    uint64_t elapsed = now_ns() - start;
    if (elapsed >= g_sample_ns / 8 || n >= (1L << 40)) {
      double scaled = (double)n * (double)g_sample_ns / (double)(elapsed ? elapsed : 1);
      return scaled < 1 ? 1 : (long)scaled;
    }
    n *= elapsed < g_sample_ns / 1000 ? 10 : 2;
  }
}

static void print_side(const char *name, const candidate *c, const stats *s) {
  printf("\"%s\":{\"label\":", name);
  json_string(c->label);
  printf(",\"kind\":\"%s\"", c->kind);
  if (c->na) {
    printf(",\"na\":");
    json_string(c->na);
  } else {
    printf(",\"median\":%.3f,\"min\":%.3f,\"max\":%.3f,\"samples\":%d,\"iterations\":%ld",
           s->median, s->min, s->max, s->samples, s->iterations);
  }
  putchar('}');
}

static void print_row(const char *group, const char *workload, const char *unit, const char *note,
                      const char *target_json, const candidate *ours, const stats *ours_stats,
                      const candidate *alt, const stats *alt_stats) {
  printf("{\"source\":\"c\",\"group\":");
  json_string(group);
  printf(",\"workload\":");
  json_string(workload);
  printf(",\"unit\":\"%s\",", unit);
  if (note) {
    printf("\"note\":");
    json_string(note);
    putchar(',');
  }
  if (target_json) printf("\"target\":%s,", target_json);
  print_side("ours", ours, ours_stats);
  putchar(',');
  print_side("alt", alt, alt_stats);
  printf("}\n");
  fflush(stdout);
}

/* Measures the sides that can be measured, their samples interleaved (ABBA…) so that drift in the
 * machine's load falls on both alike, and prints the row. target_json: the goal for the
 * row, checked by run.py ({"ours_max":300}: our median at most 300 ns), or NULL. */
static void row(const char *group, const char *workload, const char *note, const char *target_json,
                candidate *ours, candidate *alt) {
  candidate *sides[2] = {ours, alt};
  long iterations[2] = {0, 0};
  double *values[2];
  stats results[2];
  memset(results, 0, sizeof results);
  fprintf(stderr, "  %s: %s\n", group, workload);
  for (int i = 0; i < 2; i++) {
    values[i] = calloc((size_t)g_samples, sizeof(double));
    if (values[i] == NULL) die("out of memory");
    if (!sides[i]->na) iterations[i] = calibrate(sides[i]);
  }
  for (int sample = 0; sample < g_samples; sample++) {
    for (int k = 0; k < 2; k++) {
      int i = sample % 2 ? 1 - k : k;
      if (sides[i]->na) continue;
      values[i][sample] = sides[i]->run(sides[i]->ctx, iterations[i]) / (double)iterations[i];
    }
  }
  for (int i = 0; i < 2; i++) {
    if (!sides[i]->na) results[i] = summarize(values[i], g_samples, iterations[i]);
    free(values[i]);
  }
  print_row(group, workload, "ns/op", note, target_json, ours, &results[0], alt, &results[1]);
}

/* ---- timer overhead -------------------------------------------------------------------------- */

static double run_empty_timed(void *ctx, long n) {
  (void)ctx;
  double total = 0;
  for (long i = 0; i < n; i++) {
    uint64_t t0 = now_ns();
    uint64_t t1 = now_ns();
    total += (double)(t1 - t0);
  }
  return total;
}

static void measure_timer_overhead(void) {
  double values[11];
  for (int i = 0; i < 11; i++) values[i] = run_empty_timed(NULL, 100000) / 100000.0;
  g_timer_overhead_ns = summarize(values, 11, 100000).median;
}

/* ---- C ABI: send ----------------------------------------------------------------------------- */

static const char *const INCREMENT = "\"incrementButtonTapped\"";

typedef struct store_ctx {
  tca_store *store;
  const char *action; /* sent by send rows; the change before each fresh read */
} store_ctx;

static double run_tca_send(void *ctx, long n) {
  store_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++)
    if (tca_store_send(c->store, c->action) != TCA_OK) die("tca_store_send");
  return (double)(now_ns() - start);
}

/* NB: volatile function pointers: every call is an indirect call the compiler cannot fold. */
typedef struct floor_send_ctx {
  int (*volatile send)(void *state, const char *action_json);
  int64_t state;
  const char *action;
} floor_send_ctx;

static double run_floor_send(void *ctx, long n) {
  floor_send_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++)
    if (c->send(&c->state, c->action) != 0) die("floor");
  return (double)(now_ns() - start);
}

/* ---- C ABI: state reads ---------------------------------------------------------------------- */

static double run_tca_state_unchanged(void *ctx, long n) {
  store_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++) {
    char *json;
    size_t length;
    if (tca_store_state(c->store, &json, &length) != TCA_OK) die("tca_store_state");
    tca_string_free(json);
  }
  return (double)(now_ns() - start);
}

static double run_tca_state_fresh(void *ctx, long n) {
  store_ctx *c = ctx;
  double total = 0;
  for (long i = 0; i < n; i++) {
    if (tca_store_send(c->store, c->action) != TCA_OK) die("tca_store_send");
    uint64_t t0 = now_ns();
    char *json;
    size_t length;
    if (tca_store_state(c->store, &json, &length) != TCA_OK) die("tca_store_state");
    tca_string_free(json);
    total += (double)(now_ns() - t0) - g_timer_overhead_ns;
  }
  return total;
}

typedef struct floor_copy_ctx {
  int (*volatile copy)(const char *json, size_t length, char **out_json);
  const char *json;
  size_t length;
} floor_copy_ctx;

static double run_floor_copy(void *ctx, long n) {
  floor_copy_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++) {
    char *json;
    if (c->copy(c->json, c->length, &json) != 0) die("floor");
    free(json);
  }
  return (double)(now_ns() - start);
}

typedef struct floor_counter_json_ctx {
  int (*volatile increment)(void *state, const char *action_json);
  int (*volatile write)(const int64_t *count, char **out_json, size_t *out_length);
  int64_t count;
} floor_counter_json_ctx;

static double run_floor_counter_fresh(void *ctx, long n) {
  floor_counter_json_ctx *c = ctx;
  double total = 0;
  for (long i = 0; i < n; i++) {
    c->increment(&c->count, INCREMENT);
    uint64_t t0 = now_ns();
    char *json;
    size_t length;
    if (c->write(&c->count, &json, &length) != 0) die("floor");
    free(json);
    total += (double)(now_ns() - t0) - g_timer_overhead_ns;
  }
  return total;
}

typedef struct floor_todos_json_ctx {
  int (*volatile write)(const bench_todo *todos, size_t count, char **out_json, size_t *out_length);
  bench_todo *todos;
  size_t count;
  long next; /* the todo toggled before the next read */
} floor_todos_json_ctx;

static double run_floor_todos_fresh(void *ctx, long n) {
  floor_todos_json_ctx *c = ctx;
  double total = 0;
  for (long i = 0; i < n; i++) {
    c->todos[c->next].is_complete = !c->todos[c->next].is_complete;
    c->next = (c->next + 1) % (long)c->count;
    uint64_t t0 = now_ns();
    char *json;
    size_t length;
    if (c->write(c->todos, c->count, &json, &length) != 0) die("floor");
    free(json);
    total += (double)(now_ns() - t0) - g_timer_overhead_ns;
  }
  return total;
}

/* ---- 1,000 todos ----------------------------------------------------------------------------- */

/* SWITCH-ON (todos): the rows below measure libtca once tca_features() lists "todos". The store is
 * made from a snapshot: the JSON bench_todos_json writes (TodosState of Benchmarks/SwiftBench:
 * {"editMode":false,"filter":"all","todos":[{"description":…,
 * "id":"00000000-0000-4000-8000-000000000000","isComplete":true},…]}: the todos feature's ids are
 * UUIDs, here the todo's number written as one).
 * If the todos feature's state or toggle action has another shape, adjust bench_todos_json or
 * TODOS_TOGGLE_FORMAT; until they match, the row prints "na" with the library's error. */
#define TODOS_COUNT 1000
static const char *const TODOS_TOGGLE_FORMAT =
    "{\"todos\":{\"element\":{\"id\":\"00000000-0000-4000-8000-%012ld\","
    "\"action\":\"checkBoxToggled\"}}}";

static void make_todos(bench_todo *todos) {
  static const char *const chores[] = {"Buy milk and bread", "Call the plumber", "Water the plants",
                                       "Pay the bills",      "Walk the dog",     "Book the flights",
                                       "Fix the bike",       "Read a chapter"};
  for (int id = 0; id < TODOS_COUNT; id++) {
    bench_todo *t = &todos[id];
    t->id = id;
    t->is_complete = id % 3 == 0;
    snprintf(t->description, sizeof t->description, "%s (item %d)%s%s", chores[id % 8], id,
             id % 10 == 3 ? " at the caf\xc3\xa9" : "", id % 25 == 7 ? " \"soon\"\t!" : "");
  }
}

static int library_has_feature(const char *name) {
  char *features = tca_features();
  char needle[64];
  snprintf(needle, sizeof needle, "\"name\":\"%s\"", name);
  int found = features != NULL && strstr(features, needle) != NULL;
  tca_string_free(features);
  return found;
}

typedef struct todos_store_ctx {
  tca_store *store;
  long next;
} todos_store_ctx;

static double run_tca_todos_fresh(void *ctx, long n) {
  todos_store_ctx *c = ctx;
  double total = 0;
  char action[160];
  for (long i = 0; i < n; i++) {
    snprintf(action, sizeof action, TODOS_TOGGLE_FORMAT, c->next);
    c->next = (c->next + 1) % TODOS_COUNT;
    if (tca_store_send(c->store, action) != TCA_OK) die("tca_store_send (todos toggle)");
    uint64_t t0 = now_ns();
    char *json;
    size_t length;
    if (tca_store_state(c->store, &json, &length) != TCA_OK) die("tca_store_state");
    tca_string_free(json);
    total += (double)(now_ns() - t0) - g_timer_overhead_ns;
  }
  return total;
}

/* Toggles alone (no read): the action written per call, as a host would. */
static double run_tca_todos_toggle(void *ctx, long n) {
  todos_store_ctx *c = ctx;
  char action[160];
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++) {
    snprintf(action, sizeof action, TODOS_TOGGLE_FORMAT, c->next);
    c->next = (c->next + 1) % TODOS_COUNT;
    if (tca_store_send(c->store, action) != TCA_OK) die("tca_store_send (todos toggle)");
  }
  return (double)(now_ns() - start);
}

/* Makes the todos store, or says why it cannot be measured (into `why`). */
static tca_store *make_todos_store(const char *snapshot, char *why, size_t why_size) {
  if (!library_has_feature("todos")) {
    snprintf(why, why_size, "needs the todos feature");
    return NULL;
  }
  tca_store *store;
  if (tca_store_new("todos", snapshot, NULL, &store) != TCA_OK) {
    snprintf(why, why_size, "todos snapshot rejected: %s", tca_last_error());
    return NULL;
  }
  char action[160];
  snprintf(action, sizeof action, TODOS_TOGGLE_FORMAT, 0L);
  if (tca_store_send(store, action) != TCA_OK) {
    snprintf(why, why_size, "todos toggle action rejected: %s", tca_last_error());
    tca_store_free(store);
    return NULL;
  }
  return store;
}

/* ---- effect round trip ----------------------------------------------------------------------- */

static void floor_on_request(void *userdata, bench_effect_host *host, uint64_t request_id,
                             const char *name, const char *payload_json, size_t payload_length) {
  (void)name;
  (void)payload_json;
  (void)payload_length;
  (void)userdata;
  if (bench_effect_respond(host, request_id, "\"0 is a good number.\"") != 0) die("floor");
}

typedef struct floor_effect_ctx {
  int (*volatile send)(bench_effect_host *host, const char *action_json);
  bench_effect_host host;
} floor_effect_ctx;

static double run_floor_effect(void *ctx, long n) {
  floor_effect_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++)
    if (c->send(&c->host, "\"numberFactButtonTapped\"") != 0) die("floor");
  return (double)(now_ns() - start);
}

#ifdef BENCH_HAVE_EFFECTS
/* SWITCH-ON (effects): compiled once tca.h declares the effect API of DESIGN.md §6. The counter's
 * number fact: the action that asks the host, and the host's answer. */
static const char *const EFFECT_ACTION = "\"numberFactButtonTapped\"";
static const char *const EFFECT_ANSWER = "\"0 is a good number.\"";

typedef struct effect_ctx {
  tca_store *store;
  uint64_t requests;
  int failed;
} effect_ctx;

static void on_request(void *userdata, tca_store *store, uint64_t request_id, const char *name,
                       const char *payload_json, size_t payload_length) {
  (void)name;
  (void)payload_json;
  (void)payload_length;
  effect_ctx *c = userdata;
  c->requests++;
  if (tca_store_respond(store, request_id, EFFECT_ANSWER) != TCA_OK) c->failed = 1;
}

static double run_tca_effect(void *ctx, long n) {
  effect_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++)
    if (tca_store_send(c->store, EFFECT_ACTION) != TCA_OK || c->failed) die("effect round trip");
  return (double)(now_ns() - start);
}

static const char *prepare_effect_store(effect_ctx *c, char *why, size_t why_size) {
  memset(c, 0, sizeof *c);
  if (tca_store_new("counter", NULL, NULL, &c->store) != TCA_OK) die("tca_store_new");
  if (tca_store_set_effect_handler(c->store, on_request, NULL, c) != TCA_OK ||
      tca_store_send(c->store, EFFECT_ACTION) != TCA_OK || c->failed || c->requests != 1) {
    snprintf(why, why_size, "effect round trip failed: %s", tca_last_error());
    return why;
  }
  return NULL;
}

/* Pull mode (tca_options.requests = TCA_REQUESTS_QUEUED): the same number fact, taken with
 * tca_store_take_requests and answered outside any callback, as LuaJIT and game loops do. */
static double run_tca_pull(void *ctx, long n) {
  effect_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++) {
    char *taken = NULL;
    if (tca_store_send(c->store, EFFECT_ACTION) != TCA_OK ||
        tca_store_take_requests(c->store, &taken, NULL) != TCA_OK)
      die("pull round trip");
    const char *id = strstr(taken, "\"id\":");
    if (id == NULL ||
        tca_store_respond(c->store, strtoull(id + 5, NULL, 10), EFFECT_ANSWER) != TCA_OK)
      die("pull round trip");
    tca_string_free(taken);
  }
  return (double)(now_ns() - start);
}

static double run_tca_pull_v2(void *ctx, long n) {
  effect_ctx *c = ctx;
  uint64_t start = now_ns();
  for (long i = 0; i < n; i++) {
    const tca_request *taken = NULL;
    size_t count = 0;
    if (tca_store_send(c->store, EFFECT_ACTION) != TCA_OK ||
        tca_store_take_requests_v2(c->store, &taken, &count) != TCA_OK || count != 1 ||
        tca_store_respond(c->store, taken[0].id, EFFECT_ANSWER) != TCA_OK)
      die("pull round trip (structs)");
  }
  return (double)(now_ns() - start);
}

static const char *prepare_pull_store(effect_ctx *c, char *why, size_t why_size) {
  memset(c, 0, sizeof *c);
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  if (tca_store_new("counter", NULL, &options, &c->store) != TCA_OK) die("tca_store_new");
  char *taken = NULL;
  if (tca_store_send(c->store, EFFECT_ACTION) != TCA_OK ||
      tca_store_take_requests(c->store, &taken, NULL) != TCA_OK ||
      strstr(taken, "\"id\":1,") == NULL ||
      tca_store_respond(c->store, 1, EFFECT_ANSWER) != TCA_OK) {
    snprintf(why, why_size, "pull round trip failed: %s", tca_last_error());
    tca_string_free(taken);
    return why;
  }
  tca_string_free(taken);
  return NULL;
}
#endif

/* ---- the C ABI rows -------------------------------------------------------------------------- */

static void abi_rows(void) {
  const char *group = "C ABI";
  char note[256];
  tca_store *counter;
  if (tca_store_new("counter", NULL, NULL, &counter) != TCA_OK) die("tca_store_new");

  /* tca_store_send of a small action */
  store_ctx send_ctx = {counter, INCREMENT};
  floor_send_ctx floor_send = {bench_increment, 0, INCREMENT};
  candidate ours = {"tca_store_send", "ours", run_tca_send, &send_ctx, NULL};
  candidate alt = {"C call via fn pointer (floor)", "floor",
                   run_floor_send, &floor_send, NULL};
  row(group, "tca_store_send \"incrementButtonTapped\" (counter)", NULL, "{\"ours_max\":300}",
      &ours, &alt);

  /* a send to a recorded store against a plain send (docs/benchmarks.md, "The journal") */
  tca_options record_options = TCA_OPTIONS_INIT;
  record_options.record = 1;
  record_options.record_limit = 10000;
  tca_store *recorded_counter = NULL;
  if (tca_store_new("counter", NULL, &record_options, &recorded_counter) != TCA_OK)
    die("tca_store_new (record = 1)");
  store_ctx recorded_ctx = {recorded_counter, INCREMENT};
  candidate recorded_send = {"tca_store_send, record = 1", "ours", run_tca_send, &recorded_ctx,
                             NULL};
  candidate plain_send = {"tca_store_send (counter)", "reference", run_tca_send, &send_ctx, NULL};
  row(group, "tca_store_send with the journal on, against a plain send",
      "counter increments; options.record = 1, record_limit 10,000 (a checkpoint every 5,000 "
      "sends); the same action to a store without a journal",
      "{\"ratio_max\":2}", &recorded_send, &plain_send);
  tca_store_free(recorded_counter);

  /* state read of the counter, fresh after a change */
  snprintf(note, sizeof note,
           "each read follows a send (untimed); per-call timing, %.0f ns clock overhead subtracted",
           g_timer_overhead_ns);
  floor_counter_json_ctx floor_counter = {bench_increment, bench_counter_json, 0};
  candidate fresh = {"tca_store_state+free", "ours", run_tca_state_fresh, &send_ctx, NULL};
  candidate fresh_floor = {"C struct via snprintf (floor)",
                           "floor", run_floor_counter_fresh, &floor_counter, NULL};
  row(group, "state read, counter, fresh after a change", note, NULL, &fresh, &fresh_floor);

  /* state read of the counter, unchanged */
  char *cached;
  size_t cached_length;
  if (tca_store_state(counter, &cached, &cached_length) != TCA_OK) die("tca_store_state");
  floor_copy_ctx floor_copy = {bench_copy_json, cached, cached_length};
  candidate same = {"tca_store_state+free", "ours", run_tca_state_unchanged, &send_ctx, NULL};
  candidate same_floor = {"malloc+memcpy+free (floor)", "floor", run_floor_copy,
                          &floor_copy, NULL};
  row(group, "state read, counter, unchanged", NULL, NULL, &same, &same_floor);

  /* state reads of 1,000 todos (SWITCH-ON: todos) */
  static bench_todo todos[TODOS_COUNT];
  make_todos(todos);
  char *snapshot;
  size_t snapshot_length;
  if (bench_todos_json(todos, TODOS_COUNT, &snapshot, &snapshot_length) != 0) die("out of memory");
  char why[512];
  tca_store *todos_store = make_todos_store(snapshot, why, sizeof why);
  todos_store_ctx todos_ctx = {todos_store, 1};
  store_ctx todos_read_ctx = {todos_store, NULL};
  floor_todos_json_ctx floor_todos = {bench_todos_json, todos, TODOS_COUNT, 0};
  snprintf(note, sizeof note,
           "%zu KB snapshot; each read follows a toggle (untimed); per-call timing, %.0f ns clock "
           "overhead subtracted",
           snapshot_length / 1024, g_timer_overhead_ns);
  candidate todos_fresh = {"tca_store_state+free", "ours", run_tca_todos_fresh,
                           &todos_ctx, todos_store ? NULL : why};
  candidate todos_fresh_floor = {"C structs to JSON (floor)",
                                 "floor", run_floor_todos_fresh, &floor_todos, NULL};
  row(group, "state read, 1,000 todos, fresh after a change", note, NULL, &todos_fresh,
      &todos_fresh_floor);

  floor_copy_ctx floor_copy_todos = {bench_copy_json, snapshot, snapshot_length};
  candidate todos_same = {"tca_store_state+free", "ours", run_tca_state_unchanged,
                          &todos_read_ctx, todos_store ? NULL : why};
  candidate todos_same_floor = {"malloc+memcpy+free (floor)", "floor", run_floor_copy,
                                &floor_copy_todos, NULL};
  snprintf(note, sizeof note, "%zu KB of JSON", snapshot_length / 1024);
  row(group, "state read, 1,000 todos, unchanged", note, NULL, &todos_same, &todos_same_floor);

  /* a toggle of the real todos feature against a counter send (issue 17: at most 10x) */
  candidate toggle = {"tca_store_send (todos toggle)", "ours", run_tca_todos_toggle,
                      &todos_ctx, todos_store ? NULL : why};
  candidate counter_send = {"tca_store_send (counter)", "reference", run_tca_send, &send_ctx,
                            NULL};
  row(group, "tca_store_send, toggle 1 of 1,000 todos, against a counter send",
      "the todos feature itself (its 1 s sort debounce included); ids visited in turn, 0…999; "
      "the action written per call with snprintf",
      "{\"ratio_max\":10}", &toggle, &counter_send);

  /* effect round trip (SWITCH-ON: effects) */
  floor_effect_ctx floor_effect = {bench_effect_send, {floor_on_request, NULL, 0, 0}};
  candidate effect_floor = {"C calls via fn pointers (floor)",
                            "floor", run_floor_effect, &floor_effect, NULL};
#ifdef BENCH_HAVE_EFFECTS
  effect_ctx effect;
  const char *effect_na = prepare_effect_store(&effect, why, sizeof why);
  candidate effect_ours = {"send+callback+respond", "ours",
                           run_tca_effect, &effect, effect_na};
#else
  candidate effect_ours = {"send+callback+respond", "ours", NULL,
                           NULL, "needs tca_store_set_effect_handler and tca_store_respond"};
#endif
  row(group, "effect round trip via the host callback",
      "counter number fact: one send whose effect asks the host, answered inside the callback",
      NULL, &effect_ours, &effect_floor);
  candidate counter_reference = {"tca_store_send (counter)", "reference", run_tca_send, &send_ctx,
                                 NULL};
  row(group, "effect round trip, against a counter send", "the row above, issue 17: at most 5x",
      "{\"ratio_max\":5}", &effect_ours, &counter_reference);

  /* pull mode against the callback round trip, measured in the same run (issue 36: at most 1.5x) */
#ifdef BENCH_HAVE_EFFECTS
  effect_ctx pull;
  char pull_why[512];
  const char *pull_na = prepare_pull_store(&pull, pull_why, sizeof pull_why);
  candidate pull_ours = {"send+take+respond (pull mode)", "ours", run_tca_pull, &pull, pull_na};
#else
  candidate pull_ours = {"send+take+respond (pull mode)", "ours", NULL, NULL,
                         "needs tca_store_take_requests and tca_store_respond"};
#endif
  candidate callback_reference = {"send+callback+respond", "reference", effect_ours.run,
                                  effect_ours.ctx, effect_ours.na};
  row(group, "effect round trip in pull mode, against the callback round trip",
      "counter number fact: send, tca_store_take_requests, the id read with strstr, "
      "tca_store_respond outside any callback; the alternative is the row two above",
      "{\"ratio_max\":1.5}", &pull_ours, &callback_reference);
  /* the same, taking the request as a struct: what a C or FFI host reads without parsing */
#ifdef BENCH_HAVE_EFFECTS
  candidate pull_v2 = {"send+take_v2+respond (pull mode)", "ours", run_tca_pull_v2, &pull,
                       pull_na};
#else
  candidate pull_v2 = {"send+take_v2+respond (pull mode)", "ours", NULL, NULL,
                       "needs tca_store_take_requests_v2 and tca_store_respond"};
#endif
  row(group, "effect round trip in pull mode (structs), against the callback round trip",
      "counter number fact: send, tca_store_take_requests_v2, tca_store_respond outside any "
      "callback; the alternative is the callback round trip",
      "{\"ratio_max\":1.5}", &pull_v2, &callback_reference);
#ifdef BENCH_HAVE_EFFECTS
  tca_store_free(pull.store);
  tca_store_free(effect.store);
#endif

  tca_store_free(todos_store);
  free(snapshot);
  tca_string_free(cached);
  tca_store_free(counter);
}

/* ---- memory ---------------------------------------------------------------------------------- */

static long rss_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  if (f == NULL || fscanf(f, "%ld %ld", &size, &resident) != 2) {
    fprintf(stderr, "cbench: cannot read /proc/self/statm\n");
    exit(1);
  }
  fclose(f);
  return resident * sysconf(_SC_PAGESIZE);
}

static void print_memory_row(const char *workload, const char *unit, const char *note,
                             const char *target_json, const candidate *ours,
                             const stats *ours_stats, const candidate *alt,
                             const stats *alt_stats) {
  fprintf(stderr, "  Memory: %s\n", workload);
  print_row("Memory", workload, unit, note, target_json, ours, ours_stats, alt, alt_stats);
}

#define MEMORY_ROUNDS 5
#define STORES_PER_ROUND 10000

static void memory_rows(void) {
  /* bytes per idle store: 5 rounds, each making 10,000 more stores (all kept alive) */
  tca_store *warm;
  if (tca_store_new("counter", NULL, NULL, &warm) != TCA_OK) die("tca_store_new");
  tca_store_free(warm);

  double reference[MEMORY_ROUNDS], per_store[MEMORY_ROUNDS];
  int64_t **structs = malloc(sizeof(int64_t *) * MEMORY_ROUNDS * STORES_PER_ROUND);
  tca_store **stores = malloc(sizeof(tca_store *) * MEMORY_ROUNDS * STORES_PER_ROUND);
  if (structs == NULL || stores == NULL) die("out of memory");
  memset(structs, 0, sizeof(int64_t *) * MEMORY_ROUNDS * STORES_PER_ROUND);
  memset(stores, 0, sizeof(tca_store *) * MEMORY_ROUNDS * STORES_PER_ROUND);
  for (int round = 0; round < MEMORY_ROUNDS; round++) {
    long before = rss_bytes();
    for (int i = 0; i < STORES_PER_ROUND; i++) {
      int64_t *state = malloc(sizeof *state);
      if (state == NULL) die("out of memory");
      *state = i;
      structs[round * STORES_PER_ROUND + i] = state;
    }
    reference[round] = (double)(rss_bytes() - before) / STORES_PER_ROUND;
  }
  for (int round = 0; round < MEMORY_ROUNDS; round++) {
    long before = rss_bytes();
    for (int i = 0; i < STORES_PER_ROUND; i++)
      if (tca_store_new("counter", NULL, NULL, &stores[round * STORES_PER_ROUND + i]) != TCA_OK)
        die("tca_store_new");
    per_store[round] = (double)(rss_bytes() - before) / STORES_PER_ROUND;
  }
  candidate ours = {"idle counter store", "ours", NULL, NULL, NULL};
  candidate alt = {"malloc'd int64 struct (reference)", "reference",
                   NULL, NULL, NULL};
  stats ours_stats = summarize(per_store, MEMORY_ROUNDS, STORES_PER_ROUND);
  stats alt_stats = summarize(reference, MEMORY_ROUNDS, STORES_PER_ROUND);
  /* issue 17: at most 1 KB (1,024 bytes) per idle store */
  print_memory_row("bytes per idle store (10,000 alive)", "bytes",
                   "RSS growth (/proc/self/statm) over 10,000 creations, per store; 5 rounds, "
                   "up to 50,000 alive",
                   "{\"ours_max\":1024}", &ours, &ours_stats, &alt, &alt_stats);
  for (int i = 0; i < MEMORY_ROUNDS * STORES_PER_ROUND; i++) {
    tca_store_free(stores[i]);
    free(structs[i]);
  }
  free(stores);
  free(structs);

  /* RSS across 1,000,000 sends */
  tca_store *store;
  if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) die("tca_store_new");
  double after_10k = 0, highest = 0;
  for (long sent = 1; sent <= 1000000; sent++) {
    if (tca_store_send(store, sent % 3 ? INCREMENT : "\"decrementButtonTapped\"") != TCA_OK)
      die("tca_store_send");
    if (sent == 10000) after_10k = (double)rss_bytes() / 1024;
    if (sent % 100000 == 0) {
      double now = (double)rss_bytes() / 1024;
      if (now > highest) highest = now;
    }
  }
  double after_1m = (double)rss_bytes() / 1024;
  tca_store_free(store);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  char note[256];
  snprintf(note, sizeof note,
           "one counter store; highest RSS at the 100k checkpoints %.0f KiB; process peak "
           "(ru_maxrss, includes the stores above) %ld KiB",
           highest, usage.ru_maxrss);
  candidate rss_ours = {"after 1M sends", "ours", NULL, NULL, NULL};
  candidate rss_alt = {"after 10k sends", "baseline", NULL, NULL, NULL};
  stats s1 = summarize(&after_1m, 1, 1000000), s2 = summarize(&after_10k, 1, 10000);
  print_memory_row("RSS stable across 1,000,000 sends", "KiB", note, NULL, &rss_ours, &s1,
                   &rss_alt, &s2);
}

/* RSS across 10,000,000 sends to a recorded store with record_limit 1,000 (docs/benchmarks.md,
 * "The journal"); its progress goes to BENCH_JOURNAL_LOG (build/bench/journal-soak.log). */
static void journal_soak_row(void) {
  const char *path = getenv("BENCH_JOURNAL_LOG");
  FILE *log = fopen(path ? path : "journal-soak.log", "w");
  if (log == NULL) die("cannot write the journal soak's log");
  tca_options options = TCA_OPTIONS_INIT;
  options.record = 1;
  options.record_limit = 1000;
  tca_store *store;
  if (tca_store_new("counter", NULL, &options, &store) != TCA_OK) die("tca_store_new");
  double after_100k = 0, highest = 0;
  for (long sent = 1; sent <= 10000000; sent++) {
    if (tca_store_send(store, sent % 3 ? INCREMENT : "\"decrementButtonTapped\"") != TCA_OK)
      die("tca_store_send");
    if (sent % 100 == 0) (void)tca_store_version(store);
    if (sent == 100000) after_100k = (double)rss_bytes() / 1024;
    if (sent % 1000000 == 0) {
      double now = (double)rss_bytes() / 1024;
      if (now > highest) highest = now;
      char *journal = NULL;
      size_t length = 0;
      if (tca_store_journal(store, &journal, &length) != TCA_OK) die("tca_store_journal");
      fprintf(log, "%ld sends: RSS %.0f KiB, journal %zu bytes\n", sent, now, length);
      fflush(log);
      tca_string_free(journal);
    }
  }
  double after_10m = (double)rss_bytes() / 1024;
  tca_store_free(store);
  fclose(log);
  char note[256];
  snprintf(note, sizeof note,
           "one counter store, options.record = 1, record_limit 1,000; highest RSS at the 1M "
           "checkpoints %.0f KiB",
           highest);
  candidate ours = {"after 10M recorded sends", "ours", NULL, NULL, NULL};
  candidate alt = {"after 100k recorded sends", "baseline", NULL, NULL, NULL};
  stats s1 = summarize(&after_10m, 1, 10000000), s2 = summarize(&after_100k, 1, 100000);
  print_memory_row("RSS stable across 10,000,000 recorded sends (record_limit 1,000)", "KiB",
                   note, NULL, &ours, &s1, &alt, &s2);
}

/* ---- the inspector row ----------------------------------------------------------------------- */

static long g_discarded; /* reads of the listener below (atomic) */

/* An inspector that takes store connections and reads and discards what they send. */
static void *discard(void *arg) {
  int listener = *(int *)arg;
  for (;;) {
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) continue;
    char request[4096];
    size_t got = 0;
    while (got < sizeof request - 1) {
      ssize_t n = read(fd, request + got, sizeof request - 1 - got);
      if (n <= 0) break;
      got += (size_t)n;
      request[got] = 0;
      if (strstr(request, "\r\n\r\n")) break;
    }
    const char *upgrade = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: tca-store/1\r\n\r\n";
    if (write(fd, upgrade, strlen(upgrade)) < 0) die("write");
    static char buffer[1 << 16];
    while (read(fd, buffer, sizeof buffer) > 0)
      __atomic_add_fetch(&g_discarded, 1, __ATOMIC_RELAXED);
    close(fd);
  }
  return NULL;
}

static void inspector_rows(void) {
  /* NB: the plain store is made before TCA_DEVTOOLS is set: a store connects if the variable is
     set when it is made. */
  tca_store *plain;
  if (tca_store_new("counter", NULL, NULL, &plain) != TCA_OK) die("tca_store_new");
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 ||
      listen(listener, 4) != 0 || getsockname(listener, (struct sockaddr *)&address, &size) != 0)
    die("listener");
  pthread_t thread;
  if (pthread_create(&thread, NULL, discard, &listener) != 0) die("pthread_create");
  char spec[64];
  snprintf(spec, sizeof spec, "127.0.0.1:%d/bench", ntohs(address.sin_port));
  setenv("TCA_DEVTOOLS", spec, 1);
  tca_store *attached;
  if (tca_store_new("counter", NULL, NULL, &attached) != TCA_OK) die("tca_store_new");
  /* Connected once the listener has read the hello. */
  for (int i = 0; i < 500 && __atomic_load_n(&g_discarded, __ATOMIC_RELAXED) == 0; i++) {
    if (tca_store_poll(attached, NULL) != TCA_OK) die("tca_store_poll");
    struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  if (__atomic_load_n(&g_discarded, __ATOMIC_RELAXED) == 0) die("the store did not connect");
  store_ctx attached_ctx = {attached, INCREMENT};
  store_ctx plain_ctx = {plain, INCREMENT};
  candidate ours = {"tca_store_send, inspector attached", "ours", run_tca_send, &attached_ctx,
                    NULL};
  candidate alt = {"tca_store_send, no inspector", "reference", run_tca_send, &plain_ctx, NULL};
  row("C ABI", "tca_store_send \"incrementButtonTapped\" (counter), inspector attached",
      "TCA_DEVTOOLS to a local listener that reads and discards: the store records, and each "
      "send queues its journal line, reduction and patch for the connection's thread",
      NULL, &ours, &alt);
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  const char *samples = getenv("BENCH_SAMPLES");
  const char *sample_ms = getenv("BENCH_SAMPLE_MS");
  if (samples && atoi(samples) >= 3) g_samples = atoi(samples);
  if (sample_ms && atoi(sample_ms) >= 1) g_sample_ns = (uint64_t)atoi(sample_ms) * 1000000u;

  if (argc > 1 && strcmp(argv[1], "mem") == 0) {
    memory_rows();
    journal_soak_row();
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "inspector") == 0) {
    measure_timer_overhead();
    inspector_rows();
    return 0;
  }
  measure_timer_overhead();
  abi_rows();
  return 0;
}
