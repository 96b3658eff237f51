import JSON

/// An ordered collection of identifiable elements with O(1) lookup by id; ids are unique.
///
///     var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
///     todos[id: 1]?.isComplete = true
///     todos.remove(id: 1)
///
/// Codable as a JSON array of its elements; decoding fails on a repeated id.
///
/// Nothing traps on ids: adding an element whose id is present does nothing (``append(_:)``
/// says so), and changing an element's id in place replaces any other element with that id.
///
/// Costs: the elements are a persistent tree of chunks (``ChunkTree``), so a copy (a store's
/// snapshot of its state) is O(1), changing one element copies O(log n) of it, and `==` skips
/// what two arrays share. Inserting, removing and moving re-index the positions after the
/// change (O(n)); the ids and their index are plain arrays and dictionaries, untouched when an
/// element changes in place.
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  @usableFromInline var _elements: ChunkTree<Element>
  @usableFromInline var _ids: [ID]
  @usableFromInline var _index: [ID: Int]

  /// An empty array.
  @inlinable
  public init() {
    _elements = ChunkTree()
    _ids = []
    _index = [:]
  }

  /// The elements in order; a later element with an id already seen is dropped.
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    var kept: [Element] = []
    for element in elements where _index[element.id] == nil {
      _index[element.id] = kept.count
      _ids.append(element.id)
      kept.append(element)
    }
    _elements = ChunkTree(kept)
  }

  /// The ids, in order.
  @inlinable
  public var ids: [ID] { _ids }

  /// The elements, in order.
  @inlinable
  public var elements: [Element] { Array(self) }

  /// The position of the element with `id`.
  @inlinable
  public func index(id: ID) -> Int? { _index[id] }

  /// The element with `id`, or nil. Setting nil removes it; setting an element adds it at the
  /// end if absent, or replaces it in place.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get { _index[id].map { _elements[$0] } }
    _modify {
      if let position = _index[id] {
        var element: Element? = _elements[position]
        defer { replace(at: position, with: element) }
        yield &element
      } else {
        var element: Element? = nil
        defer { if let element { append(element) } }
        yield &element
      }
    }
    set {
      if let position = _index[id] {
        replace(at: position, with: newValue)
      } else if let newValue {
        append(newValue)
      }
    }
  }

  /// After the element at `position` changed its id from `oldID` in place: re-keys it.
  @usableFromInline
  mutating func rekey(at position: Int, from oldID: ID) {
    let element = _elements[position]
    _ids[position] = oldID
    replace(at: position, with: element)
  }

  /// Replaces (or removes, for nil) the element at `position`, keeping ids unique.
  @usableFromInline
  mutating func replace(at position: Int, with element: Element?) {
    guard let element else {
      _ = remove(at: position)
      return
    }
    let oldID = _ids[position]
    _elements[position] = element
    guard element.id != oldID else { return }
    // NB: the element's id changed: re-key it, and drop any other element that had the new id.
    let other = _index[element.id]
    _index[oldID] = nil
    _ids[position] = element.id
    _index[element.id] = position
    if let other {
      _ = _elements.remove(at: other)
      _ids.remove(at: other)
      reindex(from: Swift.min(other, position))
    }
  }

  /// Adds `element` at the end unless its id is present; says whether it did, and where it is.
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let existing = _index[element.id] { return (false, existing) }
    _index[element.id] = _elements.count
    _elements.append(element)
    _ids.append(element.id)
    return (true, _elements.count - 1)
  }

  /// Adds each element whose id is not present, in order.
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Inserts `element` at `position` (clamped to the array) unless its id is present.
  @discardableResult
  public mutating func insert(_ element: Element, at position: Int) -> (inserted: Bool, index: Int)
  {
    if let existing = _index[element.id] { return (false, existing) }
    let position = Swift.min(Swift.max(position, 0), _elements.count)
    _elements.insert(element, at: position)
    _ids.insert(element.id, at: position)
    reindex(from: position)
    return (true, position)
  }

  /// Replaces the element with the same id, or appends it; returns the element replaced.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    if let position = _index[element.id] {
      let old = _elements[position]
      _elements[position] = element
      return old
    }
    append(element)
    return nil
  }

  /// Removes the element with `id`; returns it, or nil if absent.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = _index[id] else { return nil }
    return remove(at: position)
  }

  /// Removes the element at `position`; nil if out of range.
  @discardableResult
  public mutating func remove(at position: Int) -> Element? {
    guard position >= 0, position < _ids.count, let element = _elements.remove(at: position)
    else { return nil }
    _ids.remove(at: position)
    _index[element.id] = nil
    reindex(from: position)
    return element
  }

  /// Removes the elements that satisfy `shouldBeRemoved`.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let kept = try self.filter { try !shouldBeRemoved($0) }
    guard kept.count != _elements.count else { return }
    self = IdentifiedArray(uniqueElements: kept)
  }

  /// Removes every element.
  public mutating func removeAll() {
    _elements = ChunkTree()
    _ids.removeAll()
    _index.removeAll()
  }

  /// Moves the element at `source` so that it ends up at `destination` (both clamped).
  public mutating func move(from source: Int, to destination: Int) {
    guard source >= 0, source < _ids.count else { return }
    let destination = Swift.min(Swift.max(destination, 0), _ids.count - 1)
    guard source != destination else { return }
    _elements.replaceSuffix(from: Swift.min(source, destination)) { tail, base in
      tail.insert(tail.remove(at: source - base), at: destination - base)
    }
    let id = _ids.remove(at: source)
    _ids.insert(id, at: destination)
    reindex(from: Swift.min(source, destination))
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    var sorted = Array(self)
    try sorted.sort(by: areInIncreasingOrder)
    _elements = ChunkTree(sorted)
    _ids = sorted.map(\.id)
    reindex(from: 0)
  }

  /// Swaps two elements (out-of-range positions: nothing).
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i >= 0, i < _ids.count, j >= 0, j < _ids.count, i != j else { return }
    let first = _elements[i]
    _elements[i] = _elements[j]
    _elements[j] = first
    _ids.swapAt(i, j)
    _index[_ids[i]] = i
    _index[_ids[j]] = j
  }

  /// The elements that satisfy `isIncluded`, as an identified array.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> IdentifiedArray {
    var kept: [Element] = []
    for element in self where try isIncluded(element) { kept.append(element) }
    return IdentifiedArray(uniqueElements: kept)
  }

  @usableFromInline
  mutating func reindex(from start: Int) {
    var position = start
    while position < _ids.count {
      _index[_ids[position]] = position
      position += 1
    }
  }
}

