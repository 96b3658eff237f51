/// Fast access to an enum value's case and payload through the Swift runtime's metadata, so that
/// a case path made from a bare case (`AnyCasePath(Action.child)`) costs tens of nanoseconds
/// instead of a `Mirror`'s microseconds.
///
/// NB: relies on the runtime's stable ABI (Linux and Apple platforms), as swift-case-paths did
/// before macros: the enum metadata kind and nominal type descriptor, the value witness table's
/// enum witnesses (`getEnumTag`, `destructiveProjectEnumData`, `destructiveInjectEnumTag`), the
/// field descriptor's records, and `swift_getTypeByMangledNameInContext`. Every step checks what
/// it reads (kinds, flags, counts); whatever it cannot vouch for is answered by `Mirror` instead.
/// A payload is projected only when the case is not indirect and its declared type is exactly
/// the type asked for.
@usableFromInline
enum EnumReflection {
  private typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  private typealias ProjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  private typealias InjectEnumTag =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  private static let word = MemoryLayout<UnsafeRawPointer>.size
  private static let enumKind: UInt = 0x201
  private static let optionalKind: UInt = 0x202
  private static let structKind: UInt = 0x200
  private static let hasEnumWitnesses: UInt32 = 0x0020_0000
  private static let flagsOffset = 8 * word + 2 * MemoryLayout<Int>.size
  private static let enumWitnessesOffset = flagsOffset + 2 * MemoryLayout<UInt32>.size

  /// The runtime's enum witnesses of `type`, if it is a plain enum.
  private struct Witnesses {
    let metadata: UnsafeRawPointer
    let getEnumTag: GetEnumTag
    let project: ProjectEnumData
    let inject: InjectEnumTag
  }

