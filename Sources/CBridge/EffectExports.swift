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
public typealias TCACancelFunction = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void

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
      // NB: `tca_request` is written field by field at the offsets of its C layout:
      // {u64 id; const char *name; const char *payload_json; size_t payload_length; i32 kind;
      //  (4 bytes padding)}.
      withUnsafeTemporaryAllocation(byteCount: 40, alignment: 8) { request in
        request.initializeMemory(as: UInt8.self, repeating: 0)
        request.storeBytes(of: id, toByteOffset: 0, as: UInt64.self)
        request.storeBytes(of: name, toByteOffset: 8, as: UnsafePointer<CChar>.self)
        request.storeBytes(of: payload, toByteOffset: 16, as: UnsafePointer<CChar>.self)
        request.storeBytes(of: count, toByteOffset: 24, as: UInt.self)
        request.storeBytes(of: requestKind(kind), toByteOffset: 32, as: Int32.self)
        host.function(host.userdata, handle, UnsafeRawPointer(request.baseAddress))
      }
    }
  }
}

private func requestKind(_ kind: HostRequestKind) -> Int32 {
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

private func setKernelHandler(_ target: StoreContext, _ handler: HostRequestHandler?) throws(Failure) {
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

// MARK: - Pull mode

@c public func tca_store_take_requests(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_take_requests") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    let notices: [HostRequestNotice]
    do throws(StoreError) {
      notices = try target.store.takeRequests()
    } catch {
      throw Failure(error)
    }
    let (text, count) = try noticesJSON(notices)
    outJSON.pointee = text
    outLength?.pointee = UInt(count)
  }
}

/// The notices as `tca_store_take_requests` gives them, in memory from `malloc` (NUL-terminated,
/// for the host to release with `tca_string_free`), and their length in bytes:
/// `[{"id":7,"name":"numberFact.fetch","kind":"oneShot","payload":…},{"cancelled":7}]`.
///
/// NB: written once into the host's buffer, sized for the longest text the notices can make,
/// with no string or array made on the way: built from interpolated strings appended to an
/// array, then copied, a take of one request cost ~8,400 instructions (docs/benchmarks.md: pull
/// mode).
func noticesJSON(
  _ notices: [HostRequestNotice]
) throws(Failure) -> (text: UnsafeMutablePointer<CChar>, count: Int) {
  // NB: a request's fixed text and id take at most 80 bytes, its name 6 a byte (`\u00XX`); 16
  // bytes more for a short payload's copy (see `HostRequestInfo.copyPayload(to:)`).
  var room = 2 + 16 + 1
  for notice in notices {
    switch notice {
    case let .request(info): room += 80 + 6 * info.name.utf8.count + info.payloadCount
    case .cancelled: room += 40
    }
  }
  guard let memory = malloc(room) else {
    throw Failure(.noMemory, "out of memory for \(room) bytes")
  }
  let start = memory.assumingMemoryBound(to: UInt8.self)
  var out = NoticeWriter(cursor: start)
  out.byte(UInt8(ascii: "["))
  var first = true
  for notice in notices {
    if !first { out.byte(UInt8(ascii: ",")) }
    first = false
    switch notice {
    case let .request(info):
      out.text("{\"id\":")
      out.decimal(info.id)
      out.text(",\"name\":")
      out.quoted(info.name)
      out.text(",\"kind\":\"")
      out.text(kindText(info.kind))
      out.text("\",\"payload\":")
      info.copyPayload(to: out.cursor)
      out.cursor += info.payloadCount
      out.byte(UInt8(ascii: "}"))
    case let .cancelled(id):
      out.text("{\"cancelled\":")
      out.decimal(id)
      out.byte(UInt8(ascii: "}"))
    }
  }
  out.byte(UInt8(ascii: "]"))
  let count = out.cursor - start
  out.byte(0)
  return (memory.assumingMemoryBound(to: CChar.self), count)
}

/// `kind` as the notices spell it (its raw value).
private func kindText(_ kind: HostRequestKind) -> StaticString {
  switch kind {
  case .oneShot: return "oneShot"
  case .stream: return "stream"
  case .fireAndForget: return "fireAndForget"
  }
}

/// Writes JSON text into memory with room for it.
private struct NoticeWriter {
  var cursor: UnsafeMutablePointer<UInt8>

  mutating func byte(_ byte: UInt8) {
    cursor.initialize(to: byte)
    cursor += 1
  }

  mutating func text(_ text: StaticString) {
    cursor.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
    cursor += text.utf8CodeUnitCount
  }

  mutating func decimal(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var rest = value
      var index = buffer.count
      repeat {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      let count = buffer.count - index
      if let base = buffer.baseAddress {
        cursor.initialize(from: (base + index).assumingMemoryBound(to: UInt8.self), count: count)
      }
      cursor += count
    }
  }

  /// `text` as a JSON string, quoted and escaped.
  ///
  /// NB: through the string's UTF-8 buffer: iterated as `text.utf8`, a request's name cost ~40
  /// instructions a byte.
  mutating func quoted(_ text: String) {
    var text = text
    text.withUTF8 { quoted($0) }
  }

  private mutating func quoted(_ bytes: UnsafeBufferPointer<UInt8>) {
    byte(UInt8(ascii: "\""))
    for unit in bytes {
      switch unit {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        byte(UInt8(ascii: "\\"))
        byte(unit)
      case 0..<0x20:
        self.text("\\u00")
        byte(hexDigit(unit >> 4))
        byte(hexDigit(unit & 0xF))
      default:
        byte(unit)
      }
    }
    byte(UInt8(ascii: "\""))
  }

  private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
  }
}
