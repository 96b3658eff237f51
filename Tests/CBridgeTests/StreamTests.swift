import CBridge
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The C ABI, called from Swift exactly as a C host calls it, on a test-only feature with a stream,
// a fire-and-forget request and a timer (TestFeatures.swift): the cases the built-in features do
// not reach. The C tests (Tests/c) cover the rest against libtca.so.

/// What the host saw, behind a lock; reached from C callbacks through `userdata`.
final class HostLog: @unchecked Sendable {
  struct Request: Equatable {
    var id: UInt64
    var name: String
    var payload: String
    var kind: Int32
  }
  private let lock = Mutex(([Request](), [UInt64]()))
  func request(_ request: Request) { lock.withLock { $0.0.append(request) } }
  func cancel(_ id: UInt64) { lock.withLock { $0.1.append(id) } }
  var requests: [Request] { lock.withLock { $0.0 } }
  var cancels: [UInt64] { lock.withLock { $0.1 } }
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
  static func from(_ userdata: UnsafeMutableRawPointer?) -> HostLog? {
    userdata.map { Unmanaged<HostLog>.fromOpaque($0).takeUnretainedValue() }
  }
}

private let onRequest: TCARequestFunction = { userdata, _, raw in
  guard let raw, let log = HostLog.from(userdata) else { return }
  let id = raw.load(fromByteOffset: 0, as: UInt64.self)
  let name = raw.load(fromByteOffset: 8, as: UnsafePointer<CChar>.self)
  let payload = raw.load(fromByteOffset: 16, as: UnsafePointer<CChar>.self)
  let length = raw.load(fromByteOffset: 24, as: UInt.self)
  let kind = raw.load(fromByteOffset: 32, as: Int32.self)
  #expect(strlen(payload) == Int(length))
  log.request(.init(id: id, name: String(cString: name), payload: String(cString: payload), kind: kind))
}

private let onCancel: TCACancelFunction = { userdata, _, id in HostLog.from(userdata)?.cancel(id) }

private func newStore(threaded: Bool = false, manual: Bool = false) throws -> OpaquePointer {
  var handle: OpaquePointer?
  // tca_options, version 1.
  var options: (UInt32, Int32, Int32, UInt32, UInt64) = (1, manual ? 1 : 0, threaded ? 1 : 0, 0, 0)
  let status = withUnsafeBytes(of: &options) { tca_store_new("scores", nil, $0.baseAddress, &handle) }
  #expect(status == 0, "\(String(cString: tca_last_error()))")
  return try #require(handle)
}

private func get(_ store: OpaquePointer, _ pointer: String) -> String? {
  var json: UnsafeMutablePointer<CChar>?
  guard tca_store_get(store, pointer, &json, nil) == 0, let json else { return nil }
  defer { tca_string_free(json) }
  return String(cString: json)
}

// Status codes of tca.h.
private let ok: Int32 = 0
private let jsonShape: Int32 = 5
private let requestFinished: Int32 = 8

@Test func aStreamTakesManyAnswersThenCompletes() throws {
  let log = HostLog()
  let store = try newStore()
  defer { tca_store_free(store) }
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let request = try #require(log.requests.first)
  #expect(request.name == "scores.live")
  #expect(request.payload == #"{"game":7}"#)
  #expect(request.kind == 1)  // TCA_REQUEST_STREAM

  for score in [3, 1, 4] { #expect(tca_store_respond(store, request.id, "\(score)") == ok) }
  #expect(tca_store_respond(store, request.id, "\"four\"") == jsonShape)
  #expect(get(store, "/scores") == "[3,1,4]")
  #expect(get(store, "/ended") == "false")
  #expect(tca_store_complete(store, request.id) == ok)
  #expect(get(store, "/ended") == "true")
  #expect(tca_store_respond(store, request.id, "5") == requestFinished)
  #expect(tca_store_complete(store, request.id) == requestFinished)
  #expect(get(store, "/scores") == "[3,1,4]")
  #expect(log.cancels.isEmpty)
}

@Test func aFailureEndsAStream() throws {
  let log = HostLog()
  let store = try newStore()
  defer { tca_store_free(store) }
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let id = try #require(log.requests.first?.id)
  #expect(tca_store_respond(store, id, "9") == ok)
  #expect(tca_store_fail(store, id, "the feed dropped") == ok)
  #expect(get(store, "/error") == "\"the feed dropped\"")
  #expect(tca_store_respond(store, id, "10") == requestFinished)
  #expect(get(store, "/scores") == "[9]")
}

@Test func cancellingAStreamTellsTheHost() throws {
  let log = HostLog()
  let store = try newStore()
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let first = try #require(log.requests.first?.id)
  #expect(tca_store_send(store, "\"stopTapped\"") == ok)
  #expect(log.cancels == [first])
  #expect(tca_store_respond(store, first, "1") == requestFinished)
  // Restarting cancels nothing (nothing in flight); a stream in flight at free is cancelled.
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let second = try #require(log.requests.last?.id)
  #expect(second != first)
  tca_store_free(store)
  #expect(log.cancels == [first, second])
}

@Test func fireAndForgetRequestsTakeNoAnswer() throws {
  let log = HostLog()
  let store = try newStore()
  defer { tca_store_free(store) }
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"cheer\"") == ok)
  let request = try #require(log.requests.first)
  #expect(request.name == "sound.play")
  #expect(request.kind == 2)  // TCA_REQUEST_FIRE_AND_FORGET
  #expect(tca_store_respond(store, request.id, "null") == requestFinished)
  #expect(tca_store_complete(store, request.id) == requestFinished)
  #expect(tca_store_fail(store, request.id, "x") == requestFinished)
}

