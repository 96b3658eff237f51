/// Readable, line-by-line descriptions of values (by reflection) and their differences: what
/// `_printChanges()` prints and what a failing test store shows.
///
///     Counter.State(
///       count: 1
///       isLoading: false
///     )
enum Dump {
  /// The value as lines: structs and classes one field per line; enums, tuples and short
  /// collections of simple values on one line.
  static func lines(of value: Any, qualifyEnum: Bool = false) -> [String] {
    var out: [String] = []
    render(node(value, depth: 0, qualifyEnum: qualifyEnum), label: nil, indent: "", into: &out)
    return out
  }

  /// The value on as few lines as fit.
  static func text(of value: Any, qualifyEnum: Bool = false) -> String {
    lines(of: value, qualifyEnum: qualifyEnum).joined(separator: "\n")
  }

  /// The lines of a line-by-line difference, each prefixed `- ` (only in `old`), `+ ` (only in
  /// `new`) or two spaces (both); long unchanged stretches are collapsed. nil if equal.
  static func diff(_ old: [String], _ new: [String], context: Int = 3) -> [String]? {
    guard old != new else { return nil }
    // NB: trim the common ends before the quadratic part: most diffs are a few lines of a state
    // that may be thousands of lines long.
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let a = Array(old[prefix..<(old.count - suffix)])
    let b = Array(new[prefix..<(new.count - suffix)])
    var marked: [(String, String)] = old[..<prefix].map { (" ", $0) }
    marked += lcsDiff(a, b)
    marked += old[(old.count - suffix)...].map { (" ", $0) }
    return collapse(marked, context: context)
  }

