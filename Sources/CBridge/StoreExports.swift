#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import JSON
@_spi(Bridge) import StoreKernel

/// The layout of `tca_options` in tca.h, version 2 (64 bytes, no hidden padding):
/// `{u32 version; i32 clock; i32 threaded; i32 requests; u64 seed; i32 answers; i32 record;
/// u64 record_limit; i32 shared; i32 reserved32; u64 reserved[2]}`. Version 1 is its first 24
/// bytes, with `requests` as padding (ignored).
struct Options {
  static let currentVersion: UInt32 = 2
  var clock: StoreClock.Kind = .real
  var threaded = false
  var seed: UInt64? = nil
  var requests: RequestDelivery = .callback
  var answers: AnswerDelivery = .anyThread
  var record = false
  var recordLimit: UInt64 = 0
  var isolatesSharedState = false

  init(_ raw: UnsafeRawPointer?) throws(Failure) {
    guard let raw else { return }
    let version = raw.loadUnaligned(as: UInt32.self)
    guard version == 1 || version == Options.currentVersion else {
      throw Failure(
        .invalidArgument,
        "options.version is \(version), expected TCA_OPTIONS_VERSION (\(Options.currentVersion)) "
          + "or 1; initialize options with tca_options_init or TCA_OPTIONS_INIT")
    }
    switch raw.loadUnaligned(fromByteOffset: 4, as: Int32.self) {
    case 0: clock = .real
    case 1: clock = .manual
    case let other:
      throw Failure(
        .invalidArgument,
        "options.clock is \(other), expected TCA_CLOCK_REAL (0) or TCA_CLOCK_MANUAL (1)")
    }
    switch raw.loadUnaligned(fromByteOffset: 8, as: Int32.self) {
    case 0: threaded = false
    case 1: threaded = true
    case let other: throw Failure(.invalidArgument, "options.threaded is \(other), expected 0 or 1")
    }
    let seed = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    self.seed = seed == 0 ? nil : seed
    // NB: a version-1 struct is 24 bytes: nothing past them may be read.
    guard version >= 2 else { return }
    switch raw.loadUnaligned(fromByteOffset: 12, as: Int32.self) {
    case 0: requests = .callback
    case 1: requests = .queued
    case let other:
      throw Failure(
        .invalidArgument,
        "options.requests is \(other), expected TCA_REQUESTS_CALLBACK (0) or "
          + "TCA_REQUESTS_QUEUED (1)")
    }
    switch raw.loadUnaligned(fromByteOffset: 24, as: Int32.self) {
    case 0: answers = .anyThread
    case 1: answers = .hostThread
    case let other:
      throw Failure(
        .invalidArgument,
        "options.answers is \(other), expected TCA_ANSWERS_ANY_THREAD (0) or "
          + "TCA_ANSWERS_HOST_THREAD (1)")
    }
    switch raw.loadUnaligned(fromByteOffset: 28, as: Int32.self) {
    case 0: record = false
    case 1: record = true
    case let other: throw Failure(.invalidArgument, "options.record is \(other), expected 0 or 1")
    }
    // NB: record_limit was reserved[0]: 0, what older programs have there, keeps every line.
    recordLimit = raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
    // NB: shared and reserved32 were reserved[0]: 0, what older programs have there, shares.
    switch raw.loadUnaligned(fromByteOffset: 40, as: Int32.self) {
    case 0: isolatesSharedState = false
    case 1: isolatesSharedState = true
    case let other:
      throw Failure(
        .invalidArgument,
        "options.shared is \(other), expected TCA_SHARED_PROCESS (0) or TCA_SHARED_ISOLATED (1)")
    }
    guard raw.loadUnaligned(fromByteOffset: 44, as: Int32.self) == 0 else {
      throw Failure(.invalidArgument, "options.reserved32 is not 0")
    }
    for index in 0..<2 {
      let value = raw.loadUnaligned(fromByteOffset: 48 + 8 * index, as: UInt64.self)
      guard value == 0 else {
        throw Failure(.invalidArgument, "options.reserved[\(index)] is not 0")
      }
    }
    if threaded && answers == .hostThread {
      throw Failure(
        .invalidArgument,
        "options.answers is TCA_ANSWERS_HOST_THREAD with threaded = 1: the store's own thread "
          + "would apply the answers; choose one")
    }
  }
}

