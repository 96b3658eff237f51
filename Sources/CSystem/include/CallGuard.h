/*
 * The callback guard and the thread's stack, for StoreKernel's unwind watch
 * (Runtime/Dispatch.swift). Defined in CallGuard.cpp. Internal to libtca.
 */
#ifndef LIBTCA_CALLGUARD_H
#define LIBTCA_CALLGUARD_H

#include <stdint.h>

/*
 * Calls body(context). If an exception or a forced unwind (pthread_exit, pthread_cancel) leaves
 * body instead of a return, calls unwound(token) on its way through, then lets it go on.
 * Defined in CallGuard.cpp.
 */
typedef void (*csystem_body)(void *context);
typedef void (*csystem_unwound)(uintptr_t token);
#ifdef __cplusplus
extern "C" {
#endif
void csystem_call_guarded(csystem_body body, void *context, csystem_unwound unwound,
                          uintptr_t token);
/* The calling thread's stack, [*low, *high): 0 on success. Defined in CallGuard.cpp. */
int csystem_thread_stack(uintptr_t *low, uintptr_t *high);
#ifdef __cplusplus
}
#endif

#endif
