/*
 * tca.h — the C API of libtca, the Composable Architecture as an embeddable library.
 *
 * A host creates a store for a feature compiled into the library, sends it actions as JSON, reads
 * its state as JSON, and performs the side effects the feature asks of it:
 *
 *     tca_store *store;
 *     if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) {
 *       fprintf(stderr, "%s\n", tca_last_error());
 *       return 1;
 *     }
 *     tca_store_send(store, "\"incrementButtonTapped\"");
 *     char *state;
 *     tca_store_state(store, &state, NULL);     // {"count":1,…}
 *     tca_string_free(state);
 *     tca_store_free(store);
 *
 * docs/c-api.md is a guide built around the programs in examples/c/; docs/wire-format.md describes
 * the JSON of actions, states and requests.
 *
 * Conventions
 *   - Every fallible function returns a tca_status: TCA_OK (0) or a TCA_ERR_* code. The numbers
 *     are stable: codes are only ever appended. tca_status_str() names a code; tca_last_error()
 *     gives the message of the last failure on the calling thread, naming the function and the
 *     place ("tca_store_send: at /setCount: expected an integer, found \"x\"").
 *   - A failed call changes nothing: no state change, no action sent, no answer taken;
 *     out-parameters are set to NULL/0 where documented.
 *   - Handles are checked: a NULL, freed or foreign tca_store pointer gets TCA_ERR_INVALID_HANDLE,
 *     never a crash. The library never dereferences a tca_store pointer, and never reuses one.
 *   - Strings the library returns through char ** are the caller's, released with
 *     tca_string_free(). Input buffers are only read during the call and never kept.
 *   - Text input (JSON, names, messages) must be UTF-8; invalid UTF-8 is an error, never repaired.
 *     JSON is checked strictly (docs/wire-format.md): nesting deeper than 512 is an error.
 *
 * Threads and callbacks
 *   - Every function may be called from any thread, at any time. Calls on one store are
 *     serialized by the library; calls on different stores run in parallel.
 *   - Callbacks (effect requests, cancellations, subscriptions) are (function, userdata) pairs.
 *     They run only on a thread that is inside a call into the store — tca_store_send[_n],
 *     tca_store_respond[_n], tca_store_fail, tca_store_complete, tca_store_poll,
 *     tca_store_advance, tca_store_free — on that call's thread, before it returns; never two at
 *     once for one store. A threaded store (tca_options.threaded = 1) also runs them on a thread
 *     of its own, for work that becomes due with no call in progress (see tca_options).
 *   - A callback may call any function of this header, on the same store too. Calls that would
 *     run the store again are queued and done before the outer call returns, never recursed
 *     into: an action sent from a callback is reduced after the current one, an answer given
 *     inside the request callback is applied after it returns, tca_store_advance is queued,
 *     tca_store_poll does nothing (it reports 0), and tca_store_free takes effect at once for
 *     the handle (see tca_store_free).
 *   - userdata is the host's: the library passes it back and never reads or frees it. It must
 *     stay valid until the callback is replaced or removed (the replacing call waits for a
 *     callback running on another thread to return) or the store is freed. No callback of a
 *     store is called after tca_store_free returns.
 */
#ifndef TCA_H
#define TCA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCA_VERSION_MAJOR 0
#define TCA_VERSION_MINOR 1
#define TCA_VERSION_PATCH 0

/* ---- Status codes ------------------------------------------------------------------------- */

/** The result of a fallible call: TCA_OK or one of the TCA_ERR_* codes below. */
typedef int32_t tca_status;

#define TCA_OK                     0 /* success */
#define TCA_ERR_INVALID_ARGUMENT   1 /* a NULL where a value is required, bad options, not UTF-8 */
#define TCA_ERR_INVALID_HANDLE     2 /* the store is NULL, freed, or was never a store */
#define TCA_ERR_UNKNOWN_FEATURE    3 /* no feature of that name in this library */
#define TCA_ERR_JSON_SYNTAX        4 /* the input is not JSON (or not UTF-8, or nested too deep) */
#define TCA_ERR_JSON_SHAPE         5 /* JSON, but not of the expected type (unknown action, …) */
#define TCA_ERR_UNENCODABLE        6 /* a value cannot be written as JSON (NaN, infinity) */
#define TCA_ERR_UNKNOWN_REQUEST    7 /* no request with this id was made by this store */
#define TCA_ERR_REQUEST_FINISHED   8 /* the request has finished: answered, failed, completed,
                                        cancelled, or fire-and-forget; it takes no answer */
