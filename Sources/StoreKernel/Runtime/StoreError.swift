import JSON

/// Why a call into a store was refused. A refused call changes nothing.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The store has been closed.
  case closed
  /// No request with this id was ever made by this store.
  case unknownRequest(UInt64)
  /// The request has finished (answered, failed, completed, cancelled, or fire-and-forget).
  case finishedRequest(UInt64)
  /// The one-shot request already has its answer.
  case alreadyAnswered(UInt64)
  /// `complete` was given to a request that is not a stream.
  case notAStream(UInt64)
  /// The answer does not decode as the request's response type; the request is still waiting.
  case badAnswer(UInt64, JSONError)
  /// The action (or state) JSON does not decode.
  case json(JSONError)
  /// `advance` was called on a store whose clock is real.
  case realClock
  /// The operating system refused (the wake descriptor could not be made).
  case system(String)
  /// A host callback unwound out of the store (a C++ exception, a Lua error, a longjmp): the
  /// store refuses every later call.
  case unwound
  /// A patch was asked for since a version the store no longer keeps (or never had): `oldest`
  /// is the oldest kept, `current` the current one.
  case versionGone(UInt64, oldest: UInt64, current: UInt64)

  public var description: String {
    switch self {
    case .closed: return "the store is closed"
    case let .unknownRequest(id): return "no request #\(id) was made by this store"
    case let .finishedRequest(id): return "request #\(id) has finished and takes no answer"
    case let .alreadyAnswered(id): return "request #\(id) is one-shot and already has its answer"
    case let .notAStream(id):
      return "request #\(id) is one-shot: answer it, or fail it, not complete it"
    case let .badAnswer(id, error):
      return "the answer to request #\(id) does not fit its response type (\(error)); "
        + "the request is still waiting"
    case let .json(error): return error.description
    case .realClock: return "the store's clock is real: only a manual clock can be advanced"
    case let .system(message): return message
    case .unwound:
      return "a callback unwound through libtca (a C++ exception, a Lua error or a longjmp left "
        + "a callback of this store): the store refuses every call; free it"
    case let .versionGone(version, oldest, current):
      if version > current {
        return "version \(version) is newer than the current version \(current)"
      }
      return "version \(version) is no longer kept (the store keeps versions \(oldest) to "
        + "\(current)); read the whole state instead"
    }
  }
}
