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
 *     Every call on a store a callback unwound out of gets TCA_ERR_CALLBACK_UNWOUND (see
 *     "Threads and callbacks"), besides the statuses each function lists.
 *   - Strings the library returns through char ** are the caller's, released with
 *     tca_string_free(). Input buffers are only read during the call and never kept.
 *   - Every function that takes a NUL-terminated string has a form that takes it with a length:
 *     tca_store_send_n, tca_store_respond_n, tca_store_fail_n, tca_store_get_n,
 *     tca_canonical_action_n, and tca_store_new_v2 (the feature name and the state both with
 *     lengths); tca_store_replay takes its journal with a length only.
 *   - Text input (JSON, names, messages) must be UTF-8; invalid UTF-8 is an error, never repaired.
 *     JSON is checked strictly (docs/wire-format.md): nesting deeper than 512 is an error.
 *
 * Threads and callbacks
 *   - Every function may be called from any thread, at any time. Calls on one store are
 *     serialized by the library: each runs the store (reduces actions, runs effects) under the
 *     store's lock, which is never held while a callback runs. Calls on different stores run in
 *     parallel.
 *   - Callbacks (effect requests, cancellations, subscriptions) are (function, userdata) pairs.
 *     They run with no lock of the store held, in the order the store made them, never two at
 *     once for one store, on a thread that is inside a call into the store —
 *     tca_store_send[_n], tca_store_respond[_n], tca_store_fail[_n], tca_store_complete,
 *     tca_store_poll, tca_store_advance, tca_store_free — before that call returns. One thread at
 *     a time delivers a store's callbacks: a call that finds another thread doing so leaves its
 *     callbacks to that thread and returns without waiting for them (two stores whose callbacks
 *     call each other, driven by two threads, never wait on each other). A threaded store
 *     (tca_options.threaded = 1) also runs them on a thread of its own, for work that becomes due
 *     with no call in progress. A store in pull mode (tca_options.requests) makes no request or
 *     cancellation callback at all (tca_store_take_requests).
 *   - A callback may call any function of this header, on the same store too. Calls that would
 *     run the store again from inside one of its callbacks are queued and done before the outer
 *     call returns, never recursed into: an action sent from a callback is reduced after the
 *     current one, an answer given inside the request callback is applied after it returns,
 *     tca_store_advance is queued, tca_store_poll does nothing (it reports 0), and
 *     tca_store_free takes effect at once for the handle (see tca_store_free).
 *   - Inputs are applied in the order the host gave them: an answer accepted with TCA_OK is
 *     applied before any action sent after it (from inside a callback, or from a thread that
 *     calls after the answer returned), so a request that was answered is never reported
 *     cancelled. Actions the feature's own effects feed back go first, as part of the action
 *     that caused them.
 *   - Which calls may block, and on what:
 *       never (at most a few instructions' worth of an internal lock): tca_store_fd,
 *         tca_store_next_deadline_ms, tca_store_take_requests, tca_store_new[_n|_v2],
 *         tca_options_init, tca_version, tca_status_str, tca_last_error, tca_string_free, and
 *         tca_store_version, which never waits for a callback (see there);
 *       on another thread's run of the same store (its reducer and effects, never its
 *         callbacks): tca_store_send[_n], tca_store_respond[_n], tca_store_fail[_n],
 *         tca_store_complete, tca_store_poll, tca_store_advance, tca_store_state,
 *         tca_store_state_borrow, tca_store_get[_n], tca_store_patch, tca_store_subscribe[_state];
 *       on a callback of the store running on another thread, until it returns:
 *         tca_store_unsubscribe, tca_store_set_effect_handler, tca_store_set_request_handler;
 *         tca_store_free (until that thread has delivered every callback; then it tells the host
 *         of the requests in flight itself).
 *   - Callbacks must not unwind: no C++ exception, Lua error, .NET exception or longjmp may leave
 *     a callback through libtca. If one does anyway, the store is marked unwound, and from then
 *     on every call on it, from every thread, returns TCA_ERR_CALLBACK_UNWOUND with a message
 *     saying "a callback unwound through libtca …"; tca_store_free still releases it (what the
 *     skipped frames held is lost). It is marked, with no false alarm:
 *       at once, when a C++ exception, another exception of the platform's unwinder (LuaJIT's
 *         errors on x86-64, for one) or a forced unwind (pthread_exit, pthread_cancel) leaves
 *         the callback: the library calls each callback from a frame that sees it go by;
 *       when the thread the callback ran on ends without it having returned (a longjmp to the
 *         top of a worker thread, which then ends);
 *       at the thread's next call into libtca from a frame above the dead callback's (a longjmp
 *         back to the code that called libtca), both on the thread's own stack.
 *     Limits: after a longjmp, a call on the same thread made from a frame deeper than the dead
 *     callback's is taken as made from inside it (an action sent is queued, and lost once the
 *     store is found unwound); and a call made on another stack (a fiber) is never taken as a
 *     sign of an unwind, so a callback suspended on a fiber may come back later, on the thread
 *     it was called on. Until the store is marked, calls from other threads keep working and do
 *     not wait for the dead callback; only tca_store_free, tca_store_unsubscribe and replacing
 *     the effect handler wait, for as long as the unwinding thread makes no call.
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

