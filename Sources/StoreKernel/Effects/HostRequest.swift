import JSON
import Synchronization

/// Why the host could not do what a request asked: the message it gave to `fail`, or the
/// library's own reason (no handler set, a payload that cannot be encoded).
public struct HostFailure: Error, Equatable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// A request the host is asked to perform, as its handler receives it.
public struct HostRequestInfo: Sendable, Equatable {
  /// Never reused within a store; answers name it.
  public var id: UInt64
  /// What to do: `"numberFact.fetch"`.
  public var name: String
  /// The request's payload, encoded as JSON.
  public var payload: [UInt8] {
    get { body.bytes }
    set { body = RequestPayload(newValue) }
  }
  /// How the host is expected to answer.
  public var kind: HostRequestKind
  /// The payload as the request keeps it (a short one inline: see ``RequestPayload``).
  var body: RequestPayload

  public init(id: UInt64, name: String, payload: [UInt8], kind: HostRequestKind) {
    self.init(id: id, name: name, body: RequestPayload(payload), kind: kind)
  }

  init(id: UInt64, name: String, body: RequestPayload, kind: HostRequestKind) {
    self.id = id
    self.name = name
    self.body = body
    self.kind = kind
  }

  /// Calls `body` with the payload's bytes (valid only inside it), without copying them into an
  /// array.
  @_spi(Bridge)
  public func withPayloadBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    self.body.withUnsafeBytes(body)
  }

  /// The payload's length in bytes.
  @_spi(Bridge)
  public var payloadCount: Int { body.count }

  /// Copies the payload to `destination`, which has room for `max(payloadCount, 16)` bytes
  /// (more may be written than `payloadCount`).
  @_spi(Bridge)
  public func copyPayload(to destination: UnsafeMutableRawPointer) {
    body.copyBytes(to: destination)
  }

  /// The payload decoded as `T`.
  public func payload<T: Decodable>(as type: T.Type = T.self) throws(JSONError) -> T {
    try JSONDecoder().decode(type, from: body.bytes)
  }
}

/// How a host answers a request.
public enum HostRequestKind: String, Sendable, Equatable, Codable {
  /// One answer (`respond`) or one failure (`fail`).
  case oneShot
  /// Any number of answers, then `complete` (or `fail`).
  case stream
  /// No answer: the request is finished as soon as it is made.
  case fireAndForget
}

/// Where a store's host requests go: the host performs `onRequest` and answers through the store;
/// `onCancel` tells it a request still in flight was cancelled and will take no answer.
///
/// Both are called with no lock of the store held, on a thread inside a call into the store (its
/// `send`, `poll`, `advance`, `respond` or `close`), never concurrently for one store; in pull
/// mode (``RequestDelivery/queued``) neither is called: see ``Store/takeRequests()``.
public struct HostRequestHandler: Sendable {
  public var onRequest: @Sendable (HostRequestInfo) -> Void
  public var onCancel: @Sendable (UInt64) -> Void

  public init(
    onRequest: @escaping @Sendable (HostRequestInfo) -> Void,
    onCancel: @escaping @Sendable (UInt64) -> Void = { _ in }
  ) {
    self.onRequest = onRequest
    self.onCancel = onCancel
  }
}

/// A host request inside an effect: what to ask, and how answers become actions; once started,
/// also its place in the store's effects (a leaf, until it finishes).
///
/// NB: a class, made once by the reducer and shared from then on by the effect and the table of
/// open requests: as a struct of six fields (a string, an array, three closures) each copy
/// retained and released all of them. And the leaf itself: the first start claims the object
/// (`claimForLeaf`), so a request costs one object, not two; an effect started again (the same
/// value returned twice) gets a copy (docs/benchmarks.md: the effect round trip). Its request
/// fields are immutable, so any thread may read them; the leaf's fields belong to the store's
/// holder.
@usableFromInline
class HostRequest<Action>: EffectNode, @unchecked Sendable {
  let name: String
  /// NB: encoded when the effect is made, so that a payload that cannot be encoded fails the
  /// request (through `failure`) instead of reaching the host.
  let payload: Result<RequestPayload, JSONError>
  /// The payload, nil if it could not be encoded.
  ///
  /// NB: read through this, `StoreCore.open` no longer retained and released the core around
  /// the copy (docs/benchmarks.md: the effect round trip).
  final var encodedPayload: RequestPayload? {
    guard case let .success(encoded) = payload else { return nil }
    return encoded
  }
  let kind: HostRequestKind
  /// Decodes an answer of this request (the first argument) into its action, if any.
  ///
  /// NB: given the request, so that it can read what it needs from it (a
  /// ``MappedHostRequest``'s `response`) instead of capturing it: a closure that captures
  /// nothing allocates nothing.
  let answer:
    @Sendable (HostRequest<Action>, UnsafeBufferPointer<UInt8>) throws(JSONError) -> Action?
  let failure: @Sendable (HostFailure) -> Action?
  let finished: @Sendable () -> Action?

