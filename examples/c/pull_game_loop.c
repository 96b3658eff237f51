/* A game loop with no callbacks at all (pull mode): 60 ticks per second, a dice store and a
 * counter store on manual clocks, their host requests taken once a frame, at the point of the
 * frame the loop chooses.
 *
 * Each tick the loop (1) reads input — a bot taps the die's "roll" and, now and then, the
 * counter's "number fact" button; (2) advances both clocks by the tick's share of a second;
 * (3) takes the requests the stores made (tca_store_take_requests_v2) and performs them: the
 * dice's haptics (fire-and-forget) is printed; a number fact is "fetched" by a pretend network
 * that answers 5 ticks later, unless a cancellation notice for it arrives first (the counter
 * cancels a fetch in flight when its button is tapped again); (4) draws what changed, by state
 * version. No function of this file is ever called by the library: what a host in LuaJIT, C#,
 * Rust or any language whose callbacks are costly or fragile does.
 *
 *   cc examples/c/pull_game_loop.c -Iinclude -Lbuild/lib -ltca -Wl,-rpath,build/lib \
 *     -o pull_game_loop
 *   ./pull_game_loop            # real time (about 3 s)
 *   ./pull_game_loop --fast     # no waiting: the same game, tick for tick
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>
#include <time.h>

#define TICKS_PER_SECOND 60
#define TICKS 180
#define MAX_FETCHES 8

/* A number fact being fetched: answered at `due_tick`, unless cancelled before. */
typedef struct fetch {
  uint64_t id;
  long number;
  long due_tick;
  int live;
} fetch;

static int check(tca_status status, const char *what) {
  if (status != TCA_OK) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, tca_status_str(status), tca_last_error());
    return 0;
  }
  return 1;
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Takes the requests `store` made and performs them: haptics at once; fetches later. The
 * entries are the library's, lent until the next take on this thread: what outlives it (a fetch
 * in flight) is copied out. */
static void take_requests(tca_store *store, const char *who, fetch *fetches, long tick) {
  const tca_request *taken = NULL;
  size_t count = 0;
  if (!check(tca_store_take_requests_v2(store, &taken, &count), "tca_store_take_requests_v2"))
    return;
  for (size_t n = 0; n < count; n++) {
    const tca_request *request = &taken[n];
    if (request->kind == TCA_REQUEST_CANCELLED) {
      for (int i = 0; i < MAX_FETCHES; i++)
        if (fetches[i].live && fetches[i].id == request->id) fetches[i].live = 0;
      printf("tick %3ld  %-7s request #%llu cancelled: the fetch is dropped\n", tick, who,
             (unsigned long long)request->id);
    } else if (strcmp(request->name, "haptics.impact") == 0) {
      printf("tick %3ld  %-7s *bzzt* (request #%llu, fire-and-forget)\n", tick, who,
             (unsigned long long)request->id);
    } else if (strcmp(request->name, "numberFact.fetch") == 0) {
      for (int i = 0; i < MAX_FETCHES; i++) {
        if (fetches[i].live) continue;
        /* The payload is the count, a JSON integer (a real host uses its JSON parser). */
        fetches[i] = (fetch){request->id, strtol(request->payload_json, NULL, 10), tick + 5, 1};
        printf("tick %3ld  %-7s fetching a fact about %ld (request #%llu)\n", tick, who,
               fetches[i].number, (unsigned long long)fetches[i].id);
        break;
      }
    }
  }
}

/* The pretend network: answers each fetch that is due. */
static void answer_due_fetches(tca_store *store, fetch *fetches, long tick) {
  for (int i = 0; i < MAX_FETCHES; i++) {
    if (!fetches[i].live || fetches[i].due_tick > tick) continue;
    char answer[96];
    snprintf(answer, sizeof answer, "\"%ld is the number of this fact\"", fetches[i].number);
    check(tca_store_respond(store, fetches[i].id, answer), "tca_store_respond");
    fetches[i].live = 0;
  }
}

static void draw(tca_store *store, const char *who, const char *pointer, uint64_t *drawn,
                 long tick) {
  uint64_t version = tca_store_version(store);
  if (version == *drawn) return;
  *drawn = version;
  char *json = NULL;
  if (tca_store_get(store, pointer, &json, NULL) == TCA_OK)
    printf("tick %3ld  %-7s %s\n", tick, who, json);
  tca_string_free(json);
}

int main(int argc, char **argv) {
  int fast = argc > 1 && strcmp(argv[1], "--fast") == 0;
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;       /* time moves only when the loop says so */
  options.requests = TCA_REQUESTS_QUEUED; /* requests wait to be taken: no callbacks */
  options.seed = 7;                       /* same seed, same game */
  tca_store *dice = NULL, *counter = NULL;
  if (!check(tca_store_new("dice", NULL, &options, &dice), "tca_store_new(dice)")) return 1;
  if (!check(tca_store_new("counter", NULL, &options, &counter), "tca_store_new(counter)"))
    return 1;
  printf("libtca %s: pull mode, %d ticks per second, no callbacks\n", tca_version(),
         TICKS_PER_SECOND);

  fetch fetches[MAX_FETCHES];
  memset(fetches, 0, sizeof fetches);
  uint64_t dice_drawn = 0, counter_drawn = 0;
  const uint64_t tick_ns = 1000000000u / TICKS_PER_SECOND;
  uint64_t previous = now_ns(), accumulator = 0;
  long tick = 0;
  while (tick < TICKS) {
    uint64_t now = now_ns();
    accumulator += fast ? tick_ns : now - previous;
    previous = now;
    while (accumulator >= tick_ns && tick < TICKS) {
      accumulator -= tick_ns;
      /* 1. Input. */
      if (tick % 40 == 0) check(tca_store_send(dice, "\"rollButtonTapped\""), "tca_store_send");
      if (tick % 30 == 5) check(tca_store_send(counter, "\"incrementButtonTapped\""), "send");
      /* Tapped twice in a row at tick 65: the first fetch is cancelled. */
      if (tick == 20 || tick == 65 || tick == 66)
        check(tca_store_send(counter, "\"numberFactButtonTapped\""), "tca_store_send");
      /* 2. Game time. */
      uint64_t ms = (uint64_t)(tick + 1) * 1000 / TICKS_PER_SECOND -
                    (uint64_t)tick * 1000 / TICKS_PER_SECOND;
      check(tca_store_advance(dice, ms), "tca_store_advance");
      check(tca_store_advance(counter, ms), "tca_store_advance");
      /* 3. Requests, taken here, where the frame chooses; answers given on this thread. */
      take_requests(dice, "dice", fetches, tick);
      take_requests(counter, "counter", fetches, tick);
      answer_due_fetches(counter, fetches, tick);
      tick++;
      /* 4. Render what changed. */
      draw(dice, "dice", "/rollHistory", &dice_drawn, tick);
      draw(counter, "counter", "", &counter_drawn, tick);
    }
    if (!fast) {
      struct timespec nap = {0, (long)(tick_ns - accumulator)};
      nanosleep(&nap, NULL);
    }
  }
  char *state = NULL;
  if (check(tca_store_state(counter, &state, NULL), "tca_store_state"))
    printf("counter: %s\n", state);
  tca_string_free(state);
  tca_store_free(dice);
  tca_store_free(counter);
  return 0;
}
