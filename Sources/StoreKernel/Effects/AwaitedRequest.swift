import JSON
import Synchronization

extension Send {
  /// Asks the host to perform `name` with `payload` and waits for its answer, decoded as
  /// `Response`: one effect can fetch, then save, then notify, without a response action for
  /// each step.
  ///
  ///     return .run { [count = state.count] send in
  ///       let fact: String = try await send.request("numberFact.fetch", payload: count)
  ///       _ = try await send.request("numberFact.save", payload: fact, as: Bool.self)
  ///       await send(.numberFactResponse(fact))
  ///     }
  ///
  /// The host sees an ordinary one-shot request (callback or pull mode) and answers it with
  /// `respond` or `fail`; an answer that does not decode as `Response` is refused, and the
  /// request waits for a good one. A failure throws ``HostFailure`` (as does a request the host
  /// cannot receive: no handler set, or a payload that cannot be encoded). Cancelling the effect
  /// cancels the request (the host is told, as for any request) and throws `CancellationError`,
  /// which ends a `.run` quietly.
  ///
  /// Call it from the `.run` that was given this `send` (or from work it awaits, such as
  /// ``withTaskCancellation(id:cancelInFlight:operation:)``). Anywhere else, there is no store
  /// to ask: it throws ``HostFailure``.
  public func request<Payload: Encodable, Response: Decodable & Sendable>(
    _ name: String,
    payload: Payload = NoPayload(),
    as _: Response.Type = Response.self
  ) async throws -> Response {
    try Task.checkCancellation()
    guard let leaf = TaskLeaf.current, let host = leaf.host else {
      throw HostFailure(
        "send.request(\"\(name)\") was called outside the .run effect of a store")
    }
    let awaiter = RequestAwaiter<Response>(
      name: name, payload: encodeRequestPayload(payload), leaf: leaf)
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Response, any Error>) in
        awaiter.continuation = continuation
        host.openAwaited(awaiter)
      }
    } onCancel: {
      host.cancelAwaited(awaiter)
    }
  }
}

/// A request that a ``Send/request(_:payload:as:)`` waits on, as the store sees it: what to ask,
/// and what to do with the answer. The store makes the request's leaf from it (of its own
/// action type, which the effect's `send` may not have).
///
/// NB: `take` and `fail` run where the host answers (any thread), before the answer is admitted;
/// the rest belongs to the store's holder.
class AwaitedRequest: @unchecked Sendable {
  let name: String
  let payload: Result<RequestPayload, JSONError>
  /// The `.run` whose task waits.
  let leaf: TaskLeaf
  /// The request's leaf in the store, once opened, until the task resumes (holder).
  ///
  /// NB: let go when the task resumes: the request's closures hold this awaiter, so keeping it
  /// past its end would keep both alive for good.
  var request: EffectNode?
  /// Whether the task was cancelled while it waited (holder).
  var isCancelled = false
  /// Whether the task has been resumed (holder): it is resumed once.
  var isResumed = false

  init(name: String, payload: Result<RequestPayload, JSONError>, leaf: TaskLeaf) {
    self.name = name
    self.payload = payload
    self.leaf = leaf
  }

  /// Decodes an answer and keeps it; throws if it is not of the response type.
  func take(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {}
  /// Keeps a failure.
  func fail(_ failure: HostFailure) {}
  /// Resumes the task with what was kept (holder): the answer, the failure, or cancellation.
  func resume() {}
}

/// An ``AwaitedRequest`` whose answer is a `Response`.
final class RequestAwaiter<Response: Decodable & Sendable>: AwaitedRequest, @unchecked Sendable {
  /// NB: set before the store sees the awaiter (the continuation's body); read by the holder.
  var continuation: UnsafeContinuation<Response, any Error>?
  /// NB: the first answer decoded is kept. Two answers given at once on two threads are both
  /// decoded before the store admits one of them (the other gets an error), so the value kept
  /// may be the refused one's: both were good answers to the same request.
  private let outcome = Mutex<Result<Response, HostFailure>?>(nil)

  override func take(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    let value = try JSONDecoder().decode(Response.self, from: bytes)
    outcome.withLock { outcome in
      if outcome == nil { outcome = .success(value) }
    }
  }

  override func fail(_ failure: HostFailure) {
    outcome.withLock { outcome in
      if outcome == nil { outcome = .failure(failure) }
    }
  }

  override func resume() {
    guard !isResumed, let continuation else { return }
    isResumed = true
    request = nil
    self.continuation = nil
    // NB: a request finished by cancellation (its effect's region, the store closing, the task
    // itself) throws `CancellationError` even if an answer was accepted in the meantime.
    guard !isCancelled, !leaf.isCancelled, let outcome = outcome.withLock({ $0 }) else {
      return continuation.resume(throwing: CancellationError())
    }
    switch outcome {
    case let .success(value): continuation.resume(returning: value)
    case let .failure(failure): continuation.resume(throwing: failure)
    }
  }
}

/// The payload of a request encoded now, or why it cannot be.
func encodeRequestPayload(_ payload: some Encodable) -> Result<RequestPayload, JSONError> {
  do throws(JSONError) {
    return .success(try RequestPayload.encoding(payload))
  } catch {
    return .failure(error)
  }
}
