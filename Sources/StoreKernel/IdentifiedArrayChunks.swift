import Synchronization

/// The elements of an ``IdentifiedArray``: a persistent vector, a shallow tree of
/// reference-counted chunks of up to 64 elements (leaves) under branches of up to 16 children.
///
///     var tree = ChunkTree<Int>([1, 2, 3])
///     let snapshot = tree       // O(1): the nodes are shared
///     tree[1] = 20              // copies the path to that element: O(64 + 16 · depth)
///     snapshot == tree          // false, comparing only the nodes that are not shared
///
/// The shape is canonical for a count: every leaf is full but the last, and branches fill
/// from the left, so two trees of the same count pair up node by node, and a node shared by
/// both (`===`) is equal without a look inside. Depth is 1 + log16(count / 64): 100,000
/// elements take a root and two levels of branches above the leaves.
///
/// NB: copy-on-write per node: a node is changed in place only while this tree holds the only
/// reference (`isKnownUniquelyReferenced`); a node shared with a snapshot (the store's version
/// history) is copied first, along with the path above it. A leaf whose JSON has been cached
/// (``ChunkNode/encoded``) is replaced, never changed in place, so a cache always describes its
/// node's elements.
@usableFromInline
struct ChunkTree<Element> {
  /// A leaf holds 64 elements: the low 6 bits of a position.
  @inlinable static var leafBits: Int { 6 }
  @inlinable static var width: Int { 64 }
  @inlinable static var mask: Int { 63 }
  /// A branch holds 16 children: 4 bits of a position per level above the leaves.
  ///
  /// NB: narrow branches: copying a branch on the way to a change (and freeing an old version's
  /// copy) touches each child's reference count, a cache miss apiece in a large tree; leaves
  /// stay wide, since their elements are copied as plain values.
  @inlinable static var branchBits: Int { 4 }
  @inlinable static var branchWidth: Int { 16 }
  @inlinable static var branchMask: Int { 15 }

  /// The shift of a branch's children, given the branch's (0 for leaves).
  @inlinable
  static func below(_ shift: Int) -> Int { shift == leafBits ? 0 : shift - branchBits }

  /// The shift of a node's parent, given the node's.
  @inlinable
  static func above(_ shift: Int) -> Int { shift == 0 ? leafBits : shift + branchBits }

  /// How many elements a tree whose root has `shift` holds at most.
  @inlinable
  static func capacity(_ shift: Int) -> Int { shift == 0 ? width : 1 &<< (shift + branchBits) }

  @usableFromInline var root: ChunkNode<Element>?
  /// How far right a position shifts to give the root's child slot (0: the root is a leaf).
  @usableFromInline var shift: Int
  @usableFromInline var count: Int

  @inlinable
  init() {
    root = nil
    shift = 0
    count = 0
  }

  /// The elements in order, in full leaves.
  init(_ elements: some Sequence<Element>) {
    var leaves: [ChunkNode<Element>] = []
    var chunk = ContiguousArray<Element>()
    chunk.reserveCapacity(Self.width)
    var count = 0
    for element in elements {
      chunk.append(element)
      count += 1
      if chunk.count == Self.width {
        leaves.append(ChunkNode(elements: chunk))
        chunk = []
        chunk.reserveCapacity(Self.width)
      }
    }
    if !chunk.isEmpty { leaves.append(ChunkNode(elements: chunk)) }
    self = Self.build(leaves: leaves, count: count)
  }

  /// A tree of `leaves`, all full but the last, holding `count` elements.
  static func build(leaves: [ChunkNode<Element>], count: Int) -> ChunkTree {
    var tree = ChunkTree()
    tree.count = count
    var level = leaves
    var shift = 0
    while level.count > 1 {
      var parents: [ChunkNode<Element>] = []
      parents.reserveCapacity((level.count + Self.branchMask) / Self.branchWidth)
      var start = 0
      while start < level.count {
        let end = Swift.min(start + Self.branchWidth, level.count)
        parents.append(ChunkNode(children: ContiguousArray(level[start..<end])))
        start = end
      }
      level = parents
      shift = Self.above(shift)
    }
    tree.root = level.first
    tree.shift = shift
    return tree
  }

  // MARK: - Elements