/// Fills `options` with the defaults of this version (`tca_options_init`).
@c public func tca_options_init(_ options: UnsafeMutableRawPointer?) {
  guard let options else { return }
  options.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
  options.storeBytes(of: Options.currentVersion, as: UInt32.self)
}

/// `TCA_TRACE=1` (any value but empty or "0"): every store traces to stderr. Read once.
let traceFromEnvironment: TraceSink? = {
  guard let value = getenv("TCA_TRACE"), value.pointee != 0 else { return nil }
  if strcmp(value, "0") == 0 { return nil }
  return .standardError
}()

@c public func tca_store_new(
  _ feature: UnsafePointer<CChar>?,
  _ stateJSON: UnsafePointer<CChar>?,
  _ options: UnsafeRawPointer?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  exported("tca_store_new") { () throws(Failure) in
    guard let out else { throw Failure(.invalidArgument, "out is NULL") }
    out.pointee = nil
    let saved = try stateJSON.map { (state) throws(Failure) in try bytes(of: state, "state_json") }
    out.pointee = try makeStore(feature, saved, options)
  }
}

@c public func tca_store_new_n(
  _ feature: UnsafePointer<CChar>?,
  _ stateJSON: UnsafePointer<CChar>?,
  _ stateLength: UInt,
  _ options: UnsafeRawPointer?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  exported("tca_store_new_n") { () throws(Failure) in
    guard let out else { throw Failure(.invalidArgument, "out is NULL") }
    out.pointee = nil
    let saved = try stateJSON.map { (state) throws(Failure) in
      try bytes(of: state, length: stateLength, "state_json")
    }
    out.pointee = try makeStore(feature, saved, options)
  }
}

/// tca_store_new_n with the feature name's length too.
@c public func tca_store_new_v2(
  _ feature: UnsafePointer<CChar>?,
  _ featureLength: UInt,
  _ stateJSON: UnsafePointer<CChar>?,
  _ stateLength: UInt,
  _ options: UnsafeRawPointer?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  exported("tca_store_new_v2") { () throws(Failure) in
    guard let out else { throw Failure(.invalidArgument, "out is NULL") }
    out.pointee = nil
    let name = try text(of: feature, length: featureLength, "feature")
    let saved = try stateJSON.map { (state) throws(Failure) in
      try bytes(of: state, length: stateLength, "state_json")
    }
    out.pointee = try makeStore(named: name, saved, options)
  }
}

private func makeStore(
  _ feature: UnsafePointer<CChar>?, _ saved: UnsafeBufferPointer<UInt8>?,
  _ rawOptions: UnsafeRawPointer?
) throws(Failure) -> OpaquePointer {
  try makeStore(named: try text(of: feature, "feature"), saved, rawOptions)
}

private func makeStore(
  named name: String, _ saved: UnsafeBufferPointer<UInt8>?, _ rawOptions: UnsafeRawPointer?
) throws(Failure) -> OpaquePointer {
  let options = try Options(rawOptions)
  if options.recordLimit != 0 && !options.record {
    throw Failure(
      .invalidArgument,
      "options.record_limit is \(options.recordLimit) with record = 0: only a recorded store "
        + "keeps a journal to limit")
  }
  let descriptor = try LinkedFeatures.feature(named: name)
  // NB: a store that records only for the inspector keeps the inspector's bound, not all.
  let inspected = !options.record && Devtools.isOn
  let store: any HostStore
  do throws(JSONError) {
    store = try descriptor.makeStore(
      state: saved,
      options: StoreOptions(
        clock: options.clock, seed: options.seed, trace: traceFromEnvironment,
        requests: options.requests, answers: options.answers,
        record: options.record || inspected,
        recordLimit: inspected ? Devtools.recordLimit : options.recordLimit,
        isolatesSharedState: options.isolatesSharedState))
  } catch {
    let failure = Failure(error)
    throw Failure(failure.status, "state_json " + failure.message)
  }
  return try register(
    Devtools.attach(store, feature: descriptor, library: "\(libraryVersion)"),
    threaded: options.threaded)
}

/// Gives `store` a handle (and a threaded store its thread).
func register(_ store: any HostStore, threaded: Bool) throws(Failure) -> OpaquePointer {
  var runner: Runner?
  if threaded {
    do {
      let fd = try store.fileDescriptor()
      runner = try Runner.start(store: store, fd: fd)
    } catch let error as StoreError {
      store.close()
      throw Failure(error)
    } catch {
      store.close()
      throw error as? Failure ?? Failure(.system, "\(error)")
    }
  }
  let handle = Handles.reserve()
  let context = StoreContext(
    handle: handle, store: store, callbacks: CallbackGate(), runner: runner)
  Handles.insert(context)
  // NB: unbound by `free` (and the context's deinit), before the context can go away.
  store.bindHost(UnsafeRawPointer(Unmanaged.passUnretained(context).toOpaque()))
  return handle.pointer.unsafelyUnwrapped
}

