/*
 * subscribe.c — store.subscribe(fn): tca_store_subscribe calling a JavaScript function.
 *
 * libtca calls a subscriber at the end of a call into the store that changed the state, on the
 * thread of that call. The addon's stores are never threaded and are called only from the
 * JavaScript thread (by lib/store.js, or by the loop's turn), so the subscriber runs inside that
 * call, with JavaScript on the stack: it calls the function at once. An exception the function
 * throws is kept and thrown by the outermost call once libtca has returned (the other
 * subscribers still run); it never crosses libtca.
 */
#include <stdlib.h>

#include "tca_node.h"

struct node_sub {
  node_store *store;
  napi_ref fn;     /* strong: the function lives as long as the subscription */
  uint64_t token;
  node_sub *next, *prev;
};

static void call(node_sub *sub, uint64_t version, const char *json, size_t length, int with_json) {
  node_store *store = sub->store;
  // NB: never JavaScript from another thread (the stores are not threaded: this is a guard).
  if (store->closed || !pthread_equal(pthread_self(), store->thread)) return;
  napi_env env = store->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value fn, receiver, args[2], result;
  napi_get_reference_value(env, sub->fn, &fn);
  napi_get_undefined(env, &receiver);
  args[0] = tca_node_number(env, version);
  if (json != NULL) napi_create_string_utf8(env, json, length, &args[1]);
  else napi_get_null(env, &args[1]);
  // NB: `sub` may be freed by the call (the function unsubscribes, or closes the store): only
  // `store`, which outlives every call on it, is used after.
  napi_status status = napi_call_function(env, receiver, fn, with_json ? 2 : 1, args, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    if (store->error == NULL) napi_create_reference(env, error, 1, &store->error);
  }
  napi_close_handle_scope(env, scope);
}

static void on_version(void *userdata, tca_store *handle, uint64_t version) {
  (void)handle;
  call(userdata, version, NULL, 0, 0);
}

static void on_state(void *userdata, tca_store *handle, uint64_t version, const char *json,
                     size_t length) {
  (void)handle;
  call(userdata, version, json, length, 1);
}

/// subscribe(h, fn, withState): the subscription's token. With the state, fn gets
/// (version, stateText), the text copied from the library's (valid only during the call).
napi_value tca_node_subscribe(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_subscribe");
  if (store == NULL) return NULL;
  bool with_state = false;
  napi_get_value_bool(env, argv[2], &with_state);
  node_sub *sub = calloc(1, sizeof *sub);
  if (sub == NULL) {
    napi_throw_error(env, NULL, "tca: out of memory");
    return NULL;
  }
  sub->store = store;
  tca_status status =
      with_state ? tca.tca_store_subscribe_state(store->handle, on_state, sub, &sub->token)
                 : tca.tca_store_subscribe(store->handle, on_version, sub, &sub->token);
  if (status != TCA_OK) {
    free(sub);
    return tca_node_throw(env, status);
  }
  napi_create_reference(env, argv[1], 1, &sub->fn);
  sub->next = store->subs;
  if (store->subs != NULL) store->subs->prev = sub;
  store->subs = sub;
  return tca_node_number(env, sub->token);
}

static void sub_free(node_store *store, node_sub *sub) {
  if (sub->prev != NULL) sub->prev->next = sub->next;
  else store->subs = sub->next;
  if (sub->next != NULL) sub->next->prev = sub->prev;
  napi_delete_reference(store->env, sub->fn);
  free(sub);
}

/// unsubscribe(h, token)
napi_value tca_node_unsubscribe(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  node_store *store = tca_node_store_arg(env, argv[0], "tca_store_unsubscribe");
  uint64_t token;
  if (store == NULL || tca_node_u64(env, argv[1], &token) != 0) return NULL;
  tca_status status = tca.tca_store_unsubscribe(store->handle, token);
  if (status != TCA_OK) return tca_node_throw(env, status);
  for (node_sub *sub = store->subs; sub != NULL; sub = sub->next) {
    if (sub->token == token) {
      sub_free(store, sub);
      break;
    }
  }
  napi_value result;
  napi_get_undefined(env, &result);
  return result;
}

void tca_node_subs_clear(node_store *store) {
  while (store->subs != NULL) sub_free(store, store->subs);
}