@Test func aStreamIsCompletedOnce() throws {
  let log = HostLog()
  let store = try newStore()
  defer { tca_store_free(store) }
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let id = try #require(log.requests.first?.id)
  // (Completing a one-shot request, TCA_ERR_NOT_A_STREAM, is tested on the counter in Tests/c.)
  #expect(tca_store_complete(store, id) == ok)
  #expect(tca_store_complete(store, id) == requestFinished)
}

@Test func aStreamAnsweredFromManyThreads() throws {
  let log = HostLog()
  let store = try newStore(threaded: true)
  defer { tca_store_free(store) }
  #expect(tca_store_set_request_handler(store, onRequest, onCancel, log.userdata) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  let id = try #require(log.requests.first?.id)
  let handle = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(store)))
  let threads = 4
  let each = 250
  var workers: [pthread_t] = []
  for _ in 0..<threads {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box((handle, id, each)))
    pthread_create(&thread, nil, { raw in
      guard let raw else { return nil }
      let box = Unmanaged<Box<(UInt, UInt64, Int)>>.fromOpaque(raw).takeRetainedValue()
      let (handle, id, each) = box.value
      let store = OpaquePointer(bitPattern: handle)
      for _ in 0..<each { _ = tca_store_respond(store, id, "1") }
      return nil
    }, context.toOpaque())
    workers.append(thread)
  }
  for thread in workers { pthread_join(thread, nil) }
  // Every answer was applied (by its own call or the one holding the store) before it returned.
  let scores = try #require(get(store, "/scores"))
  #expect(scores.split(separator: ",").count == threads * each)
  #expect(tca_store_complete(store, id) == ok)
  #expect(get(store, "/ended") == "true")
}

/// How many times a subscriber was told, and the last version it was told of.
private final class Notices: @unchecked Sendable {
  let calls = Atomic<Int>(0)
  let version = Atomic<UInt64>(0)
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

private let countNotices: TCAStateFunction = { userdata, _, version in
  guard let userdata else { return }
  let notices = Unmanaged<Notices>.fromOpaque(userdata).takeUnretainedValue()
  notices.calls.add(1, ordering: .relaxed)
  notices.version.store(version, ordering: .relaxed)
}

// Pull mode: a stream's elements, failure and completion given outside any callback are each
// applied by the call that gives them, its subscribers told, before that call returns.
@Test func aStreamInPullModeIsAppliedByTheAnsweringCall() throws {
  var raw = [UInt8](repeating: 0, count: 64)
  var handle: OpaquePointer?
  let status = raw.withUnsafeMutableBytes { options -> Int32 in
    tca_options_init(options.baseAddress)
    options.storeBytes(of: 1, toByteOffset: 12, as: Int32.self)  // TCA_REQUESTS_QUEUED
    return tca_store_new("scores", nil, options.baseAddress, &handle)
  }
  #expect(status == ok, "\(String(cString: tca_last_error()))")
  let store = try #require(handle)
  defer { tca_store_free(store) }
  let notices = Notices()
  var token: UInt64 = 0
  #expect(tca_store_subscribe(store, countNotices, notices.userdata, &token) == ok)
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  var taken: UnsafeRawPointer?
  var count: UInt = 0
  #expect(tca_store_take_requests_v2(store, &taken, &count) == ok)
  #expect(count == 1)
  let id = try #require(taken).load(as: UInt64.self)
  #expect(try #require(taken).load(fromByteOffset: 32, as: Int32.self) == 1)  // a stream

  for (score, scores) in [(3, "[3]"), (1, "[3,1]"), (4, "[3,1,4]")] {
    let before = notices.calls.load(ordering: .relaxed)
    #expect(tca_store_respond(store, id, "\(score)") == ok)
    #expect(notices.calls.load(ordering: .relaxed) == before + 1)
    #expect(notices.version.load(ordering: .relaxed) == tca_store_version(store))
    #expect(get(store, "/scores") == scores)
  }
  // A bad element is refused and changes nothing; the stream stays open.
  let version = tca_store_version(store)
  #expect(tca_store_respond(store, id, "\"four\"") == jsonShape)
  #expect(tca_store_version(store) == version)
  #expect(tca_store_complete(store, id) == ok)
  #expect(get(store, "/ended") == "true")
  #expect(tca_store_respond(store, id, "5") == requestFinished)
  #expect(tca_store_complete(store, id) == requestFinished)
  #expect(get(store, "/scores") == "[3,1,4]")

  // A failure ends a stream, applied at once too.
  #expect(tca_store_send(store, "\"watchTapped\"") == ok)
  #expect(tca_store_take_requests_v2(store, &taken, &count) == ok)
  #expect(count == 1)
  let next = try #require(taken).load(as: UInt64.self)
  #expect(tca_store_fail(store, next, "the feed dropped") == ok)
  #expect(get(store, "/error") == "\"the feed dropped\"")
  #expect(tca_store_respond(store, next, "6") == requestFinished)
  #expect(tca_store_unsubscribe(store, token) == ok)
}

@Test func aThreadedStoreFiresRealClockTimersByItself() throws {
  let store = try newStore(threaded: true)
  defer { tca_store_free(store) }
  #expect(tca_store_send(store, "\"tickLater\"") == ok)
  #expect(get(store, "/ticks") == "0")
  let deadline = tca_store_next_deadline_ms(store)
  #expect(deadline > 0 && deadline <= 100)
  // No poll: the store's thread runs the timer.
  var waited = 0
  while get(store, "/ticks") != "1" && waited < 5000 {
    usleep(5000)
    waited += 5
  }
  #expect(get(store, "/ticks") == "1")
  #expect(tca_store_next_deadline_ms(store) == -1)
}

final class Box<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
