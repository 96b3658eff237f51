/* Hostile JSON against the C API (issue 13 items 6, 7, 8): peak memory while decoding, what error
 * messages and the trace may carry from the input, and repeated member names.
 *
 * Memory is measured with getrusage's ru_maxrss in a fresh process per case (this program run
 * again with "--measure CASE"), so each peak is that case's own: a 100 MB array where the counter
 * expects an action, a 100 MB number and a 100 MB string in a snapshot, a valid 100 MB todos
 * snapshot, and valid snapshots as dense as JSON gets (a value every 2 bytes, nested arrays). A case builds its input, warms
 * the library up, takes ru_maxrss, makes the one call, and takes ru_maxrss again: the growth must
 * be at most 4 times the input. Inputs are 100 MB; with TCA_TEST_QUICK=1 (the valgrind run) they
 * are 1 MB and the growth is printed but not checked: at that size the allocator's own slack is
 * of the same order. Under ThreadSanitizer (make sanitize-thread), whose shadow memory the peak
 * counts too, the growth is printed but not checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tca.h"

/* ThreadSanitizer maps shadow memory for what the program touches, several times its size, and
 * ru_maxrss counts it: under it the growth is printed but not checked (make sanitize-thread). */
#if defined(__SANITIZE_THREAD__)
#define SHADOWED_MEMORY 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHADOWED_MEMORY 1
#endif
#endif
#ifndef SHADOWED_MEMORY
#define SHADOWED_MEMORY 0
#endif

static int quick(void) {
  const char *value = getenv("TCA_TEST_QUICK");
  return value != NULL && value[0] != 0 && strcmp(value, "0") != 0;
}

static size_t input_size(void) { return quick() ? (size_t)1 << 20 : (size_t)100 << 20; }

static long max_rss_kb(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static int has_control_byte(const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p < 0x20 || *p == 0x7F) return 1;
  }
  return 0;
}

static tca_store *counter(void) {
  tca_store *store = NULL;
  if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) {
    fprintf(stderr, "no counter: %s\n", tca_last_error());
    exit(2);
  }
  return store;
}

/* ---- item 6: one case in a fresh process -------------------------------------------------- */

/* `prefix` + `fill` repeated + `suffix`, `size` bytes in all. */
static char *document(const char *prefix, const char *fill, const char *suffix, size_t size) {
  char *text = malloc(size + 1);
  if (!text) exit(2);
  size_t prefix_length = strlen(prefix), fill_length = strlen(fill), suffix_length = strlen(suffix);
  memcpy(text, prefix, prefix_length);
  size_t at = prefix_length;
  while (at + fill_length + suffix_length <= size) {
    memcpy(text + at, fill, fill_length);
    at += fill_length;
  }
  memcpy(text + at, suffix, suffix_length);
  at += suffix_length;
  text[at] = 0;
  return text;
}

/* A todos snapshot of about `size` bytes: todos with distinct ids and 40-byte descriptions. */
static char *todos_snapshot(size_t size) {
  char *text = malloc(size + 256);
  if (!text) exit(2);
  size_t at = (size_t)sprintf(text, "{\"filter\":\"all\",\"todos\":[");
  for (unsigned long i = 0; at + 200 < size; i++) {
    at += (size_t)sprintf(text + at,
                          "%s{\"id\":\"00000000-0000-4000-8000-%012lX\",\"description\":"
                          "\"Milk, bread, eggs and a sack of potatoes\",\"isComplete\":%s}",
                          i ? "," : "", i, i % 3 ? "false" : "true");
  }
  strcpy(text + at, "]}");
  return text;
}

