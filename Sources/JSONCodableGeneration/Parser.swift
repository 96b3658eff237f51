/// Reads the declarations the generator needs from a file's ``Token``s: types, their stored
/// properties and enum cases, extensions, and whatever says a type codes itself its own way.
///
/// NB: it is not a Swift parser. It follows the declarations' outline by their keywords and
/// brackets, skipping bodies, types and expressions whole. Wherever a type's body holds
/// something it does not follow (`#if`, a macro, an attribute on a stored property, a tuple
/// pattern), it says so (``TypeDeclaration/problem``) and no conformance is written for that
/// type; the rest of the file is read on.
struct Parser {
  private let tokens: [Token]
  private var index = 0
  private let file: Int
  private(set) var module: Module
  /// How many `#if` blocks are open at this point.
  private var conditionalDepth = 0

  init(tokens: [Token], file: Int, into module: Module) {
    self.tokens = tokens
    self.file = file
    self.module = module
  }

  /// Where a list of declarations is: the file, or the body of a type or an extension.
  private struct Scope {
    var type: TypeDeclaration?
    var `extension`: ExtensionDeclaration?
    var path: [Name]
    var isGeneric: Bool
    /// The access a member declared here without a modifier has.
    var defaultAccess: Access
    var kind: String
  }

  mutating func parseFile() {
    parseDeclarations(in: Scope(
      type: nil, extension: nil, path: [], isGeneric: false, defaultAccess: .internal,
      kind: "file"))
  }

  // MARK: - Tokens

  private var current: Token? { index < tokens.count ? tokens[index] : nil }

  private func token(_ offset: Int) -> Token? {
    index + offset < tokens.count ? tokens[index + offset] : nil
  }

  private static let openers: Set<String> = ["(", "[", "{"]
  private static let closers: Set<String> = [")", "]", "}"]

  /// Skips the bracketed group that starts at the current token (`(`, `[` or `{`).
  private mutating func skipGroup() {
    var depth = 0
    while let token = current {
      index += 1
      guard token.kind == .punctuation else { continue }
      if Parser.openers.contains(token.text) {
        depth += 1
      } else if Parser.closers.contains(token.text) {
        depth -= 1
        if depth <= 0 { return }
      }
    }
  }

  /// Skips a generic parameter or argument list from its `<`.
  private mutating func skipAngles() {
    var depth = 0
    while let token = current {
      if token.kind == .punctuation, Parser.openers.contains(token.text) {
        skipGroup()
        continue
      }
      index += 1
      if token.is("<") { depth += 1 }
      if token.is(">") {
        depth -= 1
        if depth <= 0 { return }
      }
      if token.is("}") || token.is(";") { return }
    }
  }

  private static let declarationKeywords: Set<String> = [
    "var", "let", "func", "init", "deinit", "subscript", "struct", "enum", "class", "actor",
    "protocol", "extension", "typealias", "associatedtype", "case", "import", "operator",
    "precedencegroup", "macro",
  ]