  /// The leaf holding `position` (which must be in range).
  @inlinable
  func leaf(at position: Int) -> ChunkNode<Element> {
    guard var node = root, position >= 0, position < count else {
      preconditionFailure("IdentifiedArray index \(position) out of range")
    }
    var level = shift
    while level > 0 {
      node = node.children[(position &>> level) & Self.branchMask]
      level = Self.below(level)
    }
    return node
  }

  @inlinable
  subscript(position: Int) -> Element {
    get { leaf(at: position).elements[position & Self.mask] }
    _modify {
      let leaf = uniqueLeaf(at: position)
      yield &leaf.elements[position & Self.mask]
    }
    set {
      let leaf = uniqueLeaf(at: position)
      leaf.elements[position & Self.mask] = newValue
    }
  }

  /// The leaf holding `position`, after copying every node on the way to it that this tree
  /// does not hold alone (and replacing a cached leaf): a leaf to change in place.
  @inlinable
  mutating func uniqueLeaf(at position: Int) -> ChunkNode<Element> {
    guard var node = root, position >= 0, position < count else {
      preconditionFailure("IdentifiedArray index \(position) out of range")
    }
    // NB: the root is taken out while it is worked on, so that this tree's reference is the
    // only one when it was the only one before.
    root = nil
    defer { root = node }
    return Self.uniquePath(&node, shift: shift, to: position)
  }

  @usableFromInline
  static func uniquePath(
    _ node: inout ChunkNode<Element>, shift: Int, to position: Int
  ) -> ChunkNode<Element> {
    makeUnique(&node)
    if shift == 0 { return node }
    let slot = (position &>> shift) & branchMask
    return uniquePath(&node.children[slot], shift: below(shift), to: position)
  }

  /// Makes `node` this tree's own: a copy when it is shared, a fresh node when it is a leaf
  /// with a cached encoding (its elements moved, not copied).
  @usableFromInline
  static func makeUnique(_ node: inout ChunkNode<Element>) {
    if !isKnownUniquelyReferenced(&node) {
      node = ChunkNode(elements: node.elements, children: node.children)
    } else if node.isEncoded {
      let old = node
      node = ChunkNode(elements: old.takeElements(), children: old.takeChildren())
    }
  }

  /// Adds `element` at the end: O(depth), copying only the path to the last leaf.
  @usableFromInline
  mutating func append(_ element: Element) {
    guard var node = root else {
      root = ChunkNode(elements: [element])
      shift = 0
      count = 1
      return
    }
    root = nil
    if count == Self.capacity(shift) {
      // NB: full: a new root above the old one, with a path down to a new leaf beside it.
      node = ChunkNode(children: [node, Self.path(to: element, height: shift)])
      shift = Self.above(shift)
    } else {
      Self.push(element, into: &node, shift: shift, at: count)
    }
    root = node
    count += 1
  }

  static func path(to element: Element, height: Int) -> ChunkNode<Element> {
    height == 0
      ? ChunkNode(elements: [element])
      : ChunkNode(children: [path(to: element, height: below(height))])
  }

  static func push(
    _ element: Element, into node: inout ChunkNode<Element>, shift: Int, at position: Int
  ) {
    makeUnique(&node)
    if shift == 0 {
      node.elements.append(element)
      return
    }
    let slot = (position &>> shift) & branchMask
    if slot < node.children.count {
      push(element, into: &node.children[slot], shift: below(shift), at: position)
    } else {
      node.children.append(path(to: element, height: below(shift)))
    }
  }

  /// Replaces the elements from `position` on by what `body` makes of them: the leaves before
  /// `position`'s leaf are kept (shared with any snapshot), the rest are rebuilt. O(count / 64)
  /// plus the elements rebuilt.
  mutating func replaceSuffix(from position: Int, _ body: (inout [Element], _ base: Int) -> Void) {
    let kept = Swift.max(0, Swift.min(position, count)) / Self.width
    var leaves = self.leaves()
    var tail: [Element] = []
    tail.reserveCapacity(count - kept * Self.width + 1)
    for leaf in leaves[kept...] { tail.append(contentsOf: leaf.elements) }
    leaves.removeSubrange(kept...)
    body(&tail, kept * Self.width)
    var start = 0
    while start < tail.count {
      let end = Swift.min(start + Self.width, tail.count)
      leaves.append(ChunkNode(elements: ContiguousArray(tail[start..<end])))
      start = end
    }
    self = Self.build(leaves: leaves, count: kept * Self.width + tail.count)
  }

