#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Bridge) import StoreKernel

public typealias TCAEffectFunction =
  @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UInt64, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?, UInt
  ) -> Void
public typealias TCARequestFunction =
  @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeRawPointer?) -> Void
public typealias TCACancelFunction =
  @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void

/// What the kernel's handler calls for each request: the host's function, given the store's handle.
typealias RequestCall = @Sendable (HostRequestInfo, OpaquePointer?) -> Void

@c public func tca_store_set_effect_handler(
  _ store: OpaquePointer?, _ fn: TCAEffectFunction?, _ onCancel: TCACancelFunction?,
  _ userdata: UnsafeMutableRawPointer?
) -> Int32 {
  exported("tca_store_set_effect_handler") { () throws(Failure) in
    let target = try Handles.store(store)
    let call = fn.map { effectCall(HostFunction(function: $0, userdata: userdata)) }
    try setHandler(target, onCancel, userdata, call)
  }
}

@c public func tca_store_set_request_handler(
  _ store: OpaquePointer?, _ fn: TCARequestFunction?, _ onCancel: TCACancelFunction?,
  _ userdata: UnsafeMutableRawPointer?
) -> Int32 {
  exported("tca_store_set_request_handler") { () throws(Failure) in
    let target = try Handles.store(store)
    let call = fn.map { requestCall(HostFunction(function: $0, userdata: userdata)) }
    try setHandler(target, onCancel, userdata, call)
  }
}

private func effectCall(_ host: HostFunction<TCAEffectFunction>) -> RequestCall {
  { info, handle in
    withRequestStrings(info) { id, name, payload, count, _ in
      host.function(host.userdata, handle, id, name, payload, count)
    }
  }
}

private func requestCall(_ host: HostFunction<TCARequestFunction>) -> RequestCall {
  { info, handle in
    withRequestStrings(info) { id, name, payload, count, kind in
      withUnsafeTemporaryAllocation(byteCount: requestSize, alignment: 8) { request in
        guard let base = request.baseAddress else { return }
        storeRequest(
          at: base, id: id, name: UnsafeRawPointer(name), payload: UnsafeRawPointer(payload),
          count: count, kind: requestKind(kind))
        host.function(host.userdata, handle, UnsafeRawPointer(base))
      }
    }
  }
}

/// The size of a `tca_request`.
let requestSize = 40

/// Writes a `tca_request` at `request` (``requestSize`` bytes), field by field at the offsets of
/// its C layout: {u64 id; const char *name; const char *payload_json; size_t payload_length;
/// i32 kind; (4 bytes padding, zeroed)}.
@inline(__always)
func storeRequest(
  at request: UnsafeMutableRawPointer, id: UInt64, name: UnsafeRawPointer,
  payload: UnsafeRawPointer, count: UInt, kind: Int32
) {
  request.initializeMemory(as: UInt8.self, repeating: 0, count: requestSize)
  request.storeBytes(of: id, toByteOffset: 0, as: UInt64.self)
  request.storeBytes(of: name, toByteOffset: 8, as: UnsafeRawPointer.self)
  request.storeBytes(of: payload, toByteOffset: 16, as: UnsafeRawPointer.self)
  request.storeBytes(of: count, toByteOffset: 24, as: UInt.self)
  request.storeBytes(of: kind, toByteOffset: 32, as: Int32.self)
}

/// `kind` as `tca_request.kind` gives it.
func requestKind(_ kind: HostRequestKind) -> Int32 {
  switch kind {
  case .oneShot: return 0
  case .stream: return 1
  case .fireAndForget: return 2
  }
}

/// Runs `body` with the request's id, its name and payload as NUL-terminated strings, the
/// payload's length and the request's kind.
///
/// NB: `body` gets the fields, not `info`: a closure capturing `info` copied its string and its
/// array (a retain and a release each) at every level, six times a request.
@inline(__always)
private func withRequestStrings<R>(
  _ info: HostRequestInfo,
  _ body: (UInt64, UnsafePointer<CChar>, UnsafePointer<CChar>, UInt, HostRequestKind) -> R
) -> R {
  let (id, kind, count) = (info.id, info.kind, info.payloadCount)
  // NB: one closure level (each was a call frame: the host's answer is decoded ~35 calls deep,
  // and levels beyond the CPU's return stack cost a mispredicted return each; docs/benchmarks.md).
  return info.name.withCString { name in
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(count, 16) + 1) { buffer in
      let text = buffer.baseAddress.unsafelyUnwrapped
      info.copyPayload(to: UnsafeMutableRawPointer(text))
      text[count] = 0
      return body(id, name, UnsafePointer(text), UInt(count), kind)
    }
  }
}

