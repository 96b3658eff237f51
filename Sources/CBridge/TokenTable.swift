/// Values by token, for ``Handles``' live stores: a hash table with linear probing.
///
///     var table = TokenTable<StoreContext>()
///     table.insert(store, for: 0x17)
///     table[0x17]           // store
///     table.remove(0x17)    // store; table[0x17] is nil
///
/// NB: not a `Dictionary`: every call from a host looks its store up here, and tokens need no
/// hashing. They are distinct, never 0, and handed out 16 apart in order, so `token >> 4` spreads
/// the live ones over the slots already; a lookup is a shift, a mask and a compare or two.
struct TokenTable<Value> {
  /// Tokens by slot; 0 is an empty slot.
  private var tokens = [UInt](repeating: 0, count: 16)
  private var values = [Value?](repeating: nil, count: 16)
  private(set) var count = 0

  private var mask: Int { tokens.count - 1 }

  @inline(__always)
  private func home(_ token: UInt) -> Int { Int(truncatingIfNeeded: token >> 4) & mask }

  /// The slot of `token`, or nil.
  @inline(__always)
  private func slot(of token: UInt) -> Int? {
    var slot = home(token)
    while tokens[slot] != 0 {
      if tokens[slot] == token { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  subscript(token: UInt) -> Value? { slot(of: token).flatMap { values[$0] } }

  /// Adds `value` under `token` (0 is not a token: ignored), or replaces what was there.
  mutating func insert(_ value: Value, for token: UInt) {
    guard token != 0 else { return }
    if (count + 1) * 2 > tokens.count { grow() }
    var slot = home(token)
    while tokens[slot] != 0 && tokens[slot] != token { slot = (slot + 1) & mask }
    if tokens[slot] == 0 { count += 1 }
    tokens[slot] = token
    values[slot] = value
  }

  /// Removes and returns the value under `token`, if any.
  mutating func remove(_ token: UInt) -> Value? {
    guard var hole = slot(of: token) else { return nil }
    let removed = values[hole]
    tokens[hole] = 0
    values[hole] = nil
    count -= 1
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
      values[hole] = values[next]
      tokens[next] = 0
      values[next] = nil
      hole = next
    }
    return removed
  }

  private mutating func grow() {
    let old = zip(tokens, values)
    tokens = [UInt](repeating: 0, count: tokens.count * 2)
    values = [Value?](repeating: nil, count: tokens.count)
    count = 0
    for (token, value) in old where token != 0 {
      if let value { insert(value, for: token) }
    }
  }
}
