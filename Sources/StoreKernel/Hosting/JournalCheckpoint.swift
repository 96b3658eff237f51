import JSON

/// What a journal's checkpoint keeps of a store besides its state (docs/wire-format.md,
/// "Checkpoints"): where its random numbers are, the id its next request gets, and the effects
/// in flight, which a replay from the checkpoint could not rebuild.
struct StorePosition: Sendable {
  /// The random generator's four words; nil while no number was drawn.
  var random: [UInt64]?
  var nextRequest: UInt64
  /// What is in flight (empty: nothing; a checkpoint taken then replays exactly).
  var inFlight: [String]
}

extension Store {
  /// Where the store is, for a journal's checkpoint.
  ///
  /// NB: anything that outlives the input that started it is in flight: an effect still
  /// running (a request, a timer, a `.run`), an action or a clock move not yet applied, a
  /// throttle's memory of its last action. A replay from a checkpoint starts with none of them.
  func journalPosition() -> StorePosition {
    locked {
      var inFlight = core.liveLeaves.map(\.summary)
      if !core.isIdle && inFlight.isEmpty { inFlight.append("work queued in the store") }
      if !core.throttles.isEmpty { inFlight.append("a throttle's last action") }
      return StorePosition(
        random: dependencyBox.dependencies.random.position, nextRequest: core.nextRequestID,
        inFlight: inFlight)
    }
  }

  /// Puts a new store where a checkpoint left its recorded one (a replay).
  func restore(_ position: StorePosition) {
    locked {
      if let words = position.random { dependencyBox.dependencies.random.restore(words) }
      core.nextRequestID = position.nextRequest
    }
  }
}

/// A journal's checkpoint line: the state older lines folded into, with its version.
///
///     {"checkpoint":{"state":{…},"clock":0,"random":null,"nextRequest":1},"version":1000}
struct JournalCheckpoint: Sendable {
  var version: UInt64
  var state: [UInt8]
  /// The clock's time, in nanoseconds since the store was made.
  var clock: Int64
  var position: StorePosition

  /// The line, ended by its newline.
  var line: [UInt8] {
    var line = Array("{\"checkpoint\":{\"state\":".utf8)
    line += JournalFormat.compact(state)
    line += Array(",\"clock\":\(clock),\"random\":".utf8)
    if let random = position.random {
      line += Array("[\(random.map(String.init).joined(separator: ","))]".utf8)
    } else {
      line += Array("null".utf8)
    }
    line += Array(",\"nextRequest\":\(position.nextRequest)".utf8)
    if !position.inFlight.isEmpty {
      line += Array(",\"inFlight\":".utf8)
      line += JSONWriter.write(.array(position.inFlight.map(JSONValue.string)))
    }
    line += Array("},\"version\":\(version)}\n".utf8)
    return line
  }

  init(version: UInt64, state: [UInt8], clock: Int64, position: StorePosition) {
    self.version = version
    self.state = state
    self.clock = clock
    self.position = position
  }

  /// Reads a checkpoint line (`value`, parsed; `number`, its line).
  init(_ value: JSONValue, line number: Int) throws(JournalError) {
    func fail(_ message: String) -> JournalError {
      JournalError(line: number, shape: "the checkpoint " + message)
    }
    guard case let .object(members)? = value["checkpoint"] else {
      throw fail("is not an object")
    }
    let body = JSONValue.object(members)
    guard case let .number(versionText)? = value["version"], let version = UInt64(versionText),
      version != .max
    else { throw fail("has no \"version\" (a state version)") }
    guard let state = body["state"] else { throw fail("has no \"state\"") }
    guard case let .number(clockText)? = body["clock"], let clock = Int64(clockText), clock >= 0
    else { throw fail("has no \"clock\" (nanoseconds, 0 or more)") }
    guard case let .number(nextText)? = body["nextRequest"], let next = UInt64(nextText),
      next > 0
    else { throw fail("has no \"nextRequest\" (a request id, 1 or more)") }
    var random: [UInt64]?
    switch body["random"] {
    case .null?: random = nil
    case let .array(words)?:
      var read: [UInt64] = []
      for word in words {
        guard case let .number(text) = word, let value = UInt64(text) else {
          throw fail("\"random\" is not four unsigned integers")
        }
        read.append(value)
      }
      guard read.count == 4 else { throw fail("\"random\" is not four unsigned integers") }
      random = read
    default: throw fail("has no \"random\" (null, or four unsigned integers)")
    }
    var inFlight: [String] = []
    if case let .array(items)? = body["inFlight"] {
      for case let .string(text) in items { inFlight.append(text) }
      if inFlight.isEmpty { inFlight.append("effects") }
    }
    self.init(
      version: version, state: JSONWriter.write(state), clock: clock,
      position: StorePosition(random: random, nextRequest: next, inFlight: inFlight))
  }
}
