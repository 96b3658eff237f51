/* The dice feature driven end to end from C: the roll button, the 500 ms roll on the manual clock
 * with a seeded random source, the haptics request (fire-and-forget), undo, reset, the history
 * screen presented and dismissed, snapshots, bad input. */
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"
#include "feature_host.h"

/* A store seeded with 7 rolls 5, 2, 6, 6, 6, 6, 1, 1, … (the random source is part of the
 * contract: the same seed rolls the same faces on every platform). */

static void roll(tca_store *store) {
  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 500), TCA_OK);
}

static void test_a_roll(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  CHECK(state_is(store, "{\"currentRoll\":null,\"isRolling\":false,\"rollHistory\":[],"));

  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  /* At the first turn, the history is asked of the host (shared state, key dice.history). */
  CHECK(strcmp(host.names[0], "shared.load") == 0);
  CHECK(strcmp(host.payloads[0], "{\"key\":\"dice.history\"}") == 0);
  CHECK(host.kinds[0] == TCA_REQUEST_ONE_SHOT);
  CHECK_STATUS(tca_store_respond(store, host.ids[0], "null"), TCA_OK);
  /* At once: the haptic, the animation; the roll waits on the clock. */
  CHECK(host.requests == 2);
  CHECK(strcmp(host.names[1], "haptics.impact") == 0);
  CHECK(strcmp(host.payloads[1], "{\"style\":\"medium\"}") == 0);
  CHECK(host.kinds[1] == TCA_REQUEST_FIRE_AND_FORGET);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK(value_is(store, "/rollAnimationAngle", "360"));
  CHECK(tca_store_next_deadline_ms(store) == 500);
  /* A fire-and-forget request takes no answer. */
  CHECK_STATUS(tca_store_respond(store, host.ids[1], "{}"), TCA_ERR_REQUEST_FINISHED);

  /* Tapping again while rolling does nothing. */
  CHECK_STATUS(tca_store_send(store, "{\"view\":\"rollButtonTapped\"}"), TCA_OK);
  CHECK(host.requests == 2);

  CHECK_STATUS(tca_store_advance(store, 499), TCA_OK);
  CHECK(value_is(store, "/isRolling", "true"));
  CHECK_STATUS(tca_store_advance(store, 1), TCA_OK);
  CHECK(value_is(store, "/isRolling", "false"));
  CHECK(value_is(store, "/currentRoll", "5"));
  CHECK(value_is(store, "/rollHistory", "[5]"));
  /* The host is asked to save the history. */
  CHECK(last_request(&host, "shared.save") == 2);
  CHECK(strcmp(host.payloads[2], "{\"key\":\"dice.history\",\"value\":[5]}") == 0);
  CHECK(host.kinds[2] == TCA_REQUEST_FIRE_AND_FORGET);
  CHECK(tca_store_next_deadline_ms(store) == -1);
  tca_store_free(store);
}

static int count_named(const feature_host *host, const char *name) {
  int count = 0;
  for (int i = 0; i < host->requests && i < HOST_MAX; i++) {
    if (strcmp(host->names[i], name) == 0) count++;
  }
  return count;
}

static void test_history_undo_reset(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  for (int i = 0; i < 7; i++) roll(store);
  CHECK(count_named(&host, "haptics.impact") == 7);
  CHECK(count_named(&host, "shared.save") == 7);
  CHECK(value_is(store, "/rollHistory", "[1,6,6,6,6,2,5]"));
  CHECK(value_is(store, "/lastFiveRolls", "[1,6,6,6,6]"));
  CHECK(value_is(store, "/currentRoll", "1"));

  CHECK_STATUS(tca_store_send(store, "\"undoLastRoll\""), TCA_OK);
  CHECK(value_is(store, "/currentRoll", "6"));
  CHECK(value_is(store, "/rollHistory", "[6,6,6,6,2,5]"));
  CHECK(value_is(store, "/lastFiveRolls", "[6,6,6,6,2]"));

  /* Reset while a roll is under way: the roll is cancelled. */
  CHECK_STATUS(tca_store_send(store, "\"rollButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 200), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"view\":\"resetHistory\"}"), TCA_OK);
  CHECK(state_is(store, "{\"currentRoll\":null,\"isRolling\":false,\"rollHistory\":[],"));
  CHECK(tca_store_next_deadline_ms(store) == -1);
  CHECK_STATUS(tca_store_advance(store, 1000), TCA_OK);
  CHECK(value_is(store, "/rollHistory", "[]"));
  CHECK(value_is(store, "/lastFiveRolls", "[]"));

  /* Undo with nothing to undo. */
  CHECK_STATUS(tca_store_send(store, "\"undoLastRoll\""), TCA_OK);
  CHECK(value_is(store, "/currentRoll", "null"));
  tca_store_free(store);
}

