@_spi(Bridge) import StoreKernel

/// The stores alive, by handle.
///
/// NB: a `tca_store *` is a token, never a pointer the library dereferences: the host may pass a
/// freed handle, NULL or any other pointer, and looking it up here is always safe. Tokens are never
/// reused, so a stale handle can never reach a newer store.
enum Handles {
  private struct Table {
    var stores = TokenTable<StoreContext>(spacing: 4)
    var nextToken: UInt = 1
  }

  private static let table = Locked(Table())

  /// A fresh handle, not yet naming a store (``insert(_:)`` makes it live).
  static func reserve() -> StoreHandle {
    table.withLock { table in
      // NB: tokens count in steps of 16 from an odd base, so they are never aligned like the
      // pointers a host might pass by mistake, and are never NULL.
      let token = table.nextToken &* 16 &+ 0x7
      table.nextToken &+= 1
      return StoreHandle(token: token)
    }
  }

  /// Makes `context.handle` name `context`.
  static func insert(_ context: StoreContext) {
    table.withLock { $0.stores.insert(context, for: context.handle.token) }
  }

  static func store(_ handle: OpaquePointer?) throws(Failure) -> StoreContext {
    guard let handle else { throw Failure(.invalidHandle, "store is NULL") }
    guard let store = table.withLock({ $0.stores[token(handle)] }) else {
      throw Failure(.invalidHandle, "not a live store (freed, or never made by tca_store_new)")
    }
    // NB: a store a callback unwound out of refuses every call, from every thread (tca.h).
    guard !store.withStore({ $0.isUnwound }) else { throw Failure(StoreError.unwound) }
    return store
  }

  /// Calls `body` with the store `handle` names, as ``store(_:)`` finds it; inside one of that
  /// store's callbacks, on the callback's thread, without the table.
  ///
  /// NB: an answer is usually given inside its request's callback: there the store is found
  /// through what the kernel keeps for the running callback (``innermostCallbackHostContext()``),
  /// without the table's lock, a retain or a release (docs/benchmarks.md: the effect round trip).
  /// The context is alive: the call delivering the callback keeps it, and `free` unbinds it first.
  @inline(__always)
  static func withStore<R>(
    _ handle: OpaquePointer?, _ body: (StoreContext) throws(Failure) -> R
  ) throws(Failure) -> R {
    if let handle, let bound = innermostCallbackHostContext() {
      let context = Unmanaged<StoreContext>.fromOpaque(bound)
      let result = context._withUnsafeGuaranteedRef { target -> Result<R, Failure>? in
        guard target.handle.token == token(handle) else { return nil }
        return Result { () throws(Failure) in try body(target) }
      }
      if let result { return try result.get() }
    }
    return try body(try store(handle))
  }

  /// Removes the store; returns it so the caller can close it outside the lock.
  static func remove(_ handle: OpaquePointer?) -> StoreContext? {
    guard let handle else { return nil }
    return table.withLock { $0.stores.remove(token(handle)) }
  }

  private static func token(_ handle: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
  }
}