  private static func witnesses(of type: Any.Type) -> Witnesses? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == enumKind else { return nil }
    let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    guard table.load(fromByteOffset: flagsOffset, as: UInt32.self) & hasEnumWitnesses != 0 else {
      return nil
    }
    let functions = table + enumWitnessesOffset
    return Witnesses(
      metadata: metadata,
      getEnumTag: unsafeBitCast(functions.load(as: UnsafeRawPointer.self), to: GetEnumTag.self),
      project: unsafeBitCast(
        functions.load(fromByteOffset: word, as: UnsafeRawPointer.self), to: ProjectEnumData.self),
      inject: unsafeBitCast(
        functions.load(fromByteOffset: 2 * word, as: UnsafeRawPointer.self), to: InjectEnumTag.self
      ))
  }

  /// The case index of `value` (payload cases first, in declaration order, then the others), or
  /// nil if its type is not a plain enum.
  @inlinable
  static func tag<Root>(of value: Root) -> UInt32? {
    withUnsafePointer(to: value) { tag(at: UnsafeRawPointer($0), of: Root.self) }
  }

  /// The payload of `root` as a `Value`: `.some` if `root` is in a case whose payload is a
  /// `Value`; `.none` if it is certainly not; nil if reflection cannot tell (ask `Mirror`).
  @inlinable
  static func payload<Root, Value>(of root: Root, as _: Value.Type) -> Value?? {
    let found = withUnsafePointer(to: root) {
      classify(UnsafeRawPointer($0), of: Root.self, as: Value.self)
    }
    guard let found else { return nil }
    guard found.isExactly else { return .some(nil) }
    var copy = root
    return withUnsafeMutablePointer(to: &copy) { pointer -> Value in
      let raw = UnsafeMutableRawPointer(pointer)
      project(raw, of: Root.self)
      let value = raw.load(as: Value.self)
      inject(found.tag, into: raw, of: Root.self)
      return value
    }
  }

  @usableFromInline
  static func tag(at value: UnsafeRawPointer, of type: Any.Type) -> UInt32? {
    guard let witnesses = witnesses(of: type) else { return nil }
    return witnesses.getEnumTag(value, witnesses.metadata)
  }

  /// The case of the enum value at `value` and whether its payload is exactly a `valueType`;
  /// nil if reflection cannot tell.
  @usableFromInline
  static func classify(
    _ value: UnsafeRawPointer, of type: Any.Type, as valueType: Any.Type
  ) -> (tag: UInt32, isExactly: Bool)? {
    guard let witnesses = witnesses(of: type) else { return nil }
    let tag = witnesses.getEnumTag(value, witnesses.metadata)
    switch shape(of: type, tag: tag, witnesses: witnesses, as: valueType) {
    case .unknown: return nil
    case .other: return (tag, false)
    case .exactly: return (tag, true)
    }
  }

  /// Leaves the payload of the enum value at `value` in its place (the value is then not a
  /// valid enum until ``inject(_:into:of:)``).
  @usableFromInline
  static func project(_ value: UnsafeMutableRawPointer, of type: Any.Type) {
    guard let witnesses = witnesses(of: type) else { return }
    witnesses.project(value, witnesses.metadata)
  }

  /// Turns a payload left by ``project(_:of:)`` back into the enum value of case `tag`.
  @usableFromInline
  static func inject(_ tag: UInt32, into value: UnsafeMutableRawPointer, of type: Any.Type) {
    guard let witnesses = witnesses(of: type) else { return }
    witnesses.inject(value, tag, witnesses.metadata)
  }

  /// The declared type of the payload of `value`'s case, and whether the case is `indirect`;
  /// nil if `Root` is not a plain enum, the case has no payload, or reflection cannot tell.
  @inlinable
  static func payloadType<Root>(of value: Root) -> (type: Any.Type, isIndirect: Bool)? {
    withUnsafePointer(to: value) { payloadType(at: UnsafeRawPointer($0), of: Root.self) }
  }

  @usableFromInline
  static func payloadType(
    at value: UnsafeRawPointer, of type: Any.Type
  ) -> (type: Any.Type, isIndirect: Bool)? {
    guard let witnesses = witnesses(of: type) else { return nil }
    let tag = witnesses.getEnumTag(value, witnesses.metadata)
    let key = CaseKey(root: ObjectIdentifier(type), tag: tag)
    if let known = payloads[key] { return known.type.map { ($0, known.isIndirect) } }
    let found = computePayloadType(metadata: witnesses.metadata, tag: tag)
    payloads[key] = Payload(type: found?.type, isIndirect: found?.isIndirect ?? false)
    return found
  }

  /// The payload of `value`'s case, if it has one: projected from a copy when the case is not
  /// indirect, read through `Mirror` otherwise; nil if `Root` is not a plain enum or the case
  /// has no payload.
  static func payloadValue<Root>(of value: Root) -> Any? {
    guard let (type, isIndirect) = payloadType(of: value) else { return nil }
    guard !isIndirect, let tag = tag(of: value) else { return mirroredPayload(of: value) }
    var copy = value
    return withUnsafeMutablePointer(to: &copy) { pointer -> Any in
      let raw = UnsafeMutableRawPointer(pointer)
      project(raw, of: Root.self)
      let payload = load(type, from: UnsafeRawPointer(raw))
      inject(tag, into: raw, of: Root.self)
      return payload
    }
  }

  /// A copy of the `type` value at `pointer`.
  private static func load(_ type: Any.Type, from pointer: UnsafeRawPointer) -> Any {
    func load<Payload>(_: Payload.Type) -> Any { pointer.load(as: Payload.self) }
    return _openExistential(type, do: load)
  }

  /// The payload of an enum value, by `Mirror` (nil: not an enum, or no payload).
  private static func mirroredPayload(of value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return nil }
    return mirror.children.first?.value
  }

  private struct CaseKey: Hashable {
    let root: ObjectIdentifier
    let tag: UInt32
  }

  private struct Payload {
    let type: Any.Type?
    let isIndirect: Bool
  }

  /// The payload type of each (enum, case) looked up; computed once (it demangles).
  private final class PayloadCache: @unchecked Sendable {
    // NB: a PlainLock, as `ShapeCache`.
    private let lock = PlainLock()
    private var payloads: [CaseKey: Payload] = [:]

    subscript(key: CaseKey) -> Payload? {
      get { lock.withLock { payloads[key] } }
      set { lock.withLock { payloads[key] = newValue } }
    }
  }

  private static let payloads = PayloadCache()

  private static func computePayloadType(
    metadata: UnsafeRawPointer, tag: UInt32
  ) -> (type: Any.Type, isIndirect: Bool)? {
    guard let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
      let record = fieldRecord(of: metadata, tag: tag), let typeName = relative(record + 4),
      let payloadType = _getTypeByMangledNameInContext(
        typeName.assumingMemoryBound(to: UInt8.self), UInt(mangledNameLength(typeName)),
        genericContext: descriptor, genericArguments: metadata + 2 * word)
    else { return nil }
    return (payloadType, record.load(as: UInt32.self) & 0x1 != 0)
  }

  /// What a case's payload is, compared with the type asked for.
  private enum Shape {
    /// Declared as exactly that type, stored inline: project it.
    case exactly
    /// Certainly not that type (no payload, or another plain struct or enum).
    case other
    /// Reflection cannot tell (indirect case, existential, class, tuple, optional…).
    case unknown
  }

  private struct ShapeKey: Hashable {
    let root: ObjectIdentifier
    let value: ObjectIdentifier
    let tag: UInt32
  }

  /// What each (enum, payload type, case) was found to be; computed once (it demangles).
  private final class ShapeCache: @unchecked Sendable {
    // NB: a PlainLock over a dictionary, not a global `Mutex`: ThreadSanitizer flags accesses
    // to a global `Mutex`'s storage from two threads as a race (it does not see the lock), and
    // that noise would hide real reports.
    private let lock = PlainLock()
    private var shapes: [ShapeKey: Shape] = [:]

    subscript(key: ShapeKey) -> Shape? {
      get { lock.withLock { shapes[key] } }
      set { lock.withLock { shapes[key] = newValue } }
    }
  }

  private static let shapes = ShapeCache()

  private static func shape(
    of root: Any.Type, tag: UInt32, witnesses: Witnesses, as value: Any.Type
  ) -> Shape {
    // NB: a case without a payload needs no lookup: its field record names no type. A case
    // whose payload has zero size (an empty struct, `Void`, a one-case enum) is laid out as a
    // case without payload (its tag comes after the payload cases') yet keeps its type in its
    // record: the records are in tag order, as `Mirror` reads them, so the record decides.
    if let record = fieldRecord(of: witnesses.metadata, tag: tag), relative(record + 4) == nil {
      return .other
    }
    let key = ShapeKey(root: ObjectIdentifier(root), value: ObjectIdentifier(value), tag: tag)
    if let known = shapes[key] { return known }
    let shape = computeShape(metadata: witnesses.metadata, tag: tag, as: value)
    shapes[key] = shape
    return shape
  }

  private static func computeShape(
    metadata: UnsafeRawPointer, tag: UInt32, as value: Any.Type
  ) -> Shape {
    guard let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
      let record = fieldRecord(of: metadata, tag: tag)
    else { return .unknown }
    guard let typeName = relative(record + 4) else { return .other }
    let isIndirect = record.load(as: UInt32.self) & 0x1 != 0
    guard !isIndirect,
      let payloadType = _getTypeByMangledNameInContext(
        typeName.assumingMemoryBound(to: UInt8.self), UInt(mangledNameLength(typeName)),
        genericContext: descriptor, genericArguments: metadata + 2 * word)
    else { return .unknown }
    if payloadType == value { return .exactly }
    return isPlainValueType(payloadType) && isPlainValueType(value) && value != AnyHashable.self
      ? .other : .unknown
  }

  /// The field record of case `tag` of the enum `metadata` describes, if its layout is the one
  /// this file knows.
  private static func fieldRecord(
    of metadata: UnsafeRawPointer, tag: UInt32
  ) -> UnsafeRawPointer? {
    guard let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
      descriptor.load(as: UInt32.self) & 0x1F == 18,
      let fields = relative(descriptor + 16)
    else { return nil }
    let kind = fields.load(fromByteOffset: 8, as: UInt16.self)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = fields.load(fromByteOffset: 12, as: UInt32.self)
    guard kind == 2 || kind == 3, recordSize >= 12, tag < count else { return nil }
    return fields + 16 + Int(tag) * recordSize
  }

  /// A struct or a non-optional enum: a cast from another such type always fails.
  private static func isPlainValueType(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    return kind == structKind || kind == enumKind
  }

  /// The target of a relative direct pointer at `address`, nil if it is null.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }

  /// The length of a (possibly symbolic) mangled name.
  private static func mangledNameLength(_ start: UnsafeRawPointer) -> Int {
    var end = start
    while true {
      let byte = end.load(as: UInt8.self)
      switch byte {
      case 0: return end - start
      case 0x01...0x17: end += 1 + 4
      case 0x18...0x1F: end += 1 + word
      default: end += 1
      }
    }
  }
}
