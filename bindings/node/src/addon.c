/*
 * addon.c — tca.node: libtca's store as functions of a store handle, for lib/store.js.
 *
 * Every string the library returns is copied into a JavaScript string and released with
 * tca_string_free before the function returns; the state read for JSON.parse is borrowed
 * (tca_store_state_borrow) and copied the same way, before any other call. Strings and bytes
 * from JavaScript go to the library with their lengths (the _n forms): no NUL is needed, and a
 * NUL inside is the library's to refuse.
 */
#include <stdlib.h>
#include <string.h>

#include "tca_node.h"

/* ---- Arguments and results ------------------------------------------------------------------ */

/** Text from JavaScript: a string's UTF-8 (on the stack when short) or a Uint8Array's bytes. */
typedef struct text_arg {
  const char *data;
  size_t length;
  char *heap;
  char stack[256];
} text_arg;

static int text_get(napi_env env, napi_value value, text_arg *text) {
  text->heap = NULL;
  napi_valuetype type;
  napi_typeof(env, value, &type);
  if (type == napi_string) {
    size_t copied = 0;
    napi_get_value_string_utf8(env, value, text->stack, sizeof text->stack, &copied);
    // NB: V8 stops before a character that does not fit whole: a copy within 4 bytes of the
    // end may be cut, so the length is asked for and the text copied again.
    if (copied + 4 < sizeof text->stack) {
      text->data = text->stack;
      text->length = copied;
      return 0;
    }
    size_t length = 0;
    napi_get_value_string_utf8(env, value, NULL, 0, &length);
    text->heap = malloc(length + 1);
    if (text->heap == NULL) {
      napi_throw_error(env, NULL, "tca: out of memory copying a string");
      return -1;
    }
    napi_get_value_string_utf8(env, value, text->heap, length + 1, &copied);
    text->data = text->heap;
    text->length = copied;
    return 0;
  }
  bool typed = false;
  napi_is_typedarray(env, value, &typed);
  if (typed) {
    napi_typedarray_type kind;
    size_t count;
    void *data;
    napi_get_typedarray_info(env, value, &kind, &count, &data, NULL, NULL);
    if (kind == napi_uint8_array) {
      text->data = count ? data : "";
      text->length = count;
      return 0;
    }
  }
  napi_throw_type_error(env, NULL, "tca: expected a string or a Uint8Array");
  return -1;
}

static void text_done(text_arg *text) { free(text->heap); }

/// A JavaScript string copied from a string the library gave, which is released here.
static napi_value take_string(napi_env env, char *string, size_t length) {
  napi_value result;
  napi_status status = napi_create_string_utf8(env, string, length, &result);
  tca.tca_string_free(string);
  return status == napi_ok ? result : NULL;
}

int tca_node_u64(napi_env env, napi_value value, uint64_t *out) {
  napi_valuetype type;
  napi_typeof(env, value, &type);
  if (type == napi_bigint) {
    bool lossless = false;
    napi_get_value_bigint_uint64(env, value, out, &lossless);
    if (lossless) return 0;
  } else if (type == napi_number) {
    double number = 0;
    napi_get_value_double(env, value, &number);
    // NB: lib/ checks the range; this only keeps the conversion defined.
    if (number >= 0 && number < 18446744073709551616.0) {
      *out = (uint64_t)number;
      return 0;
    }
  }
  napi_throw_range_error(env, NULL, "tca: expected an integer from 0 to 2**64 - 1");
  return -1;
}

napi_value tca_node_number(napi_env env, uint64_t value) {
  napi_value result;
  napi_create_double(env, (double)value, &result);
  return result;
}

static napi_value undefined_value(napi_env env) {
  napi_value result;
  napi_get_undefined(env, &result);
  return result;
}

/// The arguments of a call: `count` of them, missing ones undefined.
#define ARGS(count)                                                                            \
  size_t argc = count;                                                                         \
  napi_value argv[count];                                                                      \
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL)

/* ---- Errors --------------------------------------------------------------------------------- */

napi_value tca_node_throw(napi_env env, tca_status status) {
  return tca_node_throw_message(env, status, tca.tca_last_error());
}

napi_value tca_node_throw_message(napi_env env, tca_status status, const char *message) {
  node_instance *instance = NULL;
  napi_get_instance_data(env, (void **)&instance);
  napi_value make = NULL;
  if (instance != NULL && instance->make_error != NULL)
    napi_get_reference_value(env, instance->make_error, &make);
  napi_value args[2], error;
  napi_create_int32(env, status, &args[0]);
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &args[1]);
  if (make == NULL ||
      napi_call_function(env, undefined_value(env), make, 2, args, &error) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw_error(env, NULL, message);
    return NULL;
  }
  napi_throw(env, error);
  return NULL;
}

