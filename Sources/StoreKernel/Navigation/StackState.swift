/// The screens of a navigation stack, bottom first, each with a ``StackElementID`` that stays
/// its own while it is on the stack and is never given out again by this stack.
///
///     struct State: Equatable {
///       var path = StackState<Path.State>()
///     }
///     …
///     case let .teamTapped(team):
///       state.path.append(.teamDetail(TeamDetail.State(team: team)))
///
/// Run the elements with ``Reducer/forEach(_:action:destination:)``: it runs each element's
/// actions, pushes and pops for ``StackAction``, gives each element a ``DismissEffect`` that
/// pops it, and cancels a popped element's effects.
///
/// Wire form: `{"elements":[{"id":0,"state":…},…],"nextID":1}`, bottom first; `nextID` is the
/// id the next pushed element gets (every id below it has been given out). A snapshot may leave
/// `nextID` out (it is then one past the largest id); ids must differ and be below 2^52.
public struct StackState<Element> {
  @usableFromInline var _ids: [StackElementID]
  @usableFromInline var _elements: [Element]
  /// The id the next element appended gets; every id below it has been given out.
  public private(set) var nextID: StackElementID
  /// The ids the stack's `forEach` saw at the end of its last pass (nil: not seen yet), as
  /// upstream: what lets it cancel the effects of elements another reducer removed since. Not
  /// compared, hashed or encoded.
  @usableFromInline var mountedIDs: [StackElementID]?

  /// An empty stack.
  public init() {
    _ids = []
    _elements = []
    nextID = 0
  }

  /// A stack of `elements`, bottom first, with ids 0, 1, 2…
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The ids of the elements, bottom first.
  public var ids: [StackElementID] { _ids }

  /// The element with id `id`, if it is on the stack. Setting nil removes that element alone
  /// (``pop(from:)`` removes the ones above it too); setting an id not on the stack does
  /// nothing.
  public subscript(id id: StackElementID) -> Element? {
    get { _ids.firstIndex(of: id).map { _elements[$0] } }
    set {
      guard let index = _ids.firstIndex(of: id) else { return }
      if let newValue {
        _elements[index] = newValue
      } else {
        _ids.remove(at: index)
        _elements.remove(at: index)
      }
    }
  }

  /// Pushes `element` with the next id.
  ///
  /// NB: ids go up to 2^53 - 1; a stack that gave out that many traps rather than reuse one. No
  /// host can make it: ids a host gives are below 2^52 (``StackElementID/hostLimit``).
  public mutating func append(_ element: Element) {
    precondition(nextID.generation < StackElementID.limit, "StackState gave out every id")
    _ids.append(nextID)
    _elements.append(element)
    nextID.generation += 1
  }

  /// Pushes `element` with id `id`, which must never have been given out by this stack (at least
  /// ``nextID``) and be below 2^52; returns false, changing nothing, otherwise.
  @discardableResult
  public mutating func push(_ element: Element, id: StackElementID) -> Bool {
    guard id >= nextID, id.isValid else { return false }
    _ids.append(id)
    _elements.append(element)
    nextID = StackElementID(generation: id.generation + 1)
    return true
  }

  /// Pops the element with id `id` and every element above it; false if it is not there.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = _ids.firstIndex(of: id) else { return false }
    _ids.removeSubrange(index...)
    _elements.removeSubrange(index...)
    return true
  }

  /// Pops every element above the one with id `id`; false if it is not there.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = _ids.firstIndex(of: id) else { return false }
    _ids.removeSubrange((index + 1)...)
    _elements.removeSubrange((index + 1)...)
    return true
  }

  /// Pops the top element, if any, and returns it.
  @discardableResult
  public mutating func popLast() -> Element? {
    _ = _ids.popLast()
    return _elements.popLast()
  }

  /// Pops the top `count` elements (all of them if there are fewer).
  public mutating func removeLast(_ count: Int = 1) {
    let count = Swift.min(Swift.max(count, 0), _ids.count)
    _ids.removeLast(count)
    _elements.removeLast(count)
  }

  /// Pops every element (their ids stay given out).
  public mutating func removeAll() {
    _ids.removeAll()
    _elements.removeAll()
  }

  /// The ids whose elements' effects the stack's `forEach` must cancel if they are gone after
  /// its pass: those it saw at its last pass, and those there now.
  @inlinable
  var watchedIDs: [StackElementID] {
    guard let mountedIDs else { return _ids }
    // NB: the same buffer when nothing changed since the last pass: O(1).
    guard mountedIDs != _ids else { return mountedIDs }
    let mounted = Set(mountedIDs)
    return mountedIDs + _ids.filter { !mounted.contains($0) }
  }

  /// Records the ids as the stack's `forEach` leaves them, and returns them.
  @inlinable
  mutating func mount() -> [StackElementID] {
    if mountedIDs != _ids { mountedIDs = _ids }
    return _ids
  }

  /// A stack from ids and elements as read from a snapshot: ids unique and valid, `nextID`
  /// above all of them (nil: one past the largest).
  init?(ids: [StackElementID], elements: [Element], nextID: StackElementID?) {
    guard ids.count == elements.count, Set(ids).count == ids.count,
      ids.allSatisfy(\.isValid)
    else { return nil }
    let first = StackElementID(generation: (ids.max()?.generation ?? -1) + 1)
    let next = nextID ?? first
    guard next >= first, next.generation <= StackElementID.hostLimit else { return nil }
    _ids = ids
    _elements = elements
    self.nextID = next
  }
}

extension StackState: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { _elements.count }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  public subscript(position: Int) -> Element {
    get { _elements[position] }
    set { _elements[position] = newValue }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when holding equal elements under the same ids, in the same order, as upstream:
  /// ``nextID`` is not compared (an emptied stack equals `StackState()`).
  public static func == (lhs: StackState, rhs: StackState) -> Bool {
    lhs._ids == rhs._ids && lhs._elements == rhs._elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids)
    hasher.combine(_elements)
  }
}
extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomStringConvertible {
  public var description: String {
    "[" + zip(_ids, _elements).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
  }
}

private enum StackCodingKeys: String, CodingKey { case elements, nextID }
private enum StackEntryKeys: String, CodingKey { case id, state }

extension StackState: Decodable where Element: Decodable {
  struct Entry: Decodable {
    var id: StackElementID
    var state: Element
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StackCodingKeys.self)
    let entries = try container.decodeIfPresent([Entry].self, forKey: .elements) ?? []
    let nextID = try container.decodeIfPresent(StackElementID.self, forKey: .nextID)
    guard
      let stack = StackState(
        ids: entries.map(\.id), elements: entries.map(\.state), nextID: nextID)
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .elements, in: container,
        debugDescription: "stack element ids must differ and be below nextID")
    }
    self = stack
  }
}

extension StackState: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StackCodingKeys.self)
    var elements = container.nestedUnkeyedContainer(forKey: .elements)
    for (id, element) in zip(_ids, _elements) {
      var entry = elements.nestedContainer(keyedBy: StackEntryKeys.self)
      try entry.encode(id, forKey: .id)
      try entry.encode(element, forKey: .state)
    }
    try container.encode(nextID, forKey: .nextID)
  }
}
