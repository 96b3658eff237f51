/*
 * loop.c — a store driven by Node's event loop (docs/node.md, "The event loop").
 *
 * libuv watches a real-clock store's descriptor (tca_store_fd), readable exactly when
 * tca_store_poll has work (a deadline passed, work resumed) or requests wait to be taken. When
 * it is, the loop runs a turn: lib/store.js polls the store and, when the loop takes the
 * requests, takes them and hands them to the handler. When the loop takes the requests, a call
 * that ran the store (send, an answer, advance) also asks for a turn in the loop's next
 * iteration (a zero timer, one per iteration however many calls), so the requests it made are
 * handed over even if nothing else keeps the process alive. Nothing here is called by libtca:
 * every call into JavaScript is made from libuv's callbacks, on the JavaScript thread.
 *
 * NB: a manual-clock store has no descriptor: its timers fire only in advance(), and libtca
 * pays a system call on every call into a store whose descriptor was made (docs/node.md,
 * "Cost").
 *
 * The process is kept alive (the handles referenced) only while a real-clock timer is pending,
 * as a setTimeout would, and for the turn asked for; otherwise a program whose store has nothing
 * to do exits, as it would with nothing else on the loop.
 */
#include <poll.h>

#include "tca_node.h"

/// The descriptor is readable now (it is only ever waited on, never read).
static int readable(int fd) {
  struct pollfd entry = {fd, POLLIN, 0};
  return poll(&entry, 1, 0) > 0;
}

static void on_soon(uv_timer_t *handle);

/// A turn in the loop's next iteration (nothing if one is asked for already).
static void turn_soon(node_store *store) {
  if (store->soon_armed || store->closed) return;
  store->soon_armed = 1;
  uv_timer_start(&store->soon, on_soon, 0, 0);
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
  store->in_turn = 1;
  // NB: napi_make_callback's receiver must be an object: the Store.
  napi_status status = napi_make_callback(env, instance->async, self, wake, 1, &self, &result);
  store->in_turn = 0;
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
  if (!store->closed) {
    // NB: the store ran after the turn took the requests (a handler answered, and the answer
    // may have led to another request): one more turn hands over what that made.
    if (store->loop_takes && store->runs != store->runs_at_take) turn_soon(store);
    // NB: still readable after the turn while the host takes the requests: they wait for its
    // next takeRequests, and watching would wake the loop at once, again and again.
    if (!store->loop_takes && store->fd >= 0 && readable(store->fd)) store->paused = 1;
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

static void on_soon(uv_timer_t *handle) {
  node_store *store = handle->data;
  store->soon_armed = 0;
  turn(store);
}

static void on_closed(uv_handle_t *handle) { tca_node_release(handle->data); }

int tca_node_loop_open(node_store *store) {
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(store->env, &loop) != napi_ok || loop == NULL) {
    napi_throw_error(store->env, NULL, "tca: no libuv loop in this environment");
    return -1;
  }
  if (store->real_clock) {
    int fd = tca.tca_store_fd(store->handle);
    if (fd < 0) {
      tca_node_throw(store->env, TCA_ERR_SYSTEM);
      return -1;
    }
    if (uv_poll_init(loop, &store->poll, fd) != 0) {
      napi_throw_error(store->env, NULL, "tca: libuv cannot watch the store's descriptor");
      return -1;
    }
    store->fd = fd;
    store->poll.data = store;
    uv_timer_init(loop, &store->timer);
    store->timer.data = store;
    store->holds += 2;
    uv_unref((uv_handle_t *)&store->poll);
    uv_unref((uv_handle_t *)&store->timer);
  }
  uv_timer_init(loop, &store->soon);
  store->soon.data = store;
  store->holds += 1;
  store->loop_open = 1;
  tca_node_loop_update(store);
  // NB: requests may wait already (a replay's); the turn hands them over or leaves them.
  if (store->loop_takes) turn_soon(store);
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
  if (store->loop_takes) {
    store->paused = 0;
    watch(store, 1);
    arm(store, -1);
  } else {
    if (store->paused && !readable(store->fd)) store->paused = 0;
    watch(store, !store->paused);
    arm(store, store->paused && store->real_clock ? deadline : -1);
  }
  hold(store, store->real_clock && deadline >= 0);
}

void tca_node_loop_ran(node_store *store) {
  store->runs++;
  tca_node_loop_update(store);
  if (store->loop_takes && !store->in_turn) turn_soon(store);
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
  if (store->loop_open) {
    store->loop_open = 0;
    uv_close((uv_handle_t *)&store->soon, on_closed);
  }
  if (store->self != NULL) napi_delete_reference(store->env, store->self);
  store->self = NULL;
}