/// Sets the kernel's request handler to call `onRequest` (and `onCancel`) through the store's
/// callback gate, or removes it.
private func setHandler(
  _ target: StoreContext, _ onCancel: TCACancelFunction?, _ userdata: UnsafeMutableRawPointer?,
  _ onRequest: RequestCall?
) throws(Failure) {
  guard let onRequest else {
    guard onCancel == nil else {
      throw Failure(.invalidArgument, "on_cancel is set but fn is NULL")
    }
    try setKernelHandler(target, nil)
    return
  }
  let (handle, gate) = (target.handle, target.callbacks)
  let cancel = onCancel.map { HostFunction(function: $0, userdata: userdata) }
  try setKernelHandler(
    target,
    HostRequestHandler(
      onRequest: { info in gate.run { onRequest(info, handle.pointer) } },
      onCancel: { id in
        guard let cancel else { return }
        gate.run { cancel.function(cancel.userdata, handle.pointer, id) }
      }))
}

private func setKernelHandler(
  _ target: StoreContext, _ handler: HostRequestHandler?
) throws(Failure) {
  do throws(StoreError) {
    try target.store.setRequestHandler(handler)
  } catch {
    throw Failure(error)
  }
}

// MARK: - Answers

@c public func tca_store_respond(
  _ store: OpaquePointer?, _ requestID: UInt64, _ response: UnsafePointer<CChar>?
) -> Int32 {
  exported("tca_store_respond") { () throws(Failure) in
    try answer(store) { (target) throws(Failure) in
      let json = try bytes(of: response, "response_json")
      try checked { () throws(StoreError) in try target.respond(to: requestID, json: json) }
    }
  }
}

@c public func tca_store_respond_n(
  _ store: OpaquePointer?, _ requestID: UInt64, _ response: UnsafePointer<CChar>?,
  _ length: UInt
) -> Int32 {
  exported("tca_store_respond_n") { () throws(Failure) in
    try answer(store) { (target) throws(Failure) in
      let json = try bytes(of: response, length: length, "response_json")
      try checked { () throws(StoreError) in try target.respond(to: requestID, json: json) }
    }
  }
}

@c public func tca_store_fail(
  _ store: OpaquePointer?, _ requestID: UInt64, _ message: UnsafePointer<CChar>?
) -> Int32 {
  exported("tca_store_fail") { () throws(Failure) in
    try answer(store) { (target) throws(Failure) in
      let reason = try text(of: message, "message")
      try checked { () throws(StoreError) in try target.fail(requestID, message: reason) }
    }
  }
}

@c public func tca_store_fail_n(
  _ store: OpaquePointer?, _ requestID: UInt64, _ message: UnsafePointer<CChar>?, _ length: UInt
) -> Int32 {
  exported("tca_store_fail_n") { () throws(Failure) in
    try answer(store) { (target) throws(Failure) in
      let reason = try text(of: message, length: length, "message")
      try checked { () throws(StoreError) in try target.fail(requestID, message: reason) }
    }
  }
}

@c public func tca_store_complete(_ store: OpaquePointer?, _ requestID: UInt64) -> Int32 {
  exported("tca_store_complete") { () throws(Failure) in
    try answer(store) { (target) throws(Failure) in
      try checked { () throws(StoreError) in try target.complete(requestID) }
    }
  }
}

/// Calls `body` with the store `handle` names, to give it an answer (found without the table
/// inside the store's callbacks: ``Handles/withStore(_:_:)``).
@inline(__always)
private func answer(
  _ handle: OpaquePointer?, _ body: (any HostStore) throws(Failure) -> Void
) throws(Failure) {
  try Handles.withStore(handle) { (target) throws(Failure) in try body(target.store) }
}

/// Runs `body`, turning the store's error into the bridge's.
@inline(__always)
private func checked(_ body: () throws(StoreError) -> Void) throws(Failure) {
  do throws(StoreError) {
    try body()
  } catch {
    throw Failure(error)
  }
}
