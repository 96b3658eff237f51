import JSON
import StoreKernel

/// The layout of `tca_options` in tca.h, version 1.
struct Options {
  static let currentVersion: UInt32 = 1
  var clock: Int32 = 0
  var threaded: Int32 = 0
  var seed: UInt64 = 0

  init(_ raw: UnsafeRawPointer?) throws(Failure) {
    guard let raw else { return }
    let version = raw.loadUnaligned(as: UInt32.self)
    guard version == Options.currentVersion else {
      throw Failure(.invalidArgument, "options.version is \(version), expected TCA_OPTIONS_VERSION (1)")
    }
    clock = raw.loadUnaligned(fromByteOffset: 4, as: Int32.self)
    threaded = raw.loadUnaligned(fromByteOffset: 8, as: Int32.self)
    seed = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    guard clock == 0 else { throw Failure(.invalidArgument, "options.clock \(clock) is not supported") }
    guard threaded == 0 else { throw Failure(.invalidArgument, "threaded stores are not supported") }
  }
}

@c public func tca_store_new(
  _ feature: UnsafePointer<CChar>?,
  _ stateJSON: UnsafePointer<CChar>?,
  _ options: UnsafeRawPointer?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  exported("tca_store_new") { () throws(Failure) in
    guard let out else { throw Failure(.invalidArgument, "out is NULL") }
    out.pointee = nil
    let nameBytes = try bytes(of: feature, "feature")
    let name = String(decoding: nameBytes, as: UTF8.self)
    _ = try Options(options)
    let descriptor = try LinkedFeatures.feature(named: name)
    let saved = try stateJSON.map { (state) throws(Failure) in try bytes(of: state, "state_json") }
    do throws(JSONError) {
      let store = try descriptor.makeStore(state: saved)
      out.pointee = Handles.insert(store)
    } catch {
      let failure = Failure(error)
      throw Failure(failure.status, "state_json " + failure.message)
    }
  }
}

@c public func tca_store_free(_ store: OpaquePointer?) {
  _ = Handles.remove(store)
}

@c public func tca_store_send(_ store: OpaquePointer?, _ action: UnsafePointer<CChar>?) -> Int32 {
  exported("tca_store_send") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, "action_json"), to: target)
  }
}

@c public func tca_store_send_n(
  _ store: OpaquePointer?, _ action: UnsafePointer<CChar>?, _ length: Int
) -> Int32 {
  exported("tca_store_send_n") { () throws(Failure) in
    let target = try Handles.store(store)
    try send(try bytes(of: action, length: length, "action_json"), to: target)
  }
}

private func send(_ action: UnsafeBufferPointer<UInt8>, to store: any HostStore) throws(Failure) {
  do throws(StoreError) {
    try store.send(json: action)
  } catch {
    throw Failure(error)
  }
}

@c public func tca_store_state(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
  exported("tca_store_state") { () throws(Failure) in
    let target = try Handles.store(store)
    let json: [UInt8]
    do throws(StoreError) { json = try target.stateJSON() } catch { throw Failure(error) }
    try deliver(json, to: outJSON, length: outLength)
  }
}