/* The TCA_ERR_* codes, as enum constants so that FFIs reading the header (LuaJIT's ffi.cdef, Rust,
   C#, binding generators) see them; functions still return the int32_t tca_status. */
typedef enum tca_status_code {
  TCA_OK = 0,                    /* success */
  TCA_ERR_INVALID_ARGUMENT = 1,  /* a NULL where a value is required, bad options, not UTF-8 */
  TCA_ERR_INVALID_HANDLE = 2,    /* the store is NULL, freed, or was never a store */
  TCA_ERR_UNKNOWN_FEATURE = 3,   /* no feature of that name in this library */
  TCA_ERR_JSON_SYNTAX = 4,       /* the input is not JSON (or not UTF-8, or nested too deep) */
  TCA_ERR_JSON_SHAPE = 5,        /* JSON, but not of the expected type (unknown action, …) */
  TCA_ERR_UNENCODABLE = 6,       /* a value cannot be written as JSON (NaN, infinity) */
  TCA_ERR_UNKNOWN_REQUEST = 7,   /* no request with this id was made by this store */
  TCA_ERR_REQUEST_FINISHED = 8,  /* the request has finished: answered, failed, completed,
                                    cancelled (pull mode: its notice taken), or
                                    fire-and-forget; it takes no answer */
  TCA_ERR_ALREADY_ANSWERED = 9,  /* the one-shot request already has an answer waiting to be
                                    applied (once applied: TCA_ERR_REQUEST_FINISHED) */
  TCA_ERR_NOT_A_STREAM = 10,     /* tca_store_complete on a request that is not a stream */
  TCA_ERR_REAL_CLOCK = 11,       /* tca_store_advance on a store whose clock is real */
  TCA_ERR_NOT_FOUND = 12,        /* nothing at that JSON Pointer; no such subscription */
  TCA_ERR_SYSTEM = 13,           /* the operating system refused (descriptors, threads) */
  TCA_ERR_NO_MEMORY = 14,        /* out of memory */
  TCA_ERR_CALLBACK_UNWOUND = 15, /* a callback unwound through libtca (a C++ exception, a Lua
                                    error, a longjmp): the store refuses every later call with
                                    this status ("a callback unwound through libtca …") */
  TCA_ERR_VERSION_GONE = 16      /* tca_store_patch since a version the store no longer keeps
                                    (or newer than the current one): read the whole state */
} tca_status_code;

/* ---- Library ------------------------------------------------------------------------------ */

/**
 * The library's version, "MAJOR.MINOR.PATCH". Static storage; never NULL; do not free.
 */
const char *tca_version(void);

/**
 * The features compiled into this library, as a JSON array:
 *   [{"name":"counter","description":"…","requests":["numberFact.fetch","numberFact.save"],
 *     "initialState":{…}}, …]
 * "requests" lists the names of the host requests the feature may make (see
 * tca_store_set_effect_handler). Returns a string the caller releases with tca_string_free(), or
 * NULL if out of memory or if the library's features failed to register (tca_last_error() says
 * why).
 */
char *tca_features(void);

/**
 * The schema of `feature`: one JSON document with the JSON Schemas (2020-12) of its state, its
 * actions and each of its host requests' payload and answer, exact for the wire format
 * (docs/schema.md):
 *   {"feature":"counter","$schema":"https://json-schema.org/draft/2020-12/schema",
 *    "state":{"$ref":"#/$defs/Counter.State"},"action":{"$ref":"#/$defs/Counter.Action"},
 *    "requests":{"numberFact.fetch":{"kind":"oneShot","payload":{"type":"integer"},
 *                                    "response":{"type":"string"}}},
 *    "$defs":{"Counter.State":{…},"Counter.Action":{…}}}
 * Every "$ref" points into "$defs". Derived from the feature's Swift types when the library
 * registers its features (its first use: a feature whose schema cannot be derived fails the
 * registration, which says which type and why); the same text on every call.
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_ARGUMENT (feature or out_json NULL, a name that is not UTF-8);
 * TCA_ERR_UNKNOWN_FEATURE (no feature of that name: the message lists the library's features;
 * or the library's features failed to register: the message says why); TCA_ERR_NO_MEMORY.
 * Any thread.
 */
tca_status tca_feature_schema(const char *feature, char **out_json, size_t *out_length);

