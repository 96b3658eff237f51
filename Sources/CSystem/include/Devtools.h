/*
 * The inspector's connections (docs/devtools.md, "The protocol"): one background thread for all
 * of a process's stores, non-blocking sockets, a bounded buffer per store, reconnection with
 * back-off. Started only when TCA_DEVTOOLS is set (StoreKernel's Devtools/DevtoolsLink.swift).
 * Internal to libtca.
 */
#ifndef LIBTCA_CSYSTEM_DEVTOOLS_H
#define LIBTCA_CSYSTEM_DEVTOOLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One store's connection to the inspector. */
typedef struct csystem_devtools csystem_devtools;

/*
 * Reads `spec` (HOST:PORT or HOST:PORT/TOKEN; HOST a name, IPv4, or [IPv6]) and starts the
 * background thread, once a process. 0: started (now or before: `spec` is then not read);
 * -1: `spec` is malformed (said once on stderr), or the thread could not start (nothing
 * started).
 */
int csystem_devtools_start(const char *spec);

/* A new connection (the thread connects it, and reconnects it with back-off); NULL if the thread
   is not running or out of memory. */
csystem_devtools *csystem_devtools_open(void);

/* Ends a connection: what is buffered is sent for at most two seconds, then the thread frees it.
   The caller no longer uses `conn`. */
void csystem_devtools_close(csystem_devtools *conn);

/* How many times the connection was made (101 received). A new one wants a hello first. */
uint64_t csystem_devtools_generation(csystem_devtools *conn);

/* Starts the lines of connection `generation` (clears the buffer): `put` sends from here on. */
void csystem_devtools_begin(csystem_devtools *conn, uint64_t generation);

/* Queues `line` and a newline. 0: queued; 1: not connected, or the connection's hello is not
   begun (discarded); 2: the buffer is full (dropped). Never blocks on the socket. */
int csystem_devtools_put(csystem_devtools *conn, const uint8_t *line, size_t length);

/* The oldest command line received (malloc'd, no newline; the caller frees it), or NULL. */
uint8_t *csystem_devtools_take(csystem_devtools *conn, size_t *length);

/* An eventfd readable while commands wait or a new connection wants its hello. */
int csystem_devtools_wake_fd(csystem_devtools *conn);

/* Makes the wake descriptor unreadable (before taking what waits). */
void csystem_devtools_clear_wake(csystem_devtools *conn);

/* Adds the wake descriptor to the epoll set `epoll_fd` (a store's wake descriptor). 0 or -1. */
int csystem_devtools_watch(csystem_devtools *conn, int epoll_fd);

#ifdef __cplusplus
}
#endif

#endif
