import JSON

extension Store {
  /// Cancels every effect, then makes `state` the state, as a call that changed it: the version
  /// moves on (if the state differs) and subscribers are told. An inspector's jump
  /// (docs/devtools.md); false from inside the store (nothing changes).
  ///
  /// NB: the effects in flight belong to the state left behind: their answers would land in a
  /// past they were not asked from.
  func replaceState(_ state: State) -> Bool {
    let done: Bool? = hold { () -> Bool in
      for child in core.root.orderedChildren { core.cancel(child) }
      hot.pointee.state = state
      hot.pointee.dirty = true
      hot.pointee.ranInCall += 1
      return true
    }
    return done != nil
  }
}

extension JSONStore {
  func replaceState(json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    guard !store.isClosed else { throw .closed }
    let state: State
    do throws(JSONError) {
      state = try JSONDecoder().decode(State.self, from: json)
    } catch {
      throw .json(error)
    }
    guard store.replaceState(state) else {
      throw .json(JSONError(.shape, "a state cannot be replaced from inside the store"))
    }
  }
}

extension HostStore {
  /// A store that cannot be jumped (``RecordingStore`` journals its jumps: `jump(to:state:)`).
  public func replaceState(json: UnsafeBufferPointer<UInt8>) throws(StoreError) {
    throw .system("this store's state cannot be replaced")
  }
}
