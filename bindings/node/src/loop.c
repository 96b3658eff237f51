/*
 * loop.c — a store driven by Node's event loop (docs/node.md, "The event loop").
 *
 * libuv watches the store's descriptor (tca_store_fd), readable exactly when tca_store_poll has
 * work (a real-clock deadline passed) or requests wait to be taken. When it is, the loop runs a
 * turn: lib/store.js polls the store and, when the loop takes the requests, takes them and hands
 * them to the handler. Nothing here is called by libtca: every call into JavaScript is made from
 * libuv's callback on the JavaScript thread.
 *
 * The process is kept alive (the handles referenced) only while a real-clock timer is pending,
 * as a setTimeout would, or while requests wait for the loop to take them; otherwise a program
 * whose store has nothing to do exits, as it would with nothing else on the loop.
 */
#include <poll.h>

#include "tca_node.h"

/// The descriptor is readable now (it is only ever waited on, never read).
static int readable(int fd) {
  struct pollfd entry = {fd, POLLIN, 0};
  return poll(&entry, 1, 0) > 0;
}

/// One turn: lib/store.js's wake(store) polls the store and takes its requests. An exception
/// it throws is the process's uncaught exception, as one thrown by any callback of the loop.
static void turn(node_store *store) {
  napi_env env = store->env;
  node_instance *instance = store->instance;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value self = NULL;
  if (store->self != NULL) napi_get_reference_value(env, store->self, &self);
  if (self == NULL) {
    // NB: the Store was collected: its FinalizationRegistry closes the store (lib/store.js);
    // until then the descriptor must not make the loop spin.
    if (store->watching) uv_poll_stop(&store->poll);
    store->watching = 0;
    napi_close_handle_scope(env, scope);
    return;
  }
  napi_value wake, result;
  napi_get_reference_value(env, instance->wake, &wake);
  // NB: napi_make_callback's receiver must be an object: the Store.
  napi_status status = napi_make_callback(env, instance->async, self, wake, 1, &self, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
  if (!store->closed) {
    // NB: still readable after the poll and with the host taking the requests: they wait for
    // the host's next takeRequests, and watching would wake the loop at once, again and again.
    if (!store->loop_takes && readable(store->fd)) store->paused = 1;
    tca_node_loop_update(store);
  }
  napi_close_handle_scope(env, scope);
}

static void on_readable(uv_poll_t *handle, int status, int events) {
  (void)events;
  node_store *store = handle->data;
  if (status < 0) {
    uv_poll_stop(handle);
    store->watching = 0;
  }
  turn(store);
}

static void on_timer(uv_timer_t *handle) {
  node_store *store = handle->data;
  store->timer_armed = 0;
  turn(store);
}

static void on_closed(uv_handle_t *handle) { tca_node_release(handle->data); }

int tca_node_loop_open(node_store *store) {
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(store->env, &loop) != napi_ok || loop == NULL) {
    napi_throw_error(store->env, NULL, "tca: no libuv loop in this environment");
    return -1;
  }
  store->fd = tca.tca_store_fd(store->handle);
  if (store->fd < 0) {
    tca_node_throw(store->env, TCA_ERR_SYSTEM);
    return -1;
  }
  if (uv_poll_init(loop, &store->poll, store->fd) != 0) {
    store->fd = -1;
    napi_throw_error(store->env, NULL, "tca: libuv cannot watch the store's descriptor");
    return -1;
  }
  store->poll.data = store;
  uv_timer_init(loop, &store->timer);
  store->timer.data = store;
  store->holds += 2;
  uv_unref((uv_handle_t *)&store->poll);
  uv_unref((uv_handle_t *)&store->timer);
  tca_node_loop_update(store);
  return 0;
}

/// Whether the loop's handles keep the process (and the JavaScript Store) alive.
static void hold(node_store *store, int on) {
  if (store->referenced == on) return;
  store->referenced = on;
  if (on) {
    uv_ref((uv_handle_t *)&store->poll);
    uv_ref((uv_handle_t *)&store->timer);
    napi_reference_ref(store->env, store->self, NULL);
  } else {
    uv_unref((uv_handle_t *)&store->poll);
    uv_unref((uv_handle_t *)&store->timer);
    napi_reference_unref(store->env, store->self, NULL);
  }
}

static void watch(node_store *store, int on) {
  if (store->watching == on) return;
  store->watching = on;
  if (on) uv_poll_start(&store->poll, UV_READABLE, on_readable);
  else uv_poll_stop(&store->poll);
}

static void arm(node_store *store, int64_t ms) {
  if (ms < 0) {
    if (store->timer_armed) uv_timer_stop(&store->timer);
    store->timer_armed = 0;
    return;
  }
  uv_timer_start(&store->timer, on_timer, (uint64_t)ms, 0);
  store->timer_armed = 1;
}

void tca_node_loop_update(node_store *store) {
  if (store->closed || store->fd < 0) return;
  int64_t deadline = tca.tca_store_next_deadline_ms(store->handle);
  int pending = store->real_clock && deadline >= 0;
  if (store->loop_takes) {
    store->paused = 0;
    // NB: a readable descriptor with no deadline due means requests wait for the loop's turn:
    // the process must live until it takes them.
    if (!pending) pending = readable(store->fd);
    watch(store, 1);
    arm(store, -1);
  } else {
    if (store->paused && !readable(store->fd)) store->paused = 0;
    watch(store, !store->paused);
    arm(store, store->paused && store->real_clock ? deadline : -1);
  }
  hold(store, pending);
}

void tca_node_loop_close(node_store *store) {
  if (store->fd >= 0) {
    hold(store, 0);
    watch(store, 0);
    arm(store, -1);
    store->fd = -1;
    uv_close((uv_handle_t *)&store->poll, on_closed);
    uv_close((uv_handle_t *)&store->timer, on_closed);
  }
  if (store->self != NULL) napi_delete_reference(store->env, store->self);
  store->self = NULL;
}
