import Synchronization

/// Where a cached ``ObjectContainer`` reads: the object it stands for, re-pointed each time the
/// container is handed out again (see ``ContainerCache``), and the `allKeys` it has made.
///
/// NB: it lives as long as its ``ContainerCache/Entry``: for the whole process.
///
/// NB: one holder of the container's box at a time reads it: the cache re-points it only when
/// it holds the box's only reference, so the holders are ordered by the box's reference count
/// (its release, then the next uniqueness check). That order is the runtime's, which a thread
/// sanitizer does not see: the place is read and written as relaxed atomics (plain loads and
/// stores) and the remembered keys under a flag of their own, so that it sees no race either.
final class ObjectCursor {
  /// The document and the object.
  struct Place: ~Copyable {
    let document: Atomic<UnsafePointer<Document>>
    let object: Atomic<Int>
  }

  /// Where the container reads, for as long as the cursor lives.
  ///
  /// NB: apart, and read by the container through a pointer: a class reference read from the
  /// container (`unowned(unsafe)` or not) was retained and released at every member lookup.
  let place: UnsafeMutablePointer<Place>
  /// The last few one-member objects' names and their `allKeys` (a `[Key]` of one key, as its
  /// storage object: see ``ObjectContainer/allKeys``), read and written under ``keysBusy``.
  @exclusivity(unchecked) private var knownKeys: [(name: [UInt8], keys: AnyObject)] = []
  private let keysBusy = Atomic<Bool>(false)

  /// How many names ``knownKeys`` remembers.
  static let knownKeysLimit = 8

  init(_ document: UnsafePointer<Document>, object: Int) {
    place = UnsafeMutablePointer.allocate(capacity: 1)
    place.initialize(to: Place(document: Atomic(document), object: Atomic(object)))
  }

  deinit {
    _ = place.move()
    place.deallocate()
  }

  /// Re-points the cursor at `object`.
  @inline(__always)
  func point(at document: UnsafePointer<Document>, object: Int) {
    place.pointee.document.store(document, ordering: .relaxed)
    place.pointee.object.store(object, ordering: .relaxed)
  }

  /// Runs `body` on the remembered keys alone.
  ///
  /// NB: uncontended unless a container is used on two threads at once (it is not `Sendable`).
  @inline(__always)
  private func withKnownKeys<R>(_ body: (inout [(name: [UInt8], keys: AnyObject)]) -> R) -> R {
    while keysBusy.exchange(true, ordering: .acquiring) {}
    defer { keysBusy.store(false, ordering: .releasing) }
    return body(&knownKeys)
  }

  /// The `allKeys` remembered for a one-member object of `document` whose name is the string at
  /// `name`.
  @inline(__always)
  func knownKeys(named name: Int, in document: UnsafePointer<Document>) -> AnyObject? {
    withKnownKeys { (knownKeys) in
      knownKeys.withUnsafeBufferPointer { (known) in
        for i in known.indices {
          let equal = known[i].name.withUnsafeBufferPointer {
            document.pointee.string(at: name, equals: $0)
          }
          if equal { return known[i].keys }
        }
        return nil
      }
    }
  }

  /// Remembers `keys`, the `allKeys` of a one-member object whose member is named `name`.
  func remember(_ keys: AnyObject, named name: String) {
    withKnownKeys { (knownKeys) in
      if knownKeys.count == ObjectCursor.knownKeysLimit { knownKeys.removeFirst() }
      knownKeys.append((Array(name.utf8), keys))
    }
  }
}

/// The keyed containers of objects, one per `Key` type, kept from one decode to the next.
///
/// Making a `KeyedDecodingContainer<Key>` costs two run-time generic metadata lookups (our
/// `ObjectContainer<Key>` and the standard library's box around it, a hash-table search each),
/// a witness table and an allocation: ~1.3k instructions, more than the scan of a small action.
/// Here each `Key` type's container is made once and handed out again, re-pointed at the new
/// object, whenever no one else holds it: ~160 instructions.
///
/// NB: safe because a container's state is all in its ``ObjectCursor``, and the cursor is only
/// re-pointed when the cache holds the only reference to the box (`isKnownUniquelyReferenced`):
/// a container still in use (an outer one of the same `Key` in a recursive type, one a type kept
/// after its `init(from:)`, one being used on another thread) is never handed out again; a new
/// one is made instead, as before. The slots are written once, with an entry that lives as long
/// as the process (at most ``slotCount`` of them, a few hundred bytes each); an entry's `busy`
/// flag makes the check, the re-pointing and the taking of a reference one step among threads.
/// A `Key` type whose slots are full is not cached: its containers are made each time.
enum ContainerCache {
  /// A `Key` type's cached container (a ``TypedEntry``).
  class Entry: @unchecked Sendable {
    /// The `Key` type's metadata address.
    final let keyType: UInt
    final let busy = Atomic<Bool>(false)
    /// The standard library's box: what a `KeyedDecodingContainer<Key>` holds.
    @exclusivity(unchecked) final var box: AnyObject
    final let cursor: ObjectCursor

    init(keyType: UInt, box: AnyObject, cursor: ObjectCursor) {
      self.keyType = keyType
      self.box = box
      self.cursor = cursor
    }
  }

  /// The entry of `Key`, with `Container` its `KeyedDecodingContainer<Key>`.
  ///
  /// NB: generic over the container type rather than `Key`, so that ``take()`` finds that
  /// type's metadata in the entry's own (its class's generic argument) and not by a run-time
  /// lookup of `KeyedDecodingContainer<Key>` (a hash-table search, ~500 instructions), which any
  /// code of this module that writes a `KeyedDecodingContainer<Key>` makes: the type is
  /// resilient, its layout unknown here.
  final class TypedEntry<Container>: Entry, @unchecked Sendable {
    /// The box as the container it is (``canCache(_:)`` checked that one is the other), taken
    /// by a caller of ``reuse(_:_:object:)``, which leaves the entry busy.
    ///
    /// NB: the entry is free again only once the box is taken (a reference held): another
    /// thread must find it held, not re-point it before this one has it.
    @inline(never)
    func take() -> Container {
      defer { busy.store(false, ordering: .releasing) }
      return unsafeBitCast(box, to: Container.self)
    }
  }