/** tca_feature_schema with a feature name of `feature_length` bytes (no NUL needed). */
tca_status tca_feature_schema_n(const char *feature, size_t feature_length, char **out_json,
                                size_t *out_length);

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
 * Options for tca_store_new. Initialize with tca_options_init (or TCA_OPTIONS_INIT), then change
 * what you need:
 *
 *     tca_options options;
 *     tca_options_init(&options);
 *     options.clock = TCA_CLOCK_MANUAL;
 *     options.requests = TCA_REQUESTS_QUEUED;
 *     options.seed = 42;
 *
 * 64 bytes with no hidden padding: every byte is a named field.
 */
typedef struct tca_options {
  /* TCA_OPTIONS_VERSION (2): lets the struct grow without breaking programs built against an
     older tca.h. Version 1 (the first 24 bytes: version, clock, threaded, 4 bytes of padding,
     seed) is still accepted; newer versions are refused (TCA_ERR_INVALID_ARGUMENT). */
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
  /* v2. TCA_REQUESTS_CALLBACK (the default): each host request and cancellation calls the
     callbacks of tca_store_set_effect_handler / tca_store_set_request_handler.
     TCA_REQUESTS_QUEUED (pull mode): they wait in the store until the host takes them with
     tca_store_take_requests; no callback is needed (docs/c-api.md, "Hosts without callbacks"). */
  int32_t requests;
  /* The seed of the store's random number generator (a feature's dice, shuffles): the same seed
     and the same actions give the same states. 0: a seed from the system. */
  uint64_t seed;
  /* v2. TCA_ANSWERS_ANY_THREAD (the default): an answer (respond, fail, complete) is applied by
     the call that gives it if the store is free, else by the call running the store.
     TCA_ANSWERS_HOST_THREAD: an answer is only queued (and makes tca_store_fd readable); the
     host's next tca_store_poll, tca_store_send or tca_store_advance applies it, on the host's
     thread, so every subscriber call and every request happens there. Not with threaded = 1. */
  int32_t answers;
  /* v2. 0 (the default) or 1: the store keeps a journal of every input — its first state, seed
     and clock, each action, answer, failure and completion, each clock move — so that
     tca_store_replay can rebuild it at any version (tca_store_journal; docs/wire-format.md,
     "Journals"); and it can keep the actions it reduces (tca_store_log_reductions). A recorded
     store with seed 0 picks a seed, which the journal keeps. */
  int32_t record;
  /* v2, was reserved[0]. With record = 1: how many journal lines the store keeps; 0 (the
     default, and what older programs have here) keeps them all. Older lines fold into a
     checkpoint (the state, its version, the clock's time, the random numbers' position, the
     next request id), taken every record_limit / 2 lines where no effect is in flight; the
     journal keeps between about half and all of record_limit lines after it, and
     tca_store_replay works from the checkpoint's version on (an older to_version:
     TCA_ERR_VERSION_GONE). A store whose effects are always in flight still folds, after
     2 * record_limit lines, into a checkpoint that names them: its memory stays bounded, but
     replay fails (TCA_ERR_VERSION_GONE) until a checkpoint taken at rest starts the journal
     (docs/wire-format.md, "Checkpoints"). Not 0 with record = 0: TCA_ERR_INVALID_ARGUMENT. */
  uint64_t record_limit;
  /* v2, was half of reserved[0]. TCA_SHARED_PROCESS (the default, and what older programs have
     here): the store's shared fields (docs/kernel.md, "Shared state") are shared with every
     store of the process that holds the same key. TCA_SHARED_ISOLATED: they are the store's
     own: .inMemory keys start from its state's values and no other store sees its changes nor
     it theirs; .host and .fileStorage keys still load and save. For stores that must not see
     each other, such as tests running side by side (Python's tca.testing.TestStore). */
  int32_t shared;
  int32_t reserved32;   /* v2: must be 0 */
  uint64_t reserved[2]; /* v2: must be 0 */
} tca_options;

enum tca_options_version { TCA_OPTIONS_VERSION = 2 };

/** tca_options.clock. */
enum tca_clock_kind { TCA_CLOCK_REAL = 0, TCA_CLOCK_MANUAL = 1 };

/** tca_options.requests: how host requests reach the host. */
enum tca_requests_mode {
  TCA_REQUESTS_CALLBACK = 0, /* through the effect callback (the default) */
  TCA_REQUESTS_QUEUED = 1    /* kept until tca_store_take_requests (pull mode) */
};

/** tca_options.shared: whom a store's shared fields are shared with. */
enum tca_shared_mode {
  TCA_SHARED_PROCESS = 0, /* every store of the process holding the key (the default) */
  TCA_SHARED_ISOLATED = 1 /* no other store: the store's own */
};

/** tca_options.answers: where answers given from any thread are applied. */
enum tca_answers_mode {
  TCA_ANSWERS_ANY_THREAD = 0, /* by the answering call, or the call running the store */
  TCA_ANSWERS_HOST_THREAD = 1 /* by the host's next poll, send or advance */
};