static void test_history_screen(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  roll(store);
  roll(store);
  CHECK(value_is(store, "/destination", "null"));
  CHECK_STATUS(tca_store_send(store, "\"viewFullHistoryTapped\""), TCA_OK);
  CHECK(value_is(store, "/destination",
                 "{\"history\":{\"rolls\":[2,5],\"entries\":[{\"number\":2,\"value\":2},"
                 "{\"number\":1,\"value\":5}]}}"));
  /* The screen follows the history while it is open. */
  roll(store);
  CHECK(value_is(store, "/destination/history/rolls", "[6,2,5]"));
  /* Its close button dismisses it. */
  CHECK_STATUS(
      tca_store_send(store, "{\"destination\":{\"presented\":{\"history\":\"closeButtonTapped\"}}}"),
      TCA_OK);
  CHECK(value_is(store, "/destination", "null"));
  /* As does the host's dismissal (a back button). */
  CHECK_STATUS(tca_store_send(store, "{\"view\":\"viewFullHistoryTapped\"}"), TCA_OK);
  CHECK(value_is(store, "/destination/history/rolls", "[6,2,5]"));
  CHECK_STATUS(tca_store_send(store, "{\"destination\":\"dismiss\"}"), TCA_OK);
  CHECK(value_is(store, "/destination", "null"));
  /* Nothing presented: a dismissal and the screen's actions change nothing. */
  uint64_t version = tca_store_version(store);
  CHECK_STATUS(tca_store_send(store, "{\"destination\":\"dismiss\"}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"destination\":{\"presented\":"
                                     "{\"history\":\"closeButtonTapped\"}}}"),
               TCA_OK);
  CHECK(tca_store_version(store) == version);
  tca_store_free(store);
}

/* The reset button asks with an alert, plain data for the host to draw; the tapped button's
 * action goes back under "presented", and the alert is gone after it. */
static void test_reset_alert(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  roll(store);
  roll(store);
  CHECK(value_is(store, "/alert", "null"));
  CHECK_STATUS(tca_store_send(store, "\"resetButtonTapped\""), TCA_OK);
  CHECK(value_is(store, "/alert",
                 "{\"title\":\"Reset the history?\",\"message\":\"All 2 rolls are forgotten.\","
                 "\"buttons\":[{\"label\":\"Reset\",\"role\":\"destructive\","
                 "\"action\":{\"confirmReset\":{}}},"
                 "{\"label\":\"Cancel\",\"role\":\"cancel\",\"action\":null}]}"));
  /* Cancel (its action is null): the host dismisses. */
  CHECK_STATUS(tca_store_send(store, "{\"alert\":\"dismiss\"}"), TCA_OK);
  CHECK(value_is(store, "/alert", "null"));
  CHECK(value_is(store, "/rollHistory", "[2,5]"));
  /* Reset: the host sends the button's action back as it read it. */
  CHECK_STATUS(tca_store_send(store, "\"resetButtonTapped\""), TCA_OK);
  char *action = value_at(store, "/alert/buttons/0/action");
  CHECK(action != NULL);
  if (action) {
    char tapped[256];
    snprintf(tapped, sizeof tapped, "{\"alert\":{\"presented\":%s}}", action);
    CHECK_STATUS(tca_store_send(store, tapped), TCA_OK);
    tca_string_free(action);
  }
  CHECK(value_is(store, "/alert", "null"));
  CHECK(value_is(store, "/rollHistory", "[]"));
  CHECK(value_is(store, "/currentRoll", "null"));
  /* With no alert showing, its button does nothing; an unknown button is refused. */
  CHECK_STATUS(tca_store_send(store, "{\"alert\":{\"presented\":\"confirmReset\"}}"), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"alert\":{\"presented\":\"launch\"}}"),
               TCA_ERR_JSON_SHAPE);
  tca_store_free(store);
}

static void test_snapshots_and_bad_input(void) {
  feature_host host;
  tca_store *store = feature_store("dice", NULL, 7, &host);
  roll(store);
  CHECK_STATUS(tca_store_send(store, "\"viewFullHistoryTapped\""), TCA_OK);
  char *snapshot = state_of(store);
  CHECK(snapshot != NULL);

  /* A snapshot restores the same state (its derived values are ignored, then recomputed). */
  feature_host other_host;
  tca_store *restored = feature_store("dice", snapshot, 1, &other_host);
  char *again = state_of(restored);
  CHECK(again != NULL && snapshot != NULL && strcmp(again, snapshot) == 0);
  tca_string_free(again);
  tca_store_free(restored);
  tca_string_free(snapshot);

  /* A partial snapshot: the other fields take their defaults. The history is shared: while
   * another store holds it, a new store takes its value, not the snapshot's. */
  tca_store *partial = feature_store("dice", "{\"rollHistory\":[3,4],\"lastFiveRolls\":[9]}", 1,
                                     &other_host);
  CHECK(value_is(partial, "/lastFiveRolls", "[5]"));
  CHECK(value_is(partial, "/currentRoll", "null"));
  tca_store_free(partial);
  tca_store *bad = NULL;
  CHECK_STATUS(tca_store_new("dice", "{\"rollHistory\":\"x\"}", NULL, &bad), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/rollHistory");
  CHECK(bad == NULL);

  /* Bad actions are refused and change nothing. */
  uint64_t version = tca_store_version(store);
  CHECK_STATUS(tca_store_send(store, "\"jump\""), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"rollCompleted\":\"six\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/rollCompleted");
  CHECK_STATUS(tca_store_send(store, "{\"view\":\"jump\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/view");
  /* A die has six faces: a result from elsewhere is ignored. */
  CHECK_STATUS(tca_store_send(store, "{\"rollCompleted\":9223372036854775807}"), TCA_OK);
  CHECK(tca_store_version(store) == version);
  tca_store_free(store);
}

int main(void) {
  test_a_roll();
  test_history_undo_reset();
  test_history_screen();
  test_reset_alert();
  test_snapshots_and_bad_input();
  TEST_SUMMARY();
}