  private static func lcsDiff(_ a: [String], _ b: [String]) -> [(String, String)] {
    // NB: bounded: past a few million cells, show the middle as removed then added.
    guard a.count * b.count <= 4_000_000 else {
      return a.map { ("-", $0) } + b.map { ("+", $0) }
    }
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var out: [(String, String)] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count && j < b.count && a[i] == b[j] {
        out.append((" ", a[i]))
        i += 1
        j += 1
      } else if j < b.count && (i == a.count || table[i][j + 1] >= table[i + 1][j]) {
        out.append(("+", b[j]))
        j += 1
      } else {
        out.append(("-", a[i]))
        i += 1
      }
    }
    // NB: show each changed run as all its removals, then all its additions.
    var grouped: [(String, String)] = []
    var removed: [(String, String)] = []
    var added: [(String, String)] = []
    for line in out + [(" ", "")] {
      switch line.0 {
      case "-": removed.append(line)
      case "+": added.append(line)
      default:
        grouped += removed + added
        removed = []
        added = []
        grouped.append(line)
      }
    }
    grouped.removeLast()
    return grouped
  }

  private static func collapse(_ marked: [(String, String)], context: Int) -> [String] {
    let changed = marked.indices.filter { marked[$0].0 != " " }
    var keep = Array(repeating: false, count: marked.count)
    for index in changed {
      for near in max(0, index - context)...min(marked.count - 1, index + context) {
        keep[near] = true
      }
    }
    // NB: keep the outermost lines too (the type's opening and closing), for orientation.
    if !keep.isEmpty {
      keep[0] = true
      keep[keep.count - 1] = true
    }
    var out: [String] = []
    var skipped = 0
    var skippedIndent = ""
    for (index, line) in marked.enumerated() {
      if keep[index] {
        if skipped > 0 {
          out.append("  " + skippedIndent + "… (\(skipped) unchanged)")
          skipped = 0
        }
        out.append(line.0 + " " + line.1)
      } else {
        if skipped == 0 { skippedIndent = String(line.1.prefix { $0 == " " }) }
        skipped += 1
      }
    }
    if skipped > 0 { out.append("  " + skippedIndent + "… (\(skipped) unchanged)") }
    return out
  }

  // MARK: - Building

  private indirect enum Node {
    case leaf(String)
    /// `open` children `close`; `multiline` forces one child per line.
    case compound(
      open: String, close: String, children: [(label: String?, node: Node)],
      multiline: Bool)
  }

  private static let maxDepth = 24

  private static func node(_ value: Any, depth: Int, qualifyEnum: Bool = false) -> Node {
    guard depth < maxDepth else { return .leaf("…") }
    if let string = value as? String { return .leaf(quoted(string)) }
    if let character = value as? Character { return .leaf(quoted(String(character))) }
    if let duration = value as? Duration { return .leaf(duration.description) }
    let mirror = Mirror(reflecting: value)
    let typeName = name(of: type(of: value))
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .leaf("nil") }
      return node(wrapped, depth: depth, qualifyEnum: qualifyEnum)
    case .enum:
      let caseName =
        qualifyEnum
        ? typeName + "." + "\(caseLabel(value, mirror))"
        : "." + caseLabel(value, mirror)
      guard let payload = mirror.children.first?.value else { return .leaf(caseName) }
      let payloadMirror = Mirror(reflecting: payload)
      if payloadMirror.displayStyle == .tuple {
        return .compound(
          open: caseName + "(", close: ")",
          children: payloadMirror.children.map { child in
            (tupleLabel(child.label), node(child.value, depth: depth + 1))
          },
          multiline: false)
      }
      return .compound(
        open: caseName + "(", close: ")", children: [(nil, node(payload, depth: depth + 1))],
        multiline: false)
    case .tuple:
      return .compound(
        open: "(", close: ")",
        children: mirror.children.map { (tupleLabel($0.label), node($0.value, depth: depth + 1)) },
        multiline: false)
    case .collection, .set:
      let children = mirror.children.map {
        (label: String?.none, node: node($0.value, depth: depth + 1))
      }
      return .compound(
        open: "[", close: "]", children: children,
        multiline: children.contains {
          if case .compound(_, _, _, true) = $0.node { true } else { false }
        })
    case .dictionary:
      let entries = mirror.children.map { entry -> (key: String, node: Node) in
        let pair = Array(Mirror(reflecting: entry.value).children)
        let key = pair.first.map { text(of: $0.value) } ?? "?"
        let value = pair.count > 1 ? node(pair[1].value, depth: depth + 1) : .leaf("?")
        return (key, value)
      }
      .sorted { $0.key < $1.key }
      if entries.isEmpty { return .leaf("[:]") }
      return .compound(
        open: "[", close: "]", children: entries.map { ($0.key, $0.node) }, multiline: false)
    case .struct, .class:
      if mirror.children.isEmpty && mirror.superclassMirror == nil {
        return .leaf(typeName + "()")
      }
      var children: [(label: String?, node: Node)] = []
      var current: Mirror? = mirror
      while let level = current {
        children += level.children.map {
          ($0.label.map(fieldLabel), node($0.value, depth: depth + 1))
        }
        current = level.superclassMirror
      }
      return .compound(open: typeName + "(", close: ")", children: children, multiline: true)
    default:
      if mirror.children.isEmpty { return .leaf(String(describing: value)) }
      return .compound(
        open: typeName + "(", close: ")",
        children: mirror.children.map {
          ($0.label.map(fieldLabel), node($0.value, depth: depth + 1))
        },
        multiline: true)
    }
  }

  private static func render(_ node: Node, label: String?, indent: String, into out: inout [String])
  {
    let prefix = indent + (label.map { $0 + ": " } ?? "")
    switch node {
    case let .leaf(text):
      out.append(prefix + text)
    case let .compound(open, close, children, multiline):
      if !multiline, let inline = inlineText(node), prefix.count + inline.count <= 100 {
        out.append(prefix + inline)
        return
      }
      if children.isEmpty {
        out.append(prefix + open + close)
        return
      }
      out.append(prefix + open)
      for child in children {
        render(child.node, label: child.label, indent: indent + "  ", into: &out)
      }
      out.append(indent + close)
    }
  }

  private static func inlineText(_ node: Node) -> String? {
    switch node {
    case let .leaf(text): return text
    case let .compound(open, close, children, multiline):
      guard !multiline else { return nil }
      var parts: [String] = []
      for child in children {
        guard let text = inlineText(child.node) else { return nil }
        parts.append((child.label.map { $0 + ": " } ?? "") + text)
      }
      return open + parts.joined(separator: ", ") + close
    }
  }

  private static func caseLabel(_ value: Any, _ mirror: Mirror) -> String {
    if let label = mirror.children.first?.label { return label }
    let text = String(describing: value)
    return String(text.prefix { $0 != "(" })
  }

  private static func tupleLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  private static func fieldLabel(_ label: String) -> String {
    // NB: property wrappers' storage shows as `_name`.
    label.hasPrefix("_") && label.count > 1 ? String(label.dropFirst()) : label
  }

  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      // NB: every other control character as JSON escapes it, so a value from the input never
      // puts a raw control byte into the trace (TCA_TRACE=1 writes it to stderr).
      case "\u{0}"..."\u{1F}", "\u{7F}":
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// A type's name without its module: `Counter.State`.
  static func name(of type: Any.Type) -> String {
    var name = String(reflecting: type)
    // NB: private types show as `Module.(unknown context at $1a2b3c).Name`.
    let marker = "(unknown context at "
    while let start = name.indices.first(where: { name[$0...].hasPrefix(marker) }),
      let close = name[start...].firstIndex(of: ")")
    {
      var end = name.index(after: close)
      if end < name.endIndex && name[end] == "." { end = name.index(after: end) }
      name.removeSubrange(start..<end)
    }
    return stripModules(name)
  }

  /// Drops the first component (the module) of each qualified name in `name`:
  /// `Swift.Array<App.Todo>` → `Array<Todo>`.
  private static func stripModules(_ name: String) -> String {
    var out = ""
    var token = ""
    var atComponentStart = true
    for character in name {
      if character == "." && atComponentStart && !token.isEmpty {
        token = ""
        atComponentStart = false
        continue
      }
      if "<>, ".contains(character) {
        out += token + String(character)
        token = ""
        atComponentStart = true
        continue
      }
      if character == "." {
        out += token + "."
        token = ""
        atComponentStart = false
        continue
      }
      token.append(character)
    }
    return out + token
  }
}
