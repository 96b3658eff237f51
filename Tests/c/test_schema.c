/* tca_feature_schema (docs/schema.md): every built-in feature's schema is one JSON document whose
 * "$ref"s all point into its "$defs", with its requests' kinds and types; an unknown feature is
 * refused with the library's feature names; the _n form takes a name of so many bytes. */
#include <stdint.h>
#include <tca.h>

#include "harness.h"

/* Skips one JSON value (RFC 8259) at *p and the whitespace around it; 0 if it is not one. */
static int skip_value(const char **p, int depth);

static void skip_space(const char **p) {
  while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r') (*p)++;
}

static int skip_string(const char **p) {
  if (**p != '"') return 0;
  (*p)++;
  while (**p != '"') {
    unsigned char c = (unsigned char)**p;
    if (c == 0 || c < 0x20) return 0;
    if (c == '\\') {
      (*p)++;
      if (**p == 'u') {
        for (int i = 1; i <= 4; i++) {
          char h = (*p)[i];
          if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
            return 0;
        }
        *p += 4;
      } else if (strchr("\"\\/bfnrt", **p) == NULL || **p == 0) {
        return 0;
      }
    }
    (*p)++;
  }
  (*p)++;
  return 1;
}

static int skip_number(const char **p) {
  const char *start = *p;
  if (**p == '-') (*p)++;
  if (**p == '0') {
    (*p)++;
  } else if (**p >= '1' && **p <= '9') {
    while (**p >= '0' && **p <= '9') (*p)++;
  } else {
    return 0;
  }
  if (**p == '.') {
    (*p)++;
    if (!(**p >= '0' && **p <= '9')) return 0;
    while (**p >= '0' && **p <= '9') (*p)++;
  }
  if (**p == 'e' || **p == 'E') {
    (*p)++;
    if (**p == '+' || **p == '-') (*p)++;
    if (!(**p >= '0' && **p <= '9')) return 0;
    while (**p >= '0' && **p <= '9') (*p)++;
  }
  return *p > start;
}

static int skip_value(const char **p, int depth) {
  if (depth > 512) return 0;
  skip_space(p);
  switch (**p) {
  case '{':
    (*p)++;
    skip_space(p);
    if (**p == '}') break;
    for (;;) {
      skip_space(p);
      if (!skip_string(p)) return 0;
      skip_space(p);
      if (**p != ':') return 0;
      (*p)++;
      if (!skip_value(p, depth + 1)) return 0;
      if (**p == ',') {
        (*p)++;
        continue;
      }
      if (**p != '}') return 0;
      break;
    }
    break;
  case '[':
    (*p)++;
    skip_space(p);
    if (**p == ']') break;
    for (;;) {
      if (!skip_value(p, depth + 1)) return 0;
      if (**p == ',') {
        (*p)++;
        continue;
      }
      if (**p != ']') return 0;
      break;
    }
    break;
  case '"':
    if (!skip_string(p)) return 0;
    skip_space(p);
    return 1;
  case 't':
    if (strncmp(*p, "true", 4) != 0) return 0;
    *p += 3;
    break;
  case 'f':
    if (strncmp(*p, "false", 5) != 0) return 0;
    *p += 4;
    break;
  case 'n':
    if (strncmp(*p, "null", 4) != 0) return 0;
    *p += 3;
    break;
  default:
    if (!skip_number(p)) return 0;
    skip_space(p);
    return 1;
  }
  (*p)++;
  skip_space(p);
  return 1;
}

/* Whether `json` is exactly one JSON value. */
static int is_json(const char *json) {
  const char *p = json;
  return skip_value(&p, 0) && *p == 0;
}

/* Whether every "$ref":"#/$defs/NAME" in `json` names an entry of its "$defs". */
static int refs_resolve(const char *json) {
  const char *defs = strstr(json, "\"$defs\":{");
  if (defs == NULL) return 0;
  const char *marker = "\"$ref\":\"#/$defs/";
  for (const char *ref = strstr(json, marker); ref != NULL; ref = strstr(ref + 1, marker)) {
    const char *name = ref + strlen(marker);
    const char *end = strchr(name, '"');
    if (end == NULL || end - name > 200) return 0;
    char entry[256];
    snprintf(entry, sizeof entry, "\"%.*s\":{\"title\":", (int)(end - name), name);
    if (strstr(defs, entry) == NULL) {
      fprintf(stderr, "  no $defs entry %s\n", entry);
      return 0;
    }
  }
  return 1;
}

static char *schema_of(const char *feature) {
  char *json = NULL;
  size_t length = 99;
  CHECK_STATUS(tca_feature_schema(feature, &json, &length), TCA_OK);
  CHECK(json != NULL && strlen(json) == length);
  return json;
}

