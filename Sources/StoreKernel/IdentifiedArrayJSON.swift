import JSON
import Synchronization

// The identified array's direct JSON paths (``JSONCodable``): a plain JSON array of its
// elements, as its Codable conformance.

extension IdentifiedArray: JSONDecodable where Element: JSONDecodable {
  /// The elements in order; declines a repeated id (and any element its type declines), so
  /// that `init(from:)` reports it with its place.
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let count = try json.arrayCount()
    var elements: [Element] = []
    var ids: [ID] = []
    var index: [ID: Int] = [:]
    elements.reserveCapacity(count)
    ids.reserveCapacity(count)
    index.reserveCapacity(count)
    try json.forEachElement { (element) throws(JSONDeclined) in
      let decoded = try Element(json: element)
      guard index.updateValue(ids.count, forKey: decoded.id) == nil else { throw JSONDeclined() }
      ids.append(decoded.id)
      elements.append(decoded)
    }
    var array = IdentifiedArray()
    array._elements = ChunkTree(elements)
    array._ids = ids
    array._index = index
    self = array
  }
}

extension IdentifiedArray: JSONEncodable where Element: JSONEncodable {
  /// A JSON array of the elements.
  ///
  /// NB: each leaf of the tree keeps its elements' text once encoded (``ChunkNode/encoded``),
  /// and a changed leaf is a new node: encoding the array again after a change encodes only
  /// the leaves that changed (64 elements each) and copies the others' text.
  public func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.array { (array) throws(JSONDeclined) in
      if let layout = array.layout {
        let writer = array
        return try writeLaidOut(into: &array, layout) { (leaf) throws(JSONDeclined) in
          try cachedEncoding(leaf.encoded, of: leaf, depth: writer.depth) {
            () throws(JSONDeclined) in
            try writer.encodedElements(leaf.elements)
          }
        }
      }
      try _elements.forEachLeaf { (leaf) throws(JSONDeclined) in
        try array.writeEncoded(
          cachedEncoding(leaf.encoded, of: leaf, depth: array.depth) { () throws(JSONDeclined) in
            try array.encodedElements(leaf.elements)
          },
          count: leaf.elements.count)
      }
    }
  }
}

extension IdentifiedArray where ID: JSONEncodable {
  /// Writes the ids, in order, as elements of `array`: for a derived list of ids (`todos`'
  /// `filteredTodos` under the filter "all"), each leaf's text kept as the elements' is.
  ///
  ///     try object.array(forKey: "ids") { array throws(JSONDeclined) in
  ///       try todos.encodeIDs(into: &array)
  ///     }
  public func encodeIDs(into array: inout JSONArrayWriter) throws(JSONDeclined) {
    if let layout = array.layout {
      let writer = array
      return try writeLaidOut(into: &array, layout) { (leaf) throws(JSONDeclined) in
        try cachedEncoding(leaf.encodedIDs, of: leaf, depth: writer.depth) {
          () throws(JSONDeclined) in
          try writer.encodedElements(leaf.elements.lazy.map(\.id))
        }
      }
    }
    let depth = array.depth
    try _elements.forEachLeaf { (leaf) throws(JSONDeclined) in
      let text = try cachedEncoding(leaf.encodedIDs, of: leaf, depth: depth) {
        () throws(JSONDeclined) in
        try array.encodedElements(leaf.elements.lazy.map(\.id))
      }
      array.writeEncoded(text, count: leaf.elements.count)
    }
  }
}

extension IdentifiedArray {
  /// Writes the elements (or their ids) into the slots of a lent text (``JSONLayout``), or,
  /// in skeleton mode, gives the layout the text of each leaf that changed since the array it
  /// was last written from: leaves by node identity, O(changed · log n).
  ///
  /// NB: the leaves pair up with the old ones only if the ids are the same (shared: no insert,
  /// removal or move since); otherwise the layout is told, and the text is written again.
  func writeLaidOut(
    into array: inout JSONArrayWriter, _ layout: JSONLayout,
    text: (ChunkNode<Element>) throws(JSONDeclined) -> [UInt8]
  ) throws(JSONDeclined) {
    switch layout.mode {
    case .full:
      _ = layout.begin(self)
      try _elements.forEachLeaf { (leaf) throws(JSONDeclined) in
        array.writeSlot(try text(leaf), count: leaf.elements.count)
      }
    case .skeleton:
      guard let old = layout.begin(self) as? IdentifiedArray, sharesIDs(with: old),
        _elements.count == old._elements.count
      else { return layout.fail() }
      try _elements.forEachChangedLeaf(from: old._elements) {
        (index, leaf) throws(JSONDeclined) in
        layout.update(chunk: index, text: try text(leaf))
      }
    }
  }
}

/// The text in `cache` (one of `leaf`'s) if it was made at `depth`, else what `make` makes
/// (kept in `cache` when it is empty, and `leaf` marked as encoded).
func cachedEncoding<Element>(
  _ cache: borrowing AtomicLazyReference<EncodedChunk>, of leaf: ChunkNode<Element>, depth: Int,
  _ make: () throws(JSONDeclined) -> [UInt8]
) throws(JSONDeclined) -> [UInt8] {
  if let hit = cache.load(), hit.depth == depth { return hit.text }
  let text = try make()
  if cache.load() == nil {
    _ = cache.storeIfNil(EncodedChunk(depth: depth, text: text))
    leaf.hasEncoding.store(true, ordering: .releasing)
  }
  return text
}
