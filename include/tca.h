/*
 * tca.h — the C API of libtca, the Composable Architecture as an embeddable library.
 *
 * A host creates a store for a feature compiled into the library, sends it actions as JSON and
 * reads its state as JSON:
 *
 *     tca_store *store;
 *     if (tca_store_new("counter", NULL, NULL, &store) != TCA_OK) {
 *       fprintf(stderr, "%s\n", tca_last_error());
 *       return 1;
 *     }
 *     tca_store_send(store, "\"incrementButtonTapped\"");
 *     char *state;
 *     tca_store_state(store, &state, NULL);     // {"count":1}
 *     tca_string_free(state);
 *     tca_store_free(store);
 *
 * Conventions
 *   - Every fallible function returns a tca_status: TCA_OK (0) or a TCA_ERR_* code. The numbers
 *     are stable: codes are only ever appended. tca_status_str() names a code; tca_last_error()
 *     gives the message of the last failure on the calling thread.
 *   - A failed call changes nothing: no state change, no action sent, out-parameters set to
 *     NULL/0 where documented.
 *   - Handles are checked: a NULL, freed or foreign tca_store pointer gets TCA_ERR_INVALID_HANDLE,
 *     never a crash. The library never dereferences a tca_store pointer.
 *   - Strings the library returns through char ** are the caller's, released with
 *     tca_string_free(). Input buffers are only read during the call and never kept.
 *   - JSON input must be UTF-8; the wire format is described in docs/wire-format.md.
 *   - Thread safety: every function may be called from any thread; calls on one store are
 *     serialized by the library.
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
#define TCA_ERR_INVALID_ARGUMENT   1 /* a NULL where a value is required, bad options, … */
#define TCA_ERR_INVALID_HANDLE     2 /* the store is NULL, freed, or was never a store */
#define TCA_ERR_UNKNOWN_FEATURE    3 /* no feature of that name in this library */
#define TCA_ERR_JSON_SYNTAX        4 /* the input is not JSON (or not UTF-8, or nested too deep) */
#define TCA_ERR_JSON_SHAPE         5 /* JSON, but not of the expected type (unknown action, …) */
#define TCA_ERR_UNENCODABLE        6 /* a value cannot be written as JSON (NaN, infinity) */

/* ---- Library ------------------------------------------------------------------------------ */

/**
 * The library's version, "MAJOR.MINOR.PATCH". Static storage; never NULL; do not free.
 */
const char *tca_version(void);

/**
 * The features compiled into this library, as a JSON array:
 *   [{"name":"counter","description":"…","requests":[…],"initialState":{…}}, …]
 * Returns a string the caller releases with tca_string_free(), or NULL if out of memory or if
 * the library's features failed to register (tca_last_error() says why).
 */
char *tca_features(void);

/**
 * Releases a string returned by the library. NULL is a no-op.
 */
void tca_string_free(char *string);

/**
 * The message of the last failed call on the calling thread, naming the function and the place:
 *   "tca_store_send: at /: expected exactly one known case, found \"jump\""
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

/** Options for tca_store_new. Initialize with TCA_OPTIONS_INIT, then change what you need. */
typedef struct tca_options {
  uint32_t version;  /* TCA_OPTIONS_VERSION: lets the struct grow without breaking programs */
  int32_t clock;     /* TCA_CLOCK_REAL (the default) */
  int32_t threaded;  /* 0: callbacks run only inside calls into the store */
  uint64_t seed;     /* seed of the store's random generator; 0: from the system */
} tca_options;

#define TCA_OPTIONS_VERSION 1
#define TCA_CLOCK_REAL 0
#define TCA_OPTIONS_INIT { TCA_OPTIONS_VERSION, TCA_CLOCK_REAL, 0, 0 }

/**
 * Creates a store of the feature named `feature` (see tca_features()).
 *
 * state_json: the initial state as JSON (a snapshot from tca_store_state), or NULL for the
 *             feature's default state. Copied; not kept.
 * options:    NULL for the defaults, or a tca_options initialized with TCA_OPTIONS_INIT.
 * out:        receives the new store on success, NULL on failure.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_ARGUMENT (feature or out NULL, bad options);
 * TCA_ERR_UNKNOWN_FEATURE; TCA_ERR_JSON_SYNTAX / TCA_ERR_JSON_SHAPE (bad state_json).
 */
tca_status tca_store_new(const char *feature, const char *state_json,
                         const tca_options *options, tca_store **out);

/**
 * Releases a store. Every later call with this handle returns TCA_ERR_INVALID_HANDLE.
 * NULL, freed and foreign handles are ignored.
 */
void tca_store_free(tca_store *store);

/**
 * Sends one action, given as a NUL-terminated JSON text, and processes it and every action it
 * leads to before returning. Actions may use the short forms of the wire format: "\"increment\""
 * for a case without payload, "{\"setCount\":5}" for a single unlabeled payload.
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (action_json NULL);
 * TCA_ERR_JSON_SYNTAX (not JSON); TCA_ERR_JSON_SHAPE (not an action of this feature).
 * On error the action is not sent and the state is unchanged.
 */
tca_status tca_store_send(tca_store *store, const char *action_json);

/**
 * tca_store_send with an explicit length: action_json need not be NUL-terminated and may not
 * contain NUL bytes that matter (a NUL inside JSON text is a syntax error).
 */
tca_status tca_store_send_n(tca_store *store, const char *action_json, size_t length);

/**
 * The store's current state as JSON.
 *
 * out_json:   receives a NUL-terminated string the caller releases with tca_string_free().
 * out_length: if not NULL, receives its length in bytes (without the NUL).
 *
 * Returns TCA_OK; TCA_ERR_INVALID_HANDLE; TCA_ERR_INVALID_ARGUMENT (out_json NULL);
 * TCA_ERR_UNENCODABLE.
 */
tca_status tca_store_state(tca_store *store, char **out_json, size_t *out_length);

#ifdef __cplusplus
}
#endif

#endif /* TCA_H */