#define TCA_ERR_ALREADY_ANSWERED   9 /* the one-shot request already has its answer */
#define TCA_ERR_NOT_A_STREAM      10 /* tca_store_complete on a request that is not a stream */
#define TCA_ERR_REAL_CLOCK        11 /* tca_store_advance on a store whose clock is real */
#define TCA_ERR_NOT_FOUND         12 /* nothing at that JSON Pointer; no such subscription */
#define TCA_ERR_SYSTEM            13 /* the operating system refused (descriptors, threads) */
#define TCA_ERR_NO_MEMORY         14 /* out of memory */

/* ---- Library ------------------------------------------------------------------------------ */

/**
 * The library's version, "MAJOR.MINOR.PATCH". Static storage; never NULL; do not free.
 */
const char *tca_version(void);

/**
 * The features compiled into this library, as a JSON array:
 *   [{"name":"counter","description":"…","requests":["numberFact.fetch"],"initialState":{…}}, …]
 * "requests" lists the names of the host requests the feature may make (see
 * tca_store_set_effect_handler). Returns a string the caller releases with tca_string_free(), or
 * NULL if out of memory or if the library's features failed to register (tca_last_error() says
 * why).
 */
char *tca_features(void);

/**
 * Releases a string returned by the library. NULL is a no-op.
 */
void tca_string_free(char *string);

/**
 * The message of the last failed call on the calling thread, naming the function and the place:
 *   "tca_store_send: at /: expected an object, found \"jumpButtonTapped\""
 * One line of at most about 1 KB: values from the input are quoted escaped as JSON escapes them
 * and cut after 20 characters ("…"), and no control byte is ever in it.
 * Successful calls leave it as it was. Owned by the library and valid until the next failing call
 * on this thread; never NULL ("" if no call on this thread has failed).
 */
const char *tca_last_error(void);

/**
 * A short English description of a status code ("invalid store handle"). Static storage; never
 * NULL; unknown codes give "unknown status".
 */
const char *tca_status_str(tca_status status);

/* ---- Stores ------------------------------------------------------------------------------- */

/** A running store of one feature. Opaque; created by tca_store_new, released by tca_store_free. */
typedef struct tca_store tca_store;

/**
 * Options for tca_store_new. Initialize with TCA_OPTIONS_INIT, then change what you need:
 *
 *     tca_options options = TCA_OPTIONS_INIT;
 *     options.clock = TCA_CLOCK_MANUAL;
 *     options.seed = 42;
 */
typedef struct tca_options {
  /* TCA_OPTIONS_VERSION: lets the struct grow without breaking programs built against an older
     tca.h. A library refuses versions newer than its own (TCA_ERR_INVALID_ARGUMENT). */
  uint32_t version;
  /* TCA_CLOCK_REAL (the default): effects wait on the monotonic clock; a host runs what is due
     with tca_store_poll (tca_store_fd, tca_store_next_deadline_ms say when), or lets a threaded
     store do it.
     TCA_CLOCK_MANUAL: time stands still until the host moves it with tca_store_advance — game
     time, replays, tests. */
  int32_t clock;
  /* 0 (the default): the store runs only inside calls into it; the host polls.
     1: the store has a thread of its own that waits on the store's descriptor and runs what
     becomes due while no call is in progress — real-clock timers, effect work resumed from
     other threads — so a host need never poll (answers are applied by the call that gives them,
     or by the call holding the store, as in a host-driven store).
     Callbacks then also run on that thread (still never two at once for one store).
     tca_store_free stops and joins the thread. */
  int32_t threaded;
  /* The seed of the store's random number generator (a feature's dice, shuffles): the same seed
     and the same actions give the same states. 0: a seed from the system. */
  uint64_t seed;
} tca_options;

#define TCA_OPTIONS_VERSION 1
#define TCA_CLOCK_REAL 0
#define TCA_CLOCK_MANUAL 1
#define TCA_OPTIONS_INIT { TCA_OPTIONS_VERSION, TCA_CLOCK_REAL, 0, 0 }

