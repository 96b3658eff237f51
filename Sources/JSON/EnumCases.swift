/// The cases of an enum, read from the Swift runtime's metadata: their names, for errors that
/// list the valid cases, and every value of an enum without payloads (a `CodingKeys` type), for
/// the schemas derived from `init(from:)`.
///
///     EnumCases.names(of: Action.self)          // ["increment", "setCount", "toggle"]
///     EnumCases.all(Action.CodingKeys.self)     // [.increment, .setCount, .toggle]
///
/// NB: relies on the runtime's stable ABI, as `EnumReflection` (StoreKernel) does: the enum
/// metadata kind and nominal type descriptor, its field descriptor's records (one a case, in
/// declaration order, which for an enum without payloads is also tag order), and the value
/// witness table's `destructiveInjectEnumTag`. Every step checks what it reads; whatever it
/// cannot vouch for gives nil.
package enum EnumCases {
  private typealias InjectEnumTag =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  private static let word = MemoryLayout<UnsafeRawPointer>.size
  private static let enumKind: UInt = 0x201
  private static let hasEnumWitnesses: UInt32 = 0x0020_0000
  private static let flagsOffset = 8 * word + 2 * MemoryLayout<Int>.size
  private static let enumWitnessesOffset = flagsOffset + 2 * MemoryLayout<UInt32>.size

  /// The names of the cases of the enum `type`, in declaration order; nil if `type` is not an
  /// enum (an optional is not) or its metadata is not laid out as this file knows.
  package static func names(of type: Any.Type) -> [String]? {
    guard let records = records(of: type) else { return nil }
    var names: [String] = []
    for record in records {
      guard let name = relative(record + 8) else { return nil }
      names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
    }
    return names
  }

  /// Every value of `type`, an enum none of whose cases has a payload, in declaration order;
  /// nil for any other type.
  package static func all<T>(_ type: T.Type) -> [T]? {
    guard let records = records(of: type), !records.isEmpty,
      records.allSatisfy({ relative($0 + 4) == nil })
    else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { slot.deallocate() }
    guard table.load(fromByteOffset: flagsOffset, as: UInt32.self) & hasEnumWitnesses != 0 else {
      // NB: an enum of one case without payload has no bits: any memory is its value.
      guard records.count == 1, MemoryLayout<T>.size == 0 else { return nil }
      return [UnsafeRawPointer(slot).load(as: T.self)]
    }
    let inject = unsafeBitCast(
      table.load(fromByteOffset: enumWitnessesOffset + 2 * word, as: UnsafeRawPointer.self),
      to: InjectEnumTag.self)
    var values: [T] = []
    values.reserveCapacity(records.count)
    for tag in 0..<records.count {
      // NB: a case without payload is its tag alone: injecting it makes the whole value, and
      // the value has nothing to release.
      inject(UnsafeMutableRawPointer(slot), UInt32(tag), metadata)
      values.append(slot.move())
    }
    return values
  }

  /// The field records of the enum `type` (one a case), if its metadata is the layout this file
  /// knows.
  private static func records(of type: Any.Type) -> [UnsafeRawPointer]? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == enumKind,
      let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
      descriptor.load(as: UInt32.self) & 0x1F == 18,
      let fields = relative(descriptor + 16)
    else { return nil }
    let kind = fields.load(fromByteOffset: 8, as: UInt16.self)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard kind == 2 || kind == 3, recordSize >= 12 else { return nil }
    return (0..<count).map { fields + 16 + $0 * recordSize }
  }

  /// The target of a relative direct pointer at `address`, nil if it is null.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }
}
