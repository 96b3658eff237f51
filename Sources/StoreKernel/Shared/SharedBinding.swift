import CSystem
import JSON

/// The shared fields of one store's state, bound to their keys' boxes: it takes other stores'
/// changes into the state at the store's turn, tells the others of its own, loads and saves
/// `.host` keys through requests and `.fileStorage` keys through their files.
///
/// Everything but ``accept(_:_:)`` and the wake runs on the thread holding the store.
final class SharedBinding<State, Action>: SharedScope, @unchecked Sendable {
  private let fields: [SharedAccessor<State>]
  /// The key of each field (parallel to `fields`).
  private var fieldKeys: [SharedKey] = []
  /// Each key's box and the generation the state holds, in the order the fields name them.
  private var keys: [(key: SharedKey, box: SharedBox, seen: UInt64)] = []
  private weak var store: Store<State, Action>?
  /// The values to save at the end of the turn, by key (the newest of the turn).
  private var saves: [(key: SharedKey, json: [UInt8])] = []
  /// `.host` values the host answered `shared.load` with, for the holder to apply.
  private let loaded = Guarded<[(key: SharedKey, value: any Sendable)]>.make([])
  /// Where a recording store writes the changes taken from outside (the journal's `shared`
  /// lines).
  var observer: ((SharedKey, [UInt8]) -> Void)?

  /// The binding of `State`'s shared fields; nil when it has none.
  static func make(registry: SharedRegistry) -> SharedBinding? {
    let fields = SharedFields.of(State.self)
    guard !fields.isEmpty else { return nil }
    return SharedBinding(fields: fields, registry: registry)
  }

  private init(fields: [SharedAccessor<State>], registry: SharedRegistry) {
    self.fields = fields
    super.init(registry: registry)
  }

  deinit {
    for entry in keys { registry.detach(entry.box, ObjectIdentifier(self)) }
  }

  private func index(of key: SharedKey) -> Int? {
    keys.firstIndex { $0.key == key }
  }

  // MARK: - Binding

  /// Attaches each field to its key, the state taking the key's value if it has one (the field
  /// keeps its own, and gives it to the key, if not). A `.fileStorage` key is read first.
  func bind(_ state: inout State) {
    for field in fields {
      let key = field.key(state)
      fieldKeys.append(key)
      let box: SharedBox
      if let index = index(of: key) {
        box = keys[index].box
      } else {
        box = registry.attach(key, self)
        if key.kind == .fileStorage, registry.performsFileIO { readFileIfNew(box, field) }
        keys.append((key, box, 0))
      }
      let (value, generation) = box.seed(field.value(state))
      _ = field.take(&state, value)
      if let index = index(of: key) { keys[index].seen = generation }
    }
  }

  /// Lends the binding to `store`: its reducers' `withLock` find it, and its first turn loads
  /// the `.host` keys.
  func attach(to store: Store<State, Action>) {
    self.store = store
    store.dependencyBox.sharedScope = self
    guard registry.asksHost, keys.contains(where: { $0.key.kind == .host }) else { return }
    // NB: at the store's first turn, not now: the host sets its handler after making the store.
    store.core.inbox.push { [weak self] in self?.loadHostKeys() }
  }

  // MARK: - Changes from outside

  override func wake() {
    store?.core.inbox.push { [weak self] in self?.takeChanges() }
  }

  /// Takes the keys' values that changed since the state last took them (holder).
  func takeChanges() {
    pending.store(false, ordering: .releasing)
    guard let store else { return }
    for index in keys.indices {
      let (value, generation) = keys[index].box.read()
      guard generation != keys[index].seen, let value else { continue }
      keys[index].seen = generation
      let key = keys[index].key
      let json = take(value, for: key, into: store, encoding: observer != nil)
      if let json, let observer { observer(key, json) }
    }
  }

  /// Applies a journal's `shared` line: the key's value, as JSON (holder; replays).
  func apply(_ key: SharedKey, json: [UInt8]) throws(JSONError) {
    guard let store else { return }
    guard let index = index(of: key),
      let field = fieldIndex(of: key).map({ fields[$0] })
    else {
      throw JSONError(.shape, "the state has no shared field of key \"\(key)\"")
    }
    let value = try field.decode(json)
    keys[index].seen = registry.set(keys[index].box, to: value, from: self)
    take(value, for: key, into: store)
  }

  /// Writes `value` into each field of `key` in the store's state, which it marks changed
  /// (holder); with `encoding`, returns the first such field's JSON.
  @discardableResult
  private func take(
    _ value: any Sendable, for key: SharedKey, into store: Store<State, Action>,
    encoding: Bool = false
  ) -> [UInt8]? {
    var json: [UInt8]?
    for i in fieldKeys.indices where fieldKeys[i] == key {
      let field = fields[i]
      _ = field.take(&store.hot.pointee.state, value)
      if json == nil, encoding { json = field.encoded(store.hot.pointee.state) }
    }
    store.hot.pointee.dirty = true
    store.hot.pointee.ranInCall += 1
    return json
  }

  // MARK: - The store's own changes

