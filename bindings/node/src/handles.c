/*
 * handles.c — the stores of an environment, each named by a number (its handle in lib/store.js).
 *
 * A handle is a slot's index and the slot's generation: a closed store's handle names no store
 * any more, and every call with it throws InvalidHandleError, never touching freed memory.
 * NB: numbers, not Externals with finalizers: Node 20 may run a queued napi finalizer after
 * its environment is freed at exit (a use after free valgrind reports); the JavaScript Store
 * closes a store it never closed itself from a FinalizationRegistry instead (lib/store.js).
 */
#include <stdio.h>
#include <stdlib.h>

#include "tca_node.h"

/** The number of slots: a handle is generation * SLOTS + index (exact in a double). */
#define SLOTS (1u << 24)

static double handle_of(node_instance *instance, uint32_t index) {
  return (double)instance->generations[index] * SLOTS + index;
}

/// The slot of a new store, growing the table; -1 when full or out of memory.
static int64_t slot_new(node_instance *instance) {
  if (instance->free_count > 0) return instance->free_slots[--instance->free_count];
  if (instance->count == instance->capacity) {
    uint32_t capacity = instance->capacity ? instance->capacity * 2 : 16;
    if (capacity > SLOTS) return -1;
    node_store **stores = realloc(instance->stores, capacity * sizeof *stores);
    if (stores == NULL) return -1;
    instance->stores = stores;
    uint32_t *generations = realloc(instance->generations, capacity * sizeof *generations);
    if (generations == NULL) return -1;
    instance->generations = generations;
    uint32_t *free_slots = realloc(instance->free_slots, capacity * sizeof *free_slots);
    if (free_slots == NULL) return -1;
    instance->free_slots = free_slots;
    instance->capacity = capacity;
  }
  instance->generations[instance->count] = 0;
  return instance->count++;
}

node_store *tca_node_store_find(napi_env env, napi_value value) {
  node_instance *instance = NULL;
  napi_get_instance_data(env, (void **)&instance);
  double number = -1;
  if (instance == NULL || napi_get_value_double(env, value, &number) != napi_ok) return NULL;
  if (!(number >= 0 && number < 9007199254740992.0)) return NULL;
  uint64_t handle = (uint64_t)number;
  uint64_t index = handle % SLOTS, generation = handle / SLOTS;
  if (index >= instance->count || instance->generations[index] != generation) return NULL;
  return instance->stores[index];
}

node_store *tca_node_store_arg(napi_env env, napi_value value, const char *function) {
  node_store *store = tca_node_store_find(env, value);
  if (store != NULL) return store;
  napi_valuetype type;
  napi_typeof(env, value, &type);
  if (type != napi_number) {
    napi_throw_type_error(env, NULL, "tca: not a store handle");
    return NULL;
  }
  char message[128];
  snprintf(message, sizeof message, "%s: the store is closed", function);
  tca_node_throw_message(env, TCA_ERR_INVALID_HANDLE, message);
  return NULL;
}

napi_value tca_node_store_new(napi_env env, tca_store *handle, int real_clock, int loop_takes,
                              napi_value self) {
  node_instance *instance = NULL;
  napi_get_instance_data(env, (void **)&instance);
  node_store *store = calloc(1, sizeof *store);
  int64_t index = store != NULL ? slot_new(instance) : -1;
  if (index < 0) {
    free(store);
    tca.tca_store_free(handle);
    napi_throw_error(env, NULL, "tca: out of memory, or 16,777,216 stores open");
    return NULL;
  }
  store->env = env;
  store->instance = instance;
  store->index = (uint32_t)index;
  store->handle = handle;
  store->thread = pthread_self();
  store->real_clock = real_clock;
  store->loop_takes = loop_takes;
  store->fd = -1;
  store->holds = 1;
  instance->stores[index] = store;
  napi_create_reference(env, self, 0, &store->self);
  if (tca_node_loop_open(store) != 0) {
    tca_node_store_close(store);
    return NULL;
  }
  napi_value result;
  napi_create_double(env, handle_of(instance, store->index), &result);
  return result;
}

void tca_node_release(node_store *store) {
  if (--store->holds > 0) return;
  if (store->error != NULL) napi_delete_reference(store->env, store->error);
  free(store);
}

/// Closes a store: its watchers first (libuv must stop watching the descriptor before
/// tca_store_free closes it), then the store, then its subscriptions; its handle is retired.
/// The memory goes once libuv has closed the watchers' handles.
void tca_node_store_close(node_store *store) {
  if (store->closed) return;
  store->closed = 1;
  tca_node_loop_close(store);
  tca.tca_store_free(store->handle);
  tca_node_subs_clear(store);
  node_instance *instance = store->instance;
  instance->stores[store->index] = NULL;
  instance->generations[store->index]++;
  instance->free_slots[instance->free_count++] = store->index;
  tca_node_release(store);
}

/* ---- The environment ------------------------------------------------------------------------ */

/// Closes the stores still open when the environment ends (the process exits, a worker stops).
static void instance_cleanup(void *data) {
  node_instance *instance = data;
  for (uint32_t index = 0; index < instance->count; index++) {
    if (instance->stores[index] != NULL) tca_node_store_close(instance->stores[index]);
  }
  if (instance->async != NULL) napi_async_destroy(instance->env, instance->async);
  instance->async = NULL;
  if (instance->make_error != NULL) napi_delete_reference(instance->env, instance->make_error);
  if (instance->wake != NULL) napi_delete_reference(instance->env, instance->wake);
  instance->make_error = instance->wake = NULL;
}

static void instance_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  node_instance *instance = data;
  free(instance->stores);
  free(instance->generations);
  free(instance->free_slots);
  free(instance);
}

int tca_node_instance_new(napi_env env) {
  node_instance *instance = calloc(1, sizeof *instance);
  if (instance == NULL) return -1;
  instance->env = env;
  napi_set_instance_data(env, instance, instance_finalize, NULL);
  napi_add_env_cleanup_hook(env, instance_cleanup, instance);
  return 0;
}

/// init(makeError, wake): the functions the addon calls back.
napi_value tca_node_init(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  node_instance *instance = NULL;
  napi_get_instance_data(env, (void **)&instance);
  if (instance->make_error == NULL) {
    napi_create_reference(env, argv[0], 1, &instance->make_error);
    napi_create_reference(env, argv[1], 1, &instance->wake);
    napi_value resource, name;
    napi_create_object(env, &resource);
    napi_create_string_utf8(env, "tca.Store", NAPI_AUTO_LENGTH, &name);
    napi_async_init(env, resource, name, &instance->async);
  }
  napi_value result;
  napi_get_undefined(env, &result);
  return result;
}
