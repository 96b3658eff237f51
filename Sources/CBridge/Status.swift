/// The stable status codes of `tca.h`. Numbers are never reused or renumbered; new ones are
/// appended. Keep this list, `tca_status_str` and `include/tca.h` in step.
enum Status: Int32 {
  case ok = 0
  case invalidArgument = 1
  case invalidHandle = 2
  case unknownFeature = 3
  case jsonSyntax = 4
  case jsonShape = 5
  case unencodable = 6
  case unknownRequest = 7
  case requestFinished = 8
  case alreadyAnswered = 9
  case notAStream = 10
  case realClock = 11
  case notFound = 12
  case system = 13
  case noMemory = 14
  case callbackUnwound = 15
  case versionGone = 16

  var text: StaticString {
    switch self {
    case .ok: return "ok"
    case .invalidArgument: return "invalid argument"
    case .invalidHandle: return "invalid store handle"
    case .unknownFeature: return "unknown feature"
    case .jsonSyntax: return "malformed JSON"
    case .jsonShape: return "JSON of the wrong shape"
    case .unencodable: return "value cannot be encoded as JSON"
    case .unknownRequest: return "unknown request id"
    case .requestFinished: return "request has finished"
    case .alreadyAnswered: return "request already answered"
    case .notAStream: return "request is not a stream"
    case .realClock: return "the store's clock is real"
    case .notFound: return "not found"
    case .system: return "system error"
    case .noMemory: return "out of memory"
    case .callbackUnwound: return "a callback unwound through libtca"
    case .versionGone: return "version no longer kept"
    }
  }
}

/// A failed call: its status and a message naming the function and the place.
struct Failure: Error {
  let status: Status
  let message: String

  init(_ status: Status, _ message: String) {
    self.status = status
    self.message = message
  }

  init(_ error: JSONError) {
    switch error.kind {
    case .syntax: status = .jsonSyntax
    case .shape: status = .jsonShape
    case .unencodable: status = .unencodable
    }
    message = error.description
  }

  init(_ error: StoreError) {
    switch error {
    case let .json(error): self.init(error)
    case let .badAnswer(_, json):
      self.init(Failure(json).status, error.description)
    // NB: a store is closed only by tca_store_free, so to the host a closed store is a freed
    // handle (a call that raced with the free and lost).
    case .closed: self.init(.invalidHandle, "the store has been freed")
    case .unknownRequest: self.init(.unknownRequest, error.description)
    case .finishedRequest: self.init(.requestFinished, error.description)
    case .alreadyAnswered: self.init(.alreadyAnswered, error.description)
    case .notAStream: self.init(.notAStream, error.description)
    case .realClock: self.init(.realClock, error.description)
    case .system: self.init(.system, error.description)
    case .unwound: self.init(.callbackUnwound, error.description)
    case .versionGone: self.init(.versionGone, error.description)
    }
  }
}

import JSON
import StoreKernel

/// Runs the body of an exported function: a thrown ``Failure`` becomes its status code and this
/// thread's last error, prefixed with the function's name.
@inline(__always)
func exported(_ function: StaticString, _ body: () throws(Failure) -> Void) -> Int32 {
  do {
    try body()
    return Status.ok.rawValue
  } catch {
    LastError.set("\(function): \(error.message)")
    return error.status.rawValue
  }
}

/// Runs the body of an exported function that returns a value rather than a status: a thrown
/// ``Failure`` sets this thread's last error and gives `fallback`.
@inline(__always)
func exported<R>(
  _ function: StaticString, failing fallback: R, _ body: () throws(Failure) -> R
) -> R {
  do {
    return try body()
  } catch {
    LastError.set("\(function): \(error.message)")
    return fallback
  }
}