/**
 * Creates a store of the feature named `feature` (see tca_features()).
 *
 * state_json: the initial state as JSON — a snapshot from tca_store_state, restored — or NULL for
 *             the feature's default state. Copied; not kept.
 * options:    NULL for the defaults, or a tca_options initialized with TCA_OPTIONS_INIT. Not kept.
 * out:        receives the new store on success, NULL on failure.
 *
 * Setting TCA_TRACE=1 in the environment (read once, when the first store is made; any value but
 * "" and "0" counts) makes every store write each action, the state change it caused, and each
 * host request to stderr.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_ARGUMENT (feature or out NULL, feature not UTF-8, bad options);
 * TCA_ERR_UNKNOWN_FEATURE; TCA_ERR_JSON_SYNTAX / TCA_ERR_JSON_SHAPE (bad state_json);
 * TCA_ERR_SYSTEM (a threaded store's thread or descriptor could not be made); TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_new(const char *feature, const char *state_json,
                         const tca_options *options, tca_store **out);

/**
 * tca_store_new with a state of `state_length` bytes (need not be NUL-terminated). state_json may
 * be NULL only for the default state (state_length is then ignored).
 */
tca_status tca_store_new_n(const char *feature, const char *state_json, size_t state_length,
                           const tca_options *options, tca_store **out);

/**
 * Releases a store: cancels its effects, tells the host of each request still in flight through
 * the cancel callback (on the calling thread, before returning), stops and joins a threaded
 * store's thread, and closes its descriptor. Every later call with this handle returns
 * TCA_ERR_INVALID_HANDLE; answers to its requests are refused the same way. If another thread is
 * inside a call into the store, waits for that call to return. No callback of the store is called
 * after tca_store_free returns.
 *
 * Called from inside one of the store's own callbacks, it takes effect at once for the handle and
 * the callbacks (none is called again, not even the cancel callback), and the store is closed
 * when the outer call returns.
 *
 * NULL, freed and foreign handles are ignored.
 */
void tca_store_free(tca_store *store);

/**
 * Sends one action, given as a NUL-terminated JSON text, and processes it and everything it leads
 * to that need not wait before returning: actions fed back, effects run until they finish or wait
 * (on the clock or on the host), host requests made (the effect callback is called from inside
 * this call), subscribers told. Actions may use the short forms of the wire format:
 * "\"increment\"" for a case without payload, "{\"setCount\":5}" for a single unlabeled payload.
 *
 * From inside a callback of the same store, the action is queued and reduced before the outer call
 * returns.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (action_json NULL);
 * TCA_ERR_JSON_SYNTAX (not JSON); TCA_ERR_JSON_SHAPE (not an action of this feature).
 * On error the action is not sent and the state is unchanged.
 */
tca_status tca_store_send(tca_store *store, const char *action_json);

/**
 * tca_store_send with an explicit length: action_json need not be NUL-terminated (a NUL byte
 * inside the length is a syntax error).
 */
tca_status tca_store_send_n(tca_store *store, const char *action_json, size_t length);

/* ---- Reading state ------------------------------------------------------------------------ */

/**
 * The store's current state as JSON: a snapshot tca_store_new takes back. The encoding is cached
 * per state version, so reading an unchanged state again does no encoding (only a copy).
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_UNENCODABLE; TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_state(tca_store *store, char **out_json, size_t *out_length);

/**
 * One part of the state, named by a JSON Pointer (RFC 6901, in its JSON string form): "" for the
 * whole state, "/count", "/todos/0/title", "/a~1b" for the member "a/b".
 *
 * out_json, out_length: as tca_store_state.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (json_pointer or out_json
 * NULL, a pointer that is malformed or not UTF-8); TCA_ERR_NOT_FOUND (the pointer names nothing
 * in the state; the message says where it stopped); TCA_ERR_UNENCODABLE; TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_get(tca_store *store, const char *json_pointer, char **out_json,
                         size_t *out_length);

/** What tca_store_version returns for a NULL, freed or foreign handle. */
#define TCA_VERSION_NONE UINT64_MAX

/**
 * The state's version: 0 for a new store, bumped whenever the state changes (two reads give the
 * same version exactly when the state did not change between them). Cheap: a host compares it
 * with the version it last drew to know whether to read the state again.
 *
 * Returns TCA_VERSION_NONE (and sets tca_last_error) for a NULL, freed or foreign handle.
 */
uint64_t tca_store_version(const tca_store *store);

/* ---- Subscriptions ------------------------------------------------------------------------ */

/**
 * A subscriber: called with the new state version at the end of each call into the store in which
 * the state changed (once per call, not once per action). `store` is the store's handle; the
 * callback may read it (tca_store_state, tca_store_get) or send to it (queued).
 */
typedef void (*tca_state_fn)(void *userdata, tca_store *store, uint64_t state_version);

/**
 * A subscriber that also gets the new state as JSON: `state_json` (NUL-terminated, `length`
 * bytes) is the library's, valid only until the callback returns; copy what you keep. The state
 * is encoded once per version, shared by every subscriber and by tca_store_state. NULL (length 0)
 * if the state cannot be encoded.
 */
