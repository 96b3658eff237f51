import JSON

/// A state that follows a JSON Pointer through its own values, so that `tca_store_get` of one
/// element of a large list encodes that element only, whether the state changed or not
/// (``JSONStore``; docs/state-changes.md).
///
///     extension Todos.State: JSONPointable {
///       public func json(at tokens: ArraySlice<String>) -> [UInt8]? {
///         guard tokens.first == "todos", tokens.count > 1 else { return nil }
///         return todos.json(at: tokens.dropFirst())
///       }
///     }
///
/// The text returned must be the text the pointer finds in the state JSON.
public protocol JSONPointable {
  /// The JSON text at `tokens` (unescaped reference tokens), or nil to have the pointer looked
  /// up in the whole state's text instead: for a part it does not follow, and for a pointer that
  /// finds nothing (the text lookup then reports where it stopped).
  func json(at tokens: ArraySlice<String>) -> [UInt8]?
}

extension IdentifiedArray: JSONPointable where Element: JSONEncodable {
  /// The element the first token indexes, encoded alone, or a value inside it (looked up in
  /// that element's text): O(depth + the element's size).
  public func json(at tokens: ArraySlice<String>) -> [UInt8]? {
    guard let first = tokens.first, let position = JSONPointer.arrayIndex(first),
      position < count, let element = try? JSONEncoder().encode(self[position])
    else { return nil }
    let rest = tokens.dropFirst()
    if rest.isEmpty { return element }
    return try? JSONPointer.lookup(JSONPointer.pointer(rest), in: element)
  }
}
