/*
 * noop.c — build/bench/libbenchnoop.so: the floors the C and Python benchmarks compare against.
 *
 * A shared library of its own, so that a floor call crosses a library boundary (through the PLT
 * and, in bench.c, a function pointer) just as a call into libtca.so does. Each floor does the
 * least work that still does what the libtca call it stands beside does.
 */
#include "noop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_increment(void *state, const char *action_json) {
  (void)action_json;
  ++*(int64_t *)state;
  return 0;
}

int bench_noop_bytes(const char *bytes) {
  (void)bytes;
  return 0;
}

int bench_noop_send_n(void *store, const char *action_json, size_t length) {
  (void)store;
  (void)action_json;
  (void)length;
  return 0;
}

int bench_counter_json(const int64_t *count, char **out_json, size_t *out_length) {
  char *json = malloc(32);
  if (json == NULL) return 1;
  int length = snprintf(json, 32, "{\"count\":%lld}", (long long)*count);
  *out_json = json;
  *out_length = (size_t)length;
  return 0;
}

int bench_copy_json(const char *json, size_t length, char **out_json) {
  char *copy = malloc(length + 1);
  if (copy == NULL) return 1;
  memcpy(copy, json, length + 1);
  *out_json = copy;
  return 0;
}

static char *write_string(char *out, const char *text) {
  static const char hex[] = "0123456789abcdef";
  *out++ = '"';
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p == '"' || *p == '\\') {
      *out++ = '\\';
      *out++ = (char)*p;
    } else if (*p == '\n') {
      *out++ = '\\';
      *out++ = 'n';
    } else if (*p == '\t') {
      *out++ = '\\';
      *out++ = 't';
    } else if (*p < 0x20) {
      memcpy(out, "\\u00", 4);
      out[4] = hex[*p >> 4];
      out[5] = hex[*p & 15];
      out += 6;
    } else {
      *out++ = (char)*p;
    }
  }
  *out++ = '"';
  return out;
}

static char *write_literal(char *out, const char *text) {
  size_t length = strlen(text);
  memcpy(out, text, length);
  return out + length;
}

/* The last 12 digits of `value` (>= 0), zero-padded: a UUID's last group. */
static char *write_uuid_tail(char *out, uint64_t value) {
  for (int i = 11; i >= 0; i--) {
    out[i] = (char)('0' + value % 10);
    value /= 10;
  }
  return out + 12;
}

/* NB: written the way a careful C programmer would for speed (no printf in the loop): a floor. */
int bench_todos_json(const bench_todo *todos, size_t count, char **out_json, size_t *out_length) {
  size_t capacity = 64;
  for (size_t i = 0; i < count; i++) capacity += 6 * strlen(todos[i].description) + 96;
  char *json = malloc(capacity);
  if (json == NULL) return 1;
  char *out = write_literal(json, "{\"editMode\":false,\"filter\":\"all\",\"todos\":[");
  for (size_t i = 0; i < count; i++) {
    if (i > 0) *out++ = ',';
    out = write_literal(out, "{\"description\":");
    out = write_string(out, todos[i].description);
    /* The todos feature's ids are UUIDs: the todo's number, written as one. */
    out = write_literal(out, ",\"id\":\"00000000-0000-4000-8000-");
    out = write_uuid_tail(out, (uint64_t)todos[i].id);
    *out++ = '"';
    out = write_literal(out, todos[i].is_complete ? ",\"isComplete\":true}" : ",\"isComplete\":false}");
  }
  out = write_literal(out, "]}");
  *out = '\0';
  *out_json = json;
  *out_length = (size_t)(out - json);
  return 0;
}

int bench_effect_send(bench_effect_host *host, const char *action_json) {
  (void)action_json;
  uint64_t id = ++host->last_request_id;
  host->on_request(host->userdata, host, id, "numberFact.fetch", "{\"count\":0}", 11);
  return 0;
}

int bench_effect_respond(bench_effect_host *host, uint64_t request_id, const char *response_json) {
  (void)response_json;
  if (request_id != host->last_request_id) return 1;
  host->answered++;
  return 0;
}
