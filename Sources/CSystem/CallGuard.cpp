// The callback guard: a frame that notices a callback unwinding out of libtca (StoreKernel's
// Runtime/Dispatch.swift, the unwind watch).
//
// NB: C++, for its landing pads: a C++ exception, a foreign exception raised through the same
// unwinder (LuaJIT's errors on x86-64, Rust panics) and the forced unwinding of pthread_exit and
// pthread_cancel all run `Guard`'s destructor on their way through. A longjmp runs nothing: the
// unwind watch's stack-address check is what notices that one.
#include "CallGuard.h"

#include <pthread.h>

namespace {
struct Guard {
  csystem_unwound unwound;
  uintptr_t token;
  bool returned;
  ~Guard() {
    if (!returned) unwound(token);
  }
};
}  // namespace

extern "C" void csystem_call_guarded(csystem_body body, void *context, csystem_unwound unwound,
                                     uintptr_t token) {
  Guard guard{unwound, token, false};
  body(context);
  guard.returned = true;
}

extern "C" int csystem_thread_stack(uintptr_t *low, uintptr_t *high) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
  void *address = nullptr;
  size_t size = 0;
  int status = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  if (status != 0) return -1;
  *low = reinterpret_cast<uintptr_t>(address);
  *high = *low + size;
  return 0;
}
