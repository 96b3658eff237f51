/* The todos feature driven end to end from C: add, edit, toggle (completed todos sink one second
 * after the last toggle, on the manual clock), filter, delete, move, clear completed, snapshots. */
#include <stdint.h>
#include <stdlib.h>
#include <tca.h>

#include "harness.h"
#include "support.h"
#include "feature_host.h"

/* Sends an action to the todo whose id (JSON text, quoted) is `id`. */
static tca_status send_to_todo(tca_store *store, const char *id, const char *action) {
  char json[512];
  snprintf(json, sizeof json, "{\"todos\":{\"element\":{\"id\":%s,\"action\":%s}}}", id, action);
  return tca_store_send(store, json);
}

static void test_a_todo_list(void) {
  feature_host host;
  tca_store *store = feature_store("todos", NULL, 7, &host);
  CHECK(state_is(store, "{\"filter\":\"all\",\"todos\":[],\"filteredTodos\":[]}"));

  /* Three todos, each added on top, with ids from the store's seeded uuid dependency. */
  CHECK_STATUS(tca_store_send(store, "\"addTodoButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "\"addTodoButtonTapped\""), TCA_OK);
  CHECK_STATUS(tca_store_send(store, "{\"addTodoButtonTapped\":{}}"), TCA_OK);
  char *eggs = value_at(store, "/todos/0/id");
  char *bread = value_at(store, "/todos/1/id");
  char *milk = value_at(store, "/todos/2/id");
  CHECK(eggs && bread && milk);
  if (!(eggs && bread && milk)) return;
  CHECK(strlen(milk) == 38 && strcmp(milk, bread) != 0 && strcmp(bread, eggs) != 0);
  CHECK_STATUS(send_to_todo(store, milk, "{\"textFieldChanged\":\"Milk\"}"), TCA_OK);
  CHECK_STATUS(send_to_todo(store, bread, "{\"textFieldChanged\":\"Bread\"}"), TCA_OK);
  CHECK_STATUS(send_to_todo(store, eggs, "{\"textFieldChanged\":\"Eggs\"}"), TCA_OK);
  CHECK(value_is(store, "/todos/0/description", "\"Eggs\""));

  /* Check off Eggs, then Bread half a second later: they sink a second after the last toggle. */
  CHECK_STATUS(send_to_todo(store, eggs, "\"checkBoxToggled\""), TCA_OK);
  CHECK(value_is(store, "/todos/0/isComplete", "true"));
  CHECK(tca_store_next_deadline_ms(store) == 1000);
  CHECK_STATUS(tca_store_advance(store, 500), TCA_OK);
  CHECK_STATUS(send_to_todo(store, bread, "\"checkBoxToggled\""), TCA_OK);
  CHECK_STATUS(tca_store_advance(store, 999), TCA_OK);
  CHECK(value_is(store, "/todos/0/description", "\"Eggs\""));
  CHECK_STATUS(tca_store_advance(store, 1), TCA_OK);
  CHECK(value_is(store, "/todos/0/description", "\"Milk\""));
  CHECK(value_is(store, "/todos/1/description", "\"Eggs\""));
  CHECK(value_is(store, "/todos/2/description", "\"Bread\""));
  CHECK(tca_store_next_deadline_ms(store) == -1);

  /* Filters: the view draws filteredTodos, the ids of the todos shown. */
  CHECK_STATUS(tca_store_send(store, "{\"filterPicked\":\"active\"}"), TCA_OK);
  CHECK(value_is(store, "/filteredTodos/0", milk));
  CHECK_STATUS(tca_store_send(store, "{\"filterPicked\":\"completed\"}"), TCA_OK);
  CHECK(value_is(store, "/filteredTodos/1", bread));

  /* Move, in the filtered list's offsets: Bread above Eggs. */
  CHECK_STATUS(tca_store_send(store, "{\"move\":{\"from\":[1],\"to\":0}}"), TCA_OK);
  CHECK(value_is(store, "/filteredTodos/0", bread));
  CHECK_STATUS(tca_store_advance(store, 100), TCA_OK);
  CHECK(value_is(store, "/todos/0/description", "\"Milk\""));

  /* Delete, in the filtered list's offsets; offsets out of range are ignored. */
  CHECK_STATUS(tca_store_send(store, "{\"delete\":[1,99,-1]}"), TCA_OK);
  CHECK(value_is(store, "/filteredTodos/0", bread));
  CHECK_STATUS(tca_store_send(store, "{\"filterPicked\":\"all\"}"), TCA_OK);
  CHECK(value_is(store, "/todos/1/description", "\"Bread\""));

  /* Clear completed. */
  CHECK_STATUS(tca_store_send(store, "\"clearCompletedButtonTapped\""), TCA_OK);
  char expected[256];
  snprintf(expected, sizeof expected, "[{\"id\":%s,\"description\":\"Milk\",\"isComplete\":false}]",
           milk);
  CHECK(value_is(store, "/todos", expected));
  char expected_ids[128];
  snprintf(expected_ids, sizeof expected_ids, "[%s]", milk);
  CHECK(value_is(store, "/filteredTodos", expected_ids));

  /* Bad actions are refused: an id that is not a UUID, a filter that does not exist. */
  CHECK_STATUS(send_to_todo(store, "\"milk\"", "\"checkBoxToggled\""), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"filterPicked\":\"done\"}"), TCA_ERR_JSON_SHAPE);
  CHECK_STATUS(tca_store_send(store, "{\"move\":{\"from\":[0]}}"), TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "\"to\"");
  CHECK(value_is(store, "/todos", expected));
  free(eggs);
  free(bread);
  free(milk);
  tca_store_free(store);
}

static void test_snapshots(void) {
  feature_host host;
  const char *snapshot =
      "{\"filter\":\"completed\",\"todos\":[{\"id\":\"00000000-0000-0000-0000-000000000001\","
      "\"description\":\"Milk\"},{\"id\":\"00000000-0000-0000-0000-000000000002\","
      "\"isComplete\":true}],\"filteredTodos\":\"ignored\"}";
  tca_store *store = feature_store("todos", snapshot, 1, &host);
  CHECK(value_is(store, "/filteredTodos", "[\"00000000-0000-0000-0000-000000000002\"]"));
  tca_store_free(store);
  tca_store *bad = NULL;
  CHECK_STATUS(tca_store_new("todos", "{\"todos\":[{\"id\":\"x\"}]}", NULL, &bad),
               TCA_ERR_JSON_SHAPE);
  CHECK_CONTAINS(tca_last_error(), "/todos/0/id");
}

int main(void) {
  test_a_todo_list();
  test_snapshots();
  TEST_SUMMARY();
}