/* Runs case `name`; prints "status growth_kb input_kb last_error_length" then the message. */
static int measure(const char *name) {
  size_t size = input_size();
  char *input;
  if (strcmp(name, "array") == 0) {
    input = document("[0", ",0", "]", size);  /* where the counter expects an action */
  } else if (strcmp(name, "number") == 0) {
    input = document("{\"count\":1", "0", "}", size);  /* a 100 MB number in a snapshot */
  } else if (strcmp(name, "string") == 0) {
    input = document("{\"count\":\"", "a", "\"}", size);  /* a 100 MB string for a number */
  } else if (strcmp(name, "todos") == 0) {
    input = todos_snapshot(size);  /* a valid snapshot, decoded whole */
  } else if (strcmp(name, "dense") == 0) {
    /* A valid snapshot whose unknown member is the densest JSON there is: a value every two
     * bytes. */
    input = document("{\"count\":1,\"x\":[0", ",0", "]}", size);
  } else if (strcmp(name, "nested") == 0) {
    /* The same with nested arrays: a container every byte and a half. */
    input = document("{\"count\":1,\"x\":[", "[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]],", "0]}", size);
  } else {
    return 2;
  }
  size_t length = strlen(input);
  /* Warm up: the library's first store and first failure allocate what every call shares. */
  tca_store *warm = counter();
  tca_store_send(warm, "[1,2,3]");
  tca_store_free(warm);
  tca_store *made = NULL;
  tca_store_new("counter", "{\"count\":\"a\"}", NULL, &made);

  tca_store *store = counter();
  long before = max_rss_kb();
  tca_status status;
  if (strcmp(name, "array") == 0) {
    status = tca_store_send_n(store, input, length);
  } else {
    tca_store *restored = NULL;
    status = tca_store_new_n(strcmp(name, "todos") == 0 ? "todos" : "counter", input, length,
                             NULL, &restored);
    tca_store_free(restored);
  }
  long after = max_rss_kb();
  const char *message = tca_last_error();
  printf("%d %ld %ld %zu\n%s\n", status, after - before, (long)(length / 1024), strlen(message),
         message);
  tca_store_free(store);
  free(input);
  return 0;
}

/* This program run again with --measure `name`; its output parsed. */
typedef struct {
  int status;
  long growth_kb, input_kb;
  size_t message_length;
  char message[4200];
} measured;

static int run_case(const char *self, const char *name, measured *out) {
  char command[4096];
  snprintf(command, sizeof command, "'%s' --measure %s", self, name);
  FILE *child = popen(command, "r");
  if (!child) return 0;
  int ok = fscanf(child, "%d %ld %ld %zu\n", &out->status, &out->growth_kb, &out->input_kb,
                  &out->message_length) == 4;
  if (ok && !fgets(out->message, sizeof out->message, child)) out->message[0] = 0;
  out->message[strcspn(out->message, "\n")] = 0;
  int exit_status = pclose(child);
  return ok && exit_status == 0;
}

static void check_case(const char *self, const char *name, tca_status expected,
                       const char *needle) {
  measured m;
  memset(&m, 0, sizeof m);
  int ran = run_case(self, name, &m);
  CHECK(ran);
  if (!ran) return;
  printf("  %s: %ld KB input, peak grew by %ld KB (%.2fx); %s\n", name, m.input_kb, m.growth_kb,
         m.input_kb ? (double)m.growth_kb / (double)m.input_kb : 0.0, m.message);
  CHECK(m.status == expected);
  CHECK_CONTAINS(m.message, needle);
  /* Messages quote at most ~20 characters of a value, so a 100 MB one stays short. */
  CHECK(m.message_length < 300);
  if (quick()) {
    printf("  (TCA_TEST_QUICK: a 1 MB input; the 4x bound is checked with 100 MB)\n");
  } else if (SHADOWED_MEMORY) {
    printf("  (ThreadSanitizer's shadow memory counts in the peak: the 4x bound is checked "
           "without it)\n");
  } else {
    CHECK(m.growth_kb <= 4 * m.input_kb);
  }
}

static void test_memory_is_bounded(const char *self) {
  check_case(self, "array", TCA_ERR_JSON_SHAPE, "at /: expected an object, found an array");
  check_case(self, "number", TCA_ERR_JSON_SHAPE,
             "at /count: expected an integer in Int's range, found 1000000000");
  check_case(self, "string", TCA_ERR_JSON_SHAPE,
             "at /count: expected an integer, found \"aaaaaaaaaaaaaaaaaaaa…\"");
  /* A valid snapshot decoded whole: its tape and its state fit the bound too. */
  check_case(self, "todos", TCA_OK, "");
  /* Valid snapshots as dense as JSON gets, in a member the counter ignores: the tape takes 4
   * bytes a value, at most twice the text (it took 16, up to 8 times, before). */
  check_case(self, "dense", TCA_OK, "");
  check_case(self, "nested", TCA_OK, "");
}

/* ---- item 7: what messages carry from the input ------------------------------------------- */

