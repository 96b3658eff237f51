import JSON

// The test store as the host of its feature's requests: what it was asked, and its answers.

extension TestStore {
  /// The host requests in flight, oldest first.
  public var requests: [HostRequestInfo] { host.pending }

  /// Every host request made, oldest first (fire-and-forget ones included).
  public var requestLog: [HostRequestInfo] { host.made }

  /// The ids of the requests the store cancelled, in order.
  public var cancelledRequests: [UInt64] { host.cancelled }

  /// The oldest request in flight named `name`.
  public func request(_ name: String) -> HostRequestInfo? {
    host.pending.first { $0.name == name }
  }

  /// Answers the oldest request in flight named `name` with `value` (encoded as JSON, then
  /// decoded as the request's response type, as a host's answer would be).
  public func respond<T: Encodable>(
    to name: String, with value: T,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place) { () throws(StoreError) in
      try store.respond(to: request.id, json: try encode(value))
    }
  }

  /// Answers request `id` with `value`.
  public func respond<T: Encodable>(
    to id: UInt64, with value: T,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    let request = host.pending.first { $0.id == id }
    answer(request, place, id: id) { () throws(StoreError) in
      try store.respond(to: id, json: try encode(value))
    }
  }

  /// Fails the oldest request in flight named `name`.
  public func fail(
    _ name: String, message: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place, ends: true) { () throws(StoreError) in
      try store.fail(request.id, message: message)
    }
  }

  /// Fails request `id`.
  public func fail(
    _ id: UInt64, message: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let request = host.pending.first { $0.id == id }
    answer(request, Place(fileID, filePath, line, column), id: id, ends: true) {
      () throws(StoreError) in try store.fail(id, message: message)
    }
  }

  /// Completes the oldest stream in flight named `name`.
  public func complete(
    _ name: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let place = Place(fileID, filePath, line, column)
    guard let request = request(named: name, place) else { return }
    answer(request, place, ends: true) { () throws(StoreError) in try store.complete(request.id) }
  }

  /// Completes stream `id`.
  public func complete(
    _ id: UInt64,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let request = host.pending.first { $0.id == id }
    answer(request, Place(fileID, filePath, line, column), id: id, ends: true) {
      () throws(StoreError) in try store.complete(id)
    }
  }

  private func request(named name: String, _ place: Place) -> HostRequestInfo? {
    guard let request = request(name) else {
      let pending = host.pending.map { "#\($0.id) \"\($0.name)\"" }
      fail(
        "No request \"\(name)\" is in flight"
          + (pending.isEmpty ? "." : "; in flight: " + pending.joined(separator: ", ")), place)
      return nil
    }
    return request
  }

  private func answer(
    _ request: HostRequestInfo?, _ place: Place, id: UInt64? = nil, ends: Bool = false,
    _ body: () throws(StoreError) -> Void
  ) {
    do throws(StoreError) {
      try body()
      if let request, ends || request.kind == .oneShot { host.remove(request.id) }
    } catch {
      fail("The store refused the answer: \(error)", place)
    }
    collectReceived()
  }
}

private func encode<T: Encodable>(_ value: T) throws(StoreError) -> [UInt8] {
  do throws(JSONError) {
    return try JSONEncoder().encode(value)
  } catch {
    throw .json(error)
  }
}
