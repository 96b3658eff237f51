/// The names of types in schemas: a `$defs` entry's `title` is the Swift type's name without its
/// modules (`StackState<MatchScores.Path.State>`), its key the title with every character outside
/// `[A-Za-z0-9_.]` made `_` (`StackState_MatchScores.Path.State_`).
public enum JSONSchemaNames {
  /// `String(reflecting: type)` without the module of each name in it, nor the contexts the
  /// runtime cannot name (a type declared in a function).
  ///
  ///     StoreKernel.StackState<Features.MatchScores.Path.State>
  ///       →  StackState<MatchScores.Path.State>
  public static func title(of type: Any.Type) -> String {
    let text = Array(String(reflecting: type).unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    var atPathStart = true
    while index < text.count {
      let scalar = text[index]
      if scalar == "(" {
        // NB: `(unknown context at $…)` and `(extension in Module):` stand before a name;
        // `(Name in _0123ABCD)` is a private type's name.
        if let end = contextEnd(in: text, from: index) {
          // NB: after `(extension in M):` comes a whole name, module first; after an unknown
          // context, the rest of one.
          atPathStart = text[end - 1] == ":"
          index = end
          continue
        }
        if let (name, end) = privateName(in: text, from: index) {
          out.append(contentsOf: name.unicodeScalars)
          index = end
          atPathStart = false
          continue
        }
      }
      if atPathStart && isIdentifierStart(scalar) {
        var end = index
        while end < text.count && isNamePart(text[end]) { end += 1 }
        if end < text.count && text[end] == "." {
          index = end + 1  // a module: dropped
        } else {
          out.append(contentsOf: text[index..<end])
          index = end
        }
        atPathStart = false
        continue
      }
      out.append(scalar)
      atPathStart =
        scalar == "<" || scalar == "(" || scalar == " " || scalar == "[" || scalar == ":"
      index += 1
    }
    return String(out)
  }

  /// The `$defs` key of a title: characters outside `[A-Za-z0-9_.]` become `_`.
  public static func key(for title: String) -> String {
    String(
      String.UnicodeScalarView(
        title.unicodeScalars.map { isIdentifierPart($0) || $0 == "." ? $0 : "_" }))
  }

  /// Where a parenthesized context the runtime writes before a name ends (past its `.` or
  /// `:`), or nil if the parenthesis at `start` is not one.
  private static func contextEnd(in text: [Unicode.Scalar], from start: Int) -> Int? {
    let rest = String(String.UnicodeScalarView(text[start...].prefix(24)))
    guard rest.hasPrefix("(unknown context at ") || rest.hasPrefix("(extension in ") else {
      return nil
    }
    var depth = 0
    var index = start
    while index < text.count {
      if text[index] == "(" { depth += 1 }
      if text[index] == ")" {
        depth -= 1
        if depth == 0 {
          index += 1
          if index < text.count && (text[index] == "." || text[index] == ":") { index += 1 }
          return index
        }
      }
      index += 1
    }
    return nil
  }

  /// `Name` and where `(Name in _discriminator)` at `start` ends, or nil if it is not that.
  private static func privateName(
    in text: [Unicode.Scalar], from start: Int
  ) -> (String, Int)? {
    var end = start + 1
    while end < text.count && isNamePart(text[end]) { end += 1 }
    let name = String(String.UnicodeScalarView(text[(start + 1)..<end]))
    let marker = Array(" in _".unicodeScalars)
    guard !name.isEmpty, end + marker.count <= text.count,
      Array(text[end..<(end + marker.count)]) == marker
    else { return nil }
    end += marker.count
    while end < text.count && isNamePart(text[end]) { end += 1 }
    guard end < text.count, text[end] == ")" else { return nil }
    return (name, end + 1)
  }

  private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || scalar.properties.isAlphabetic
  }

  private static func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
  }

  private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      ? scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar)
      : false
  }
}
