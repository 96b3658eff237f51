import Synchronization

/// What few stores use, kept out of ``StoreCore`` until one is set: a host's request handler,
/// tracing, a test store's issue handler and origins, the wake descriptor.
///
/// NB: ~100 bytes that every idle store kept (docs/benchmarks.md: memory per idle store). Touched
/// only by the thread holding the store, as the core's own properties were (`wake` behind
/// `wakeLock`).
final class StoreCoreExtras: @unchecked Sendable {
  /// NB: in an object of its own, so that delivering a request takes one reference to it, not
  /// a copy of its two closures (docs/benchmarks.md: the effect round trip).
  var handler: HandlerBox?
  /// Handlers replaced while a dispatcher may still be calling them (see
  /// `StoreCore.setHandler(_:)`), dropped by the dispatcher.
  var retiredHandlers: [HandlerBox] = []
  var issueHandler: ((EffectIssue, EffectPlace?, String?) -> Void)?
  var rootDismissal: (() -> Void)?
  var trace: TraceSink?
  var recordsOrigins = false
  var origin: String?
  var wake: WakeDescriptor?
  /// The lock of `wake` (see `StoreCore.wakeLock`), made by its first use.
  let wakeLock = LazyObject<Guarded<Void>>()
}

/// A host's request handler, as the store keeps it (see `StoreCoreExtras.handler`).
final class HandlerBox: Sendable {
  let handler: HostRequestHandler

  init(_ handler: HostRequestHandler) { self.handler = handler }

  /// Calls `onRequest` with `info`.
  ///
  /// NB: through the box itself, not a copy of its handler: loading the function out of the
  /// box at the call site retained and released its context once per request.
  @inline(never)
  func request(_ info: HostRequestInfo) { handler.onRequest(info) }

  /// Calls `onCancel` with `id` (as ``request(_:)``).
  @inline(never)
  func cancel(_ id: UInt64) { handler.onCancel(id) }
}

/// The handler and what else few stores use (``StoreCoreExtras``).
extension StoreCore {
  // -- holder, made by the first that sets one (``StoreCoreExtras``)
  /// Replaces the handler (holder). The one replaced is kept until the dispatcher next takes the
  /// store (``dropRetiredHandlers()``) if one is delivering: it may be calling it now, from
  /// ``lentHandler``.
  func setHandler(_ box: HandlerBox?) {
    guard box != nil || extrasStorage.isMade else { return }
    let extras = self.extras
    let old = extras.handler
    extras.handler = box
    if let old, dispatch.thread.load(ordering: .acquiring) != 0 {
      extras.retiredHandlers.append(old)
    }
  }

  /// The handler, unretained: the dispatcher's (holder), to call after letting go of the store
  /// and until it next takes it.
  ///
  /// NB: a reference of its own was an atomic retain and release per request (docs/benchmarks.md:
  /// the effect round trip); ``setHandler(_:)`` keeps a replaced handler alive for it instead.
  var lentHandler: Unmanaged<HandlerBox>? {
    extrasStorage.ifMade { extras in extras.handler.map { Unmanaged.passUnretained($0) } } ?? nil
  }

  /// Drops the handlers replaced while delivering (the dispatcher, holding the store).
  func dropRetiredHandlers() {
    extrasStorage.ifMade { extras in
      if !extras.retiredHandlers.isEmpty { extras.retiredHandlers = [] }
    }
  }
  /// Whether a handler is set (without copying it).
  var hasHandler: Bool { extrasStorage.ifMade { $0.handler != nil } ?? false }
  var trace: TraceSink? {
    get { extrasStorage.ifMade { $0.trace } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.trace = newValue } }
  }
  /// Set by a test store: what effects did wrong (see ``Issue``), where the effect was made, and
  /// the action whose effect it was.
  var issueHandler: ((Issue, EffectPlace?, String?) -> Void)? {
    get { extrasStorage.ifMade { $0.issueHandler } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.issueHandler = newValue } }
  }
  /// Set by a test store: what a `dismiss()` of the root feature does (else the host is asked
  /// with the request "dismiss").
  var rootDismissal: (() -> Void)? {
    get { extrasStorage.ifMade { $0.rootDismissal } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.rootDismissal = newValue } }
  }
  /// Set by a test store: effects remember the action that started them.
  var recordsOrigins: Bool {
    get { extrasStorage.ifMade { $0.recordsOrigins } ?? false }
    set { if newValue || extrasStorage.isMade { extras.recordsOrigins = newValue } }
  }
  var origin: String? {
    get { extrasStorage.ifMade { $0.origin } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.origin = newValue } }
  }
  /// Behind `wakeLock`.
  var wake: WakeDescriptor? {
    get { extrasStorage.ifMade { $0.wake } ?? nil }
    set { if newValue != nil || extrasStorage.isMade { extras.wake = newValue } }
  }
  var extras: StoreCoreExtras { extrasStorage.object { StoreCoreExtras() } }

  /// Guards `wake`, which the holder settles and `fileDescriptor()` makes without the store.
  ///
  /// NB: made by its first use (`fileDescriptor()`, or the close): an idle store that never had a
  /// wake descriptor does not keep a mutex for it (docs/benchmarks.md: memory per idle store).
  var wakeLock: PlainLock {
    PlainLock(extras.wakeLock.object { Guarded.make(()) })
  }
}