  /// Removes and returns the element at `position` (nil when out of range).
  mutating func remove(at position: Int) -> Element? {
    guard position >= 0, position < count else { return nil }
    var removed: Element?
    replaceSuffix(from: position) { tail, base in removed = tail.remove(at: position - base) }
    return removed
  }

  /// Inserts `element` at `position` (0...count).
  mutating func insert(_ element: Element, at position: Int) {
    guard position != count else { return append(element) }
    replaceSuffix(from: position) { tail, base in tail.insert(element, at: position - base) }
  }

  /// The leaves in order.
  func leaves() -> [ChunkNode<Element>] {
    var leaves: [ChunkNode<Element>] = []
    leaves.reserveCapacity((count + Self.mask) / Self.width)
    func collect(_ node: ChunkNode<Element>, _ shift: Int) {
      if shift == 0 {
        leaves.append(node)
      } else {
        for child in node.children { collect(child, Self.below(shift)) }
      }
    }
    if let root { collect(root, shift) }
    return leaves
  }

  /// Calls `body` with each leaf in order.
  @inlinable
  func forEachLeaf<E: Error>(_ body: (ChunkNode<Element>) throws(E) -> Void) throws(E) {
    guard let root else { return }
    try Self.visit(root, shift: shift, body)
  }

  @inlinable
  static func visit<E: Error>(
    _ node: ChunkNode<Element>, shift: Int, _ body: (ChunkNode<Element>) throws(E) -> Void
  ) throws(E) {
    if shift == 0 { return try body(node) }
    for child in node.children { try visit(child, shift: below(shift), body) }
  }
}

extension ChunkTree {
  /// Calls `body` with the index and node of each leaf that is not `old`'s leaf at the same
  /// place, in order; the counts must be equal (else nothing is called). Shared nodes are
  /// skipped unread: a change of one element costs O(16 · depth).
  func forEachChangedLeaf<E: Error>(
    from old: ChunkTree, _ body: (Int, ChunkNode<Element>) throws(E) -> Void
  ) throws(E) {
    guard count == old.count, shift == old.shift, let new = root, let old = old.root else {
      return
    }
    try Self.changedLeaves(old, new, shift: shift, base: 0, body)
  }

  static func changedLeaves<E: Error>(
    _ old: ChunkNode<Element>, _ new: ChunkNode<Element>, shift: Int, base: Int,
    _ body: (Int, ChunkNode<Element>) throws(E) -> Void
  ) throws(E) {
    if old === new { return }
    if shift == 0 { return try body(base &>> leafBits, new) }
    try forEachDifferentChild(old, new, shift: shift, base: base) { (old, new, base) throws(E) in
      try changedLeaves(old, new, shift: below(shift), base: base, body)
    }
  }

  /// Calls `body` with each pair of children at the same slot that the two branches do not
  /// share, and the position of the first element under them, in order.
  static func forEachDifferentChild<E: Error>(
    _ old: ChunkNode<Element>, _ new: ChunkNode<Element>, shift: Int, base: Int,
    _ body: (ChunkNode<Element>, ChunkNode<Element>, Int) throws(E) -> Void
  ) throws(E) {
    let count = Swift.min(old.children.count, new.children.count)
    var slot = ChunkNode.firstDifferentChild(old, new, from: 0)
    while slot < count {
      try body(old.children[slot], new.children[slot], base + slot &<< shift)
      slot = ChunkNode.firstDifferentChild(old, new, from: slot + 1)
    }
  }
}