int tca_node_rethrow(node_store *store) {
  if (store->depth > 0 || store->error == NULL) return 0;
  napi_value error;
  napi_get_reference_value(store->env, store->error, &error);
  napi_delete_reference(store->env, store->error);
  store->error = NULL;
  napi_throw(store->env, error);
  return 1;
}

/* ---- Stores --------------------------------------------------------------------------------- */

/// open(feature, state | null, manualClock, seed, loopTakes, record, self, recordLimit,
/// isolatedShared): a store's handle.
/// Every store of the addon is in pull mode: requests reach JavaScript only through
/// tca_store_take_requests, from lib/store.js (docs/node.md, "Requests").
static napi_value open_store(napi_env env, napi_callback_info info) {
  ARGS(9);
  text_arg feature, state = {0};
  if (text_get(env, argv[0], &feature) != 0) return NULL;
  napi_valuetype type;
  napi_typeof(env, argv[1], &type);
  int has_state = type != napi_null && type != napi_undefined;
  if (has_state && text_get(env, argv[1], &state) != 0) {
    text_done(&feature);
    return NULL;
  }
  bool manual = false, loop_takes = false, record = false, isolated = false;
  uint64_t seed = 0, record_limit = 0;
  napi_get_value_bool(env, argv[2], &manual);
  napi_get_value_bool(env, argv[8], &isolated);
  napi_get_value_bool(env, argv[4], &loop_takes);
  napi_get_value_bool(env, argv[5], &record);
  napi_value result = NULL;
  if (tca_node_u64(env, argv[3], &seed) == 0 && tca_node_u64(env, argv[7], &record_limit) == 0) {
    tca_options options;
    tca.tca_options_init(&options);
    options.clock = manual ? TCA_CLOCK_MANUAL : TCA_CLOCK_REAL;
    options.requests = TCA_REQUESTS_QUEUED;
    options.seed = seed;
    options.record = record;
    options.record_limit = record_limit;
    options.shared = isolated ? TCA_SHARED_ISOLATED : TCA_SHARED_PROCESS;
    tca_store *handle = NULL;
    tca_status status =
        tca.tca_store_new_v2(feature.data, feature.length, has_state ? state.data : NULL,
                             has_state ? state.length : 0, &options, &handle);
    result = status == TCA_OK ? tca_node_store_new(env, handle, !manual, loop_takes, argv[6])
                              : tca_node_throw(env, status);
  }
  text_done(&feature);
  if (has_state) text_done(&state);
  return result;
}

/// replay(journal, toVersion, loopTakes, self): always a manual clock.
static napi_value replay_store(napi_env env, napi_callback_info info) {
  ARGS(4);
  text_arg journal;
  uint64_t to = 0;
  bool loop_takes = false;
  napi_get_value_bool(env, argv[2], &loop_takes);
  if (tca_node_u64(env, argv[1], &to) != 0 || text_get(env, argv[0], &journal) != 0) return NULL;
  tca_options options;
  tca.tca_options_init(&options);
  options.requests = TCA_REQUESTS_QUEUED;
  tca_store *handle = NULL;
  tca_status status = tca.tca_store_replay(journal.data, journal.length, to, &options, &handle);
  text_done(&journal);
  if (status != TCA_OK) return tca_node_throw(env, status);
  return tca_node_store_new(env, handle, 0, loop_takes, argv[3]);
}

/// close(h): nothing for a store already closed.
static napi_value close_store(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_find(env, argv[0]);
  if (store != NULL) tca_node_store_close(store);
  return undefined_value(env);
}

/* ---- Calls that run the store -------------------------------------------------------------- */

/// After a call that ran the store: its error, or a subscriber's, thrown; the loop updated.
static napi_value ran(node_store *store, tca_status status, napi_value result) {
  tca_node_loop_ran(store);
  if (status != TCA_OK) {
    // NB: a failed call ran nothing, so no subscriber can have thrown during it.
    return tca_node_throw(store->env, status);
  }
  if (tca_node_rethrow(store)) return NULL;
  return result != NULL ? result : undefined_value(store->env);
}

static napi_value send_action(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_send_n");
  text_arg action;
  if (store == NULL || text_get(env, argv[1], &action) != 0) return NULL;
  store->depth++;
  tca_status status = tca.tca_store_send_n(store->handle, action.data, action.length);
  store->depth--;
  text_done(&action);
  return ran(store, status, NULL);
}

