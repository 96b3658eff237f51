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

  var text: StaticString {
    switch self {
    case .ok: return "ok"
    case .invalidArgument: return "invalid argument"
    case .invalidHandle: return "invalid store handle"
    case .unknownFeature: return "unknown feature"
    case .jsonSyntax: return "malformed JSON"
    case .jsonShape: return "JSON of the wrong shape"
    case .unencodable: return "value cannot be encoded as JSON"
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

  // NB: a stopgap mapping until the C ABI (issue 5) gives store errors statuses of their own.
  init(_ error: StoreError) {
    switch error {
    case let .json(error), let .badAnswer(_, error): self.init(error)
    case .closed: self.init(.invalidHandle, error.description)
    default: self.init(.invalidArgument, error.description)
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