typedef void (*tca_state_json_fn)(void *userdata, tca_store *store, uint64_t state_version,
                                  const char *state_json, size_t length);

/**
 * Calls `fn(userdata, store, version)` after each call into the store that changed its state, on
 * the thread of that call (see "Threads and callbacks"). Subscribers are called in the order they
 * subscribed. A subscription made from inside a callback is called for changes from then on.
 *
 * out_token: if not NULL, receives the subscription's token for tca_store_unsubscribe (never 0).
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (fn NULL).
 */
tca_status tca_store_subscribe(tca_store *store, tca_state_fn fn, void *userdata,
                               uint64_t *out_token);

/**
 * tca_store_subscribe, with the new state's JSON passed to the callback (see tca_state_json_fn).
 */
tca_status tca_store_subscribe_state(tca_store *store, tca_state_json_fn fn, void *userdata,
                                     uint64_t *out_token);

/**
 * Ends a subscription. Once this returns, its callback is not called again (if it is running on
 * another thread, this waits for it to return; from inside the callback itself it returns at once
 * and the callback is not called again).
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_NOT_FOUND (no live subscription with this token).
 */
tca_status tca_store_unsubscribe(tca_store *store, uint64_t token);

/* ---- Effects: requests to the host -------------------------------------------------------- */

/**
 * A host request: the feature asks the host to do something named ("numberFact.fetch") with a
 * JSON payload. `name` (NUL-terminated) and `payload_json` (NUL-terminated, `payload_length`
 * bytes) are the library's, valid only until the callback returns.
 *
 * The host answers by the request id — at once, inside the callback, or later from any thread —
 * with tca_store_respond (once for a one-shot request; any number of times for a stream, then
 * tca_store_complete) or tca_store_fail. A fire-and-forget request ("haptics.play") takes no
 * answer. The names of a feature's requests, and what each expects, are listed by tca_features()
 * and described with the feature; tca_request_fn also passes the kind.
 */
typedef void (*tca_effect_fn)(void *userdata, tca_store *store, uint64_t request_id,
                              const char *name, const char *payload_json, size_t payload_length);

/**
 * A request still in flight was cancelled (the effect that made it was cancelled, or the store is
 * being freed): the host may stop its work; the request takes no answer any more (answers get
 * TCA_ERR_REQUEST_FINISHED).
 */
typedef void (*tca_cancel_fn)(void *userdata, tca_store *store, uint64_t request_id);

/**
 * Sets the store's effect callbacks: `fn` is called for each host request, `on_cancel` (may be
 * NULL) for each request cancelled while in flight. Replaces the callbacks set before (a callback
 * running on another thread is waited for); fn NULL removes them.
 *
 * With no callback set, a request fails at once: the feature receives the failure ("no handler
 * for \"numberFact.fetch\": the host has not set one") as it would a tca_store_fail, and the trace
 * (TCA_TRACE=1) shows it.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (on_cancel without fn).
 */
tca_status tca_store_set_effect_handler(tca_store *store, tca_effect_fn fn,
                                        tca_cancel_fn on_cancel, void *userdata);

/** How a request is answered (tca_request.kind). */
#define TCA_REQUEST_ONE_SHOT 0        /* one tca_store_respond, or one tca_store_fail */
#define TCA_REQUEST_STREAM 1          /* any number of tca_store_respond, then tca_store_complete
                                         (or tca_store_fail) */
#define TCA_REQUEST_FIRE_AND_FORGET 2 /* no answer: finished as soon as it is made */

/**
 * A host request, as tca_request_fn receives it. The struct and its strings are the library's,
 * valid only until the callback returns. Fields may be appended in later versions (never
 * reordered).
 */
typedef struct tca_request {
  uint64_t id;                /* the request id, never reused within a store */
  const char *name;           /* NUL-terminated: "numberFact.fetch" */
  const char *payload_json;   /* NUL-terminated JSON */
  size_t payload_length;      /* bytes of payload_json, without the NUL */
  int32_t kind;               /* TCA_REQUEST_ONE_SHOT, TCA_REQUEST_STREAM or
                                 TCA_REQUEST_FIRE_AND_FORGET */
} tca_request;

/** The effect callback of tca_store_set_request_handler: tca_effect_fn, plus the request's kind. */
typedef void (*tca_request_fn)(void *userdata, tca_store *store, const tca_request *request);

/**
 * tca_store_set_effect_handler with a callback that also receives the request's kind — what a
 * generic host (a language binding) needs to know whether to answer. The two share one slot: each
 * replaces the callbacks the other set.
 */