/// An identified array of `Element`s keyed by their own ids.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { _elements.count }
  @inlinable public func index(after i: Int) -> Int { i + 1 }
  @inlinable public func index(before i: Int) -> Int { i - 1 }

  /// The elements in order, a leaf at a time.
  @inlinable
  public func makeIterator() -> Iterator { Iterator(_elements) }

  /// Iterates the elements a leaf of the tree at a time (O(1) per element).
  public struct Iterator: IteratorProtocol {
    @usableFromInline let tree: ChunkTree<Element>
    @usableFromInline var leaf: ContiguousArray<Element> = []
    @usableFromInline var offset = 0
    @usableFromInline var position = 0

    @inlinable
    init(_ tree: ChunkTree<Element>) { self.tree = tree }

    @inlinable
    public mutating func next() -> Element? {
      if offset == leaf.count {
        guard position < tree.count else { return nil }
        leaf = tree.leaf(at: position).elements
        offset = 0
      }
      let element = leaf[offset]
      offset += 1
      position += 1
      return element
    }
  }

  /// The element at `position` (which must be valid, as for `Array`). Setting it keeps ids
  /// unique: an element with another id re-keys the position.
  @inlinable
  public subscript(position: Int) -> Element {
    get { _elements[position] }
    _modify {
      let id = _ids[position]
      yield &_elements[position]
      // NB: the common case, an element changed in place with its id kept, costs one compare.
      if _elements[position].id != id { rekey(at: position, from: id) }
    }
    set {
      if newValue.id == _ids[position] {
        _elements[position] = newValue
      } else {
        replace(at: position, with: newValue)
      }
    }
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  @inlinable
  public static func == (lhs: IdentifiedArray, rhs: IdentifiedArray) -> Bool {
    lhs._elements == rhs._elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      guard append(element).inserted else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath,
            debugDescription: "repeated id \(shownID(element.id)) at position \(_ids.count)"))
      }
    }
  }
}

extension IdentifiedArray: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

/// An element's id as a decoding error names it: a string quoted and escaped as JSON escapes it
/// (``JSON/JSONError/quoted(_:)``), a plain number or UUID as it prints.
func shownID(_ id: some Hashable) -> String {
  if let text = id as? String { return JSONError.quoted(text) }
  let described = String(describing: id)
  let plain = described.utf8.count <= 40 && described.utf8.allSatisfy { byte in
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
  }
  return plain ? described : JSONError.quoted(described)
}

extension IdentifiedArray {
  /// Whether both arrays hold the same ids in the same order, as far as an O(1) look tells:
  /// true when they share their list of ids (an element changed in place keeps it shared).
  @inlinable
  public func sharesIDs(with other: IdentifiedArray) -> Bool {
    guard _ids.count == other._ids.count else { return false }
    return _ids.withUnsafeBufferPointer { mine in
      other._ids.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
    }
  }
}