extension ChunkTree where Element: Equatable {
  /// Whether both hold equal elements; nodes they share are skipped unread.
  @inlinable
  static func == (lhs: ChunkTree, rhs: ChunkTree) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.root, let right = rhs.root else { return true }
    return equal(left, right, shift: lhs.shift)
  }

  @inlinable
  static func equal(_ lhs: ChunkNode<Element>, _ rhs: ChunkNode<Element>, shift: Int) -> Bool {
    if lhs === rhs { return true }
    if shift == 0 { return lhs.elements == rhs.elements }
    let count = lhs.children.count
    guard count == rhs.children.count else { return false }
    var slot = ChunkNode.firstDifferentChild(lhs, rhs, from: 0)
    while slot < count {
      guard equal(lhs.children[slot], rhs.children[slot], shift: below(shift)) else { return false }
      slot = ChunkNode.firstDifferentChild(lhs, rhs, from: slot + 1)
    }
    return true
  }

  /// Calls `body` with the position of each element that differs from `old`'s at the same
  /// position, in order; the counts must be equal. Shared nodes are skipped unread: a change
  /// of one element costs O(64 + 16 · depth).
  func forEachDifference<E: Error>(
    from old: ChunkTree, _ body: (Int, Element, Element) throws(E) -> Void
  ) throws(E) {
    guard count == old.count, let new = root, let old = old.root else { return }
    try Self.differences(old, new, shift: shift, base: 0, body)
  }

  static func differences<E: Error>(
    _ old: ChunkNode<Element>, _ new: ChunkNode<Element>, shift: Int, base: Int,
    _ body: (Int, Element, Element) throws(E) -> Void
  ) throws(E) {
    if old === new { return }
    if shift == 0 {
      for (offset, (before, after)) in zip(old.elements, new.elements).enumerated()
      where before != after {
        try body(base + offset, before, after)
      }
      return
    }
    try forEachDifferentChild(old, new, shift: shift, base: base) { (old, new, base) throws(E) in
      try differences(old, new, shift: below(shift), base: base, body)
    }
  }
}

extension ChunkTree: Sendable where Element: Sendable {}

/// A node of a ``ChunkTree``: a leaf (elements) or a branch (children).
///
/// NB: `@unchecked Sendable`: a node is changed only by the one tree holding the only
/// reference to it; its caches are set once, atomically.
@usableFromInline
final class ChunkNode<Element>: @unchecked Sendable {
  @usableFromInline var elements: ContiguousArray<Element>
  @usableFromInline var children: ContiguousArray<ChunkNode<Element>>
  /// The leaf's elements as JSON (`a,b,c`), made by the first encoding that needs it.
  let encoded = AtomicLazyReference<EncodedChunk>()
  /// The leaf's elements' ids as JSON (`1,2,3`), made by the first encoding that needs it.
  let encodedIDs = AtomicLazyReference<EncodedChunk>()
  /// Set once either cache above holds a text (by `cachedEncoding`).
  ///
  /// NB: what ``isEncoded`` reads, on every change of an element: `AtomicLazyReference.load`
  /// is not inlinable, and unspecialized it looks up generic metadata (~560 instructions a
  /// call, four a toggle of one todo).
  let hasEncoding = Atomic<Bool>(false)

  @usableFromInline
  init(elements: ContiguousArray<Element> = [], children: ContiguousArray<ChunkNode> = []) {
    self.elements = elements
    self.children = children
  }

  /// The first slot from `start` on where the two branches hold different children (the
  /// smaller count if none).
  ///
  /// NB: compares the references as words, without retaining the children: most are shared,
  /// and touching each one's reference count cost a cache miss per child in a large tree.
  @usableFromInline
  static func firstDifferentChild(_ lhs: ChunkNode, _ rhs: ChunkNode, from start: Int) -> Int {
    lhs.children.withUnsafeBytes { left in
      rhs.children.withUnsafeBytes { right in
        let stride = MemoryLayout<UInt>.stride
        let count = Swift.min(left.count, right.count) / stride
        var slot = Swift.max(start, 0)
        while slot < count,
          left.load(fromByteOffset: slot &* stride, as: UInt.self)
            == right.load(fromByteOffset: slot &* stride, as: UInt.self)
        {
          slot += 1
        }
        return slot
      }
    }
  }

  /// Whether an encoding of the leaf is cached.
  @usableFromInline
  var isEncoded: Bool { hasEncoding.load(ordering: .acquiring) }

  @usableFromInline
  func takeElements() -> ContiguousArray<Element> {
    var taken: ContiguousArray<Element> = []
    swap(&taken, &elements)
    return taken
  }

  @usableFromInline
  func takeChildren() -> ContiguousArray<ChunkNode> {
    var taken: ContiguousArray<ChunkNode> = []
    swap(&taken, &children)
    return taken
  }
}

/// A leaf's elements as JSON text, for the encoding depth it was made at (see
/// `IdentifiedArrayJSON.swift`).
@usableFromInline
final class EncodedChunk: Sendable {
  let depth: Int
  let text: [UInt8]

  init(depth: Int, text: [UInt8]) {
    self.depth = depth
    self.text = text
  }
}