#define TCA_OPTIONS_INIT { TCA_OPTIONS_VERSION, TCA_CLOCK_REAL, 0, TCA_REQUESTS_CALLBACK, 0, \
                           TCA_ANSWERS_ANY_THREAD, 0, 0, TCA_SHARED_PROCESS, 0, { 0, 0 } }

/**
 * Fills `options` with the defaults of this version: TCA_OPTIONS_VERSION, a real clock, no
 * thread, requests through callbacks, answers on any thread, a seed from the system, no
 * recording (and no record_limit), shared fields shared with the process, reserved fields 0.
 * NULL is a no-op. Never blocks.
 */
void tca_options_init(tca_options *options);

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
 * Setting TCA_DEVTOOLS=HOST:PORT/TOKEN (the address `python -m tca devtools` prints; read as each
 * store is made) connects every store made from then on to that inspector (docs/devtools.md):
 * the store records (tca_store_journal works), and its actions, versions and patches go out
 * through one background thread of the library, never waiting for it (a bounded buffer; past
 * it, lines are dropped and counted). The inspector's commands — a dispatch, a jump of the state
 * to a past version (effects cancelled, subscribers told; journaled as a "jump" line) — are
 * applied only inside the host's own calls into that store (tca_store_send, tca_store_poll,
 * tca_store_advance, tca_store_respond, tca_store_take_requests…), on the host's thread, never
 * from inside a callback; while one waits, tca_store_fd is readable, so an event loop that
 * polls the store when it is readable applies it. A host that polls once a frame needs nothing
 * more. Without the variable nothing is started: no thread, no socket, no cost.
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
 * tca_store_new with every string given with its length, for hosts whose strings are not
 * NUL-terminated (Rust's &str, C#'s spans, Lua strings): `feature` is `feature_length` bytes of
 * UTF-8 (a NUL inside names no feature: TCA_ERR_UNKNOWN_FEATURE), `state_json` as in
 * tca_store_new_n. Named in sqlite's way: the second form of tca_store_new_n, whose feature name
 * has no length.
 *
 * Returns the statuses of tca_store_new; TCA_ERR_INVALID_ARGUMENT also for a length that is no
 * buffer's length.
 */
tca_status tca_store_new_v2(const char *feature, size_t feature_length, const char *state_json,
                            size_t state_length, const tca_options *options, tca_store **out);

/**
 * Releases a store: cancels its effects, tells the host of each request still in flight through
 * the cancel callback (on the calling thread, before returning), stops and joins a threaded
 * store's thread, and closes its descriptor. Every later call with this handle returns
 * TCA_ERR_INVALID_HANDLE; answers to its requests are refused the same way. If another thread is
 * running the store, waits for that; if another thread is delivering the store's callbacks,
 * waits until it has delivered them all. No callback of the store is called after tca_store_free
 * returns. A store in pull mode just drops the requests and notices still waiting. A store a
 * callback unwound out of is released without calling anything.
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
 * this call, after the store is let go — by the thread already delivering the store's callbacks
 * if there is one; in pull mode the requests wait to be taken), subscribers told. Actions may
 * use the short forms of the wire format:
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
 * per state version, so reading an unchanged state again does no encoding (only a copy). A state
 * with identified lists is copied from the text tca_store_state_borrow keeps (made by the first
 * call of either), which a change updates in place: after a toggle of one todo in 100,000, a
 * copy costs about a borrow plus one copy, not an encoding of the whole state. So this call,
 * like any other, ends a borrow: the text it lent may move (see tca_store_state_borrow).
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
 * The store's current state as JSON, lent rather than given: as tca_store_state, but the string
 * belongs to the store, which keeps it from one borrow to the next. Reading an unchanged state
 * again returns the same pointer, with no copy. After a change, the store updates its text in
 * place when it can: the leaves of an identified list (64 elements) that changed are rewritten
 * where they were, O(what changed), and the same pointer is returned; after an insert, removal
 * or move, a change elsewhere in the state, or a leaf that outgrew its room, the text is written
 * again (O(size), a new pointer).
 *
 * The text may contain runs of spaces (JSON whitespace) between values: each leaf is followed by
 * room to grow (an eighth of its text, at least 16 bytes; about 12% more than the compact text).
 * As a JSON value it equals tca_store_state's compact text. Memory: the text, kept while the
 * store lives once it is made (by this call, or by tca_store_state for a state with identified
 * lists; 14.7 MB at 100,000 todos, 13.1 MB compact), and a snapshot of the lists it was written
 * from (shared with the store's state: only the leaves changed since are extra).
 *
 * out_json:   receives the NUL-terminated JSON; do not free or change it. It stays valid until
 *             the next call on this store (any function, from any thread) or tca_store_free,
 *             as sqlite3_column_text's result is valid until the next step: a host that reads
 *             from several threads copies it, or uses tca_store_state. NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_UNENCODABLE; TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_state_borrow(tca_store *store, const char **out_json, size_t *out_length);

/**
 * One part of the state, named by a JSON Pointer (RFC 6901, in its JSON string form): "" for the
 * whole state, "/count", "/todos/0/title", "/a~1b" for the member "a/b".
 *
 * Cost: an element of an identified list that the state follows itself ("/todos/3", todos'
 * state) is encoded alone, changed or not; any other part is looked up in the state's JSON
 * (encoded first if it changed; docs/state-changes.md).
 *
 * out_json, out_length: as tca_store_state.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (json_pointer or out_json
 * NULL, a pointer that is malformed or not UTF-8); TCA_ERR_NOT_FOUND (the pointer names nothing
 * in the state; the message says where it stopped); TCA_ERR_UNENCODABLE; TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_get(tca_store *store, const char *json_pointer, char **out_json,
                         size_t *out_length);

/**
 * tca_store_get with a pointer of `pointer_length` bytes (need not be NUL-terminated; a NUL inside
 * is part of a member's name, as "\u0000" in JSON).
 */
