#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import StoreKernel
import Synchronization

/// The thread of a threaded store (`tca_options.threaded = 1`): it waits on the store's wake
/// descriptor and polls the store whenever it is readable, so real-clock timers fire and answers
/// from other threads are applied without the host polling.
///
/// NB: it waits with poll(2) on two descriptors: the store's, and the read end of a pipe that
/// `stop` writes to. The pipe is what wakes it to stop, and keeps it from ever waiting on the
/// store's descriptor after the store has closed it.
final class Runner: Sendable {
  private let stopping = Atomic<Bool>(false)
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let thread = Atomic<UInt>(0)

  private init(wakeRead: Int32, wakeWrite: Int32) {
    self.wakeRead = wakeRead
    self.wakeWrite = wakeWrite
  }

  deinit {
    close(wakeRead)
    close(wakeWrite)
  }

  /// Starts the thread for `store`, whose wake descriptor is `fd`.
  static func start(store: any HostStore, fd: Int32) throws(Failure) -> Runner {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      let reason = String(cString: strerror(errno))
      throw Failure(.system, "cannot make the store thread's pipe: \(reason)")
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let runner = Runner(wakeRead: ends[0], wakeWrite: ends[1])
    let context = Unmanaged.passRetained(RunnerContext(runner: runner, store: store, fd: fd))
    // NB: the thread blocks every signal, so a host's signal handlers run on the host's threads.
    var all = sigset_t()
    var previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
      guard let raw else { return nil }
      Unmanaged<RunnerContext>.fromOpaque(raw).takeRetainedValue().run()
      return nil
    }, context.toOpaque())
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    guard result == 0 else {
      context.release()
      let reason = String(cString: strerror(result))
      throw Failure(.system, "cannot start the store's thread: \(reason)")
    }
    runner.thread.store(UInt(thread), ordering: .releasing)
    return runner
  }

  var isStopping: Bool { stopping.load(ordering: .acquiring) }

  /// Tells the thread to stop; waits for it to end if `join`, else lets it end by itself (from
  /// inside the store, where it may be waiting for this thread).
  func stop(join: Bool) {
    guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 1
    while write(wakeWrite, &byte, 1) < 0 && errno == EINTR {}
    let thread = pthread_t(self.thread.load(ordering: .acquiring))
    if join && pthread_equal(thread, pthread_self()) == 0 {
      pthread_join(thread, nil)
    } else {
      pthread_detach(thread)
    }
  }

  /// The thread's loop.
  fileprivate func loop(store: any HostStore, fd: Int32) {
    var fds = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    while !isStopping {
      fds[0].revents = 0
      fds[1].revents = 0
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno != EINTR { return }
      if isStopping { return }
      if ready > 0 && fds[0].revents != 0 { _ = try? store.poll() }
      // NB: a store a callback unwound out of stays readable (its events are never delivered).
      if store.isUnwound { return }
    }
  }
}

/// What the thread holds: its runner and store, released when it ends.
private final class RunnerContext {
  let runner: Runner
  let store: any HostStore
  let fd: Int32

  init(runner: Runner, store: any HostStore, fd: Int32) {
    self.runner = runner
    self.store = store
    self.fd = fd
  }

  func run() { runner.loop(store: store, fd: fd) }
}