  override func changed(_ key: SharedKey, to value: any Sendable) {
    let index: Int
    if let found = self.index(of: key) {
      index = found
    } else {
      // NB: a field the walk of the state did not reach (inside an optional, an enum): its key
      // is shared all the same, from now on.
      keys.append((key, registry.attach(key, self), 0))
      index = keys.count - 1
    }
    keys[index].seen = registry.set(keys[index].box, to: value, from: self)
    let saves = key.kind == .host && registry.asksHost
      || key.kind == .fileStorage && registry.performsFileIO
    guard saves, let json = encode(value, for: key) else { return }
    let wasEmpty = self.saves.isEmpty
    self.saves.removeAll { $0.key == key }
    self.saves.append((key, json))
    // NB: saved once the turn's actions are reduced (an item runs after the queued actions):
    // the changes of one turn make one save.
    if wasEmpty { store?.core.inbox.push { [weak self] in self?.save() } }
  }

  /// Where `key`'s field is in `fields` (nil: none).
  ///
  /// NB: by index over the keys: this class runs unspecialized, and a search through
  /// `zip(fields, fieldKeys)` looked its generic types up at run time, ~5,000 instructions a
  /// save (docs/benchmarks.md, "Dice on the direct path").
  private func fieldIndex(of key: SharedKey) -> Int? {
    for i in fieldKeys.indices where fieldKeys[i] == key { return i }
    return nil
  }

  private func encode(_ value: any Sendable, for key: SharedKey) -> [UInt8]? {
    guard let field = fieldIndex(of: key).map({ fields[$0] }) else {
      return (value as? any Encodable).flatMap { try? JSONEncoder().encode($0) }
    }
    return field.encodeValue(value)
  }

  /// Saves what the turn changed: `shared.save` requests, files (holder).
  private func save() {
    let saving = saves
    saves = []
    for (key, json) in saving {
      switch key.kind {
      case .host:
        var payload = Array("{\"key\":".utf8) + JSONWriter.write(.string(key.name))
        payload += Array(",\"value\":".utf8) + json
        payload.append(UInt8(ascii: "}"))
        store?.core.startAtRoot(
          Effect<Action>(
            operation: .request(
              HostRequest(
                name: "shared.save", payload: .success(RequestPayload(payload)),
                kind: .fireAndForget, answer: { _, _ in nil }, failure: { _ in nil },
                finished: { nil }))))
      case .fileStorage:
        guard let index = index(of: key) else { continue }
        writeFile(keys[index].box, json)
      case .inMemory:
        continue
      }
    }
  }

  // MARK: - .host keys

  /// Asks the host for each `.host` key's saved value (holder, at the store's first turn).
  private func loadHostKeys() {
    guard let store else { return }
    for entry in keys where entry.key.kind == .host {
      let key = entry.key
      let payload = Array("{\"key\":".utf8) + JSONWriter.write(.string(key.name)) + [0x7D]
      store.core.startAtRoot(
        Effect<Action>(
          operation: .request(
            HostRequest(
              name: "shared.load", payload: .success(RequestPayload(payload)), kind: .oneShot,
              answer: { [weak self] (_, bytes) throws(JSONError) in
                try self?.accept(key, bytes)
                return nil
              },
              failure: { _ in nil }, finished: { nil }))))
    }
  }

  /// Checks the host's answer to `shared.load` (any thread, before the answer is accepted):
  /// `null` for nothing saved, else the value; queues it for the holder.
  private func accept(_ key: SharedKey, _ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    let json = Array(bytes)
    if case .null = try JSONParser.parse(bytes) { return }
    guard let field = fieldIndex(of: key).map({ fields[$0] }) else { return }
    let value = try field.decode(json)
    loaded.withLock { $0.append((key, value)) }
    store?.core.inbox.push { [weak self] in self?.applyLoaded() }
  }

  /// Applies the loaded values: the state takes them, and so does every store sharing the key
  /// (holder). Not a journal line: a replay applies the recorded answer again.
  private func applyLoaded() {
    guard let store else { return }
    let taken: [(key: SharedKey, value: any Sendable)] = loaded.withLock { list in
      let taken = list
      list = []
      return taken
    }
    for (key, value) in taken {
      guard let index = index(of: key) else { continue }
      keys[index].seen = registry.set(keys[index].box, to: value, from: self)
      take(value, for: key, into: store)
    }
  }

  // MARK: - .fileStorage keys

  override func checkFiles() {
    guard registry.performsFileIO else { return }
    for entry in keys where entry.key.kind == .fileStorage {
      guard let field = zip(fields, fieldKeys).first(where: { $0.1 == entry.key })?.0,
        let value = FileStorage.readIfChanged(entry.box, decode: field.decode)
      else { continue }
      // NB: from no store: every store holding the key, this one too, takes it at its turn
      // (and journals it: it came from outside).
      registry.set(entry.box, to: value, from: nil)
    }
  }

  private func readFileIfNew(_ box: SharedBox, _ field: SharedAccessor<State>) {
    guard box.read().value == nil,
      let value = FileStorage.readIfChanged(box, decode: field.decode)
    else { return }
    _ = box.seed(value)
  }

  private func writeFile(_ box: SharedBox, _ json: [UInt8]) {
    FileStorage.write(box, json)
  }
}
