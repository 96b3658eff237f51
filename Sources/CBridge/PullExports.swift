#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Bridge) import StoreKernel

// Pull mode: the host takes the requests and cancellation notices waiting in a store, as JSON
// (`tca_store_take_requests`) or as `tca_request` structs (`tca_store_take_requests_v2`).

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
    let notices = try takeNotices(target)
    let (text, count) = try noticesJSON(notices)
    outJSON.pointee = text
    outLength?.pointee = UInt(count)
  }
}

/// The requests and notices waiting in `target`, now the host's.
private func takeNotices(_ target: StoreContext) throws(Failure) -> [HostRequestNotice] {
  do throws(StoreError) {
    return try target.withStore { (store) throws(StoreError) in try store.takeRequests() }
  } catch {
    throw Failure(error)
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

/// `tca_request.kind` of a cancellation notice (`TCA_REQUEST_CANCELLED`).
private let cancelledKind: Int32 = 3

@c public func tca_store_take_requests_v2(
  _ store: OpaquePointer?,
  _ outRequests: UnsafeMutablePointer<UnsafeRawPointer?>?,
  _ outCount: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_take_requests_v2") { () throws(Failure) in
    outRequests?.pointee = nil
    outCount?.pointee = 0
    let target = try Handles.store(store)
    guard let outRequests else { throw Failure(.invalidArgument, "out_requests is NULL") }
    guard let outCount else { throw Failure(.invalidArgument, "out_count is NULL") }
    let notices = try takeNotices(target)
    guard !notices.isEmpty else { return }
    outRequests.pointee = UnsafeRawPointer(try LentRequests.write(notices))
    outCount.pointee = UInt(notices.count)
  }
}

/// The `tca_request` array `tca_store_take_requests_v2` lends: one buffer per thread, kept
/// from one call to the next (grown when a take needs more) and freed when the thread ends.
///
/// NB: lent per thread, not per store, so that two threads taking from one store never write
/// into the memory the other reads; and kept, so that a take costs no allocation
/// (docs/benchmarks.md: pull mode).
enum LentRequests {
  /// This thread's buffer: its capacity in the first word, the array after it.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
  }()

  /// The array of `notices` (and their strings), written into this thread's buffer.
  static func write(_ notices: [HostRequestNotice]) throws(Failure) -> UnsafeMutableRawPointer {
    // NB: a payload is copied 16 bytes at a time at least (see `HostRequestInfo.copyPayload`).
    var room = requestSize * notices.count
    for notice in notices {
      switch notice {
      case let .request(info): room += info.name.utf8.count + 1 + max(info.payloadCount, 16) + 1
      case .cancelled: room += 1 + 5
      }
    }
    let array = try buffer(room)
    var strings = array + requestSize * notices.count
    for (index, notice) in notices.enumerated() {
      let request = array + requestSize * index
      switch notice {
      case let .request(info):
        var name = info.name
        let nameStart = strings
        name.withUTF8 { bytes in
          if let base = bytes.baseAddress { strings.copyMemory(from: base, byteCount: bytes.count) }
          strings += bytes.count
        }
        strings.storeBytes(of: 0, as: UInt8.self)
        strings += 1
        let payloadStart = strings
        info.copyPayload(to: strings)
        strings += info.payloadCount
        strings.storeBytes(of: 0, as: UInt8.self)
        strings += 1
        storeRequest(
          at: request, id: info.id, name: nameStart, payload: payloadStart,
          count: UInt(info.payloadCount), kind: requestKind(info.kind))
      case let .cancelled(id):
        // NB: an empty name and the payload `null`, so that a host printing every field of
        // every entry reads valid text.
        let nameStart = strings
        strings.copyMemory(from: "\0null\0", byteCount: 6)
        strings += 6
        storeRequest(
          at: request, id: id, name: nameStart, payload: nameStart + 1, count: 4,
          kind: cancelledKind)
      }
    }
    return array
  }

  /// This thread's buffer with room for `bytes` (after its capacity word), grown if needed.
  private static func buffer(_ bytes: Int) throws(Failure) -> UnsafeMutableRawPointer {
    let header = 16
    if let kept = pthread_getspecific(key), kept.load(as: Int.self) >= bytes {
      return kept + header
    }
    // NB: at least 1 KiB, and double what is asked, so that a growing take grows rarely.
    let capacity = max(1024, bytes * 2)
    guard let grown = realloc(pthread_getspecific(key), header + capacity) else {
      throw Failure(.noMemory, "out of memory for \(header + capacity) bytes")
    }
    grown.storeBytes(of: capacity, as: Int.self)
    pthread_setspecific(key, grown)
    return grown + header
  }
}