  // -- the leaf (holder)
  /// Set once the request is opened (0 before).
  var id: UInt64 = 0
  /// Whether the request takes answers: ``open``, ``answered`` (an answer that ends it has been
  /// accepted and waits for the holder) or ``finished`` (its last answer applied, or cancelled).
  ///
  /// NB: atomic, so that a one-shot answer given inside its request's callback is admitted
  /// without the table's lock (see `StoreCore.accept`); the table's own admissions change it
  /// under the lock.
  let answerState = Atomic<UInt8>(HostRequest.open)
  static var open: UInt8 { 0 }
  static var answered: UInt8 { 1 }
  static var finished: UInt8 { 2 }

  /// Admits an answer: one that ends the request takes it from ``open`` to ``answered``; any
  /// other needs it open. False if the request takes no answer any more.
  final func admit(ending: Bool) -> Bool {
    guard ending else { return answerState.load(ordering: .acquiring) == Self.open }
    return answerState.compareExchange(
      expected: Self.open, desired: Self.answered, ordering: .acquiringAndReleasing
    ).exchanged
  }
  /// Why an answer to this request, as request `id`, is refused once it takes none: a one-shot
  /// request's answer already accepted, or the request finished.
  final func refusal(_ id: UInt64) -> StoreError {
    let answered = answerState.load(ordering: .acquiring) == Self.answered
    return answered && kind == .oneShot ? .alreadyAnswered(id) : .finishedRequest(id)
  }
  var sink: ThrottleSink<Action>?
  /// Whether a start has made this object its leaf (see `claimForLeaf`).
  ///
  /// NB: atomic: an effect value may be shared by stores on other threads.
  private let claimed = Atomic<Bool>(false)

  // -- the cancellation folded in (see `fold`)
  /// The id of the `.cancellable(id:)` kept in this request; read only through an effect
  /// ``Effect/Operation/cancellableRequest(_:)``.
  private(set) var foldedID: CancelID?
  private(set) var foldedCancelInFlight = false
  /// Whether a `.cancellable(id:)` has been folded in.
  private let folded = Atomic<Bool>(false)

  init(
    name: String, payload: Result<RequestPayload, JSONError>, kind: HostRequestKind,
    answer: @escaping @Sendable (HostRequest<Action>, UnsafeBufferPointer<UInt8>) throws(JSONError)
      -> Action?,
    failure: @escaping @Sendable (HostFailure) -> Action?,
    finished: @escaping @Sendable () -> Action?
  ) {
    self.name = name
    self.payload = payload
    self.kind = kind
    self.answer = answer
    self.failure = failure
    self.finished = finished
  }

  /// The leaf of this request started with `sink`: the object itself the first time, a copy
  /// after that.
  final func claimForLeaf(sink: ThrottleSink<Action>?) -> HostRequest {
    let leaf = claimed.exchange(true, ordering: .relaxed) ? copy() : self
    leaf.sink = sink
    return leaf
  }

  /// Keeps the cancellation of `.cancellable(id:cancelInFlight:)` in this request, so that the
  /// effect needs no box around it (``Effect/Operation/cancellableRequest(_:)``); false if one
  /// is kept already (an effect value made cancellable twice: the second gets a box).
  ///
  /// NB: the fields are written once, by the call that claims `folded`, before any effect
  /// carrying them exists; the effect `.request(self)` itself ignores them, so a request kept
  /// and used both plainly and made cancellable stays two different effects.
  @usableFromInline
  final func fold(id: CancelID, cancelInFlight: Bool) -> Bool {
    guard !folded.exchange(true, ordering: .acquiringAndReleasing) else { return false }
    foldedID = id
    foldedCancelInFlight = cancelInFlight
    return true
  }

  /// A new request with the same request fields (of the same class).
  func copy() -> HostRequest {
    HostRequest(
      name: name, payload: payload, kind: kind, answer: answer, failure: failure,
      finished: finished)
  }

  override var summary: String {
    "host request #\(id) \"\(name)\"" + (kind == .stream ? " (stream)" : "")
  }

  final func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> HostRequest<T> {
    let (failure, finished) = (self.failure, self.finished)
    return HostRequest<T>(
      name: name, payload: payload, kind: kind,
      answer: { [self] (_, bytes) throws(JSONError) in try answer(self, bytes).map(transform) },
      failure: { failure($0).map(transform) },
      finished: { finished().map(transform) })
  }
}

/// A request whose answers are decoded as `Response` and become actions through `response`,
/// kept here: the answer function reads it from the request (see `HostRequest.answer`).
///
/// NB: a closure capturing `response` was a second allocation per request (docs/benchmarks.md: the
/// effect round trip).
final class MappedHostRequest<Action, Response>: HostRequest<Action>, @unchecked Sendable {
  /// NB: takes the decoded value owned, so that an action made of it (`.numberFactResponse($0)`)
  /// moves it in rather than copying it (a retain and a release of a string's storage per
  /// answer; docs/benchmarks.md: the effect round trip). Any `(Response) -> Action` converts to it.
  let response: @Sendable (consuming Response) -> Action

