/*
 * CSystem — the few Linux calls StoreKernel needs that Swift's Glibc module does not import
 * (eventfd, timerfd, epoll), wrapped as small inline functions. Internal to libtca.
 */
#ifndef LIBTCA_CSYSTEM_H
#define LIBTCA_CSYSTEM_H

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/*
 * A lock for critical sections of a few dozen instructions that never wait inside (the table of
 * a store's host requests): one atomic exchange takes it, one store lets it go. A thread that
 * finds it taken spins a little, then yields the processor until it is free. 0: free.
 *
 * NB: a pthread mutex cost ~50 instructions more per section, four sections an effect's round
 * trip (docs/benchmarks.md). Atomics, not a futex: the thread sanitizer sees them.
 */
static inline void csystem_spin_lock(uint32_t *word) {
  unsigned spins = 0;
  while (__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE) != 0) {
    while (__atomic_load_n(word, __ATOMIC_RELAXED) != 0) {
      if (spins < 100) {
        spins++;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
      } else {
        sched_yield();
      }
    }
  }
}

static inline void csystem_spin_unlock(uint32_t *word) {
  __atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

/* CLOCK_MONOTONIC, in nanoseconds. */
static inline int64_t csystem_monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + (int64_t)now.tv_nsec;
}

/* CLOCK_REALTIME, in nanoseconds since 1970-01-01T00:00:00Z. */
static inline int64_t csystem_realtime_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return (int64_t)now.tv_sec * 1000000000 + (int64_t)now.tv_nsec;
}

/*
 * Opens a wake descriptor: an epoll set watching an eventfd (signalled when work arrives from
 * another thread) and a timerfd (armed for the next deadline). Returns the epoll descriptor and
 * fills in the other two, or returns -1 with every descriptor closed.
 */
static inline int csystem_wake_open(int *event_fd, int *timer_fd) {
  int events = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  int set = epoll_create1(EPOLL_CLOEXEC);
  if (events < 0 || timer < 0 || set < 0) goto fail;
  struct epoll_event watch = {0};
  watch.events = EPOLLIN;
  watch.data.fd = events;
  if (epoll_ctl(set, EPOLL_CTL_ADD, events, &watch) != 0) goto fail;
  watch.data.fd = timer;
  if (epoll_ctl(set, EPOLL_CTL_ADD, timer, &watch) != 0) goto fail;
  *event_fd = events;
  *timer_fd = timer;
  return set;
fail:
  if (events >= 0) close(events);
  if (timer >= 0) close(timer);
  if (set >= 0) close(set);
  return -1;
}

/* Makes the eventfd readable. */
static inline void csystem_wake_signal(int event_fd) {
  uint64_t one = 1;
  while (write(event_fd, &one, sizeof one) < 0 && errno == EINTR) {}
}

/* Makes the eventfd unreadable again. */
static inline void csystem_wake_clear(int event_fd) {
  uint64_t count;
  while (read(event_fd, &count, sizeof count) < 0 && errno == EINTR) {}
}

/*
 * Arms the timerfd to expire at `deadline_ns` on CLOCK_MONOTONIC (a deadline in the past expires at
 * once), or disarms it when `deadline_ns` is negative. Either way its expiration count is reset, so
 * it is unreadable until the new deadline passes.
 */
static inline void csystem_wake_arm(int timer_fd, int64_t deadline_ns) {
  struct itimerspec spec = {{0, 0}, {0, 0}};
  if (deadline_ns >= 0) {
    if (deadline_ns == 0) deadline_ns = 1; /* all zeroes would disarm */
    spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000);
    spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000);
  }
  timerfd_settime(timer_fd, deadline_ns >= 0 ? TFD_TIMER_ABSTIME : 0, &spec, NULL);
}

static inline void csystem_close(int fd) {
  if (fd >= 0) close(fd);
}

/* An address in the caller's frame: stacks grow down, so a frame deeper in the call chain has a
   lower address (the unwind watch, StoreKernel's Runtime/Dispatch.swift). */
static inline __attribute__((noinline)) uintptr_t csystem_stack_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

#include "CallGuard.h"
#include "Devtools.h"
#include "CSystemFiles.h"

#endif
