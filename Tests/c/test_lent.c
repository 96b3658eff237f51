/* The state text tca_store_state_borrow lends (issue 16, docs/state-changes.md): kept by the
 * store and, after a change, updated in place when it can, with runs of spaces between values.
 * Over random todos actions on lists of a few hundred todos (several leaves of 64), after each
 * step the lent text, with the whitespace outside strings removed, is exactly tca_store_state's
 * compact text; the pointer stays put while the state is unchanged, and after a toggle (a leaf
 * rewritten in its slot). Long edits outgrow a slot's slack; adds, deletes, moves and filters
 * change the structure (the text is then written again). tca_store_state after a change is copied
 * from that text (its slack left out), so each copy is also checked against the state of a new
 * store made from it: a text written whole, not updated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tca.h"

/* `text` without the JSON whitespace outside strings (malloc'd). */
static char *compacted(const char *text, size_t length) {
  char *out = malloc(length + 1);
  if (!out) return NULL;
  size_t at = 0;
  int in_string = 0, escaped = 0;
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (in_string) {
      if (escaped) escaped = 0;
      else if (c == '\\') escaped = 1;
      else if (c == '"') in_string = 0;
    } else if (c == '"') {
      in_string = 1;
    } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    out[at++] = c;
  }
  out[at] = '\0';
  return out;
}

/* The feature of the stores under test (for a new store made from a state). */
static const char *feature = "todos";

/* Whether `json` is the compact state of a new store made from it (written whole). */
static int same_as_new_store(const char *json, size_t length) {
  tca_store *fresh = NULL;
  char *again = NULL;
  size_t again_length = 0;
  int same = tca_store_new_v2(feature, strlen(feature), json, length, NULL, &fresh) == TCA_OK &&
             tca_store_state(fresh, &again, &again_length) == TCA_OK && again_length == length &&
             memcmp(again, json, length) == 0;
  if (!same) fprintf(stderr, "copy:  %.300s\nnew:   %.300s\n", json, again ? again : "");
  tca_string_free(again);
  tca_store_free(fresh);
  return same;
}

/* Whether the lent text is the state's compact text, with whitespace between values only. */
static int lent_matches(tca_store *store, const char **lent_out) {
  const char *lent = NULL;
  size_t lent_length = 0, length = 0;
  char *json = NULL;
  if (tca_store_state_borrow(store, &lent, &lent_length) != TCA_OK || !lent) return 0;
  if (strlen(lent) != lent_length) return 0;
  char *compact = compacted(lent, lent_length);
  /* NB: the copy is read after the borrow (a call on the store ends the borrow), so the lent
   * text is compacted first. */
  if (tca_store_state(store, &json, &length) != TCA_OK) {
    free(compact);
    return 0;
  }
  int same = compact && strlen(compact) == length && memcmp(compact, json, length) == 0;
  if (!same) fprintf(stderr, "lent:  %.300s\ncopy:  %.300s\n", compact ? compact : "", json);
  same = same && strlen(json) == length && same_as_new_store(json, length);
  free(compact);
  tca_string_free(json);
  if (lent_out) {
    /* Borrow again: the pointer of an unchanged state stays put. */
    const char *again = NULL;
    if (tca_store_state_borrow(store, &again, NULL) != TCA_OK || again != lent) return 0;
    *lent_out = again;
  }
  return same;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static char *snapshot_of(long count) {
  size_t size = 64 + (size_t)count * 96;
  char *json = malloc(size);
  if (!json) return NULL;
  size_t at = (size_t)snprintf(json, size, "{\"filter\":\"all\",\"todos\":[");
  for (long i = 0; i < count; i++)
    at += (size_t)snprintf(json + at, size - at,
                           "%s{\"id\":\"00000000-0000-4000-8000-%012ld\",\"description\":\"todo "
                           "%ld\",\"isComplete\":%s}",
                           i ? "," : "", i, i, i % 3 ? "false" : "true");
  snprintf(json + at, size - at, "]}");
  return json;
}

/* The id of the todo at `position` (the lent text is not parsed: read from the state). */
static int id_at(tca_store *store, long position, char *id, size_t size) {
  char pointer[48];
  char *json = NULL;
  snprintf(pointer, sizeof pointer, "/todos/%ld/id", position);
  if (tca_store_get(store, pointer, &json, NULL) != TCA_OK) return 0;
  snprintf(id, size, "%s", json);
  tca_string_free(json);
  return 1;
}

static long count_of(tca_store *store) {
  const char *lent = NULL;
  if (tca_store_state_borrow(store, &lent, NULL) != TCA_OK) return 0;
  long count = 0;
  for (const char *p = lent; (p = strstr(p, "\"isComplete\"")) != NULL; p++) count++;
  return count;
}

static void send_to(tca_store *store, const char *id, const char *action) {
  char json[2400];
  snprintf(json, sizeof json, "{\"todos\":{\"element\":{\"id\":%s,\"action\":%s}}}", id, action);
  CHECK_STATUS(tca_store_send(store, json), TCA_OK);
}

/* A todos store on a manual clock from `count` todos (snapshot_of). */
static tca_store *todos_store(long count) {
  char *snapshot = snapshot_of(count);
  tca_options options;
  tca_options_init(&options);
  options.clock = TCA_CLOCK_MANUAL;
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new_v2("todos", 5, snapshot, strlen(snapshot), &options, &store),
               TCA_OK);
  free(snapshot);
  return store;
}

