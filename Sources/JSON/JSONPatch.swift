/// RFC 6902 JSON Patch between two ``JSONValue``s: `diff` makes the operations that turn one
/// value into the other, `apply` performs them.
///
///     let old = try JSONParser.parse(Array(#"{"count":1}"#.utf8))
///     let new = try JSONParser.parse(Array(#"{"count":2}"#.utf8))
///     JSONWriter.write(.array(JSONPatch.diff(from: old, to: new)))
///     // [{"op":"replace","path":"/count","value":2}]
///
/// Arrays whose elements are all objects with distinct `"id"` members (strings or numbers) are
/// diffed by id: an insert, a removal or a move patches the elements concerned, with `add`,
/// `remove` and `move` operations (the fewest moves; a reorder that needs more than
/// ``maxMoves`` replaces the array), and an element that kept its id is diffed member by member.
/// Other arrays are diffed by position (common length member by member, then adds or removes at
/// the end). Objects are diffed by key; member order is not significant.
public enum JSONPatch {
  /// The operations, in order, that turn `old` into `new` (empty when they are equal).
  public static func diff(from old: JSONValue, to new: JSONValue) -> [JSONValue] {
    var operations: [JSONValue] = []
    diff(old, new, path: "", into: &operations)
    return operations
  }

  /// Appends to `operations` the operations that turn `old` into `new`, their paths under
  /// `pointer` (a JSON Pointer, escaped: "" for the root): for a caller that diffs a part of a
  /// document it knows changed, such as one element of a large list.
  ///
  ///     JSONPatch.diff(from: oldTodo, to: newTodo, at: "/todos/3", into: &operations)
  ///     // [{"op":"replace","path":"/todos/3/isComplete","value":true}]
  public static func diff(
    from old: JSONValue, to new: JSONValue, at pointer: String, into operations: inout [JSONValue]
  ) {
    diff(old, new, path: pointer, into: &operations)
  }

  /// `document` with `operations` applied in order; throws `.shape` naming the failing
  /// operation's index when one does not apply (a `test` that fails, a path that is not there).
  public static func apply(_ operations: [JSONValue], to document: JSONValue) throws(JSONError)
    -> JSONValue
  {
    var result = document
    for (index, operation) in operations.enumerated() {
      guard case .string(let op)? = operation["op"], case .string(let path)? = operation["path"]
      else { throw JSONError(.shape, "patch operation \(index): no \"op\" or \"path\"") }
      let tokens = try pointerTokens(path, index)
      switch op {
      case "add":
        guard let value = operation["value"] else { throw missing("value", index) }
        try insert(value, at: tokens[...], in: &result, index)
      case "remove":
        _ = try remove(at: tokens[...], in: &result, index)
      case "replace":
        guard let value = operation["value"] else { throw missing("value", index) }
        _ = try remove(at: tokens[...], in: &result, index)
        try insert(value, at: tokens[...], in: &result, index)
      case "move", "copy":
        guard case .string(let from)? = operation["from"] else { throw missing("from", index) }
        let fromTokens = try pointerTokens(from, index)
        let value: JSONValue
        if op == "move" {
          value = try remove(at: fromTokens[...], in: &result, index)
        } else {
          value = try lookup(fromTokens[...], in: result, index)
        }
        try insert(value, at: tokens[...], in: &result, index)
      case "test":
        guard let value = operation["value"] else { throw missing("value", index) }
        guard try lookup(tokens[...], in: result, index) == value else {
          throw JSONError(.shape, "patch operation \(index): test failed at \(quoted(path))")
        }
      default:
        throw JSONError(.shape, "patch operation \(index): unknown op \(quoted(op))")
      }
    }
    return result
  }

  // MARK: - Diffing

  /// A step of the path being diffed: a member's key or an array's index.
  ///
  /// NB: kept as a stack and joined into a JSON Pointer only when an operation is written: most
  /// of a large state is equal, and a path string per element visited was most of the cost.
  enum Step {
    case key(String)
    case index(Int)
    /// A JSON Pointer's text, escaped already.
    case pointer(String)
  }