static void test_messages_escape_what_they_quote(void) {
  tca_store *store = counter();
  /* A NUL, a quote and a newline in a string that is not a case name. */
  const char action[] = "\"a\\u0000b\\\"\\nat /x: forged\"";
  CHECK_STATUS(tca_store_send(store, action), TCA_ERR_JSON_SHAPE);
  const char *message = tca_last_error();
  CHECK_CONTAINS(message, "\"a\\u0000b\\\"\\nat /x: forged\"");
  CHECK(!has_control_byte(message));
  /* The same through tca_store_send_n, with a raw byte the text may not have. */
  CHECK_STATUS(tca_store_send_n(store, "\"\x01\"", 3), TCA_ERR_JSON_SYNTAX);
  CHECK(!has_control_byte(tca_last_error()));
  tca_store_free(store);

  /* An enum case error (a string-backed enum's raw value) quotes the value escaped. */
  tca_store *todos = NULL;
  CHECK_STATUS(tca_store_new("todos", NULL, NULL, &todos), TCA_OK);
  CHECK_STATUS(tca_store_send(todos, "{\"filterPicked\":\"no\\\"pe\\n\\u0000x\"}"),
               TCA_ERR_JSON_SHAPE);
  message = tca_last_error();
  CHECK_CONTAINS(message, "\"no\\\"pe\\n\\u0000x\"");
  CHECK_CONTAINS(message, "at /filterPicked");
  CHECK(!has_control_byte(message));
  tca_store_free(todos);

  /* A feature name and a JSON Pointer from the host are quoted escaped too. */
  tca_store *none = NULL;
  CHECK_STATUS(tca_store_new("no\"\nsuch", NULL, NULL, &none), TCA_ERR_UNKNOWN_FEATURE);
  CHECK_CONTAINS(tca_last_error(), "\"no\\\"\\nsuch\"");
  CHECK(!has_control_byte(tca_last_error()));
  /* A member name in a path: escaped, not raw. */
  CHECK_STATUS(tca_store_new("counter", "{\"count\":{\"a\\nb\":1}}", NULL, &none),
               TCA_ERR_JSON_SHAPE);
  CHECK(!has_control_byte(tca_last_error()));
}

/* TCA_TRACE=1 in a fresh process (the variable is read once): nothing raw on stderr. */
static int trace_case(void) {
  tca_store *store = counter();
  tca_store_send(store, "{\"numberFactResponse\":\"x\\u001b[31m\\u0000y\\nz\"}");
  tca_store_free(store);
  return 0;
}

static void test_trace_escapes_control_bytes(const char *self) {
  char path[] = "/tmp/tca_trace_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  char command[4096];
  snprintf(command, sizeof command, "TCA_TRACE=1 '%s' --measure trace 2>'%s'", self, path);
  CHECK(system(command) == 0);
  FILE *trace = fopen(path, "rb");
  CHECK(trace != NULL);
  if (!trace) return;
  char text[65536];
  size_t length = fread(text, 1, sizeof text - 1, trace);
  fclose(trace);
  unlink(path);
  text[length] = 0;
  CHECK(length > 0);
  CHECK(memchr(text, 0x1B, length) == NULL);
  CHECK(memchr(text, 0x00, length) == NULL);
  CHECK(strlen(text) == length);
  CHECK_CONTAINS(text, "\\u001B[31m\\u0000y\\nz");
}

/* ---- item 8: a repeated member name ------------------------------------------------------- */

static void test_repeated_member_name_is_a_shape_error(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", "{\"count\":1,\"count\":2}", NULL, &store),
               TCA_ERR_JSON_SHAPE);
  CHECK(store == NULL);
  CHECK_CONTAINS(tca_last_error(), "at /: duplicate member name \"count\"");
  store = counter();
  CHECK_STATUS(tca_store_send(store, "{\"numberFactResponse\":\"a\",\"numberFactResponse\":\"b\"}"),
               TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "duplicate member name \"numberFactResponse\"");
  /* A failed call changes nothing. */
  char *state = NULL;
  CHECK_STATUS(tca_store_state(store, &state, NULL), TCA_OK);
  CHECK(state && strstr(state, "numberFact\"") == NULL);
  tca_string_free(state);
  tca_store_free(store);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--measure") == 0) {
    if (strcmp(argv[2], "trace") == 0) return trace_case();
    return measure(argv[2]);
  }
  test_memory_is_bounded(argv[0]);
  test_messages_escape_what_they_quote();
  test_trace_escapes_control_bytes(argv[0]);
  test_repeated_member_name_is_a_shape_error();
  TEST_SUMMARY();
}