/* A toggle rewrites one leaf in its slot: the lent pointer stays the same. */
static void test_toggle_in_place(void) {
  tca_store *store = todos_store(300);
  const char *lent = NULL, *after = NULL;
  CHECK(lent_matches(store, &lent));
  CHECK(strstr(lent, "  ") != NULL); /* slack: runs of spaces between values */
  char id[64];
  for (long position = 0; position < 300; position += 37) {
    CHECK(id_at(store, position, id, sizeof id));
    CHECK_STATUS(tca_store_state_borrow(store, &lent, NULL), TCA_OK);
    send_to(store, id, "\"checkBoxToggled\"");
    CHECK(lent_matches(store, &after));
    CHECK(after == lent);
  }
  tca_store_free(store);
}

/* Random steps: toggles, edits (short and long), adds, deletes, moves, filters, time. */
static void test_random_steps(void) {
  const char *quick = getenv("TCA_TEST_QUICK");
  int steps = quick ? 150 : 600;
  tca_store *store = todos_store(250);
  static const char *const filters[] = {"all", "active", "completed"};
  char id[64], action[2200], text[2000];
  int mismatches = 0, in_place = 0, written = 0;
  const char *before = NULL;
  for (int step = 0; step < steps; step++) {
    CHECK_STATUS(tca_store_state_borrow(store, &before, NULL), TCA_OK);
    long count = count_of(store);
    uint32_t kind = next_random() % 12;
    long position = count > 0 ? (long)(next_random() % (uint32_t)count) : 0;
    if (count == 0 || kind == 0) {
      CHECK_STATUS(tca_store_send(store, "\"addTodoButtonTapped\""), TCA_OK);
    } else if (kind <= 4) {
      CHECK(id_at(store, position, id, sizeof id));
      send_to(store, id, "\"checkBoxToggled\"");
    } else if (kind <= 6) {
      /* An edit: short (fits the slack) or long (outgrows its leaf's slot). */
      size_t length = next_random() % 2 ? 1 + next_random() % 12 : 800 + next_random() % 1000;
      for (size_t i = 0; i < length; i++) text[i] = (char)('a' + (i + (size_t)step) % 26);
      text[length] = '\0';
      snprintf(action, sizeof action, "{\"textFieldChanged\":\"%s\"}", text);
      CHECK(id_at(store, position, id, sizeof id));
      send_to(store, id, action);
    } else if (kind == 7) {
      snprintf(action, sizeof action, "{\"delete\":[%ld]}", position);
      CHECK_STATUS(tca_store_send(store, action), TCA_OK);
    } else if (kind == 8) {
      snprintf(action, sizeof action, "{\"move\":{\"from\":[%ld],\"to\":%ld}}", position,
               (long)(next_random() % (uint32_t)(count + 1)));
      CHECK_STATUS(tca_store_send(store, action), TCA_OK);
    } else if (kind == 9) {
      snprintf(action, sizeof action, "{\"filterPicked\":\"%s\"}", filters[next_random() % 3]);
      CHECK_STATUS(tca_store_send(store, action), TCA_OK);
    } else if (kind == 10) {
      CHECK_STATUS(tca_store_advance(store, 1000), TCA_OK); /* the debounced sort */
    } else {
      /* Two changes between reads. */
      CHECK(id_at(store, position, id, sizeof id));
      send_to(store, id, "\"checkBoxToggled\"");
      CHECK(id_at(store, count - 1 - position, id, sizeof id));
      send_to(store, id, "{\"textFieldChanged\":\"x\"}");
    }
    const char *after = NULL;
    if (!lent_matches(store, &after)) mismatches++;
    /* NB: a text written again is never at the old one's address (the store makes the new one
     * before it frees the old), so the pointer tells an update in place. */
    if (after == before) in_place++;
    else written++;
  }
  CHECK(mismatches == 0);
  CHECK(in_place > steps / 10); /* toggles and short edits of a leaf, under any filter */
  CHECK(written > 0);           /* adds, deletes, moves, long edits */
  printf("%d steps: %d updated in place, %d written again\n", steps, in_place, written);
  if (mismatches) fprintf(stderr, "%d of %d steps lent a different text\n", mismatches, steps);
  tca_store_free(store);
}

/* A state with no identified array is written whole after each change, and still lent. */
static void test_plain_state(void) {
  tca_store *store = NULL;
  feature = "counter";
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  for (int i = 0; i < 5; i++) {
    CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
    CHECK(lent_matches(store, NULL));
  }
  tca_store_free(store);
}

int main(void) {
  test_toggle_in_place();
  test_random_steps();
  test_plain_state();
  TEST_SUMMARY();
}
