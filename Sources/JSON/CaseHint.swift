/// What an error about an unknown enum case adds: the valid cases at that level, and those close
/// to the name sent.
///
///     at /: expected exactly one known case, found "numberFactResponseFailed" (did you mean
///     "numberFactResponse" or "numberFactFailed"? valid cases: "decrementButtonTapped", …)
///
/// NB: bounded as every message is (docs/wire-format.md, "Errors"): a name is quoted whole up to
/// ``nameScalars`` scalars, the list stops after ``listBytes`` bytes with a count of the rest.
enum CaseHint {
  /// The longest name quoted whole; a longer one is cut with "…".
  static let nameScalars = 64
  /// About how many bytes of names the list gives before "… and N more".
  static let listBytes = 480
  /// The most cases "did you mean" names.
  static let maxSuggestions = 3

  /// `did you mean "a"? valid cases: "a", "b"` (in alphabetical order), or nil if there are no
  /// cases to list.
  ///
  /// NB: alphabetical, not as declared: where an enum's `CodingKeys` are not at hand, its case
  /// names come from its metadata, in the order of its tags (the cases with payloads first).
  static func hint(sent: String?, cases: [String]) -> String? {
    guard !cases.isEmpty else { return nil }
    let cases = cases.sorted()
    var hint = ""
    if let sent, !cases.contains(sent) {
      let close = closest(to: sent, in: cases)
      if !close.isEmpty {
        hint += "did you mean " + close.map(quotedName).joined(separator: " or ") + "? "
      }
    }
    hint += "valid cases: "
    var listed = 0
    var bytes = 0
    for name in cases {
      let shown = quotedName(name)
      if listed > 0 && bytes + shown.utf8.count > listBytes {
        hint += ", … and \(cases.count - listed) more"
        return hint
      }
      hint += (listed > 0 ? ", " : "") + shown
      bytes += shown.utf8.count + 2
      listed += 1
    }
    return hint
  }

  /// A case name as messages quote it: escaped as JSON, whole up to ``nameScalars`` scalars.
  static func quotedName(_ name: String) -> String { quoted(name, limit: nameScalars) }

  /// The cases close to `sent`, closest first: a few edits away (a third of the longer name,
  /// ignoring case), or one containing the other (the shorter of 4 characters or more).
  static func closest(to sent: String, in cases: [String]) -> [String] {
    let typed = Array(sent.lowercased().unicodeScalars)
    guard !typed.isEmpty, typed.count <= nameScalars else { return [] }
    var found: [(distance: Int, order: Int, name: String)] = []
    for (order, name) in cases.enumerated() {
      let candidate = Array(name.lowercased().unicodeScalars)
      guard candidate.count <= nameScalars else { continue }
      let distance = editDistance(typed, candidate)
      let longer = max(typed.count, candidate.count)
      let contains =
        typed.count < candidate.count
        ? typed.count >= 4 && contains(candidate, typed)
        : candidate.count >= 4 && candidate.count < typed.count && contains(typed, candidate)
      if distance <= max(1, longer / 3) || contains {
        found.append((distance, order, name))
      }
    }
    found.sort { ($0.distance, $0.order) < ($1.distance, $1.order) }
    // NB: the closest, and those nearly as close: one a single edit away hides those three.
    guard let best = found.first?.distance else { return [] }
    return found.prefix(maxSuggestions).filter { $0.distance <= max(best + 1, 2 * best) }
      .map(\.name)
  }

  /// Levenshtein distance (insertions, deletions, substitutions of one scalar).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  private static func contains(_ text: [Unicode.Scalar], _ part: [Unicode.Scalar]) -> Bool {
    guard part.count <= text.count else { return false }
    for start in 0...(text.count - part.count)
    where text[start..<(start + part.count)].elementsEqual(part) {
      return true
    }
    return false
  }
}

extension Document {
  /// The name of the only member of the object at `index`, if it is short enough to look for
  /// close cases (nil otherwise: never a 100 MB string).
  func soleMemberName(at index: Int) -> String? {
    guard index >= 0 && index < count, kind(at: index) == .object, hasOneMember(at: index),
      text(at: index + 1).count <= CaseHint.nameScalars * 12
    else { return nil }
    return string(at: index + 1)
  }

  /// The string at `index`, if it is short enough to look for close cases.
  func shortString(at index: Int) -> String? {
    guard index >= 0 && index < count, kind(at: index) == .string,
      text(at: index).count <= CaseHint.nameScalars * 12
    else { return nil }
    return string(at: index)
  }
}

extension JSONError {
  /// The message of an unknown case `name` among `cases`, worded as the decoder words its own:
  /// sent `bare` (`"jump"`) or as an object's only member (`{"jump":{}}`). For a type whose
  /// `init(from:)` reads its cases itself: throw it as a `DecodingError.dataCorrupted`'s
  /// description, and the error names the place as the decoder's do.
  ///
  ///     "jump" is not a known case (expected a case name or an object; valid cases: "a", "b")
  public static func unknownCase(_ name: String, bare: Bool, cases: [String]) -> String {
    let shown = CaseHint.quotedName(name)
    let hint = CaseHint.hint(sent: name, cases: cases)
    if bare {
      return "\(shown) is not a known case (expected a case name or an object"
        + (hint.map { "; " + $0 } ?? "") + ")"
    }
    return "expected exactly one known case, found \(shown)" + (hint.map { " (\($0))" } ?? "")
  }
}
