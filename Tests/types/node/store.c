// A test-only N-API addon: the few calls the TypeScript drivers of Tests/types make (a store
// made, from a snapshot too; actions sent; the state read; a manual clock moved; the store
// freed). It stands in for a Node binding until one is in the tree; its Store (store.js) has
// that binding's names.
//
//   cc -std=c99 -shared -fPIC -I/usr/include/node store.c -o store.node -Iinclude -ltca
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "tca.h"

/// Throws the library's last error as a JS Error; returns NULL for the caller to return.
static napi_value fail(napi_env env, tca_status status) {
  napi_throw_error(env, tca_status_str(status), tca_last_error());
  return NULL;
}

/// The string argument `index` as a new NUL-terminated UTF-8 copy (free it), or NULL (thrown).
static char *string_argument(napi_env env, napi_value value, size_t *length) {
  size_t size = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &size) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a string");
    return NULL;
  }
  char *text = malloc(size + 1);
  if (text == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, value, text, size + 1, &size);
  if (length != NULL) *length = size;
  return text;
}

static tca_store *store_argument(napi_env env, napi_value value) {
  void *store = NULL;
  if (napi_get_value_external(env, value, &store) != napi_ok || store == NULL) {
    napi_throw_type_error(env, NULL, "expected an open store");
    return NULL;
  }
  return store;
}

/// open(feature, manualClock, seed, stateJson or null) → the store, an external.
static napi_value open_store(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 4) {
    napi_throw_type_error(env, NULL, "open(feature, manualClock, seed, stateJson)");
    return NULL;
  }
  char *feature = string_argument(env, argv[0], NULL);
  if (feature == NULL) return NULL;
  napi_valuetype state_type = napi_null;
  napi_typeof(env, argv[3], &state_type);
  char *state = NULL;
  size_t state_length = 0;
  if (state_type == napi_string) {
    state = string_argument(env, argv[3], &state_length);
    if (state == NULL) {
      free(feature);
      return NULL;
    }
  }
  bool manual = false;
  double seed = 0;
  napi_get_value_bool(env, argv[1], &manual);
  napi_get_value_double(env, argv[2], &seed);
  tca_options options;
  tca_options_init(&options);
  options.clock = manual ? TCA_CLOCK_MANUAL : TCA_CLOCK_REAL;
  options.seed = seed > 0 ? (uint64_t)seed : 0;
  tca_store *store = NULL;
  tca_status status = tca_store_new_n(feature, state, state_length, &options, &store);
  free(feature);
  free(state);
  if (status != TCA_OK) return fail(env, status);
  napi_value result;
  napi_create_external(env, store, NULL, NULL, &result);
  return result;
}

/// send(store, actionJson).
static napi_value send_action(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) return NULL;
  tca_store *store = store_argument(env, argv[0]);
  if (store == NULL) return NULL;
  size_t length = 0;
  char *json = string_argument(env, argv[1], &length);
  if (json == NULL) return NULL;
  tca_status status = tca_store_send_n(store, json, length);
  free(json);
  return status == TCA_OK ? NULL : fail(env, status);
}

/// state(store) → the state's JSON text.
static napi_value read_state(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1) return NULL;
  tca_store *store = store_argument(env, argv[0]);
  if (store == NULL) return NULL;
  char *json = NULL;
  size_t length = 0;
  tca_status status = tca_store_state(store, &json, &length);
  if (status != TCA_OK) return fail(env, status);
  napi_value result;
  napi_create_string_utf8(env, json, length, &result);
  tca_string_free(json);
  return result;
}

/// advance(store, milliseconds).
static napi_value advance(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) return NULL;
  tca_store *store = store_argument(env, argv[0]);
  if (store == NULL) return NULL;
  double ms = 0;
  napi_get_value_double(env, argv[1], &ms);
  tca_status status = tca_store_advance(store, ms > 0 ? (uint64_t)ms : 0);
  return status == TCA_OK ? NULL : fail(env, status);
}

/// close(store): frees it; the external must not be used again (store.js forgets it).
static napi_value close_store(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1) return NULL;
  tca_store *store = store_argument(env, argv[0]);
  if (store != NULL) tca_store_free(store);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor functions[] = {
      {"open", NULL, open_store, NULL, NULL, NULL, napi_default, NULL},
      {"send", NULL, send_action, NULL, NULL, NULL, napi_default, NULL},
      {"state", NULL, read_state, NULL, NULL, NULL, napi_default, NULL},
      {"advance", NULL, advance, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, close_store, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
