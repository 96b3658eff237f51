/* The counter feature driven from C.
 *
 *   cc examples/c/counter.c -Iinclude -Lbuild/lib -ltca -Wl,-rpath,build/lib -o counter
 */
#include <stdio.h>
#include <tca.h>

static int check(tca_status status, const char *what) {
  if (status != TCA_OK) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, tca_status_str(status), tca_last_error());
    return 0;
  }
  return 1;
}

static void print_state(tca_store *store) {
  char *json;
  if (check(tca_store_state(store, &json, NULL), "tca_store_state")) {
    printf("state: %s\n", json);
    tca_string_free(json);
  }
}

int main(void) {
  printf("libtca %s\n", tca_version());

  tca_store *store;
  if (!check(tca_store_new("counter", NULL, NULL, &store), "tca_store_new")) return 1;
  print_state(store);

  for (int i = 0; i < 3; i++) {
    printf("send: incrementButtonTapped\n");
    check(tca_store_send(store, "\"incrementButtonTapped\""), "tca_store_send");
  }
  printf("send: {\"decrementButtonTapped\":{}}\n");
  check(tca_store_send(store, "{\"decrementButtonTapped\":{}}"), "tca_store_send");
  print_state(store);

  printf("send: \"jumpButtonTapped\" (not an action of the counter)\n");
  tca_status status = tca_store_send(store, "\"jumpButtonTapped\"");
  printf("  -> %s: %s\n", tca_status_str(status), tca_last_error());
  print_state(store);

  tca_store_free(store);
  return 0;
}
