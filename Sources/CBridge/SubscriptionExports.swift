import StoreKernel

public typealias TCAStateFunction =
  @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void
public typealias TCAStateJSONFunction =
  @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64, UnsafePointer<CChar>?, UInt)
  -> Void

/// A host's function and userdata, carried by a kernel closure.
///
/// NB: `@unchecked Sendable`: the library never touches userdata; the host promises it is valid
/// for as long as the callback is set (tca.h, "Threads and callbacks").
struct HostFunction<F>: @unchecked Sendable {
  let function: F
  let userdata: UnsafeMutableRawPointer?
}

@c public func tca_store_subscribe(
  _ store: OpaquePointer?, _ fn: TCAStateFunction?, _ userdata: UnsafeMutableRawPointer?,
  _ outToken: UnsafeMutablePointer<UInt64>?
) -> Int32 {
  exported("tca_store_subscribe") { () throws(Failure) in
    try subscribe(store, fn, userdata, outToken) { host, target, _, version in
      host.function(host.userdata, target.handle.pointer, version)
    }
  }
}

@c public func tca_store_subscribe_state(
  _ store: OpaquePointer?, _ fn: TCAStateJSONFunction?, _ userdata: UnsafeMutableRawPointer?,
  _ outToken: UnsafeMutablePointer<UInt64>?
) -> Int32 {
  exported("tca_store_subscribe_state") { () throws(Failure) in
    try subscribe(store, fn, userdata, outToken) { host, target, subscription, version in
      let handle = target.handle.pointer
      let ahead = subscription.givenAhead.load(ordering: .relaxed)
      if ahead != 0 && version <= ahead { return }
      guard let (given, json) = target.stateForSubscribers(version: version) else {
        host.function(host.userdata, handle, version, nil, 0)
        return
      }
      // NB: a version no longer kept comes with the current state and its version, given now
      // and not again when its own notification comes.
      if given != version { subscription.givenAhead.store(given, ordering: .relaxed) }
      json.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { text in
          host.function(host.userdata, handle, given, text.baseAddress, UInt(text.count - 1))
        }
      }
    }
  }
}

/// Subscribes the host's `fn` to `store`: `notify` calls it with each new state version, inside
/// the store's callback gate, until it is unsubscribed. Sets `outToken` (0 on failure).
private func subscribe<F>(
  _ store: OpaquePointer?, _ fn: F?, _ userdata: UnsafeMutableRawPointer?,
  _ outToken: UnsafeMutablePointer<UInt64>?,
  notify: @escaping @Sendable (HostFunction<F>, StoreContext, Subscription, UInt64) -> Void
) throws(Failure) {
  outToken?.pointee = 0
  let target = try Handles.store(store)
  guard let fn else { throw Failure(.invalidArgument, "fn is NULL") }
  let host = HostFunction(function: fn, userdata: userdata)
  let gate = target.callbacks
  let subscription = Subscription()
  let token: UInt64
  do throws(StoreError) {
    token = try target.store.subscribe { version in
      guard subscription.isActive.load(ordering: .acquiring) else { return }
      gate.run { notify(host, target, subscription, version) }
    }
  } catch {
    throw Failure(error)
  }
  target.subscriptions.withLock { $0[token] = subscription }
  outToken?.pointee = token
}

@c public func tca_store_unsubscribe(_ store: OpaquePointer?, _ token: UInt64) -> Int32 {
  exported("tca_store_unsubscribe") { () throws(Failure) in
    let target = try Handles.store(store)
    guard let subscription = target.subscriptions.withLock({ $0.removeValue(forKey: token) })
    else {
      throw Failure(.notFound, "no subscription with token \(token)")
    }
    subscription.isActive.store(false, ordering: .releasing)
    _ = target.store.unsubscribe(token)
  }
}
