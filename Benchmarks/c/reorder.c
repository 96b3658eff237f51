/*
 * reorder.c — what tca_store_patch costs when a list of N teams is answered again in reverse
 * order (the matchscores feature: its `items` and the `searchResults` derived from them, two
 * lists of N reversed), in the loop of a host that patches after each change: the patch since
 * the previous version, whose parsed tree the store keeps. CPU time of the calls (the thread's
 * clock), best and mean of the rounds (docs/state-changes.md, "Patches").
 *
 *   make lib && cc -std=c99 -O2 -Iinclude Benchmarks/c/reorder.c -o build/reorder \
 *     -Lbuild/lib -ltca -Wl,-rpath,$PWD/build/lib && build/reorder 16000 10
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tca.h>

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A page of `n` teams in the API's shape, ids 1…n, or n…1 when `reversed`. */
static char *page(int n, int reversed) {
  char *text = malloc((size_t)n * 200 + 200);
  if (text == NULL) abort();
  size_t length = (size_t)sprintf(text, "{\"data\":[");
  for (int i = 0; i < n; i++) {
    int id = reversed ? n - i : i + 1;
    length += (size_t)sprintf(text + length,
                              "%s{\"id\":%d,\"abbreviation\":\"T%d\",\"city\":\"City %d\","
                              "\"conference\":\"East\",\"division\":\"Atlantic\","
                              "\"full_name\":\"Team %d\",\"name\":\"Team%d\"}",
                              i ? "," : "", id, id, id, id, id);
  }
  sprintf(text + length, "],\"meta\":{\"total_pages\":1,\"current_page\":1}}");
  return text;
}

/* The id of the request waiting (pull mode). */
static uint64_t waiting_request(tca_store *store) {
  char *json = NULL;
  if (tca_store_take_requests(store, &json, NULL) != TCA_OK) abort();
  const char *at = strstr(json, "\"id\":");
  uint64_t id = at ? strtoull(at + 5, NULL, 10) : 0;
  tca_string_free(json);
  return id;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16000;
  int rounds = argc > 2 ? atoi(argv[2]) : 10;
  tca_options options;
  tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  options.clock = TCA_CLOCK_MANUAL;
  tca_store *store = NULL;
  if (tca_store_new("matchscores", NULL, &options, &store) != TCA_OK) abort();
  char *pages[2] = {page(n, 0), page(n, 1)};
  tca_store_send(store, "{\"teamList\":\"onAppear\"}");
  if (tca_store_respond(store, waiting_request(store), pages[0]) != TCA_OK) abort();
  double best = 1e9, total = 0, diff = 1e9;
  size_t bytes = 0;
  for (int round = 0; round < rounds; round++) {
    uint64_t before = tca_store_version(store);
    tca_store_send(store, "{\"teamList\":\"refresh\"}");
    if (tca_store_respond(store, waiting_request(store), pages[(round + 1) % 2]) != TCA_OK) abort();
    char *json = NULL;
    double start = cpu_seconds();
    if (tca_store_patch(store, before, &json, &bytes) != TCA_OK) abort();
    double took = cpu_seconds() - start;
    tca_string_free(json);
    /* Again: both trees are kept now, so this is the diff and the writing alone. */
    start = cpu_seconds();
    if (tca_store_patch(store, before, &json, NULL) != TCA_OK) abort();
    double again = cpu_seconds() - start;
    tca_string_free(json);
    total += took;
    if (took < best) best = took;
    if (again < diff) diff = again;
  }
  printf("%d teams reversed: patch since the previous version %.1f ms best, %.1f ms mean "
         "(%zu bytes); the diff and its writing alone %.1f ms (CPU time, %d rounds)\n",
         n, best * 1e3, total / rounds * 1e3, bytes, diff * 1e3, rounds);
  tca_store_free(store);
  free(pages[0]);
  free(pages[1]);
  return 0;
}
