import StoreKernel
import Synchronization

/// The stores alive, by handle.
///
/// NB: a `tca_store *` is a token, never a pointer the library dereferences: the host may pass a
/// freed handle, NULL or any other pointer, and looking it up here is always safe. Tokens are never
/// reused, so a stale handle can never reach a newer store.
enum Handles {
  private struct Table {
    var stores: [UInt: any HostStore] = [:]
    var nextToken: UInt = 1
  }

  private static let table = Mutex(Table())

  /// Registers `store` and returns its handle.
  static func insert(_ store: any HostStore) -> OpaquePointer? {
    table.withLock { table in
      // NB: tokens count in steps of 16 from an odd base, so they are never aligned like the
      // pointers a host might pass by mistake, and are never NULL.
      let token = table.nextToken &* 16 &+ 0x7
      table.nextToken &+= 1
      table.stores[token] = store
      return OpaquePointer(bitPattern: token)
    }
  }

  static func store(_ handle: OpaquePointer?) throws(Failure) -> any HostStore {
    guard let handle else { throw Failure(.invalidHandle, "store is NULL") }
    let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
    guard let store = table.withLock({ $0.stores[token] }) else {
      throw Failure(.invalidHandle, "not a live store (freed, or never created by tca_store_new)")
    }
    return store
  }

  /// Removes the store; returns it so the caller can release it outside the lock.
  static func remove(_ handle: OpaquePointer?) -> (any HostStore)? {
    guard let handle else { return nil }
    let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
    return table.withLock { $0.stores.removeValue(forKey: token) }
  }
}
