/* The dice roller driven from a C game loop: a fixed 100 ms timestep on the store's manual clock,
 * the player's taps as actions, the state drawn each frame, the haptics request performed by the
 * host (here: a line of text).
 *
 *   cc examples/c/dice.c -Iinclude -Lbuild/lib -ltca -Wl,-rpath,build/lib -o dice
 *   ./dice [seed]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tca.h>

static int check(tca_status status, const char *what) {
  if (status != TCA_OK) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, tca_status_str(status), tca_last_error());
    return 0;
  }
  return 1;
}

/* The host's side of the "haptics.impact" request: a real game would buzz the controller. */
static void on_request(void *userdata, tca_store *store, uint64_t id, const char *name,
                       const char *payload, size_t length) {
  (void)userdata, (void)store, (void)id;
  printf("        host: %s %.*s  *bzzt*\n", name, (int)length, payload);
}

/* The JSON text at `pointer` (freed by the caller with tca_string_free). */
static char *get(tca_store *store, const char *pointer) {
  char *json = NULL;
  check(tca_store_get(store, pointer, &json, NULL), pointer);
  return json;
}

static void draw(tca_store *store, int frame) {
  char *rolling = get(store, "/isRolling");
  char *face = get(store, "/currentRoll");
  char *preview = get(store, "/lastFiveRolls");
  char *screen = get(store, "/destination");
  int is_rolling = rolling && strcmp(rolling, "true") == 0;
  printf("frame %2d  die [%s]  last five %s%s\n", frame,
         is_rolling ? "~" : (face && strcmp(face, "null") != 0 ? face : " "), preview ? preview : "",
         screen && strcmp(screen, "null") != 0 ? "  (history screen open)" : "");
  tca_string_free(rolling);
  tca_string_free(face);
  tca_string_free(preview);
  tca_string_free(screen);
}

static void tap(tca_store *store, const char *action) {
  printf("        tap: %s\n", action);
  check(tca_store_send(store, action), "tca_store_send");
}

int main(int argc, char **argv) {
  tca_options options = TCA_OPTIONS_INIT;
  options.clock = TCA_CLOCK_MANUAL; /* the game's clock drives the store's timers */
  options.seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 2024;
  tca_store *store;
  if (!check(tca_store_new("dice", NULL, &options, &store), "tca_store_new")) return 1;
  check(tca_store_set_effect_handler(store, on_request, NULL, NULL), "set_effect_handler");
  printf("libtca %s, dice seeded with %llu: a 100 ms timestep\n", tca_version(),
         (unsigned long long)options.seed);

  /* What the player does, frame by frame. */
  struct { int frame; const char *action; } script[] = {
      {1, "\"rollButtonTapped\""},        {3, "\"rollButtonTapped\""}, /* ignored: rolling */
      {7, "\"rollButtonTapped\""},        {13, "\"rollButtonTapped\""},
      {19, "\"undoLastRoll\""},           {20, "\"viewFullHistoryTapped\""},
      {22, "{\"destination\":\"dismiss\"}"},
  };
  size_t next = 0, count = sizeof script / sizeof script[0];
  for (int frame = 0; frame <= 23; frame++) {
    while (next < count && script[next].frame == frame) tap(store, script[next++].action);
    draw(store, frame);
    check(tca_store_advance(store, 100), "tca_store_advance");
  }

  char *state;
  if (check(tca_store_state(store, &state, NULL), "tca_store_state")) {
    printf("final state: %s\n", state);
    tca_string_free(state);
  }
  tca_store_free(store);
  return 0;
}