  struct Path {
    var steps: [Step] = []

    func pointer(_ last: Step? = nil) -> String {
      var text = ""
      for step in steps { append(step, to: &text) }
      if let last { append(last, to: &text) }
      return text
    }

    private func append(_ step: Step, to text: inout String) {
      text += "/"
      switch step {
      case .key(let key): text += escape(key)
      case .index(let index): text += String(index)
      case .pointer(let pointer): text.removeLast(); text += pointer
      }
    }
  }

  static func diff(_ old: JSONValue, _ new: JSONValue, path: String, into ops: inout [JSONValue]) {
    var steps = Path()
    if !path.isEmpty { steps.steps.append(.pointer(path)) }
    diff(old, new, path: &steps, into: &ops)
  }

  static func diff(
    _ old: JSONValue, _ new: JSONValue, path: inout Path, into ops: inout [JSONValue]
  ) {
    switch (old, new) {
    case (.object(let a), .object(let b)):
      diffObjects(a, b, path: &path, into: &ops)
    case (.array(let a), .array(let b)):
      diffArrays(a, b, path: &path, into: &ops)
    case (.string(let a), .string(let b)):
      if a != b { ops.append(operation("replace", path.pointer(), value: new)) }
    case (.number(let a), .number(let b)):
      if a != b { ops.append(operation("replace", path.pointer(), value: new)) }
    case (.bool(let a), .bool(let b)):
      if a != b { ops.append(operation("replace", path.pointer(), value: new)) }
    case (.null, .null):
      break
    default:
      ops.append(operation("replace", path.pointer(), value: new))
    }
  }

  static func diffObjects(
    _ a: [(key: String, value: JSONValue)], _ b: [(key: String, value: JSONValue)],
    path: inout Path, into ops: inout [JSONValue]
  ) {
    // NB: members are usually in the same order on both sides (one encoder wrote both): match
    // by position first, and fall back to a dictionary only when the keys differ.
    if a.count == b.count && zip(a, b).allSatisfy({ $0.key == $1.key }) {
      for index in a.indices {
        path.steps.append(.key(a[index].key))
        diff(a[index].value, b[index].value, path: &path, into: &ops)
        path.steps.removeLast()
      }
      return
    }
    var newByKey: [String: JSONValue] = [:]
    for member in b { newByKey[member.key] = member.value }
    var oldKeys = Set<String>()
    for member in a {
      oldKeys.insert(member.key)
      if let value = newByKey[member.key] {
        path.steps.append(.key(member.key))
        diff(member.value, value, path: &path, into: &ops)
        path.steps.removeLast()
      } else {
        ops.append(operation("remove", path.pointer(.key(member.key))))
      }
    }
    for member in b where !oldKeys.contains(member.key) {
      ops.append(operation("add", path.pointer(.key(member.key)), value: member.value))
    }
  }

  static func diffArrays(
    _ a: [JSONValue], _ b: [JSONValue], path: inout Path, into ops: inout [JSONValue]
  ) {
    // NB: the common case first: the same ids in the same order (or no ids): by position, with
    // no set or dictionary built.
    guard let oldIDs = ids(a), let newIDs = ids(b), oldIDs != newIDs,
      let oldPositions = positions(of: oldIDs), let wanted = distinct(newIDs)
    else {
      diffPositional(a, b, path: &path, into: &ops)
      return
    }
    diffIdentified(a, oldIDs, oldPositions, b, newIDs, wanted, path: &path, into: &ops)
  }

  static func diffPositional(
    _ a: [JSONValue], _ b: [JSONValue], path: inout Path, into ops: inout [JSONValue]
  ) {
    let common = min(a.count, b.count)
    for index in 0..<common {
      path.steps.append(.index(index))
      diff(a[index], b[index], path: &path, into: &ops)
      path.steps.removeLast()
    }
    if a.count > b.count {
      for index in stride(from: a.count - 1, through: b.count, by: -1) {
        ops.append(operation("remove", path.pointer(.index(index))))
      }
    } else {
      for index in common..<b.count {
        ops.append(operation("add", path.pointer(.index(index)), value: b[index]))
      }
    }
  }

