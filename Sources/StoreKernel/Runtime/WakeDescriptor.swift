import CSystem

/// A store's wake descriptor, made on first request: an epoll set over an eventfd and a timerfd,
/// readable exactly when `poll` has something to do.
///
/// - The eventfd is signalled when work reaches the store from a thread that does not hold it (a
///   host answer, a resumed effect), and cleared by the holder once none is waiting.
/// - The timerfd is armed, on a real-clock store, for the earliest timer's deadline (absolute
///   `CLOCK_MONOTONIC`) at the end of every call into the store; re-arming resets it.
///
/// NB: one epoll descriptor rather than two raw ones: a host waits on a single fd with
/// select/poll/epoll/asyncio, and it stays unreadable while nothing is due.
final class WakeDescriptor {
  let fd: Int32
  let eventFD: Int32
  private let timerFD: Int32
  private var armedDeadline: Int64 = -1

  init?() {
    var eventFD: Int32 = -1
    var timerFD: Int32 = -1
    let fd = csystem_wake_open(&eventFD, &timerFD)
    guard fd >= 0 else { return nil }
    self.fd = fd
    self.eventFD = eventFD
    self.timerFD = timerFD
  }

  /// Arms the timerfd for `deadline` (nanoseconds of `CLOCK_MONOTONIC`), or disarms it (nil).
  func arm(_ deadline: Int64?) {
    let deadline = deadline.map { max($0, 0) } ?? -1
    guard deadline != armedDeadline else { return }
    armedDeadline = deadline
    csystem_wake_arm(timerFD, deadline)
  }

  func close() {
    csystem_close(fd)
    csystem_close(eventFD)
    csystem_close(timerFD)
  }
}
