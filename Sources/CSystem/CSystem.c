// Most of CSystem is inline in include/CSystem.h; what needs thread-local storage lives here.
#include "CSystem.h"

/* The dispatch frames live on this thread, outermost first (so deepest last). */
#define CSYSTEM_DISPATCH_MAX 64
static _Thread_local struct {
  const void *store;
  uintptr_t frame;
} dispatch_frames[CSYSTEM_DISPATCH_MAX];
static _Thread_local int dispatch_depth;

__attribute__((noinline)) uintptr_t csystem_stack_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

int csystem_dispatch_enter(const void *store) {
  if (dispatch_depth >= CSYSTEM_DISPATCH_MAX) return 0;
  dispatch_frames[dispatch_depth].store = store;
  dispatch_frames[dispatch_depth].frame = UINTPTR_MAX;
  dispatch_depth++;
  return 1;
}

void csystem_dispatch_mark(int in_callback) {
  if (dispatch_depth > 0)
    dispatch_frames[dispatch_depth - 1].frame =
        in_callback ? csystem_stack_address() : UINTPTR_MAX;
}

const void *csystem_dispatch_pop(void) {
  if (dispatch_depth == 0) return NULL;
  dispatch_depth--;
  return dispatch_frames[dispatch_depth].store;
}

const void *csystem_dispatch_dead(uintptr_t here) {
  if (dispatch_depth == 0) return NULL;
  int top = dispatch_depth - 1;
  if (dispatch_frames[top].frame == UINTPTR_MAX || dispatch_frames[top].frame >= here) return NULL;
  dispatch_depth = top;
  return dispatch_frames[top].store;
}

int csystem_dispatch_active(void) { return dispatch_depth; }