/// respond(h, id, json) / fail(h, id, message)
static napi_value answer(napi_env env, napi_callback_info info, int failure) {
  ARGS(3);
  node_store *store =
      tca_node_store_arg(env, argv[0], failure ? "tca_store_fail_n" : "tca_store_respond_n");
  uint64_t id;
  text_arg text;
  if (store == NULL || tca_node_u64(env, argv[1], &id) != 0 || text_get(env, argv[2], &text) != 0)
    return NULL;
  store->depth++;
  tca_status status = failure ? tca.tca_store_fail_n(store->handle, id, text.data, text.length)
                              : tca.tca_store_respond_n(store->handle, id, text.data, text.length);
  store->depth--;
  text_done(&text);
  return ran(store, status, NULL);
}

static napi_value respond(napi_env env, napi_callback_info info) { return answer(env, info, 0); }
static napi_value fail(napi_env env, napi_callback_info info) { return answer(env, info, 1); }

static napi_value complete(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_complete");
  uint64_t id;
  if (store == NULL || tca_node_u64(env, argv[1], &id) != 0) return NULL;
  store->depth++;
  tca_status status = tca.tca_store_complete(store->handle, id);
  store->depth--;
  return ran(store, status, NULL);
}

static napi_value poll_store(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_poll");
  if (store == NULL) return NULL;
  uint32_t count = 0;
  store->depth++;
  tca_status status = tca.tca_store_poll(store->handle, &count);
  store->depth--;
  return ran(store, status, tca_node_number(env, count));
}

static napi_value advance(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_advance");
  uint64_t ms;
  if (store == NULL || tca_node_u64(env, argv[1], &ms) != 0) return NULL;
  store->depth++;
  tca_status status = tca.tca_store_advance(store->handle, ms);
  store->depth--;
  return ran(store, status, NULL);
}

/* ---- Reads ---------------------------------------------------------------------------------- */

/// The string a reading call gave, copied and freed; or its error thrown.
static napi_value string_result(napi_env env, node_store *store, tca_status status, char *out,
                                size_t length) {
  if (store != NULL) tca_node_loop_update(store);
  if (status != TCA_OK) return tca_node_throw(env, status);
  return take_string(env, out, length);
}

static napi_value state_text(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_state");
  if (store == NULL) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_state(store->handle, &out, &length);
  if (status != TCA_OK) return tca_node_throw(env, status);
  return take_string(env, out, length);
}

/// The state's text lent by the store, copied at once (it is valid until the next call).
static napi_value state_borrowed(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_state_borrow");
  if (store == NULL) return NULL;
  const char *lent = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_state_borrow(store->handle, &lent, &length);
  if (status != TCA_OK) return tca_node_throw(env, status);
  napi_value result;
  napi_create_string_utf8(env, lent, length, &result);
  return result;
}

static napi_value get(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_get_n");
  text_arg pointer;
  if (store == NULL || text_get(env, argv[1], &pointer) != 0) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status =
      tca.tca_store_get_n(store->handle, pointer.data, pointer.length, &out, &length);
  text_done(&pointer);
  return string_result(env, NULL, status, out, length);
}

static napi_value version(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_version");
  if (store == NULL) return NULL;
  uint64_t value = tca.tca_store_version(store->handle);
  if (value == TCA_VERSION_NONE) return tca_node_throw(env, TCA_ERR_INVALID_HANDLE);
  return tca_node_number(env, value);
}

static napi_value patch(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_patch");
  uint64_t since;
  if (store == NULL || tca_node_u64(env, argv[1], &since) != 0) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_patch(store->handle, since, &out, &length);
  return string_result(env, NULL, status, out, length);
}

/// takeRequests: the loop's watcher is updated (the descriptor stops being readable).
static napi_value take_requests(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_take_requests");
  if (store == NULL) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_take_requests(store->handle, &out, &length);
  store->runs_at_take = store->runs;
  return string_result(env, store, status, out, length);
}

static napi_value journal(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_journal");
  if (store == NULL) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_journal(store->handle, &out, &length);
  return string_result(env, NULL, status, out, length);
}

static napi_value log_reductions(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_log_reductions");
  if (store == NULL) return NULL;
  bool enabled = false;
  napi_get_value_bool(env, argv[1], &enabled);
  tca_status status = tca.tca_store_log_reductions(store->handle, enabled ? 1 : 0);
  return status == TCA_OK ? undefined_value(env) : tca_node_throw(env, status);
}

static napi_value take_reductions(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_take_reductions");
  if (store == NULL) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_store_take_reductions(store->handle, &out, &length);
  return string_result(env, NULL, status, out, length);
}