  private static let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "final", "static",
    "lazy", "weak", "unowned", "override", "required", "convenience", "mutating",
    "nonmutating", "dynamic", "indirect", "nonisolated", "optional", "prefix", "postfix",
    "infix", "distributed", "consuming", "borrowing", "__consuming", "isolated",
  ]

  /// Whether `token` can only start a declaration (or a directive) when it starts a line.
  private static func startsDeclaration(_ token: Token) -> Bool {
    switch token.kind {
    case .attribute, .pound: return true
    case .word:
      return !token.isBackticked
        && (declarationKeywords.contains(token.text) || modifiers.contains(token.text))
    default: return false
    }
  }

  /// Skips to the end of a declaration or statement: a `;` (taken), the `}` that closes the
  /// scope, or a line that starts another declaration (neither taken).
  private mutating func skipToDeclarationEnd() {
    var first = true
    while let token = current {
      if token.is(";") {
        index += 1
        return
      }
      if token.is("}") || token.is(")") || token.is("]") { return }
      if !first, token.startsLine, Parser.startsDeclaration(token) { return }
      first = false
      if token.kind == .punctuation, Parser.openers.contains(token.text) {
        skipGroup()
      } else {
        index += 1
      }
    }
  }

  // MARK: - Declarations

  private mutating func parseDeclarations(in scope: Scope) {
    while let token = current {
      if token.is("}") {
        index += 1
        return
      }
      if token.is(";") || token.is(")") || token.is("]") {
        index += 1
        continue
      }
      parseDeclaration(in: scope)
    }
  }

  private mutating func reject(_ scope: Scope, _ reason: String) {
    scope.type?.reject(reason)
  }

  private mutating func parseDeclaration(in scope: Scope) {
    guard let first = current else { return }
    if first.kind == .pound {
      parseDirective(in: scope)
      return
    }
    var attributes: [String] = []
    var modifiers: [String] = []
    while let token = current {
      if token.kind == .attribute {
        attributes.append(token.text)
        index += 1
        if let next = current, next.is("("), !next.startsLine { skipGroup() }
        continue
      }
      if token.kind == .word, !token.isBackticked, Parser.modifiers.contains(token.text)
        || (token.text == "class" && isModifierClass)
      {
        modifiers.append(token.text)
        index += 1
        if let next = current, next.is("(") { skipGroup() }
        continue
      }
      break
    }
    guard let keyword = current, keyword.kind == .word, !keyword.isBackticked else {
      // NB: a statement (top-level code), or something this reader does not follow.
      if scope.kind != "file" { reject(scope, "it holds code the generator does not follow") }
      skipToDeclarationEnd()
      return
    }
    let access = modifiers.lazy.compactMap(Access.init(modifier:)).first
    let isStatic = modifiers.contains("static") || modifiers.contains("class")
    if keyword.text != "case" && keyword.text != "var" && keyword.text != "let" {
      scope.type?.hasOtherMembers = true
    }
    switch keyword.text {
    case "struct", "enum", "class", "actor", "protocol":
      parseType(keyword.text, in: scope, access: access, attributes: attributes)
    case "extension":
      parseExtension(in: scope, access: access)
    case "func":
      parseFunction(in: scope)
    case "init":
      parseInitializer(in: scope)
    case "deinit", "subscript", "operator", "precedencegroup", "macro", "associatedtype":
      index += 1
      skipSignatureAndBody()
    case "typealias":
      index += 1
      if let name = current, name.kind == .word, name.text.hasSuffix("CodingKeys") {
        note(codingKeysIn: scope)
      }
      skipToDeclarationEnd()
    case "import":
      skipToDeclarationEnd()
    case "var", "let":
      parseBindings(in: scope, isLet: keyword.text == "let", isStatic: isStatic,
        modifiers: modifiers, attributes: attributes)
    case "case" where scope.kind == "enum":
      parseCases(in: scope, attributes: attributes)
    default:
      if scope.kind != "file" { reject(scope, "it holds code the generator does not follow") }
      skipToDeclarationEnd()
    }
  }

  /// Whether the `class` here is a modifier (`class func`, `class var`), not a class.
  private var isModifierClass: Bool {
    guard let next = token(1), next.kind == .word, !next.isBackticked else { return false }
    return Parser.declarationKeywords.contains(next.text) || Parser.modifiers.contains(next.text)
  }

  private mutating func parseDirective(in scope: Scope) {
    guard let directive = current else { return }
    index += 1
    switch directive.text {
    case "if", "elseif", "else", "endif":
      if directive.text == "if" { conditionalDepth += 1 }
      if directive.text == "endif" { conditionalDepth = max(0, conditionalDepth - 1) }
      if scope.kind != "file" && scope.kind != "extension" {
        reject(scope, "its body has #if")
      }
      // NB: the condition is the rest of the line.
      while let token = current, !token.startsLine { index += 1 }
    default:
      // NB: a macro or `#warning`: it may add members.
      if scope.kind != "file" { reject(scope, "its body expands a macro") }
      if let next = current, next.is("("), !next.startsLine { skipGroup() }
      if let next = current, next.is("{") { skipGroup() }
    }
  }

  private func note(codingKeysIn scope: Scope, isEnum: Bool = false) {
    if isEnum {
      scope.type?.markers.codingKeysEnum = true
      scope.extension?.markers.codingKeysEnum = true
    } else {
      scope.type?.markers.codingKeys = true
      scope.extension?.markers.codingKeys = true
    }
  }

  private func note(_ set: (inout CodingMarkers) -> Void, in scope: Scope) {
    if let type = scope.type { set(&type.markers) }
    if let ext = scope.extension { set(&ext.markers) }
  }

  /// Reads an inheritance clause from its `:` (if there is one) up to the body or `where`.
  private mutating func parseInheritance() -> [String] {
    guard let colon = current, colon.is(":") else { return [] }
    index += 1
    var entries: [String] = []
    var entry = ""
    while let token = current {
      if token.is("{") || token.isWord("where") { break }
      if token.startsLine, Parser.startsDeclaration(token), token.kind != .attribute { break }
      if token.is("<") {
        let start = index
        skipAngles()
        entry += tokens[start..<index].map(\.text).joined()
        continue
      }
      if token.is("(") || token.is("[") {
        let start = index
        skipGroup()
        entry += tokens[start..<index].map(\.text).joined()
        continue
      }
      index += 1
      if token.is(",") || (token.kind == .operator && token.text == "&") {
        entries.append(entry)
        entry = ""
        continue
      }
      if token.kind == .attribute {
        entry += "@" + token.text + " "
      } else {
        entry += token.text
      }
    }
    if !entry.isEmpty { entries.append(entry) }
    return entries
  }

  /// Skips a `where` clause, if there is one, up to the body.
  private mutating func skipWhereClause() -> Bool {
    guard let token = current, token.isWord("where") else { return false }
    while let token = current, !token.is("{") {
      if token.is("(") || token.is("[") {
        skipGroup()
      } else if token.is("}") || token.is(";") {
        return true
      } else {
        index += 1
      }
    }
    return true
  }

  private mutating func parseType(
    _ kind: String, in scope: Scope, access: Access?, attributes: [String]
  ) {
    index += 1
    guard let nameToken = current, nameToken.kind == .word else {
      skipToDeclarationEnd()
      return
    }
    index += 1
    let name = Name(text: nameToken.text, isBackticked: nameToken.isBackticked)
    var isGeneric = scope.isGeneric
    if let token = current, token.is("<") {
      isGeneric = true
      skipAngles()
    }
    let inheritance = parseInheritance()
    if skipWhereClause() { isGeneric = true }
    let type = TypeDeclaration(
      kind: kind, path: scope.path + [name], file: file,
      access: access ?? scope.defaultAccess,
      isGenericContext: isGeneric, isConditional: conditionalDepth > 0,
      inheritance: inheritance, attributes: attributes)
    type.parent = scope.type
    type.enclosingExtension = scope.extension
    module.types.append(type)
    if name.text.hasSuffix("CodingKeys") {
      note(codingKeysIn: scope, isEnum: name.text == "CodingKeys" && kind == "enum")
    }
    guard let brace = current, brace.is("{") else {
      type.reject("its declaration was not read to its body")
      return
    }
    if kind == "protocol" {
      skipGroup()
      return
    }
    index += 1
    parseDeclarations(in: Scope(
      type: type, extension: nil, path: type.path, isGeneric: isGeneric,
      defaultAccess: .internal, kind: kind))
  }

  private mutating func parseExtension(in scope: Scope, access: Access?) {
    index += 1
    var path: [Name] = []
    var isConstrained = false
    while let token = current, token.kind == .word {
      path.append(Name(text: token.text, isBackticked: token.isBackticked))
      index += 1
      if let next = current, next.is("<") {
        isConstrained = true
        skipAngles()
      }
      guard let dot = current, dot.is(".") else { break }
      index += 1
    }
    let inheritance = parseInheritance()
    if skipWhereClause() { isConstrained = true }
    let ext = ExtensionDeclaration(
      path: path, file: file, isConstrained: isConstrained,
      isConditional: conditionalDepth > 0, inheritance: inheritance, access: access)
    ext.markers.note(inheritance: inheritance)
    module.extensions.append(ext)
    guard let brace = current, brace.is("{") else {
      skipToDeclarationEnd()
      return
    }
    index += 1
    parseDeclarations(in: Scope(
      type: nil, extension: ext, path: path, isGeneric: isConstrained,
      defaultAccess: access ?? .internal, kind: "extension"))
  }

  /// Skips a function-like declaration's signature and its body (if it has one).
  private mutating func skipSignatureAndBody() {
    var first = true
    while let token = current {
      if token.is("{") {
        skipGroup()
        return
      }
      if token.is("}") || token.is(";") { return }
      if !first, token.startsLine, Parser.startsDeclaration(token) { return }
      first = false
      if token.is("(") || token.is("[") {
        skipGroup()
      } else {
        index += 1
      }
    }
  }

  /// Whether the tokens from the current one are `(label name: T` or `(label: T`, with a `T`
  /// whose name ends in `coder` (`any Decoder`, `Encoder`) or a generic one.
  private func firstParameter(is label: String, coder: String, generic: Bool) -> Bool {
    guard let open = current, open.is("("), let first = token(1), first.isWord(label),
      let next = token(2)
    else { return false }
    var look: Int
    if next.is(":") {
      look = 3
    } else if next.kind == .word, token(3)?.is(":") == true {
      look = 4
    } else {
      return false
    }
    if generic { return true }
    while let type = token(look), !type.is(","), !type.is(")"), !type.is("{") {
      if type.kind == .word, type.text.hasSuffix(coder) { return true }
      look += 1
    }
    return false
  }

  private mutating func parseFunction(in scope: Scope) {
    index += 1
    if let name = current, name.isWord("encode") {
      index += 1
      var generic = false
      if let next = current, next.is("<") {
        generic = true
        skipAngles()
      }
      if firstParameter(is: "to", coder: "Encoder", generic: generic) {
        note({ $0.encodeTo = true }, in: scope)
      }
    }
    skipSignatureAndBody()
  }

  private mutating func parseInitializer(in scope: Scope) {
    index += 1
    if let mark = current, mark.is("?") || mark.is("!") { index += 1 }
    var generic = false
    if let next = current, next.is("<") {
      generic = true
      skipAngles()
    }
    if firstParameter(is: "from", coder: "Decoder", generic: generic) {
      note({ $0.decoderInit = true }, in: scope)
    }
    skipSignatureAndBody()
  }

  // MARK: - Stored properties

  private static let accessorKeywords: Set<String> = [
    "get", "set", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress", "init",
    "mutating", "nonmutating", "yielding", "read", "modify",
  ]

  /// Whether an initializer expression or a type annotation ends here.
  private func endsBinding(_ token: Token) -> Bool {
    token.is(";") || token.is("}") || token.is(")") || token.is("]")
      || (token.startsLine && Parser.startsDeclaration(token))
  }

  /// Whether the `,` at the current token separates bindings (`var a = 1, b = 2`), not the
  /// arguments of a generic type in an expression (`[String: Int]()`, `Pair<A, B>()`).
  private var commaStartsBinding: Bool {
    guard let name = token(1), name.kind == .word, let next = token(2) else { return false }
    return next.is(":") || next.is("=") || next.is(",") || endsBinding(next)
      || next.is("{")
  }

  /// Whether a type, given as its tokens, is written optional: `T?`, `T!`, `T??`,
  /// `Optional<T>`, `Swift.Optional<T>`.
  static func isOptional(_ type: ArraySlice<Token>) -> Bool {
    guard let last = type.last else { return false }
    if last.kind == .punctuation || last.kind == .operator,
      last.text.hasSuffix("?") || last.text.hasSuffix("!")
    {
      return true
    }
    var words = type.drop { $0.isWord("Swift") || $0.is(".") }
    guard let first = words.first, first.isWord("Optional") else { return false }
    words = words.dropFirst()
    guard let open = words.first, open.is("<"), last.is(">") else { return false }
    // NB: the `>` that ends it must close that `<`: `Optional<A>.B<C>` is not optional.
    var depth = 0
    for (offset, token) in words.enumerated() {
      if token.is("<") { depth += 1 }
      if token.is(">") {
        depth -= 1
        if depth == 0 { return offset == words.count - 1 }
      }
    }
    return false
  }

  private static func isAssignment(_ token: Token) -> Bool {
    token.is("=") || (token.kind == .operator && token.text.hasPrefix("=")
      && !token.text.hasPrefix("=="))
  }

  private mutating func parseBindings(
    in scope: Scope, isLet: Bool, isStatic: Bool, modifiers: [String], attributes: [String]
  ) {
    index += 1
    let isInstanceStorage = !isStatic && (scope.kind == "struct" || scope.kind == "enum")
    // NB: `var a, b: Int?`: a name without a type or a value takes the next one's type.
    var untyped: [Int] = []
    while let nameToken = current {
      guard nameToken.kind == .word else {
        if isInstanceStorage { reject(scope, "it has a property the generator does not follow") }
        skipToDeclarationEnd()
        return
      }
      index += 1
      let name = Name(text: nameToken.text, isBackticked: nameToken.isBackticked)
      var hasInitializer = false
      var isComputed = false
      var isOptional = false
      var hasType = false
      // The type annotation, if any.
      if let colon = current, colon.is(":") {
        index += 1
        hasType = true
        let start = index
        while let token = current, !endsBinding(token), !Parser.isAssignment(token),
          !token.is("{"), !token.is(",")
        {
          if token.is("<") {
            skipAngles()
          } else if token.is("(") || token.is("[") {
            skipGroup()
          } else {
            index += 1
          }
        }
        isOptional = Parser.isOptional(tokens[start..<index])
        for property in untyped { scope.type?.properties[property].isOptional = isOptional }
        untyped = []
      }
      // The initializer, if any.
      if let token = current, Parser.isAssignment(token) {
        hasInitializer = true
        index += 1
        var first = true
        while let token = current, first || !endsBinding(token) {
          first = false
          if token.is(",") {
            if commaStartsBinding { break }
            index += 1
          } else if token.is("{") {
            if let inside = self.token(1), inside.isWord("willSet") || inside.isWord("didSet") {
              break
            }
            skipGroup()
          } else if token.is("(") || token.is("[") {
            skipGroup()
          } else {
            index += 1
          }
        }
      }
      // Accessors or observers, if any.
      if let brace = current, brace.is("{") {
        var look = 1
        while let inside = token(look), inside.kind == .attribute {
          look += 1
          if let args = token(look), args.is("(") { look += 1 }
        }
        if let inside = token(look), inside.kind == .word,
          inside.isWord("willSet") || inside.isWord("didSet")
        {
          isComputed = false
        } else if let inside = token(look), inside.kind == .word,
          Parser.accessorKeywords.contains(inside.text)
        {
          isComputed = true
        } else {
          // NB: `var x: Int { 5 }`, a getter's body alone.
          isComputed = true
        }
        skipGroup()
      }
      if isStatic || isComputed { scope.type?.hasOtherMembers = true }
      if isInstanceStorage && !isComputed {
        if modifiers.contains("lazy") { reject(scope, "it has a lazy property") }
        if attributes.contains(where: { $0 != "usableFromInline" }) {
          reject(scope, "a stored property has an attribute (a property wrapper?)")
        }
        if scope.kind == "enum" {
          reject(scope, "it has stored properties")
        } else if let type = scope.type {
          if !hasType && !hasInitializer { untyped.append(type.properties.count) }
          type.properties.append(
            StoredProperty(
              name: name, isLet: isLet, hasInitializer: hasInitializer, isOptional: isOptional))
        }
      }
      guard let comma = current, comma.is(",") else { break }
      index += 1
    }
    if let token = current, token.is(";") { index += 1 }
  }

  // MARK: - Enum cases

  private mutating func parseCases(in scope: Scope, attributes: [String]) {
    index += 1
    if !attributes.isEmpty { reject(scope, "a case has an attribute") }
    while let nameToken = current, nameToken.kind == .word {
      index += 1
      var values: [CaseValue]?
      if let open = current, open.is("(") {
        values = parseCaseValues()
        if values?.isEmpty ?? true {
          reject(scope, "a case has a payload the generator does not follow")
        }
      }
      var rawValue: EnumCase.RawValue?
      if let token = current, Parser.isAssignment(token) {
        index += 1
        let start = index
        while let token = current, !endsBinding(token), !token.is(",") {
          if Parser.openers.contains(token.text) && token.kind == .punctuation {
            skipGroup()
          } else {
            index += 1
          }
        }
        let expression = tokens[start..<index]
        if expression.count == 1, let plain = expression.first?.plainString {
          rawValue = .plain(plain)
        } else {
          rawValue = .other
        }
      }
      scope.type?.cases.append(EnumCase(
        name: Name(text: nameToken.text, isBackticked: nameToken.isBackticked),
        values: values, rawValue: rawValue))
      guard let comma = current, comma.is(",") else { break }
      index += 1
    }
    if let token = current, !endsBinding(token) {
      reject(scope, "a case the generator does not follow")
      skipToDeclarationEnd()
    }
  }

  /// A case's associated values, from its `(`; nil if they are not followed.
  private mutating func parseCaseValues() -> [CaseValue]? {
    index += 1
    var values: [CaseValue] = []
    var valid = true
    while let token = current, !token.is(")") {
      // One value: `label: Type = default` or `Type`.
      var label: Name?
      if token.kind == .word, let colon = self.token(1), colon.is(":") {
        if token.text == "_" && !token.isBackticked { valid = false }
        label = Name(text: token.text, isBackticked: token.isBackticked)
        index += 2
      } else if token.kind == .word, token.text == "_", !token.isBackticked {
        valid = false
      }
      let start = index
      var end: Int?
      while let token = current, !token.is(","), !token.is(")") {
        if Parser.isAssignment(token), end == nil { end = index }
        if token.is("<") {
          skipAngles()
        } else if token.is("(") || token.is("[") || token.is("{") {
          skipGroup()
        } else if token.is("}") || token.is("]") || token.is(";") {
          return nil
        } else {
          index += 1
        }
      }
      let type = tokens[start..<(end ?? index)]
      if type.isEmpty { valid = false }
      values.append(CaseValue(label: label, isOptional: Parser.isOptional(type)))
      if let comma = current, comma.is(",") { index += 1 }
    }
    guard let close = current, close.is(")") else { return nil }
    index += 1
    return valid ? values : nil
  }
}
