/// How a host wants a feature's store made (the C API's `tca_options`).
public struct StoreOptions: Sendable {
  /// The store's clock: `.real` (monotonic) or `.manual` (moved by `advance`).
  public var clock: StoreClock.Kind
  /// The random seed; nil for one from the system.
  public var seed: UInt64?
  /// Where to write each action and the state change it caused, and each host request
  /// (`TCA_TRACE=1` → ``TraceSink/standardError``); nil for nowhere.
  public var trace: TraceSink?
  /// How host requests reach the host: through its handler (`.callback`), or kept until it takes
  /// them (`.queued`, pull mode: ``HostStore/takeRequests()``).
  public var requests: RequestDelivery
  /// Where host answers are applied: by the call that gives them (`.anyThread`), or only by the
  /// host's next `send`, `poll` or `advance` (`.hostThread`).
  public var answers: AnswerDelivery
  /// Whether the store keeps a journal of its inputs (``RecordingStore``) and, when asked, the
  /// actions it reduces (``ReductionLog``). A recorded store without a seed picks one.
  public var record: Bool
  /// How many journal lines a recorded store keeps (0: all); older ones fold into a checkpoint
  /// (docs/wire-format.md, "Checkpoints").
  public var recordLimit: UInt64
  /// Whether the store's shared fields (``Shared``) are its own, shared with no other store:
  /// `.inMemory` keys start from the state's values, `.host` and `.fileStorage` keys still load
  /// and save. For stores that must not see each other (tests running side by side).
  public var isolatesSharedState = false
  /// The registry of shared values the store uses (nil: the process's). A replay gives its
  /// store one of its own, so that it neither reads files nor changes the process's stores.
  var sharedRegistry: SharedRegistry?

  public init(
    clock: StoreClock.Kind = .real, seed: UInt64? = nil, trace: TraceSink? = nil,
    requests: RequestDelivery = .callback, answers: AnswerDelivery = .anyThread,
    record: Bool = false, recordLimit: UInt64 = 0, isolatesSharedState: Bool = false
  ) {
    self.clock = clock
    self.seed = seed
    self.trace = trace
    self.requests = requests
    self.answers = answers
    self.record = record
    self.recordLimit = recordLimit
    self.isolatesSharedState = isolatesSharedState
  }
}

/// How a store's host requests reach the host.
public enum RequestDelivery: Sendable, Equatable {
  /// The request handler is called for each request and each cancellation.
  case callback
  /// Requests and cancellation notices wait in the store until the host takes them.
  case queued
}

/// Where a store applies answers given from other threads.
public enum AnswerDelivery: Sendable, Equatable {
  /// In the `respond`/`fail`/`complete` call if the store is free, else by the call holding it.
  case anyThread
  /// Only queued (waking the wake descriptor); applied by the host's next `send`, `poll` or
  /// `advance`, on its thread.
  case hostThread
}

/// What waits for a host in pull mode (``RequestDelivery/queued``), oldest first.
public enum HostRequestNotice: Sendable, Equatable {
  /// A request to perform; its id stays answerable until answered, or until the notice of its
  /// cancellation is taken.
  case request(HostRequestInfo)
  /// A request still in flight was cancelled: once this notice is taken, it takes no answer any
  /// more (before, an answer is accepted and changes nothing).
  case cancelled(UInt64)

  /// Whether this is a ``cancelled(_:)`` notice.
  var isCancellation: Bool {
    if case .cancelled = self { return true }
    return false
  }
}
