/// A token of Swift source, as far as the generator needs to tell them apart.
struct Token: Equatable {
  enum Kind: Equatable {
    /// A name or keyword; a backticked name without its backticks (``Token/isBackticked``).
    case word
    /// `@name`, the text without the `@`.
    case attribute
    /// `#name` (`#if`, `#endif`, a macro), the text without the `#`.
    case pound
    /// One punctuation character: `{ } ( ) [ ] < > , : ; = . ? !`, or `->`.
    case punctuation
    /// Any other operator characters, together.
    case `operator`
    /// A string, regex or number literal (its text is not kept).
    case literal
  }

  var kind: Kind
  var text: String
  /// Whether a line break comes before it (or it is the first token).
  var startsLine: Bool
  var isBackticked = false
  /// The contents of a plain one-line string literal (no escapes, interpolation or `#`s).
  var plainString: String?

  func `is`(_ punctuation: String) -> Bool { kind == .punctuation && text == punctuation }
  func isWord(_ word: String) -> Bool { kind == .word && !isBackticked && text == word }
}

/// Splits Swift source into ``Token``s, leaving out comments and whitespace.
///
/// NB: it follows strings through their interpolations (`"\(a["}"])"`), raw and multi-line
/// strings, nested block comments and `#/regex/#` literals, so that braces and brackets in
/// them are never counted. A bare `/regex/` is read as operators: a brace inside one would
/// unbalance the parse, which the parser then reports as a type it does not generate for.
struct Lexer {
  private let bytes: [UInt8]
  private var position = 0
  private var lineStart = true
  private(set) var tokens: [Token] = []
  /// Whether the text ended inside a string or comment.
  private(set) var isUnterminated = false

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  static func tokens(of text: String) -> (tokens: [Token], isComplete: Bool) {
    var lexer = Lexer(text)
    lexer.run(until: nil)
    return (lexer.tokens, !lexer.isUnterminated)
  }

  private func peek(_ offset: Int = 0) -> UInt8? {
    let index = position + offset
    return index < bytes.count ? bytes[index] : nil
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
      || byte >= 0x80
  }

  private static func isIdentifierPart(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
  }

  private static let operatorCharacters = Set("/=-+!*%<>&|^~?.".utf8)
  private static let punctuationCharacters = Set("{}()[],:;".utf8)
  /// Operator characters that are punctuation when alone (`=`, `.`, `?`, `!`).
  private static let singleCharacters = Set("=.?!".utf8)

  private mutating func add(_ kind: Token.Kind, _ text: String, backticked: Bool = false) {
    tokens.append(Token(kind: kind, text: text, startsLine: lineStart, isBackticked: backticked))
    lineStart = false
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Reads tokens until the `)` that closes an interpolation (`closing` is then `)`) or the
  /// end of the text.
  private mutating func run(until closing: UInt8?) {
    var depth = 0
    while let byte = peek() {
      switch byte {
      case 0x0A, 0x0D:
        lineStart = true
        position += 1
      case 0x20, 0x09, 0x0B, 0x0C:
        position += 1
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        while let next = peek(), next != 0x0A { position += 1 }
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        skipBlockComment()
      case UInt8(ascii: "\""):
        readString(pounds: 0)
      case UInt8(ascii: "#") where peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "#"):
        var pounds = 0
        while peek(pounds) == UInt8(ascii: "#") { pounds += 1 }
        if peek(pounds) == UInt8(ascii: "\"") {
          position += pounds
          readString(pounds: pounds)
        } else if peek(pounds) == UInt8(ascii: "/") {
          readRegex(pounds: pounds)
        } else {
          position += 1
          add(.operator, "#")
        }
      case UInt8(ascii: "#") where peek(1) == UInt8(ascii: "/"):
        readRegex(pounds: 1)
      case UInt8(ascii: "#") where peek(1).map(Lexer.isIdentifierStart) == true:
        position += 1
        let start = position
        while let next = peek(), Lexer.isIdentifierPart(next) { position += 1 }
        add(.pound, text(start, position))
      case UInt8(ascii: "@"):
        position += 1
        let start = position
        while let next = peek(), Lexer.isIdentifierPart(next) { position += 1 }
        add(.attribute, text(start, position))
      case UInt8(ascii: "`"):
        position += 1
        let start = position
        while let next = peek(), next != UInt8(ascii: "`"), next != 0x0A { position += 1 }
        add(.word, text(start, position), backticked: true)
        if peek() == UInt8(ascii: "`") { position += 1 }
      case UInt8(ascii: "$"):
        // NB: `$0`, `$name`: names, for the parse.
        let start = position
        position += 1
        while let next = peek(), Lexer.isIdentifierPart(next) { position += 1 }
        add(.word, text(start, position))
      case _ where Lexer.isIdentifierStart(byte):
        let start = position
        while let next = peek(), Lexer.isIdentifierPart(next) { position += 1 }
        add(.word, text(start, position))
      case _ where byte >= 0x30 && byte <= 0x39:
        while let next = peek(),
          Lexer.isIdentifierPart(next)
            || (next == UInt8(ascii: ".") && peek(1).map { $0 >= 0x30 && $0 <= 0x39 } == true)
        {
          position += 1
        }
        add(.literal, "0")
      case UInt8(ascii: "("):
        depth += 1
        position += 1
        add(.punctuation, "(")
      case UInt8(ascii: ")"):
        if depth == 0, closing != nil {
          position += 1
          return
        }
        depth -= 1
        position += 1
        add(.punctuation, ")")
      case _ where Lexer.punctuationCharacters.contains(byte):
        position += 1
        add(.punctuation, String(UnicodeScalar(byte)))
      case UInt8(ascii: "-") where peek(1) == UInt8(ascii: ">"):
        position += 2
        add(.punctuation, "->")
      case UInt8(ascii: "<"), UInt8(ascii: ">"):
        // NB: alone always, so that generic brackets (`A<B<C>>`) can be counted.
        position += 1
        add(.punctuation, String(UnicodeScalar(byte)))
      case _ where Lexer.singleCharacters.contains(byte)
        && !(peek(1).map { Lexer.operatorCharacters.contains($0) } ?? false):
        position += 1
        add(.punctuation, String(UnicodeScalar(byte)))
      case _ where Lexer.operatorCharacters.contains(byte):
        let start = position
        while let next = peek(), Lexer.operatorCharacters.contains(next),
          next != UInt8(ascii: "<"), next != UInt8(ascii: ">")
        {
          if next == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*")
          {
            break
          }
          position += 1
        }
        if position == start { position += 1 }
        add(.operator, text(start, position))
      default:
        position += 1
        add(.operator, String(UnicodeScalar(byte)))
      }
    }
    if closing != nil { isUnterminated = true }
  }

