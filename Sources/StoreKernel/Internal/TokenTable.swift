/// Values by token: a hash table with linear probing, for tokens handed out in order (the C
/// bridge's live stores, a store's open host requests).
///
///     var table = TokenTable<StoreContext>(spacing: 4)
///     table.insert(store, for: 0x17)
///     table[0x17]           // store
///     table.remove(0x17)    // store; table[0x17] is nil
///
/// NB: not a `Dictionary`: tokens need no hashing. They are distinct, never 0, and handed out
/// `1 << spacing` apart in order, so `token >> spacing` spreads the live ones over the slots
/// already; a lookup is a shift, a mask and a compare or two (a `Dictionary` of `UInt64` keys
/// cost ~200 instructions a lookup, four a host request's round trip).
@_spi(Bridge)
public struct TokenTable<Value> {
  /// Tokens by slot; 0 is an empty slot. Empty until the first insert (a store's request table
  /// is part of every store: docs/benchmarks.md, memory per idle store).
  @usableFromInline var tokens: [UInt] = []
  @usableFromInline var values: [Value?] = []
  @usableFromInline var storedCount = 0
  /// How many tokens have a value.
  @inlinable public var count: Int { storedCount }
  @usableFromInline let spacing: UInt

  /// A table of tokens handed out `1 << spacing` apart.
  @inlinable public init(spacing: UInt) { self.spacing = spacing }

  @inlinable var mask: Int { tokens.count - 1 }

  @inlinable @inline(__always)
  func home(_ token: UInt) -> Int { Int(truncatingIfNeeded: token >> spacing) & mask }

  /// The slot of `token`, or nil.
  @inlinable @inline(__always)
  func slot(of token: UInt) -> Int? {
    guard !tokens.isEmpty else { return nil }
    var slot = home(token)
    while tokens[slot] != 0 {
      if tokens[slot] == token { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The value under `token`; setting one inserts it, setting nil removes it.
  @inlinable public subscript(token: UInt) -> Value? {
    get { slot(of: token).flatMap { values[$0] } }
    set {
      if let newValue { insert(newValue, for: token) } else { remove(token) }
    }
    // NB: a value present is changed where it is (`table[id]?.ended = true`), not copied out
    // and inserted back (a retain and a release per reference it holds).
    _modify {
      if let slot = slot(of: token) {
        yield &values[slot]
        if values[slot] == nil { remove(token) }
      } else {
        var value: Value? = nil
        yield &value
        if let value { insert(value, for: token) }
      }
    }
  }

  /// Adds `value` under `token` (0 is not a token: ignored), or replaces what was there.
  ///
  /// NB: `value` is taken owned: a value made for the call (an entry of the table of requests)
  /// moves into its slot instead of being copied there and then released.
  @inlinable public mutating func insert(_ value: __owned Value, for token: UInt) {
    guard token != 0 else { return }
    if (storedCount + 1) * 2 > tokens.count { grow() }
    var slot = home(token)
    while tokens[slot] != 0 && tokens[slot] != token { slot = (slot + 1) & mask }
    if tokens[slot] == 0 { storedCount += 1 }
    tokens[slot] = token
    values[slot] = value
  }

  /// Removes and returns the value under `token`, if any.
  @inlinable @discardableResult
  public mutating func remove(_ token: UInt) -> Value? {
    guard var hole = slot(of: token) else { return nil }
    // NB: moved out, not copied and then cleared (a retain and a release of what it holds).
    let removed = values[hole].take()
    tokens[hole] = 0
    storedCount -= 1
    // NB: no tombstones: each later entry of the run that could live in the hole moves into it,
    // so every entry stays reachable from its home slot without a gap.
    var next = hole
    while true {
      next = (next + 1) & mask
      guard tokens[next] != 0 else { break }
      let wanted = home(tokens[next])
      // NB: an entry whose home lies cyclically in (hole, next] would be unreachable there.
      let homeIsAfterHole =
        hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
      if homeIsAfterHole { continue }
      tokens[hole] = tokens[next]
      tokens[next] = 0
      values.swapAt(hole, next)
      hole = next
    }
    return removed
  }

  @usableFromInline mutating func grow() {
    let old = zip(tokens, values)
    tokens = [UInt](repeating: 0, count: max(16, tokens.count * 2))
    values = [Value?](repeating: nil, count: tokens.count)
    storedCount = 0
    for (token, value) in old where token != 0 {
      if let value { insert(value, for: token) }
    }
  }
}

@_spi(Bridge)
extension TokenTable: Sendable where Value: Sendable {}