  /// An element's identity: its `"id"` member, a string or a number.
  struct Identity: Hashable {
    let isNumber: Bool
    let text: String
  }

  /// The ids of `elements` when every one is an object with an `"id"` string or number; nil
  /// otherwise. An empty array has none (it is diffed by position).
  static func ids(_ elements: [JSONValue]) -> [Identity]? {
    guard !elements.isEmpty else { return nil }
    var ids: [Identity] = []
    ids.reserveCapacity(elements.count)
    for element in elements {
      guard case .object(let members) = element,
        let id = members.first(where: { $0.key == "id" })?.value
      else { return nil }
      switch id {
      case .string(let text): ids.append(Identity(isNumber: false, text: text))
      case .number(let text): ids.append(Identity(isNumber: true, text: text))
      default: return nil
      }
    }
    return ids
  }

  /// The ids as a set; nil if one occurs twice.
  static func distinct(_ ids: [Identity]) -> Set<Identity>? {
    var seen = Set<Identity>(minimumCapacity: ids.count)
    for id in ids where !seen.insert(id).inserted { return nil }
    return seen
  }

  /// Each id's position; nil if one occurs twice.
  static func positions(of ids: [Identity]) -> [Identity: Int]? {
    var positions = [Identity: Int](minimumCapacity: ids.count)
    for (index, id) in ids.enumerated() where positions.updateValue(index, forKey: id) != nil {
      return nil
    }
    return positions
  }

  /// The most elements a patch moves in one identified array: a reorder that would move more
  /// replaces the array (see ``diffIdentified(_:_:_:_:_:_:path:into:)``).
  public static let maxMoves = 64

  /// Turns `a` into `b` by id: removes the ids `b` lacks (from the end); then, position by
  /// position, leaves in place the elements of a longest run whose order did not change (a
  /// longest increasing subsequence of their old positions), moves each other element there,
  /// adds the new ones, and diffs each element kept. O(n log n). A single insert, removal or
  /// move is one operation: the fewest moves that give the new order.
  ///
  /// NB: a reorder that would take more than ``maxMoves`` moves replaces the array whole: a host
  /// applying a move shifts the array's elements (O(n) each), so reversing n elements would cost
  /// it O(n²), where a replace costs O(n) (docs/state-changes.md, "Patches").
  ///
  /// `oldPositions` are the positions of `oldIDs`, `wanted` the set of `newIDs` (each id once).
  static func diffIdentified(
    _ a: [JSONValue], _ oldIDs: [Identity], _ oldPositions: [Identity: Int], _ b: [JSONValue],
    _ newIDs: [Identity], _ wanted: Set<Identity>, path: inout Path, into ops: inout [JSONValue]
  ) {
    // NB: the elements kept, by rank (their order in `a`, removed ones left out): each old
    // element's rank (-1: removed), and each rank's position in `a`.
    var rankAt = [Int](repeating: -1, count: a.count)
    var kept: [Int] = []
    kept.reserveCapacity(a.count)
    for (index, id) in oldIDs.enumerated() where wanted.contains(id) {
      rankAt[index] = kept.count
      kept.append(index)
    }
    // Each new position's rank (-1: an element `a` lacks), and whether it stays in place.
    let ranks = newIDs.map { id in oldPositions[id].map { rankAt[$0] } ?? -1 }
    let stays = longestIncreasing(ranks)
    let staying = stays.reduce(0) { $0 + ($1 ? 1 : 0) }
    guard kept.count - staying <= maxMoves else {
      ops.append(operation("replace", path.pointer(), value: .array(b)))
      return
    }
    for index in stride(from: a.count - 1, through: 0, by: -1) where rankAt[index] < 0 {
      ops.append(operation("remove", path.pointer(.index(index))))
    }
    // NB: where each element is, as the operations apply one after the other, is counted in
    // slots laid out in the final order: a kept element's old slot, then the slots of the
    // elements placed after it (moved or added) up to the next one that stays. An element's
    // index is the number of occupied slots before its own (``Occupancy``: O(log n)).
    var placed = [Int](repeating: 0, count: kept.count + 1)
    var anchor = -1
    for index in ranks.indices {
      if stays[index] {
        anchor = ranks[index]
      } else {
        placed[anchor + 1] += 1
      }
    }
    var base = [Int](repeating: 0, count: kept.count + 1)
    var slots = 0
    for group in base.indices {
      base[group] = slots
      slots += 1 + placed[group]
    }
    // NB: group 0 (the elements placed before the first that stays) has a slot of its own that
    // nothing occupies; group r + 1's first slot is kept element r's.
    var occupancy = Occupancy(slots: slots, occupied: base.dropFirst())
    anchor = -1
    var following = 0
    for index in 0..<b.count {
      let old = ranks[index]
      if stays[index] {
        anchor = old
        following = 0
        let at = occupancy.count(before: base[old + 1])
        path.steps.append(.index(at))
        diff(a[kept[old]], b[index], path: &path, into: &ops)
        path.steps.removeLast()
        continue
      }
      following += 1
      let slot = base[anchor + 1] + following
      guard old >= 0 else {
        let at = occupancy.count(before: slot)
        occupancy.occupy(slot, 1)
        ops.append(operation("add", path.pointer(.index(at)), value: b[index]))
        continue
      }
      let from = occupancy.count(before: base[old + 1])
      occupancy.occupy(base[old + 1], -1)
      let at = occupancy.count(before: slot)
      occupancy.occupy(slot, 1)
      if from != at {
        ops.append(operation("move", path.pointer(.index(at)), from: path.pointer(.index(from))))
      }
      path.steps.append(.index(at))
      diff(a[kept[old]], b[index], path: &path, into: &ops)
      path.steps.removeLast()
    }
  }

