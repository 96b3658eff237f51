/*
 * tca_node.h — the pieces of the Node.js addon (tca.node), shared by its files:
 *
 *   api.c        libtca loaded with dlopen, its functions in one table (`tca`)
 *   addon.c      the module: its functions, errors, strings
 *   handles.c    the stores of an environment, named by numbers; their life and close
 *   loop.c       the store's descriptor watched by libuv (docs/node.md, "The event loop")
 *   subscribe.c  subscriptions: the libtca callback that calls the JavaScript function
 *
 * NB: libtca is opened at run time, not linked: the JavaScript side tries the places
 * docs/node.md lists and says where it looked when none holds the library.
 */
#ifndef TCA_NODE_H
#define TCA_NODE_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <uv.h>

#include "tca.h"

/* ---- libtca's functions (api.c) ------------------------------------------------------------ */

/** Every function of tca.h the addon calls, by name. */
#define TCA_NODE_FUNCTIONS(X)                                                                  \
  X(tca_version) X(tca_features) X(tca_string_free) X(tca_last_error) X(tca_status_str)       \
  X(tca_options_init) X(tca_store_new_v2) X(tca_store_free) X(tca_store_send_n)               \
  X(tca_store_state) X(tca_store_state_borrow) X(tca_store_get_n) X(tca_store_version)        \
  X(tca_store_patch) X(tca_store_subscribe) X(tca_store_subscribe_state)                      \
  X(tca_store_unsubscribe) X(tca_store_take_requests) X(tca_store_respond_n)                  \
  X(tca_store_fail_n) X(tca_store_complete) X(tca_store_poll) X(tca_store_advance)            \
  X(tca_store_next_deadline_ms) X(tca_store_fd) X(tca_store_journal) X(tca_store_replay)      \
  X(tca_store_log_reductions) X(tca_store_take_reductions) X(tca_canonical_action_n)     \
  X(tca_feature_schema_n)

typedef struct tca_api {
#define TCA_NODE_FIELD(name) __typeof__(name) *name;
  TCA_NODE_FUNCTIONS(TCA_NODE_FIELD)
#undef TCA_NODE_FIELD
} tca_api;

/** The loaded library's functions; all NULL until tca_node_load succeeds. */
extern tca_api tca;

/** Opens the library at `path` and fills `tca`; NULL on success, else why not (static text). */
const char *tca_node_load(const char *path);

/* ---- The store handle (addon.c) ------------------------------------------------------------ */

typedef struct node_sub node_sub;

/** What the addon keeps per environment (main thread, worker): napi_set_instance_data. */
typedef struct node_instance {
  napi_env env;
  napi_ref make_error;  /* (status, message) => a TcaError subclass: lib/errors.js */
  napi_ref wake;        /* (store) => the store's turn of the loop: lib/store.js */
  napi_async_context async;  /* the async context the loop's turns run in */
  /* The open stores by slot (handles.c): a handle is a slot and the slot's generation. */
  struct node_store **stores;
  uint32_t *generations;
  uint32_t *free_slots;
  uint32_t count, capacity, free_count;
} node_instance;

/**
 * One store. Lives until it is closed and the libuv handles it owns have closed: `holds` counts
 * those (1 while open, +1 for each libuv handle).
 */
typedef struct node_store {
  napi_env env;
  node_instance *instance;
  uint32_t index;        /* its slot in instance->stores */
  tca_store *handle;
  pthread_t thread;      /* the JavaScript thread: subscribers run only on it */
  int closed;
  int holds;
  int depth;             /* calls into libtca in progress (a subscriber may call again) */
  napi_ref error;        /* the first exception a subscriber threw during the outer call */
  node_sub *subs;

  /* The loop (loop.c). */
  napi_ref self;         /* the JavaScript Store: weak, strong while the loop holds the process */
  int loop_open;         /* the libuv handles are made */
  int fd;                /* watched: a real-clock store's descriptor; -1 for a manual clock */
  int real_clock;
  int loop_takes;        /* the loop takes the requests (a handler, or requests: "handler") */
  int paused;            /* the host takes requests and some wait: the descriptor stays readable */
  int watching;          /* uv_poll started */
  int timer_armed;
  int soon_armed;        /* a turn is asked for in the loop's next iteration */
  int in_turn;
  uint64_t runs, runs_at_take; /* calls that ran the store; their count at the last take */
  int referenced;        /* the loop's handles keep the process alive */
  uv_poll_t poll;
  uv_timer_t timer;      /* the next deadline, while the descriptor is not watched */
  uv_timer_t soon;       /* a turn in the next iteration */
} node_store;

/** Throws a TcaError of `status` with tca_last_error's message; returns NULL for the caller. */
napi_value tca_node_throw(napi_env env, tca_status status);

/** Throws a TcaError of `status` with `message`; returns NULL. */
napi_value tca_node_throw_message(napi_env env, tca_status status, const char *message);

/* ---- Handles (handles.c) ----------------------------------------------------------------- */

/** The addon's state for a new environment; 0, or -1 out of memory. */
int tca_node_instance_new(napi_env env);

/** init(makeError, wake) */
napi_value tca_node_init(napi_env env, napi_callback_info info);

/** The handle of a new store made of `handle` (freed on failure); NULL with an error thrown. */
napi_value tca_node_store_new(napi_env env, tca_store *handle, int real_clock, int loop_takes,
                              napi_value self);

/** The open store a handle names, or NULL. */
node_store *tca_node_store_find(napi_env env, napi_value value);

/** The open store a handle names, or NULL with InvalidHandleError ("function: the store is
 *  closed") or a TypeError thrown. */
node_store *tca_node_store_arg(napi_env env, napi_value value, const char *function);

/** Closes a store (nothing if it is closed). */
void tca_node_store_close(node_store *store);

/** Throws the exception a subscriber threw, if the outermost call has just returned. */
int tca_node_rethrow(node_store *store);

/* ---- The event loop (loop.c) --------------------------------------------------------------- */

/** Starts watching the store's descriptor: 0, or -1 with a JavaScript error thrown. */
int tca_node_loop_open(node_store *store);

/**
 * Brings the watchers up to date after a call into the store: the descriptor watched (or, while
 * the host leaves requests waiting, a timer for the next deadline), and the process kept alive
 * only while a real-clock timer is pending.
 */
void tca_node_loop_update(node_store *store);

/** After a call that ran the store: the watchers updated and, when the loop takes the requests,
 *  a turn asked for (the requests it made are handed over). */
void tca_node_loop_ran(node_store *store);

/** Stops the watchers and closes their handles (the store is released when they have closed). */
void tca_node_loop_close(node_store *store);

/** Drops one hold on the store's memory; frees it at zero. */
void tca_node_release(node_store *store);

/* ---- Subscriptions (subscribe.c) ----------------------------------------------------------- */

napi_value tca_node_subscribe(napi_env env, napi_callback_info info);
napi_value tca_node_unsubscribe(napi_env env, napi_callback_info info);

/** Ends every subscription of a store being closed (their functions are released). */
void tca_node_subs_clear(node_store *store);

/* ---- Helpers shared by the files (addon.c) -------------------------------------------------- */

/** A uint64 from a JavaScript number or BigInt checked by lib/; 0, or -1 with a TypeError. */
int tca_node_u64(napi_env env, napi_value value, uint64_t *out);

/** A double for a uint64 the library gave (versions, ids, counts). */
napi_value tca_node_number(napi_env env, uint64_t value);

#endif /* TCA_NODE_H */