tca_status tca_store_set_request_handler(tca_store *store, tca_request_fn fn,
                                         tca_cancel_fn on_cancel, void *userdata);

/**
 * Answers request `request_id` with `response_json`, decoded as the request's response type (for
 * a stream: one more element). From inside a callback of the store, the answer is applied after
 * the callback returns, before the outer call does; from another thread, inside this call if the
 * store is free (the effect's actions are reduced and callbacks run on this thread), else by the
 * call that holds the store. The answer is checked here either way, so the status is exact.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE (also after tca_store_free); TCA_ERR_INVALID_ARGUMENT
 * (response_json NULL); TCA_ERR_UNKNOWN_REQUEST; TCA_ERR_REQUEST_FINISHED;
 * TCA_ERR_ALREADY_ANSWERED (a one-shot request answered twice); TCA_ERR_JSON_SYNTAX /
 * TCA_ERR_JSON_SHAPE (the answer does not decode: the request still waits for a good one).
 */
tca_status tca_store_respond(tca_store *store, uint64_t request_id, const char *response_json);

/** tca_store_respond with an explicit length (response_json need not be NUL-terminated). */
tca_status tca_store_respond_n(tca_store *store, uint64_t request_id, const char *response_json,
                               size_t length);

/**
 * Fails request `request_id` (a stream too, which ends): the feature receives `message`
 * (NUL-terminated UTF-8, copied) as the reason. Applied as tca_store_respond is.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (message NULL or not UTF-8);
 * TCA_ERR_UNKNOWN_REQUEST; TCA_ERR_REQUEST_FINISHED; TCA_ERR_ALREADY_ANSWERED.
 */
tca_status tca_store_fail(tca_store *store, uint64_t request_id, const char *message);

/**
 * Ends stream `request_id`: the feature hears that it finished. Applied as tca_store_respond is.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_UNKNOWN_REQUEST; TCA_ERR_REQUEST_FINISHED;
 * TCA_ERR_ALREADY_ANSWERED; TCA_ERR_NOT_A_STREAM (a one-shot request: respond or fail it).
 */
tca_status tca_store_complete(tca_store *store, uint64_t request_id);

/* ---- Time and scheduling ------------------------------------------------------------------ */

/**
 * Runs, on the calling thread, whatever is due: answers given from other threads, effect work
 * resumed, real-clock timers whose deadline passed, and everything they lead to. Never blocks
 * waiting for work. A host loop calls it when tca_store_fd is readable, or once a frame.
 *
 * out_ran: if not NULL, receives how much ran (actions reduced, timers fired, answers applied,
 *          effect steps; capped at UINT32_MAX); 0 when nothing was due, and from inside a callback
 *          of the store (the outer call runs what is due).
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE.
 */
tca_status tca_store_poll(tca_store *store, uint32_t *out_ran);

/**
 * Moves a manual clock forward by `milliseconds`, firing the timers that fall due in deadline
 * order, each followed by the work it releases, on the calling thread. A fixed-timestep game loop
 * calls it once a tick (tca_store_advance(store, 16)). From inside a callback of the store, the
 * advance is queued and happens before the outer call returns.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_REAL_CLOCK (the store's clock is real).
 */
tca_status tca_store_advance(tca_store *store, uint64_t milliseconds);

/**
 * Milliseconds until the store's next timer is due (rounded up, so a loop that sleeps that long
 * wakes at or after the deadline); 0 if one is due now; -1 if none is pending — or if the handle
 * is NULL, freed or foreign (tca_last_error then says so). On a manual clock, the milliseconds to
 * advance for the next timer to fire.
 */
int64_t tca_store_next_deadline_ms(const tca_store *store);

/**
 * A file descriptor that is readable exactly when tca_store_poll would do something (an answer
 * arrived from another thread, a real-clock deadline passed), for select/poll/epoll loops,
 * asyncio, GUI toolkits: wait for it to be readable, then call tca_store_poll. A loop that does so
 * never spins and never sleeps through due work. Readiness is cleared by tca_store_poll, not by
 * reading the descriptor: only wait on it.
 *
 * Owned by the store (do not close it), made on the first call, closed by tca_store_free. A
 * threaded store's own thread waits on it; a host then need not.
 *
 * Returns the descriptor, or -1 (tca_last_error says why: invalid handle, or the operating system
 * refused).
 */
int tca_store_fd(tca_store *store);

#ifdef __cplusplus
}
#endif

#endif /* TCA_H */
