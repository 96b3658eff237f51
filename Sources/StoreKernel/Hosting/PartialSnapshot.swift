import JSON

/// A host's snapshot completed with the feature's initial state: the members it leaves out take
/// the initial state's values, at any depth, whatever decoder the `State` has (a synthesized
/// Codable one included, which would otherwise fail with `missing member`).
///
///     snapshot  {"query":"bo","page":{"size":5}}
///     initial   {"query":"","results":[],"page":{"number":1,"size":20}}
///     decoded   {"query":"bo","page":{"size":5,"number":1},"results":[]}
///
/// Objects are merged member by member; arrays, strings, numbers, booleans and `null` given in
/// the snapshot replace the initial value whole. Two kinds of object are taken as given, because
/// they stand for an enum case rather than a struct:
/// - a one-member object in place of a one-member object with another name (another case,
///   `{"loaded":…}` where the initial state has `{"idle":{}}`);
/// - an object in place of one with an unlabeled payload `_0` that it does not name itself (the
///   bare-payload shorthand of docs/wire-format.md).
///
/// A dictionary is an object too: one given in a snapshot keeps the initial state's entries it
/// does not name (an initial dictionary is most often empty).
///
/// NB: merged as JSON before decoding, so a member of the wrong type is still reported by the
/// decoder at its own path (`state_json at /page/size: expected an integer, found "x"`).
@usableFromInline
enum PartialSnapshot {
  /// The snapshot with the initial state's missing members added, or nil when it lacks none
  /// (or is not JSON: the decoder then reports why, at the right byte).
  @usableFromInline
  static func completed(
    _ snapshot: UnsafeBufferPointer<UInt8>, initialState: [UInt8]
  ) -> [UInt8]? {
    guard let given = try? JSONParser.parse(snapshot),
      let initial = try? JSONParser.parse(initialState)
    else { return nil }
    var added = false
    let merged = merge(given, over: initial, added: &added)
    return added ? JSONWriter.write(merged) : nil
  }

  static func merge(_ given: JSONValue, over initial: JSONValue, added: inout Bool) -> JSONValue {
    guard case let .object(members) = given, case let .object(defaults) = initial else {
      return given
    }
    if members.count == 1, defaults.count == 1, members[0].key != defaults[0].key {
      return given
    }
    if defaults.contains(where: { $0.key == "_0" }), !members.contains(where: { $0.key == "_0" }) {
      return given
    }
    var initialIndex: [String: Int] = [:]
    for (offset, member) in defaults.enumerated() { initialIndex[member.key] = offset }
    var result: [(key: String, value: JSONValue)] = []
    result.reserveCapacity(max(members.count, defaults.count))
    var named = Set<String>()
    for member in members {
      named.insert(member.key)
      if let offset = initialIndex[member.key] {
        let value = merge(member.value, over: defaults[offset].value, added: &added)
        result.append((member.key, value))
      } else {
        result.append(member)
      }
    }
    for member in defaults where !named.contains(member.key) {
      result.append(member)
      added = true
    }
    return .object(result)
  }
}