@c public func tca_store_free(_ store: OpaquePointer?) {
  Handles.remove(store)?.free()
}

@c public func tca_store_send(_ store: OpaquePointer?, _ action: UnsafePointer<CChar>?) -> Int32 {
  exported("tca_store_send") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, "action_json"), to: target)
  }
}

@c public func tca_store_send_n(
  _ store: OpaquePointer?, _ action: UnsafePointer<CChar>?, _ length: UInt
) -> Int32 {
  exported("tca_store_send_n") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, length: length, "action_json"), to: target)
  }
}

@inline(__always)
private func send(_ action: UnsafeBufferPointer<UInt8>, to store: StoreContext) throws(Failure) {
  do throws(StoreError) {
    try store.withStore { (store) throws(StoreError) in try store.send(json: action) }
  } catch {
    throw Failure(error)
  }
}

// MARK: - Reading

@c public func tca_store_state(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_state") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    if !target.store.isClosed, let (text, count) = try target.copyState() {
      outJSON.pointee = text
      outLength?.pointee = UInt(count)
      return
    }
    try deliver(try stateJSON(of: target), to: outJSON, length: outLength)
  }
}

@c public func tca_store_state_borrow(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_state_borrow") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    guard !target.store.isClosed else { throw Failure(.invalidHandle, "the store has been freed") }
    let (json, length) = try target.borrowState()
    outJSON.pointee = json
    outLength?.pointee = UInt(length)
  }
}

@c public func tca_store_get(
  _ store: OpaquePointer?,
  _ pointer: UnsafePointer<CChar>?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_get") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    let path = try text(of: pointer, "json_pointer")
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    try get(path, in: target, to: outJSON, length: outLength)
  }
}

@c public func tca_store_get_n(
  _ store: OpaquePointer?,
  _ pointer: UnsafePointer<CChar>?,
  _ pointerLength: UInt,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_get_n") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    let path = try text(of: pointer, length: pointerLength, "json_pointer")
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    try get(path, in: target, to: outJSON, length: outLength)
  }
}

/// The value at JSON Pointer `path` in the store's state, handed to the host.
private func get(
  _ path: String, in target: StoreContext,
  to outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
  length outLength: UnsafeMutablePointer<UInt>?
) throws(Failure) {
  let found: [UInt8]?
  do throws(StoreError) {
    found = try target.store.value(at: path)
  } catch {
    throw Failure(error)
  }
  if let found {
    try deliver(found, to: outJSON, length: outLength)
    return
  }
  let state = try stateJSON(of: target)
  let value: [UInt8]
  do throws(JSONError) {
    value = try JSONPointer.lookup(path, in: state)
  } catch {
    // NB: the state is our own valid JSON: a syntax error is the pointer's.
    switch error.kind {
    case .syntax: throw Failure(.invalidArgument, "json_pointer: \(error.message)")
    default: throw Failure(.notFound, "json_pointer \(JSONError.quoted(path)): \(error)")
    }
  }
  try deliver(value, to: outJSON, length: outLength)
}

private func stateJSON(of context: StoreContext) throws(Failure) -> [UInt8] {
  do throws(StoreError) {
    return try context.store.stateJSON()
  } catch {
    throw Failure(error)
  }
}

@c public func tca_store_patch(
  _ store: OpaquePointer?,
  _ sinceVersion: UInt64,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_patch") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    let patch: [UInt8]
    do throws(StoreError) {
      patch = try target.store.patch(since: sinceVersion)
    } catch {
      throw Failure(error)
    }
    try deliver(patch, to: outJSON, length: outLength)
  }
}

/// `TCA_VERSION_NONE`.
private let noVersion = UInt64.max

@c public func tca_store_version(_ store: OpaquePointer?) -> UInt64 {
  exported("tca_store_version", failing: noVersion) { () throws(Failure) in
    let target = try Handles.store(store)
    return try target.withStore { (store) throws(Failure) in
      guard !store.isClosed else { throw Failure(.invalidHandle, "the store has been freed") }
      return store.version
    }
  }
}
