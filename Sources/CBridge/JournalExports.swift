import JSON
@_spi(Bridge) import StoreKernel

// The journal of a recorded store, replays, the reductions a test store asserts, and canonical
// actions (tca.h, "Recording, replay and tests").

/// The recording store behind `context`, or why there is none.
private func recording(_ context: StoreContext) throws(Failure) -> any RecordedHostStore {
  guard !context.store.isClosed else { throw Failure(.invalidHandle, "the store has been freed") }
  guard let store = context.store as? any RecordedHostStore else {
    throw Failure(
      .invalidArgument,
      "the store does not record: create it with options.record = 1 (or replay a journal)")
  }
  return store
}

@c public func tca_store_journal(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_journal") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    try deliver(try recording(target).journal(), to: outJSON, length: outLength)
  }
}

@c public func tca_store_replay(
  _ journal: UnsafePointer<CChar>?,
  _ length: UInt,
  _ toVersion: UInt64,
  _ options: UnsafeRawPointer?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  exported("tca_store_replay") { () throws(Failure) in
    guard let out else { throw Failure(.invalidArgument, "out is NULL") }
    out.pointee = nil
    let text = try bytes(of: journal, length: length, "journal")
    let options = try Options(options)
    let header: JournalHeader
    do throws(JournalError) {
      header = try JournalHeader(of: text)
    } catch {
      throw Failure(Failure(error.error).status, error.description)
    }
    let descriptor = try LinkedFeatures.feature(named: header.feature)
    let store: any HostStore
    do throws(JournalError) {
      store = try JournalReplay.replay(
        text, to: toVersion, feature: descriptor,
        options: StoreOptions(
          trace: traceFromEnvironment, requests: options.requests, answers: options.answers,
          recordLimit: options.recordLimit))
    } catch {
      throw Failure(Failure(error.error).status, error.description)
    }
    out.pointee = try register(
      Devtools.attach(store, feature: descriptor, library: "\(libraryVersion)"),
      threaded: options.threaded)
  }
}

@c public func tca_store_log_reductions(_ store: OpaquePointer?, _ enabled: Int32) -> Int32 {
  exported("tca_store_log_reductions") { () throws(Failure) in
    let target = try recording(try Handles.store(store))
    guard enabled == 0 || enabled == 1 else {
      throw Failure(.invalidArgument, "enabled is \(enabled), expected 0 or 1")
    }
    target.logReductions(enabled == 1)
  }
}

@c public func tca_store_take_reductions(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_take_reductions") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try recording(try Handles.store(store))
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    guard target.logsReductions else {
      throw Failure(
        .invalidArgument, "the store keeps no reductions: call tca_store_log_reductions first")
    }
    try deliver(target.takeReductions(), to: outJSON, length: outLength)
  }
}

@c public func tca_store_running_effects(
  _ store: OpaquePointer?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_store_running_effects") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let target = try Handles.store(store)
    guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
    let running: [String]
    do throws(StoreError) { running = try target.store.runningEffects() } catch {
      throw Failure(error)
    }
    try deliver(JSONWriter.write(.array(running.map(JSONValue.string))), to: outJSON,
      length: outLength)
  }
}

@c public func tca_store_cancel_effects(
  _ store: OpaquePointer?, _ outCancelled: UnsafeMutablePointer<UInt32>?
) -> Int32 {
  exported("tca_store_cancel_effects") { () throws(Failure) in
    outCancelled?.pointee = 0
    let target = try Handles.store(store)
    let cancelled: Int
    do throws(StoreError) { cancelled = try target.store.cancelEffects() } catch {
      throw Failure(error)
    }
    outCancelled?.pointee = UInt32(clamping: cancelled)
  }
}

@c public func tca_canonical_action(
  _ feature: UnsafePointer<CChar>?,
  _ action: UnsafePointer<CChar>?,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_canonical_action") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let name = try text(of: feature, "feature")
    try canonical(name, try bytes(of: action, "action_json"), outJSON, outLength)
  }
}

@c public func tca_canonical_action_n(
  _ feature: UnsafePointer<CChar>?,
  _ featureLength: UInt,
  _ action: UnsafePointer<CChar>?,
  _ length: UInt,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) -> Int32 {
  exported("tca_canonical_action_n") { () throws(Failure) in
    outJSON?.pointee = nil
    outLength?.pointee = 0
    let name = try text(of: feature, length: featureLength, "feature")
    let buffer = try bytes(of: action, length: length, "action_json")
    try canonical(name, buffer, outJSON, outLength)
  }
}

private func canonical(
  _ feature: String, _ action: UnsafeBufferPointer<UInt8>,
  _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ outLength: UnsafeMutablePointer<UInt>?
) throws(Failure) {
  let descriptor = try LinkedFeatures.feature(named: feature)
  guard let outJSON else { throw Failure(.invalidArgument, "out_json is NULL") }
  let json: [UInt8]
  do throws(JSONError) {
    json = try descriptor.canonicalAction(action)
  } catch {
    throw Failure(error)
  }
  try deliver(json, to: outJSON, length: outLength)
}