  /// Which of `ranks` (-1: none) belong to a longest strictly increasing subsequence of those
  /// that are not -1 (patience sorting: O(n log n)).
  static func longestIncreasing(_ ranks: [Int]) -> [Bool] {
    // NB: `tails[k]` is where the smallest last rank of an increasing run of k + 1 ends.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: ranks.count)
    for (index, rank) in ranks.enumerated() where rank >= 0 {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if ranks[tails[middle]] < rank { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var stays = [Bool](repeating: false, count: ranks.count)
    var index = tails.last ?? -1
    while index >= 0 {
      stays[index] = true
      index = previous[index]
    }
    return stays
  }

  /// Which slots are occupied, counted in O(log n) (a Fenwick tree).
  struct Occupancy {
    /// 1-based: `tree[i]` sums the slots `i - (i & -i) ..< i`.
    private var tree: [Int]

    /// `slots` slots, those in `occupied` occupied.
    init<S: Sequence<Int>>(slots: Int, occupied: S) {
      tree = [Int](repeating: 0, count: slots + 1)
      for slot in occupied { tree[slot + 1] += 1 }
      // NB: each node passes its sum on to its parent: built in O(n).
      for index in 1..<tree.count {
        let parent = index + (index & -index)
        if parent < tree.count { tree[parent] += tree[index] }
      }
    }

    /// Adds `delta` (1: occupied; -1: emptied) to `slot`.
    mutating func occupy(_ slot: Int, _ delta: Int) {
      var index = slot + 1
      while index < tree.count {
        tree[index] += delta
        index += index & -index
      }
    }

    /// How many slots before `slot` are occupied.
    func count(before slot: Int) -> Int {
      var index = slot
      var sum = 0
      while index > 0 {
        sum += tree[index]
        index -= index & -index
      }
      return sum
    }
  }

  static func operation(_ op: String, _ path: String, value: JSONValue? = nil, from: String? = nil)
    -> JSONValue
  {
    var members: [(key: String, value: JSONValue)] = [("op", .string(op))]
    if let from { members.append(("from", .string(from))) }
    members.append(("path", .string(path)))
    if let value { members.append(("value", value)) }
    return .object(members)
  }

  /// A reference token escaped for a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`.
  static func escape(_ key: String) -> String {
    guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
      return key
    }
    return key.replacing("~", with: "~0").replacing("/", with: "~1")
  }

  // MARK: - Applying

  static func missing(_ member: String, _ index: Int) -> JSONError {
    JSONError(.shape, "patch operation \(index): no \"\(member)\"")
  }

  static func pointerTokens(_ path: String, _ index: Int) throws(JSONError) -> [String] {
    if path.isEmpty { return [] }
    guard path.hasPrefix("/") else {
      throw JSONError(
        .shape, "patch operation \(index): path \(quoted(path)) does not start with /")
    }
    return path.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
    )
    .map {
      String(decoding: $0, as: UTF8.self).replacing("~1", with: "/").replacing("~0", with: "~")
    }
  }