tca_status tca_store_get_n(tca_store *store, const char *json_pointer, size_t pointer_length,
                           char **out_json, size_t *out_length);

/** What tca_store_version returns for a NULL, freed or foreign handle. */
#define TCA_VERSION_NONE UINT64_MAX

/**
 * The state's version: 0 for a new store, bumped whenever the state changes (two reads give the
 * same version exactly when the state did not change between them). Cheap: a host compares it
 * with the version it last drew to know whether to read the state again. Never waits for a
 * callback: while another thread is running the store, it gives the version published at the
 * end of the last call (only when that call left the version to be computed — a send to a store
 * without subscribers computes it lazily — does it wait for the run in progress, microseconds,
 * never a callback).
 *
 * Returns TCA_VERSION_NONE (and sets tca_last_error) for a NULL, freed or foreign handle.
 */
uint64_t tca_store_version(const tca_store *store);

/**
 * What changed since version `since_version`: an RFC 6902 JSON Patch, a JSON array such as
 * [{"op":"replace","path":"/todos/3/isComplete","value":true}], or [] when nothing changed.
 * Applying it, in order, to the state JSON of `since_version` gives the current state JSON
 * (equal as JSON values; member order may differ). Arrays of objects that all have distinct
 * "id" members (todos) are patched by id: an insert, removal or move is an "add", "remove" or
 * "move" of the elements concerned (the fewest moves), not a replace of the list; only a
 * reorder that would take more than 64 moves replaces the list (a host applies a move in O(n):
 * moving every element would cost it O(n²)). `since_version` is a version
 * the host saw (tca_store_version, a subscriber, tca_store_state's version); the current version
 * is then tca_store_version.
 *
 * Cost: for a state that patches itself (the todos feature's), what changed: a toggle's patch
 * costs the same at 100,000 todos as at 1,000; other states are encoded and diffed whole
 * (docs/state-changes.md).
 *
 * How far back: the store keeps the states of its last 16 versions (the current one and the 15
 * before it). Memory: a kept state shares its storage with the next one except for what changed:
 * an identified list keeps its own copy of only the chunks on the way to a changed element (a
 * few KB), other collections are copied whole: in the worst case, 16 copies of them.
 *
 * out_json, out_length: as tca_store_state (the caller frees with tca_string_free()).
 * Thread: any; never waits for a callback (it waits for a run in progress, as tca_store_state).
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_VERSION_GONE (since_version is older than the versions kept, or newer than the
 * current one: read the whole state with tca_store_state); TCA_ERR_UNENCODABLE;
 * TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_patch(tca_store *store, uint64_t since_version, char **out_json,
                           size_t *out_length);

/* ---- Subscriptions ------------------------------------------------------------------------ */

/**
 * A subscriber: called with the new state version at the end of each call into the store in which
 * the state changed (once per call, not once per action). `store` is the store's handle; the
 * callback may read it (tca_store_state, tca_store_get) or send to it (queued). The version is
 * the one current when the subscriber is called: when another thread delivers the store's
 * callbacks ("Threads and callbacks"), the changes of several calls can come in one call of the
 * subscriber. A version is never given twice, nor one older than a version already given.
 */
typedef void (*tca_state_fn)(void *userdata, tca_store *store, uint64_t state_version);

/**
 * A subscriber that also gets the new state as JSON: `state_json` (NUL-terminated, `length`
 * bytes) is the library's, valid only until the callback returns; copy what you keep. The state
 * is encoded once per version, shared by every subscriber and by tca_store_state. NULL (length 0)
 * if the state cannot be encoded.
 *
 * `state_json` is always the state of `state_version`, whatever other threads send meanwhile: a
 * host that keeps the pair can bring it up to date with tca_store_patch(store, state_version).
 * Should the store no longer keep that version when the subscriber runs (16 newer ones since,
 * see tca_store_patch), it gets the current state and version instead, and is not given that
 * version again.
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
 *
 * One request is the library's, any feature's: "dismiss" (fire-and-forget, payload {}), made
 * when the feature at the root of the store dismisses itself (its dismiss dependency, called
 * with nothing presenting it): close the window or screen showing the store, then free it
 * (docs/wire-format.md, "Navigation").
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
 * (TCA_TRACE=1) shows it — except in pull mode (tca_options.requests = TCA_REQUESTS_QUEUED),
 * where requests wait for tca_store_take_requests and these callbacks are never called.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (on_cancel without fn).
 */
