/* Errors that say what to send instead (issue 14, item 7): a payload case sent as a bare name, and
 * a case name without its JSON quotes; an unknown case with the valid ones and the closest (issue
 * 37). A failed send changes nothing. */
#include <tca.h>

#include "harness.h"

static void check_error(tca_store *store, const char *action, tca_status expected,
                        const char *needle) {
  CHECK_STATUS(tca_store_send(store, action), expected);
  if (strstr(tca_last_error(), needle) == NULL) {
    fprintf(stderr, "  sending %s: error \"%s\" lacks \"%s\"\n", action, tca_last_error(),
            needle);
  }
  CHECK_CONTAINS(tca_last_error(), needle);
}

int main(void) {
  tca_store *store = NULL;
  CHECK_STATUS(tca_store_new("counter", NULL, NULL, &store), TCA_OK);
  if (store == NULL) TEST_SUMMARY();
  uint64_t version = tca_store_version(store);

  /* A case that carries a value, sent as a bare name. */
  check_error(store, "\"numberFactResponse\"", TCA_ERR_JSON_SHAPE,
              "case \"numberFactResponse\" needs a value: send {\"numberFactResponse\": …}");
  CHECK(strstr(tca_last_error(), "missing member") == NULL);
  check_error(store, " \"numberFactFailed\"\n", TCA_ERR_JSON_SHAPE,
              "send {\"numberFactFailed\": …}");

  /* A case name without JSON quotes: the syntax error stays, with the form to use. */
  check_error(store, "incrementButtonTapped", TCA_ERR_JSON_SYNTAX, "at byte 0: unexpected ");
  CHECK_CONTAINS(tca_last_error(),
                 "(a case name is a JSON string: \"\\\"incrementButtonTapped\\\"\")");

  /* An unknown case: quoted whole as sent, the closest cases, then the valid ones. */
  check_error(store, "{\"numberFactResponseFailed\":\"offline\"}", TCA_ERR_JSON_SHAPE,
              "at /: expected exactly one known case, found \"numberFactResponseFailed\" (did you "
              "mean \"numberFactResponse\" or \"numberFactFailed\"? valid cases: "
              "\"decrementButtonTapped\", \"incrementButtonTapped\", \"numberFactButtonTapped\", "
              "\"numberFactFailed\", \"numberFactResponse\", \"saveNumberFactButtonTapped\")");
  check_error(store, "\"incrementButtonTaped\"", TCA_ERR_JSON_SHAPE,
              "\"incrementButtonTaped\" is not a known case (expected a case name or an object; "
              "did you mean \"incrementButtonTapped\"? valid cases: ");

  /* Other mistakes keep their own errors, without a hint. */
  check_error(store, "\"jump\"", TCA_ERR_JSON_SHAPE, "\"jump\" is not a known case");
  CHECK(strstr(tca_last_error(), "needs a value") == NULL);
  check_error(store, "{\"numberFactResponse\":3}", TCA_ERR_JSON_SHAPE, "expected a string");
  CHECK(strstr(tca_last_error(), "needs a value") == NULL);
  check_error(store, "[1,", TCA_ERR_JSON_SYNTAX, "unexpected end of input");
  CHECK(strstr(tca_last_error(), "case name") == NULL);
  check_error(store, "increment-button", TCA_ERR_JSON_SYNTAX, "at byte 0");
  CHECK(strstr(tca_last_error(), "case name") == NULL);

  CHECK(tca_store_version(store) == version);
  CHECK_STATUS(tca_store_send(store, "\"incrementButtonTapped\""), TCA_OK);
  CHECK(tca_store_version(store) != version);
  tca_store_free(store);
  TEST_SUMMARY();
}
