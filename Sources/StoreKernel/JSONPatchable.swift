import JSON

/// A state that makes its JSON Patch (RFC 6902) from an older value of itself by what changed,
/// without encoding either whole: `tca_store_patch` uses it when a feature's state conforms,
/// and otherwise encodes both states and diffs the trees (docs/state-changes.md).
///
///     extension Todos.State: JSONPatchable {
///       public func patch(
///         from old: Self, at path: String, into operations: inout [JSONValue]
///       ) throws(JSONError) {
///         try StatePatch.member(old.filter, filter, at: path + "/filter", into: &operations)
///         try todos.patch(from: old.todos, at: path + "/todos", into: &operations)
///       }
///     }
///
/// The operations must turn the state JSON of `old` into the state JSON of `self` (equal as
/// JSON values): every member the encoding writes, derived ones too, must be patched.
public protocol JSONPatchable {
  /// Appends the operations that turn the JSON of `old` into the JSON of `self`, their paths
  /// under `path` (a JSON Pointer, escaped: "" for the root).
  func patch(from old: Self, at path: String, into operations: inout [JSONValue])
    throws(JSONError)
}

/// Helpers for ``JSONPatchable`` conformances.
public enum StatePatch {
  /// Nothing when `old == new`; else the operations between their JSON (encoded and diffed as
  /// trees: for small values, or a fallback).
  public static func member<T: Encodable & Equatable>(
    _ old: T, _ new: T, at path: String, into operations: inout [JSONValue]
  ) throws(JSONError) {
    guard old != new else { return }
    try encodedDiff(old, new, at: path, into: &operations)
  }

  /// The operations between the JSON of `old` and of `new`, both encoded whole and diffed as
  /// trees (``JSON/JSONPatch``).
  public static func encodedDiff<T: Encodable>(
    _ old: T, _ new: T, at path: String, into operations: inout [JSONValue]
  ) throws(JSONError) {
    let encoder = JSONEncoder()
    let before = try JSONParser.parse(encoder.encode(old))
    let after = try JSONParser.parse(encoder.encode(new))
    JSONPatch.diff(from: before, to: after, at: path, into: &operations)
  }
}

extension IdentifiedArray: JSONPatchable where Element: JSONEncodable & Equatable {
  /// While the ids are the ones `old` has (shared: elements changed in place), each element
  /// that changed is diffed at its position, found by walking the two trees past the chunks
  /// they share: O(changed · log n). After an insert, a removal or a move, the two arrays are
  /// encoded and diffed by id (O(n)), which patches the elements that moved, not the list.
  public func patch(
    from old: IdentifiedArray, at path: String, into operations: inout [JSONValue]
  ) throws(JSONError) {
    if sharesIDs(with: old) {
      try _elements.forEachDifference(from: old._elements) {
        (position, before, after) throws(JSONError) in
        try StatePatch.encodedDiff(before, after, at: "\(path)/\(position)", into: &operations)
      }
      return
    }
    try StatePatch.member(old, self, at: path, into: &operations)
  }
}
