/* noop.h — the floor functions of build/bench/libbenchnoop.so (see noop.c). */
#ifndef BENCH_NOOP_H
#define BENCH_NOOP_H

#include <stddef.h>
#include <stdint.h>

/* Floor of tca_store_send: same arguments; increments *(int64_t *)state. */
int bench_increment(void *state, const char *action_json);

/* Floor of Store.send from Python: one bytes (const char *) argument, does nothing. */
int bench_noop_bytes(const char *bytes);

/* Floor of tca_store_send_n under Python's C-extension floor (Benchmarks/python/floor.c): the same
 * arguments, does nothing. */
int bench_noop_send_n(void *store, const char *action_json, size_t length);

/* Floor of a fresh counter state read: the C struct written as JSON into a malloc'd string. */
int bench_counter_json(const int64_t *count, char **out_json, size_t *out_length);

/* Floor of an unchanged state read: a malloc'd copy of JSON already at hand. */
int bench_copy_json(const char *json, size_t length, char **out_json);

/* Floor of a fresh 1,000-todo state read: an array of C structs written as JSON. */
typedef struct bench_todo {
  int64_t id;
  int is_complete;
  char description[80];
} bench_todo;
int bench_todos_json(const bench_todo *todos, size_t count, char **out_json, size_t *out_length);

/* Floor of an effect round trip: a "send" that calls the host's request callback, which answers
 * through bench_effect_respond. */
typedef struct bench_effect_host bench_effect_host;
struct bench_effect_host {
  void (*on_request)(void *userdata, bench_effect_host *host, uint64_t request_id,
                     const char *name, const char *payload_json, size_t payload_length);
  void *userdata;
  uint64_t last_request_id;
  uint64_t answered;
};
int bench_effect_send(bench_effect_host *host, const char *action_json);
int bench_effect_respond(bench_effect_host *host, uint64_t request_id, const char *response_json);

#endif
