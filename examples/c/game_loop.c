/* A fixed-timestep game loop: 60 ticks per second, driving two dice stores on manual clocks.
 *
 * Two players race to a total of 20. Each tick the loop reads input (here: a simple bot taps "roll"
 * when its die is idle), advances every store's clock by the tick's share of a second — so the
 * dice feature's 500 ms roll delay passes in game time, paused when the game pauses — and draws a
 * frame when a store's state version changed. The dice's haptics request (fire-and-forget) is
 * "performed" by printing. Rendering runs at the display's pace, simulation at exactly 60 Hz:
 * the classic accumulator loop (Glenn Fiedler, "Fix Your Timestep!").
 *
 *   cc examples/c/game_loop.c -Iinclude -Lbuild/lib -ltca -Wl,-rpath,build/lib -o game_loop
 *   cc examples/c/game_loop.c $(pkg-config --cflags --libs tca) -o game_loop   # after make install
 *   ./game_loop            # real time (about 4 s)
 *   ./game_loop --fast     # no waiting: the same game, tick for tick
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>
#include <time.h>

#define TICKS_PER_SECOND 60
#define PLAYERS 2
#define TARGET 20

typedef struct player {
  const char *name;
  tca_store *dice;
  uint64_t drawn_version; /* the state version last drawn */
  int total;
  int rolls;
} player;

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

/* The JSON at `pointer` as an integer (0 for null or on error). */
static long get_long(tca_store *store, const char *pointer) {
  char *json = NULL;
  long value = 0;
  if (tca_store_get(store, pointer, &json, NULL) == TCA_OK) value = strtol(json, NULL, 10);
  tca_string_free(json);
  return value;
}

static int is_rolling(tca_store *store) {
  char *json = NULL;
  int rolling = tca_store_get(store, "/isRolling", &json, NULL) == TCA_OK && strcmp(json, "true") == 0;
  tca_string_free(json);
  return rolling;
}

/* The host performs the feature's requests: here only haptics, fire-and-forget. */
static void on_request(void *userdata, tca_store *store, const tca_request *request) {
  player *p = userdata;
  (void)store;
  if (request->kind == TCA_REQUEST_FIRE_AND_FORGET)
    printf("          %s's controller: %s %s *bzzt*\n", p->name, request->name, request->payload_json);
  else
    tca_store_fail(store, request->id, "this host performs no such request");
}

/* The player's total and number of rolls, from the state's roll history ([4,1,6], newest first). */
static void score(player *p) {
  char *history = NULL;
  p->total = 0;
  p->rolls = 0;
  if (tca_store_get(p->dice, "/rollHistory", &history, NULL) != TCA_OK) return;
  for (char *at = history + 1, *end; *at != ']' && *at != 0; at = *end == ',' ? end + 1 : end) {
    long face = strtol(at, &end, 10);
    if (end == at) break;
    p->total += (int)face;
    p->rolls++;
  }
  tca_string_free(history);
}

/* Draws a player's line if their state changed since the last frame drawn. */
static void draw(player *p, long tick) {
  uint64_t version = tca_store_version(p->dice);
  if (version == p->drawn_version) return;
  p->drawn_version = version;
  score(p);
  if (is_rolling(p->dice))
    printf("tick %3ld  %-6s rolling… lands in %lld ms\n", tick, p->name,
           (long long)tca_store_next_deadline_ms(p->dice));
  else
    printf("tick %3ld  %-6s rolled %ld  (total %d after %d rolls)\n", tick, p->name,
           get_long(p->dice, "/currentRoll"), p->total, p->rolls);
}

int main(int argc, char **argv) {
  int fast = argc > 1 && strcmp(argv[1], "--fast") == 0;
  player players[PLAYERS] = {{"Ada", NULL, 0, 0, 0}, {"Brian", NULL, 0, 0, 0}};
  for (int i = 0; i < PLAYERS; i++) {
    tca_options options = TCA_OPTIONS_INIT;
    options.clock = TCA_CLOCK_MANUAL; /* time moves only when the loop says so */
    options.seed = 7 + (uint64_t)i;   /* same seeds, same game */
    if (!check(tca_store_new("dice", NULL, &options, &players[i].dice), "tca_store_new")) return 1;
    check(tca_store_set_request_handler(players[i].dice, on_request, NULL, &players[i]),
          "tca_store_set_request_handler");
  }
  printf("libtca %s: two dice stores, %d ticks per second, first to %d wins\n", tca_version(),
         TICKS_PER_SECOND, TARGET);

  const uint64_t tick_ns = 1000000000u / TICKS_PER_SECOND;
  uint64_t previous = now_ns(), accumulator = 0;
  long tick = 0;
  player *winner = NULL;
  while (winner == NULL && tick < 60 * TICKS_PER_SECOND) {
    uint64_t now = now_ns();
    accumulator += fast ? tick_ns : now - previous;
    previous = now;

    /* Simulate in fixed steps: as many ticks as the real time elapsed holds. */
    while (accumulator >= tick_ns && winner == NULL) {
      accumulator -= tick_ns;
      for (int i = 0; i < PLAYERS; i++) {
        player *p = &players[i];
        /* Input: the bot taps "roll" a quarter second after its die settles. */
        if (!is_rolling(p->dice) && tick % (TICKS_PER_SECOND / 4) == (long)i * 3)
          check(tca_store_send(p->dice, "\"rollButtonTapped\""), "tca_store_send");
        /* Game time: this tick's share of a second, 16 or 17 ms, exactly 1000 ms per 60 ticks. */
        uint64_t ms = (uint64_t)(tick + 1) * 1000 / TICKS_PER_SECOND - (uint64_t)tick * 1000 / TICKS_PER_SECOND;
        check(tca_store_advance(p->dice, ms), "tca_store_advance");
      }
      tick++;
      /* Render: only what changed. */
      for (int i = 0; i < PLAYERS; i++) {
        draw(&players[i], tick);
        if (players[i].total >= TARGET && winner == NULL) winner = &players[i];
      }
    }
    if (!fast) {
      struct timespec nap = {0, (long)(tick_ns - accumulator)};
      nanosleep(&nap, NULL);
    }
  }

  if (winner) printf("%s wins after %.2f s of game time\n", winner->name, (double)tick / TICKS_PER_SECOND);
  for (int i = 0; i < PLAYERS; i++) {
    char *history = NULL;
    if (check(tca_store_get(players[i].dice, "/rollHistory", &history, NULL), "tca_store_get"))
      printf("%-6s history (newest first): %s\n", players[i].name, history);
    tca_string_free(history);
    tca_store_free(players[i].dice);
  }
  return 0;
}
