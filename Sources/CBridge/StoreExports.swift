#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import JSON
import StoreKernel

/// The layout of `tca_options` in tca.h, version 1: `{u32 version; i32 clock; i32 threaded;
/// (4 bytes padding) u64 seed}`.
struct Options {
  static let currentVersion: UInt32 = 1
  var clock: StoreClock.Kind = .real
  var threaded = false
  var seed: UInt64? = nil

  init(_ raw: UnsafeRawPointer?) throws(Failure) {
    guard let raw else { return }
    let version = raw.loadUnaligned(as: UInt32.self)
    guard version == Options.currentVersion else {
      throw Failure(
        .invalidArgument,
        "options.version is \(version), expected TCA_OPTIONS_VERSION (\(Options.currentVersion)); "
          + "initialize options with TCA_OPTIONS_INIT")
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
  }
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

private func makeStore(
  _ feature: UnsafePointer<CChar>?, _ saved: UnsafeBufferPointer<UInt8>?,
  _ rawOptions: UnsafeRawPointer?
) throws(Failure) -> OpaquePointer {
  let name = try text(of: feature, "feature")
  let options = try Options(rawOptions)
  let descriptor = try LinkedFeatures.feature(named: name)
  let store: any HostStore
  do throws(JSONError) {
    store = try descriptor.makeStore(
      state: saved,
      options: StoreOptions(clock: options.clock, seed: options.seed, trace: traceFromEnvironment))
  } catch {
    let failure = Failure(error)
    throw Failure(failure.status, "state_json " + failure.message)
  }
  var runner: Runner?
  if options.threaded {
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
  Handles.insert(
    StoreContext(handle: handle, store: store, callbacks: CallbackGate(), runner: runner))
  return handle.pointer.unsafelyUnwrapped
}

@c public func tca_store_free(_ store: OpaquePointer?) {
  Handles.remove(store)?.free()
}

@c public func tca_store_send(_ store: OpaquePointer?, _ action: UnsafePointer<CChar>?) -> Int32 {
  exported("tca_store_send") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, "action_json"), to: target.store)
  }
}

@c public func tca_store_send_n(
  _ store: OpaquePointer?, _ action: UnsafePointer<CChar>?, _ length: UInt
) -> Int32 {
  exported("tca_store_send_n") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, length: length, "action_json"), to: target.store)
  }
}

@inline(__always)
private func send(_ action: UnsafeBufferPointer<UInt8>, to store: any HostStore) throws(Failure) {
  do throws(StoreError) {
    try store.send(json: action)
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
    try deliver(try stateJSON(of: target), to: outJSON, length: outLength)
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
}

private func stateJSON(of context: StoreContext) throws(Failure) -> [UInt8] {
  do throws(StoreError) {
    return try context.store.stateJSON()
  } catch {
    throw Failure(error)
  }
}

/// `TCA_VERSION_NONE`.
private let noVersion = UInt64.max

@c public func tca_store_version(_ store: OpaquePointer?) -> UInt64 {
  exported("tca_store_version", failing: noVersion) { () throws(Failure) in
    let target = try Handles.store(store)
    guard !target.store.isClosed else { throw Failure(.invalidHandle, "the store has been freed") }
    return target.store.version
  }
}