int main(void) {
  static const struct {
    const char *name, *start, *request;
  } features[] = {
      {"counter",
       "{\"feature\":\"counter\",\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
       "\"state\":{\"$ref\":\"#/$defs/Counter.State\"},"
       "\"action\":{\"$ref\":\"#/$defs/Counter.Action\"},",
       "\"numberFact.fetch\":{\"kind\":\"oneShot\",\"payload\":{\"type\":\"integer\"},"
       "\"response\":{\"type\":\"string\"}}"},
      {"todos", "{\"feature\":\"todos\",", "\"requests\":{}"},
      {"dice", "{\"feature\":\"dice\",",
       "\"haptics.impact\":{\"kind\":\"fireAndForget\","
       "\"payload\":{\"$ref\":\"#/$defs/Dice.Haptic\"}}"},
      {"matchscores", "{\"feature\":\"matchscores\",",
       "\"matchScores.fetchTeamGames\":{\"kind\":\"oneShot\","
       "\"payload\":{\"$ref\":\"#/$defs/TeamDetail.GamesRequest\"},"
       "\"response\":{\"$ref\":\"#/$defs/PageResponse_Game_\"}}"},
  };
  for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
    char *json = schema_of(features[i].name);
    if (json == NULL) continue;
    if (!is_json(json)) fprintf(stderr, "  %s: not one JSON value\n", features[i].name);
    CHECK(is_json(json));
    CHECK(strncmp(json, features[i].start, strlen(features[i].start)) == 0);
    CHECK_CONTAINS(json, features[i].request);
    CHECK(refs_resolve(json));
    CHECK_CONTAINS(json, "\"x-tca-kind\":\"action\"");
    /* The same text every time. */
    char *again = schema_of(features[i].name);
    CHECK(again != NULL && strcmp(json, again) == 0);
    tca_string_free(again);
    tca_string_free(json);
  }
  char *matchscores = schema_of("matchscores");
  if (matchscores != NULL) {
    CHECK_CONTAINS(matchscores, "\"StackState_MatchScores.Path.State_\":{\"title\":"
                                "\"StackState<MatchScores.Path.State>\",\"x-tca-kind\":\"stack\"");
    CHECK_CONTAINS(matchscores, "\"matchScores.fetchTeams\":{\"kind\":\"oneShot\"");
    tca_string_free(matchscores);
  }
  char *dice = schema_of("dice");
  if (dice != NULL) {
    CHECK_CONTAINS(dice, "\"x-tca-kind\":\"alert\"");
    CHECK_CONTAINS(dice, "{\"x-tca-case\":\"rollButtonTapped\"");
    tca_string_free(dice);
  }

  /* An unknown feature: refused, the library's features named, nothing handed out. */
  char *json = (char *)"untouched";
  size_t length = 7;
  CHECK_STATUS(tca_feature_schema("countr", &json, &length), TCA_ERR_UNKNOWN_FEATURE);
  CHECK(json == NULL && length == 0);
  CHECK_CONTAINS(tca_last_error(), "tca_feature_schema: no feature named \"countr\"");
  CHECK_CONTAINS(tca_last_error(), "counter, todos, dice, matchscores");

  /* The _n form: a name of so many bytes, no NUL needed; one with a NUL in it is quoted. */
  char *whole = schema_of("counter");
  json = NULL;
  CHECK_STATUS(tca_feature_schema_n("counterXYZ", 7, &json, &length), TCA_OK);
  CHECK(whole != NULL && json != NULL && strcmp(whole, json) == 0 && length == strlen(whole));
  tca_string_free(json);
  tca_string_free(whole);
  json = NULL;
  CHECK_STATUS(tca_feature_schema_n("coun\0ter", 8, &json, NULL), TCA_ERR_UNKNOWN_FEATURE);
  CHECK(json == NULL);
  CHECK_CONTAINS(tca_last_error(), "tca_feature_schema_n: no feature named \"coun\\u0000ter\"");
  CHECK_STATUS(tca_feature_schema_n("\xff", 1, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "not valid UTF-8");

  /* NULL arguments are refused; out_length may be NULL. */
  CHECK_STATUS(tca_feature_schema(NULL, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "feature is NULL");
  CHECK_STATUS(tca_feature_schema("counter", NULL, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(tca_last_error(), "out_json is NULL");
  CHECK_STATUS(tca_feature_schema_n(NULL, 0, &json, NULL), TCA_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tca_feature_schema("counter", &json, NULL), TCA_OK);
  CHECK(json != NULL);
  tca_string_free(json);
  TEST_SUMMARY();
}