tca_status tca_store_set_effect_handler(tca_store *store, tca_effect_fn fn,
                                        tca_cancel_fn on_cancel, void *userdata);

/** How a request is answered (tca_request.kind). */
enum tca_request_kind {
  TCA_REQUEST_ONE_SHOT = 0,       /* one tca_store_respond, or one tca_store_fail */
  TCA_REQUEST_STREAM = 1,         /* any number of tca_store_respond, then tca_store_complete
                                     (or tca_store_fail) */
  TCA_REQUEST_FIRE_AND_FORGET = 2, /* no answer: finished as soon as it is made */
  TCA_REQUEST_CANCELLED = 3        /* tca_store_take_requests_v2 only: not a request but the
                                      notice that request `id` was cancelled (name "", payload
                                      "null") */
};

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
 * Pull mode (tca_options.requests = TCA_REQUESTS_QUEUED): takes the host requests and
 * cancellation notices waiting in the store, oldest first, as a JSON array:
 *
 *   [{"id":7,"name":"numberFact.fetch","kind":"oneShot","payload":{"count":3}},
 *    {"cancelled":7}]
 *
 * "kind" is "oneShot", "stream" or "fireAndForget" (see tca_request.kind); "payload" is the
 * request's JSON. A request's id stays answerable (tca_store_respond, tca_store_fail,
 * tca_store_complete) until it is answered or a {"cancelled":id} notice for it is taken: an
 * answer to a cancelled request whose notice still waits is checked as any other, accepted
 * (TCA_OK), and changes nothing, so a host may answer before it looks at its notices; once the
 * notice is taken (this call has returned it), answers get TCA_ERR_REQUEST_FINISHED. The
 * array is "[]" when nothing waits (always, for a store in callback mode). tca_store_fd is
 * readable while anything waits. Taking never runs the store and never calls a callback.
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_take_requests(tca_store *store, char **out_json, size_t *out_length);

/**
 * tca_store_take_requests, as structs rather than JSON: what a C or FFI host reads without
 * parsing (docs/benchmarks.md, "Pull mode"). Takes the requests and cancellation notices waiting,
 * oldest first, into an array of tca_request: a request as tca_request_fn would receive it; a
 * notice with kind TCA_REQUEST_CANCELLED, the cancelled request's id, name "" and payload
 * "null". The rules of tca_store_take_requests hold (answerable ids, notices, the descriptor).
 *
 *   const tca_request *taken;
 *   size_t count;
 *   if (tca_store_take_requests_v2(store, &taken, &count) == TCA_OK)
 *     for (size_t i = 0; i < count; i++)
 *       if (taken[i].kind == TCA_REQUEST_ONE_SHOT) fetch(taken[i].id, taken[i].payload_json);
 *
 * out_requests: receives the array (NULL when nothing waits). It and its strings are the
 *               library's, lent to the calling thread until its next tca_store_take_requests_v2
 *               (on any store) or its end: copy what must outlive that; never free it.
 * out_count:    receives the number of entries (0 when nothing waits, and on failure).
 *
 * Any thread. Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_requests or
 * out_count NULL); TCA_ERR_NO_MEMORY (what was taken is lost, as with tca_store_take_requests).
 */
tca_status tca_store_take_requests_v2(tca_store *store, const tca_request **out_requests,
                                      size_t *out_count);

/**
 * Answers request `request_id` with `response_json`, decoded as the request's response type (for
 * a stream: one more element). From inside a callback of the store, the answer is applied after
 * the callback returns, before the outer call does, and before anything sent after it; from
 * another thread, inside this call (the effect's actions are reduced here, and callbacks run on
 * this thread unless another thread is delivering the store's callbacks) — or, with
 * tca_options.answers = TCA_ANSWERS_HOST_THREAD, only queued, for the host's next
 * tca_store_poll, tca_store_send or tca_store_advance. The answer is checked here either way, so
 * the status is exact.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE (also after tca_store_free); TCA_ERR_INVALID_ARGUMENT
 * (response_json NULL); TCA_ERR_UNKNOWN_REQUEST; TCA_ERR_REQUEST_FINISHED;
 * TCA_ERR_ALREADY_ANSWERED (a one-shot request answered again while its first answer waits to be
 * applied; once that answer is applied, the request has finished: TCA_ERR_REQUEST_FINISHED);
 * TCA_ERR_JSON_SYNTAX /
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
 * tca_store_fail with a message of `length` bytes of UTF-8 (need not be NUL-terminated). Returns
 * the statuses of tca_store_fail.
 */
