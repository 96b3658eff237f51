import Synchronization

/// An object made by the first use that needs it, then kept: one word until then.
///
///     let lock = LazyObject<Guarded<Void>>()
///     lock.made                               // nil: nothing made yet
///     lock.object { Guarded.make(()) }        // made once, by whichever thread comes first
///
/// NB: not `AtomicLazyReference`: its `load` is not inlinable, and unspecialized it looks the
/// reference's type up at run time on every call (~560 instructions; a todo's toggle reaches the
/// timer queue's lock four times). Here a made object costs one atomic load.
@_spi(Bridge)
public struct LazyObject<Object: AnyObject>: ~Copyable {
  /// The object's address, retained once (0 before it is made).
  @usableFromInline let word = Atomic<UInt>(0)

  @inlinable
  public init() {}

  deinit {
    if let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) {
      Unmanaged<Object>.fromOpaque(pointer).release()
    }
  }

  /// The object, or nil if no use has made it yet.
  @inlinable
  public var made: Object? {
    guard let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else {
      return nil
    }
    return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Whether the object is made (no reference taken).
  @inlinable
  public var isMade: Bool { word.load(ordering: .acquiring) != 0 }

  /// `body` of the object, without retaining it; nil if no use has made it yet.
  @inlinable @inline(__always)
  public func ifMade<R>(_ body: (Object) -> R) -> R? {
    guard let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else {
      return nil
    }
    return Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
  }

  /// The object, made by `make` if none is yet; when two threads make one at once, one object
  /// is kept and the other dropped.
  @inlinable
  public func object(_ make: () -> Object) -> Object {
    if let made { return made }
    return keep(make())
  }

  /// Calls `body` with the object (made by `make` if none is yet) without retaining it: the
  /// object lives as long as this holder does.
  @inlinable @inline(__always)
  public func withObject<R>(_ make: () -> Object, _ body: (Object) -> R) -> R {
    guard let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else {
      return body(keep(make()))
    }
    return Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
  }

  @usableFromInline
  func keep(_ candidate: Object) -> Object {
    let retained = Unmanaged.passRetained(candidate)
    let bits = UInt(bitPattern: retained.toOpaque())
    let (exchanged, current) = word.compareExchange(
      expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    if exchanged { return candidate }
    retained.release()
    guard let pointer = UnsafeRawPointer(bitPattern: current) else { return candidate }
    return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }
}

// NB: `@unchecked`: the word is an atomic, and the object, once made, is only read.
@_spi(Bridge)
extension LazyObject: @unchecked Sendable where Object: Sendable {}