  static let slotCount = 256
  /// How many slots after its own a `Key` type's entry may be in.
  static let probes = 4

  /// The entries, by `Key` type; 0 for an empty slot.
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<Atomic<UInt>> = {
    let slots = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: slotCount)
    for i in 0..<slotCount { (slots + i).initialize(to: Atomic(0)) }
    return slots
  }()

  /// Whether `KeyedDecodingContainer<Key>` is what this cache takes it to be: one reference.
  @inline(__always)
  static func canCache<Key: CodingKey>(_ type: Key.Type) -> Bool {
    MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
      && MemoryLayout<[Key]>.size == MemoryLayout<AnyObject>.size
  }

  /// The keyed container of the object at `object`: a cached one when free, else a new one.
  ///
  /// NB: a container the cache cannot give (its entry held, no room) costs what it did without
  /// the cache, and ~100 instructions more. Nothing here holds a `KeyedDecodingContainer<Key>`
  /// (its metadata would be looked up on every call, ~500 instructions): only `insert` does.
  @inline(__always)
  static func container<Key: CodingKey>(
    keyedBy type: Key.Type, _ document: UnsafePointer<Document>, object: Int
  ) -> KeyedDecodingContainer<Key> {
    let keyType = UInt(bitPattern: ObjectIdentifier(type))
    switch reuse(keyType, document, object: object) {
    case let .taken(entry):
      // NB: the entry was made by `insert` below for this same `Key` (its slot's entry says
      // so): it is a `TypedEntry<KeyedDecodingContainer<Key>>`. Its result is written straight
      // into this function's.
      return Unmanaged<TypedEntry<KeyedDecodingContainer<Key>>>.fromOpaque(entry)
        ._withUnsafeGuaranteedRef { $0.take() }
    case let .free(slot):
      return insert(keyedBy: type, keyType, at: slot, document, object: object)
    case .unavailable:
      return make(keyedBy: type, document, object: object)
    }
  }

  /// The slot `keyType`'s entry starts its search at.
  @inline(__always)
  static func home(_ keyType: UInt) -> Int {
    Int(truncatingIfNeeded: (keyType >> 4 ^ keyType >> 12) & UInt(slotCount - 1))
  }

  /// What ``reuse(_:_:object:)`` found.
  enum Lookup {
    /// The entry (left busy for the caller to ``TypedEntry/take()``), its box re-pointed.
    case taken(UnsafeRawPointer)
    /// No entry for the `Key` type, and the empty slot where one may go.
    case free(Int)
    /// The entry is held, or there is no entry and no room.
    case unavailable
  }

  /// The entry for `keyType`, its box re-pointed at `object`, if there is one and no one else
  /// holds it.
  static func reuse(
    _ keyType: UInt, _ document: UnsafePointer<Document>, object: Int
  ) -> Lookup {
    let home = home(keyType)
    for probe in 0..<probes {
      let slot = (home &+ probe) & (slotCount - 1)
      let bits = slots[slot].load(ordering: .acquiring)
      guard let raw = UnsafeRawPointer(bitPattern: bits) else { return .free(slot) }
      let found = Unmanaged<Entry>.fromOpaque(raw)._withUnsafeGuaranteedRef {
        (entry) -> Bool? in
        guard entry.keyType == keyType else { return nil }
        guard !entry.busy.exchange(true, ordering: .acquiring) else { return false }
        guard isKnownUniquelyReferenced(&entry.box) else {
          entry.busy.store(false, ordering: .releasing)
          return false
        }
        entry.cursor.point(at: document, object: object)
        return true
      }
      switch found {
      case true?: return .taken(raw)
      case false?: return .unavailable
      case nil: continue
      }
    }
    return .unavailable
  }

  /// A new container, not cached.
  @inline(never)
  static func make<Key: CodingKey>(
    keyedBy type: Key.Type, _ document: UnsafePointer<Document>, object: Int
  ) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(ObjectContainer<Key>(document, object: object))
  }

  /// A new container for a `Key` type with no entry, kept in the cache at `slot`.
  @inline(never)
  static func insert<Key: CodingKey>(
    keyedBy type: Key.Type, _ keyType: UInt, at slot: Int, _ document: UnsafePointer<Document>,
    object: Int
  ) -> KeyedDecodingContainer<Key> {
    guard canCache(type) else {
      return KeyedDecodingContainer(ObjectContainer<Key>(document, object: object))
    }
    let cursor = ObjectCursor(document, object: object)
    let container = KeyedDecodingContainer(ObjectContainer<Key>(cursor))
    let entry = TypedEntry<KeyedDecodingContainer<Key>>(
      keyType: keyType, box: unsafeBitCast(container, to: AnyObject.self), cursor: cursor)
    let retained = Unmanaged<Entry>.passRetained(entry)
    let bits = UInt(bitPattern: retained.toOpaque())
    guard slots[slot].compareExchange(expected: 0, desired: bits, ordering: .releasing).exchanged
    else {
      // NB: another thread took the slot first. Its container refers to its cursor without
      // keeping it (see `ObjectContainer.cursor`): dropped with the entry, neither is handed out.
      retained.release()
      return KeyedDecodingContainer(ObjectContainer<Key>(document, object: object))
    }
    return container
  }
}