  static func arrayIndex(_ token: String, count: Int, allowEnd: Bool, _ index: Int)
    throws(JSONError) -> Int
  {
    if allowEnd && token == "-" { return count }
    guard let value = Int(token), value >= 0, value < count + (allowEnd ? 1 : 0),
      token == String(value)
    else { throw JSONError(.shape, "patch operation \(index): no index \(quoted(token))") }
    return value
  }

  static func lookup(_ tokens: ArraySlice<String>, in value: JSONValue, _ index: Int)
    throws(JSONError) -> JSONValue
  {
    guard let token = tokens.first else { return value }
    switch value {
    case .object(let members):
      guard let member = members.first(where: { $0.key == token }) else {
        throw JSONError(.shape, "patch operation \(index): no member \(quoted(token))")
      }
      return try lookup(tokens.dropFirst(), in: member.value, index)
    case .array(let elements):
      let offset = try arrayIndex(token, count: elements.count, allowEnd: false, index)
      return try lookup(tokens.dropFirst(), in: elements[offset], index)
    default:
      throw JSONError(.shape, "patch operation \(index): \(quoted(token)) inside a scalar")
    }
  }

  static func insert(
    _ new: JSONValue, at tokens: ArraySlice<String>, in value: inout JSONValue, _ index: Int
  ) throws(JSONError) {
    guard let token = tokens.first else {
      value = new
      return
    }
    let last = tokens.count == 1
    switch value {
    case .object(var members):
      value = .null  // NB: releases the tree's reference, so the edit below copies nothing.
      if let offset = members.firstIndex(where: { $0.key == token }) {
        if last {
          members[offset].value = new
        } else {
          try insert(new, at: tokens.dropFirst(), in: &members[offset].value, index)
        }
      } else if last {
        members.append((token, new))
      } else {
        value = .object(members)
        throw JSONError(.shape, "patch operation \(index): no member \(quoted(token))")
      }
      value = .object(members)
    case .array(var elements):
      value = .null
      defer { value = .array(elements) }
      let offset = try arrayIndex(token, count: elements.count, allowEnd: last, index)
      if last {
        elements.insert(new, at: offset)
      } else {
        try insert(new, at: tokens.dropFirst(), in: &elements[offset], index)
      }
    default:
      throw JSONError(.shape, "patch operation \(index): \(quoted(token)) inside a scalar")
    }
  }

  static func remove(at tokens: ArraySlice<String>, in value: inout JSONValue, _ index: Int)
    throws(JSONError) -> JSONValue
  {
    guard let token = tokens.first else {
      throw JSONError(.shape, "patch operation \(index): cannot remove the whole document")
    }
    let last = tokens.count == 1
    switch value {
    case .object(var members):
      value = .null
      defer { value = .object(members) }
      guard let offset = members.firstIndex(where: { $0.key == token }) else {
        throw JSONError(.shape, "patch operation \(index): no member \(quoted(token))")
      }
      if last { return members.remove(at: offset).value }
      return try remove(at: tokens.dropFirst(), in: &members[offset].value, index)
    case .array(var elements):
      value = .null
      defer { value = .array(elements) }
      let offset = try arrayIndex(token, count: elements.count, allowEnd: false, index)
      if last { return elements.remove(at: offset) }
      return try remove(at: tokens.dropFirst(), in: &elements[offset], index)
    default:
      throw JSONError(.shape, "patch operation \(index): \(quoted(token)) inside a scalar")
    }
  }
}