tca_status tca_store_fail_n(tca_store *store, uint64_t request_id, const char *message,
                            size_t length);

/**
 * Ends stream `request_id`: the feature hears that it finished. Applied as tca_store_respond is.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_UNKNOWN_REQUEST; TCA_ERR_REQUEST_FINISHED;
 * TCA_ERR_ALREADY_ANSWERED; TCA_ERR_NOT_A_STREAM (a one-shot request: respond or fail it).
 */
tca_status tca_store_complete(tca_store *store, uint64_t request_id);

/* ---- Time and scheduling ------------------------------------------------------------------ */

/**
 * Runs, on the calling thread, whatever is due: answers given from other threads (all of them,
 * with tca_options.answers = TCA_ANSWERS_HOST_THREAD), effect work resumed, real-clock timers
 * whose deadline passed, and everything they lead to. Never blocks
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
 * order, each followed by the work it releases, on the calling thread. A manual clock's timers
 * fire only here: one set for the current time (a sleep of zero) waits for the next advance,
 * tca_store_advance(store, 0) included. A fixed-timestep game loop
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
 * arrived from another thread, a real-clock deadline passed) or, in pull mode, while requests
 * wait to be taken (tca_store_take_requests), for select/poll/epoll loops,
 * asyncio, GUI toolkits: wait for it to be readable, then call tca_store_poll. A loop that does so
 * never spins and never sleeps through due work. Readiness is cleared by tca_store_poll, not by
 * reading the descriptor: only wait on it.
 *
 * Owned by the store (do not close it), made on the first call, closed by tca_store_free. A
 * threaded store's own thread waits on it; a host then need not. Never waits for a call in
 * progress on another thread: a render loop may call it every frame.
 *
 * Returns the descriptor, or -1 (tca_last_error says why: invalid handle, or the operating system
 * refused).
 */
int tca_store_fd(tca_store *store);

/* ---- Recording, replay and tests ------------------------------------------------------------ */

/**
 * The journal of a store created with options.record = 1 (or replayed): JSON Lines, one JSON
 * object per line, each line ended by "\n". The first line is the header — the format version,
 * the feature, the clock, the seed and the state the store started from:
 *
 *   {"tcaJournal":1,"feature":"counter","clock":"manual","seed":7,"version":0,"state":{…}}
 *   {"send":{"numberFactButtonTapped":{}},"version":1}
 *   {"request":{"id":1,"name":"numberFact.fetch","kind":"oneShot","payload":0}}
 *   {"respond":1,"value":"0 is a good number.","version":2}
 *   {"advance":500,"version":3}
 *
 * Then one line per input, in the order the store received them: each action (as sent),
 * answer, failure and completion (with its request id), each move of a manual clock; on a real
 * clock, each poll that ran something, and on an input that read the clock the first and the
 * last time its call read ("from" and "at", nanoseconds since the store was made); each
 * tca_store_cancel_effects. A {"date":MS} line before an input
 * gives the date the feature read during it (a replay reads that one: random numbers and UUIDs
 * come from the seed). "request" and "cancelled" lines note what the store asked of the host.
 * docs/wire-format.md, "Journals", describes every line. An input's "version" is the state's
 * version the host read next once the input was applied (inputs with no read between them share
 * it). With options.record_limit the journal's second line may be a checkpoint
 * (docs/wire-format.md, "Checkpoints"). Any thread; waits for no callback.
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL, or the store
 * does not record); TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_journal(tca_store *store, char **out_json, size_t *out_length);

/**
 * Time travel: a new store rebuilt from `journal` (what tca_store_journal gave; `length` bytes,
 * no NUL needed) up to version `to_version`: every input whose "version" is at most `to_version`
 * is given again, in order, to a store of the journal's feature, state and seed, on a manual
 * clock (a real clock's times become moves of it). TCA_VERSION_NONE (UINT64_MAX) replays it all.
 * Its state is then byte for byte the recorded store's at that version, and its requests have the
 * same ids.
 *
 * The replay makes no host requests: the journal answers them. Requests it leaves unanswered
 * wait for the host: in pull mode (options->requests = TCA_REQUESTS_QUEUED) the first
 * tca_store_take_requests returns them; in callback mode the request callback gets them at the
 * first tca_store_send, tca_store_poll or tca_store_advance once a handler is set.
 * From `options` (NULL: the defaults) the replay takes `threaded`, `requests`, `answers` and
 * `record_limit` (for its own journal; `record` need not be set); the
 * clock is always manual, the seed the journal's, and the new store records (its journal starts
 * with the inputs replayed).
 *
 * out: receives the new store (free it with tca_store_free); NULL on failure.
 *
 * The lines' versions are checked against the replay, up to `to_version`: a version is never
 * below the line before it (the header's is 0) nor UINT64_MAX; lines that share a version are
 * inputs the store applied together (given in one callback) or that changed nothing, and a rise
 * of n needs the inputs since to change the replayed state at least n times; lines of version
 * 0 leave the header's state as it was. So each version names one state, and the replayed
 * store's own journal replays to the same states and versions. A journal edited by hand replays
 * only if it is consistent (docs/wire-format.md, "Journals").
 *
 * A journal whose second line is a checkpoint (options.record_limit) replays from there:
 * `to_version` older than the checkpoint's fails with TCA_ERR_VERSION_GONE, naming the versions
 * it replays to; so does a checkpoint taken with effects in flight (docs/wire-format.md,
 * "Checkpoints").
 *
 * Returns TCA_OK; TCA_ERR_INVALID_ARGUMENT (journal or out NULL, bad options);
 * TCA_ERR_UNKNOWN_FEATURE; TCA_ERR_VERSION_GONE (above); TCA_ERR_JSON_SYNTAX /
 * TCA_ERR_JSON_SHAPE (a line that is not a journal line of this library, or whose version the
 * replay disagrees with), or the status a given input failed with (an answer to an unknown
 * request: a journal of another run): tca_last_error names the line ("journal line 4: …").
 */