  init(
    name: String, payload: Result<RequestPayload, JSONError>, kind: HostRequestKind,
    response: @escaping @Sendable (consuming Response) -> Action,
    answer: @escaping @Sendable (HostRequest<Action>, UnsafeBufferPointer<UInt8>) throws(JSONError)
      -> Action?,
    failure: @escaping @Sendable (HostFailure) -> Action?,
    finished: @escaping @Sendable () -> Action?
  ) {
    self.response = response
    super.init(
      name: name, payload: payload, kind: kind, answer: answer, failure: failure,
      finished: finished)
  }

  override func copy() -> HostRequest<Action> {
    MappedHostRequest(
      name: name, payload: payload, kind: kind, response: response, answer: answer,
      failure: failure, finished: finished)
  }
}

/// The answer function of a ``MappedHostRequest``: decodes the bytes as `Response` and maps
/// them with the request's `response`.
///
/// NB: generic here, specialized where the effect is made (the reducer's module): the closure
/// that calls it there captures nothing.
@inline(__always)
private func mappedAnswer<Action, Response: Decodable>(
  _ request: HostRequest<Action>, _ bytes: UnsafeBufferPointer<UInt8>, as _: Response.Type
) throws(JSONError) -> Action? {
  // NB: only a `MappedHostRequest<Action, Response>` (or its copy, of the same class) is made
  // with this function: the cast checks nothing more.
  let mapped = unsafeDowncast(request, to: MappedHostRequest<Action, Response>.self)
  return mapped.response(try JSONDecoder().decode(Response.self, from: bytes))
}

/// The payload of a request that needs none; encodes as `{}`.
public struct NoPayload: Codable, Equatable, Sendable {
  public init() {}
}

extension Effect {
  /// Asks the host to perform `name` with `payload`; its answer, decoded as `Response`, becomes
  /// the action `response` returns, and its failure the one `failure` returns (nil: none).
  ///
  ///     return .request("numberFact.fetch", payload: state.count, as: String.self) {
  ///       .numberFactResponse($0)
  ///     } failure: {
  ///       .numberFactFailed($0.message)
  ///     }
  ///
  /// The host answers once, with `respond` or `fail`. If the effect is cancelled first, the host's
  /// cancel callback is told, and a later answer is refused.
  public static func request<Payload: Encodable, Response: Decodable & SendableMetatype>(
    _ name: String,
    payload: Payload = NoPayload(),
    as _: Response.Type = Response.self,
    response: @escaping @Sendable (consuming Response) -> Action,
    failure: @escaping @Sendable (HostFailure) -> Action?
  ) -> Effect {
    Effect(
      operation: .request(
        MappedHostRequest(
          name: name, payload: encodeRequestPayload(payload), kind: .oneShot, response: response,
          answer: { (request, bytes) throws(JSONError) in
            try mappedAnswer(request, bytes, as: Response.self)
          },
          failure: failure, finished: { nil })))
  }

  /// Asks the host to perform `name` and send any number of answers, then complete: each answer,
  /// decoded as `Element`, becomes the action `element` returns; `complete` sends `finished`
  /// (if any); a failure ends the stream with the action `failure` returns.
  ///
  ///     return .stream("scores.live", payload: gameID, as: Score.self) {
  ///       .scoreUpdated($0)
  ///     } failure: {
  ///       .liveScoresFailed($0.message)
  ///     } finished: {
  ///       .liveScoresEnded
  ///     }
  public static func stream<Payload: Encodable, Element: Decodable & SendableMetatype>(
    _ name: String,
    payload: Payload = NoPayload(),
    as _: Element.Type = Element.self,
    element: @escaping @Sendable (consuming Element) -> Action,
    failure: @escaping @Sendable (HostFailure) -> Action?,
    finished: @escaping @Sendable () -> Action? = { nil }
  ) -> Effect {
    Effect(
      operation: .request(
        MappedHostRequest(
          name: name, payload: encodeRequestPayload(payload), kind: .stream, response: element,
          answer: { (request, bytes) throws(JSONError) in
            try mappedAnswer(request, bytes, as: Element.self)
          },
          failure: failure, finished: finished)))
  }

  /// Tells the host to perform `name` and expects no answer (haptics, analytics, sounds).
  ///
  ///     return .fireAndForget("haptics.play", payload: Haptic.success)
  public static func fireAndForget<Payload: Encodable>(
    _ name: String, payload: Payload = NoPayload()
  ) -> Effect {
    Effect(
      operation: .request(
        HostRequest(
          name: name, payload: encodeRequestPayload(payload), kind: .fireAndForget,
          answer: { _, _ in nil }, failure: { _ in nil }, finished: { nil })))
  }
}