/// Milliseconds to the next timer, -1 for none.
static napi_value next_deadline(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_next_deadline_ms");
  if (store == NULL) return NULL;
  int64_t ms = tca.tca_store_next_deadline_ms(store->handle);
  napi_value result;
  napi_create_double(env, (double)ms, &result);
  return result;
}

static napi_value descriptor(napi_env env, napi_callback_info info) {
  ARGS(1);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_fd");
  if (store == NULL) return NULL;
  int fd = tca.tca_store_fd(store->handle);
  if (fd < 0) return tca_node_throw(env, TCA_ERR_SYSTEM);
  napi_value result;
  napi_create_int32(env, fd, &result);
  return result;
}

/// setLoopTakes(h, on): whether the loop takes the requests (a handler was set or removed).
static napi_value set_loop_takes(napi_env env, napi_callback_info info) {
  ARGS(2);
  node_store *store = tca_node_store_arg(env, argv[0], "Store.onRequest");
  if (store == NULL) return NULL;
  bool on = false;
  napi_get_value_bool(env, argv[1], &on);
  store->loop_takes = on;
  tca_node_loop_ran(store);
  return undefined_value(env);
}

/* ---- The library ---------------------------------------------------------------------------- */

/// load(path): null once libtca is loaded, else the reason it could not be.
static napi_value load(napi_env env, napi_callback_info info) {
  ARGS(1);
  text_arg path;
  if (text_get(env, argv[0], &path) != 0) return NULL;
  char name[4096];
  size_t length = path.length < sizeof name - 1 ? path.length : sizeof name - 1;
  memcpy(name, path.data, length);
  name[length] = 0;
  text_done(&path);
  const char *why = tca_node_load(name);
  napi_value result;
  if (why == NULL) napi_get_null(env, &result);
  else napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &result);
  return result;
}

static napi_value library_version(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_create_string_utf8(env, tca.tca_version(), NAPI_AUTO_LENGTH, &result);
  return result;
}

static napi_value features(napi_env env, napi_callback_info info) {
  (void)info;
  char *out = tca.tca_features();
  if (out == NULL) return tca_node_throw(env, TCA_ERR_NO_MEMORY);
  return take_string(env, out, strlen(out));
}

static napi_value status_string(napi_env env, napi_callback_info info) {
  ARGS(1);
  int32_t code = 0;
  napi_get_value_int32(env, argv[0], &code);
  napi_value result;
  napi_create_string_utf8(env, tca.tca_status_str(code), NAPI_AUTO_LENGTH, &result);
  return result;
}

static napi_value canonical_action(napi_env env, napi_callback_info info) {
  ARGS(2);
  text_arg feature, action;
  if (text_get(env, argv[0], &feature) != 0) return NULL;
  if (text_get(env, argv[1], &action) != 0) {
    text_done(&feature);
    return NULL;
  }
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_canonical_action_n(feature.data, feature.length, action.data,
                                                 action.length, &out, &length);
  text_done(&feature);
  text_done(&action);
  return string_result(env, NULL, status, out, length);
}

static napi_value feature_schema(napi_env env, napi_callback_info info) {
  ARGS(1);
  text_arg feature;
  if (text_get(env, argv[0], &feature) != 0) return NULL;
  char *out = NULL;
  size_t length = 0;
  tca_status status = tca.tca_feature_schema_n(feature.data, feature.length, &out, &length);
  text_done(&feature);
  return string_result(env, NULL, status, out, length);
}

/* ---- The module ----------------------------------------------------------------------------- */

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  if (tca_node_instance_new(env) != 0) return NULL;
  static const struct {
    const char *name;
    napi_callback fn;
  } functions[] = {
      {"load", load},
      {"init", tca_node_init},
      {"libraryVersion", library_version},
      {"features", features},
      {"statusString", status_string},
      {"canonicalAction", canonical_action},
      {"schema", feature_schema},
      {"open", open_store},
      {"replay", replay_store},
      {"close", close_store},
      {"send", send_action},
      {"state", state_text},
      {"stateBorrowed", state_borrowed},
      {"get", get},
      {"version", version},
      {"patch", patch},
      {"subscribe", tca_node_subscribe},
      {"unsubscribe", tca_node_unsubscribe},
      {"takeRequests", take_requests},
      {"respond", respond},
      {"fail", fail},
      {"complete", complete},
      {"poll", poll_store},
      {"advance", advance},
      {"nextDeadline", next_deadline},
      {"fd", descriptor},
      {"journal", journal},
      {"logReductions", log_reductions},
      {"takeReductions", take_reductions},
      {"setLoopTakes", set_loop_takes},
  };
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    napi_value fn;
    napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].fn, NULL, &fn);
    napi_set_named_property(env, exports, functions[i].name, fn);
  }
  return exports;
}
