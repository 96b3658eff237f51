import StoreKernel

@c public func tca_store_poll(_ store: OpaquePointer?, _ outRan: UnsafeMutablePointer<UInt32>?)
  -> Int32
{
  exported("tca_store_poll") { () throws(Failure) in
    outRan?.pointee = 0
    let target = try Handles.store(store)
    let ran: Int
    do throws(StoreError) { ran = try target.store.poll() } catch { throw Failure(error) }
    outRan?.pointee = UInt32(clamping: ran)
  }
}

@c public func tca_store_advance(_ store: OpaquePointer?, _ milliseconds: UInt64) -> Int32 {
  exported("tca_store_advance") { () throws(Failure) in
    let target = try Handles.store(store)
    do throws(StoreError) {
      _ = try target.store.advance(milliseconds: milliseconds)
    } catch {
      throw Failure(error)
    }
  }
}

@c public func tca_store_next_deadline_ms(_ store: OpaquePointer?) -> Int64 {
  exported("tca_store_next_deadline_ms", failing: -1) { () throws(Failure) in
    let target = try Handles.store(store)
    guard !target.store.isClosed else { throw Failure(.invalidHandle, "the store has been freed") }
    guard let milliseconds = target.store.nextDeadlineMilliseconds else { return -1 }
    return Int64(clamping: milliseconds)
  }
}

@c public func tca_store_fd(_ store: OpaquePointer?) -> Int32 {
  exported("tca_store_fd", failing: -1) { () throws(Failure) in
    let target = try Handles.store(store)
    do throws(StoreError) {
      return try target.store.fileDescriptor()
    } catch {
      throw Failure(error)
    }
  }
}