  private mutating func skipBlockComment() {
    var depth = 0
    while let byte = peek() {
      if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
        depth += 1
        position += 2
      } else if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
        depth -= 1
        position += 2
        if depth == 0 { return }
      } else {
        if byte == 0x0A { lineStart = true }
        position += 1
      }
    }
    isUnterminated = true
  }

  /// Reads a string literal from its opening quote(s); `pounds` `#`s were before it.
  private mutating func readString(pounds: Int) {
    let startsLine = lineStart
    let multiLine = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
    position += multiLine ? 3 : 1
    let contentStart = position
    var isPlain = !multiLine && pounds == 0
    while let byte = peek() {
      if byte == UInt8(ascii: "\\") {
        isPlain = false
        var count = 0
        while count < pounds, peek(1 + count) == UInt8(ascii: "#") { count += 1 }
        if count == pounds {
          position += 1 + pounds
          if peek() == UInt8(ascii: "(") {
            // NB: an interpolation: read as code (to find its end), its tokens then dropped.
            position += 1
            let (saved, count) = (lineStart, tokens.count)
            run(until: UInt8(ascii: ")"))
            tokens.removeSubrange(count...)
            lineStart = saved
          } else {
            position += 1
          }
          continue
        }
        position += 1
        continue
      }
      if byte == UInt8(ascii: "\"") {
        let quotes = multiLine ? 3 : 1
        var matched = true
        for offset in 0..<quotes where peek(offset) != UInt8(ascii: "\"") { matched = false }
        if matched {
          for offset in 0..<pounds where peek(quotes + offset) != UInt8(ascii: "#") {
            matched = false
          }
        }
        if matched {
          var token = Token(kind: .literal, text: "\"\"", startsLine: startsLine)
          if isPlain { token.plainString = text(contentStart, position) }
          position += quotes + pounds
          tokens.append(token)
          lineStart = false
          return
        }
      }
      if byte == 0x0A && !multiLine { break }
      position += 1
    }
    isUnterminated = true
    tokens.append(Token(kind: .literal, text: "\"\"", startsLine: startsLine))
  }

  /// Reads a `#/regex/#` literal from its first `#`.
  private mutating func readRegex(pounds: Int) {
    position += pounds + 1
    while let byte = peek() {
      if byte == UInt8(ascii: "\\") {
        position += 2
        continue
      }
      if byte == UInt8(ascii: "/") {
        var matched = true
        for offset in 0..<pounds where peek(1 + offset) != UInt8(ascii: "#") { matched = false }
        if matched {
          position += 1 + pounds
          add(.literal, "/")
          return
        }
      }
      position += 1
    }
    isUnterminated = true
  }
}