tca_status tca_store_replay(const char *journal, size_t length, uint64_t to_version,
                            const tca_options *options, tca_store **out);

/**
 * Makes a recorded store keep (enabled = 1), or stop keeping and drop (0), the list of the
 * actions it reduces, for tca_store_take_reductions: what a test store asserts (Python's
 * tca.testing.TestStore). Off when the store is made. Any thread.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (the store does not record, or
 * enabled is neither 0 nor 1).
 */
tca_status tca_store_log_reductions(tca_store *store, int32_t enabled);

/**
 * Takes the actions reduced since the last take (logging on: tca_store_log_reductions), oldest
 * first, as a JSON array, each with its origin — "host" (sent by the host) or "effect" (fed back
 * by an effect: an answer, a timer, a .send) — and the state right after it:
 *
 *   [{"origin":"host","action":{"numberFactButtonTapped":{}},"state":{…}},
 *    {"origin":"effect","action":{"numberFactResponse":{…}},"state":{…}}]
 *
 * Actions are in canonical JSON (tca_canonical_action). Any thread; never runs the store.
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL, the store
 * does not record, or logging is off); TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_take_reductions(tca_store *store, char **out_json, size_t *out_length);

/**
 * Descriptions of the effects of `store` still running, oldest first, as a JSON array of
 * strings: what a test lists when it fails because effects were left in flight.
 *
 *   ["host request #1 \"numberFact.fetch\"","a timer due at 0.5 seconds"]
 *
 * The descriptions are for people, not for parsing; an empty array: nothing is running. Any
 * thread; never runs the store (from inside one of its callbacks: what was running when the
 * call that made the callback began its last step).
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_NO_MEMORY.
 */
tca_status tca_store_running_effects(tca_store *store, char **out_json, size_t *out_length);

/**
 * Cancels every effect of `store` still running, as upstream's TestStore.skipInFlightEffects
 * does in libtca (Python: tca.testing.TestStore.skip_in_flight_effects): timers are dropped,
 * streams and requests in flight are cancelled and the host is told of each (its cancel
 * callback, or a {"cancelled": id} notice in pull mode), and later answers to them get
 * TCA_ERR_REQUEST_FINISHED. The store stays open and takes actions as before. A recorded store
 * journals it (a {"cancelEffects":true} line), so that a replay cancels them too.
 *
 * out_cancelled: if not NULL, receives how many effects were running (0: nothing to cancel;
 *                capped at UINT32_MAX).
 *
 * Any thread, as tca_store_send; from inside a callback of the store, applied at once.
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE.
 */
tca_status tca_store_cancel_effects(tca_store *store, uint32_t *out_cancelled);

/**
 * The canonical form of an action of `feature`, given in any form its stores accept (a bare case
 * name, a bare payload, the canonical form): decoded, then encoded. Two actions are the same
 * exactly when their canonical forms are equal:
 *
 *   "incrementButtonTapped"  ->  {"incrementButtonTapped":{}}
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free();
 *             NULL on failure.
 * out_length: if not NULL, receives its length in bytes (without the NUL); 0 on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_ARGUMENT (a NULL argument); TCA_ERR_UNKNOWN_FEATURE;
 * TCA_ERR_JSON_SYNTAX / TCA_ERR_JSON_SHAPE (not an action of the feature); TCA_ERR_NO_MEMORY.
 * Any thread.
 */
tca_status tca_canonical_action(const char *feature, const char *action_json, char **out_json,
                                size_t *out_length);

/** tca_canonical_action with a feature name and an action of so many bytes (no NUL needed). */
tca_status tca_canonical_action_n(const char *feature, size_t feature_length,
                                  const char *action_json, size_t action_length, char **out_json,
                                  size_t *out_length);

#ifdef __cplusplus
}
#endif

#endif /* TCA_H */
