/// How visible a declaration is.
enum Access: Int, Comparable {
  case `private`, `fileprivate`, `internal`, `package`, `public`

  static func < (a: Access, b: Access) -> Bool { a.rawValue < b.rawValue }

  init?(modifier: String) {
    switch modifier {
    case "private": self = .private
    case "fileprivate": self = .fileprivate
    case "internal": self = .internal
    case "package": self = .package
    case "public", "open": self = .public
    default: return nil
    }
  }
}

/// A name as written: its text, and whether it needs backticks in code.
struct Name: Equatable {
  var text: String
  var isBackticked = false

  /// The name in code.
  var code: String { isBackticked ? "`\(text)`" : text }
}

/// What a type or an extension of it says about its coding, wherever it says it.
struct CodingMarkers {
  /// An `init(from:)` of its own.
  var decoderInit = false
  /// An `encode(to:)` of its own.
  var encodeTo = false
  /// Coding keys of its own other than an `enum CodingKeys` (a case's `…CodingKeys`, a
  /// typealias, a struct): names that are not the properties'.
  var codingKeys = false
  /// An `enum CodingKeys` of its own (which may name the members plainly: see
  /// ``Generator``).
  var codingKeysEnum = false
  /// `JSONDecodable` or `JSONCodable`, declared by hand.
  var jsonDecodable = false
  /// `JSONEncodable` or `JSONCodable`, declared by hand.
  var jsonEncodable = false

  mutating func merge(_ other: CodingMarkers) {
    decoderInit = decoderInit || other.decoderInit
    encodeTo = encodeTo || other.encodeTo
    codingKeys = codingKeys || other.codingKeys
    codingKeysEnum = codingKeysEnum || other.codingKeysEnum
    jsonDecodable = jsonDecodable || other.jsonDecodable
    jsonEncodable = jsonEncodable || other.jsonEncodable
  }

  /// The markers an inheritance clause sets.
  mutating func note(inheritance: [String]) {
    for entry in inheritance {
      switch unqualified(entry) {
      case "JSONDecodable": jsonDecodable = true
      case "JSONEncodable": jsonEncodable = true
      case "JSONCodable":
        jsonDecodable = true
        jsonEncodable = true
      default: break
      }
    }
  }
}

/// `Swift.Codable` → `Codable`, `JSON.JSONCodable` → `JSONCodable`.
func unqualified(_ entry: String) -> String {
  for module in ["Swift.", "JSON."] where entry.hasPrefix(module) {
    return String(entry.dropFirst(module.count))
  }
  return entry
}

/// A stored instance property of a struct.
struct StoredProperty {
  var name: Name
  var isLet: Bool
  var hasInitializer: Bool
  /// Whether its type is written optional (`T?`, `T!`, `Optional<T>`).
  var isOptional: Bool

  /// Whether a synthesized `init(from:)` decodes it: all but a `let` with a value.
  var isDecoded: Bool { !(isLet && hasInitializer) }
}

/// An associated value of an enum case.
struct CaseValue {
  /// nil for an unlabeled value.
  var label: Name?
  /// Whether its type is written optional (`T?`, `T!`, `Optional<T>`).
  var isOptional: Bool
}

/// An enum case and its associated values.
struct EnumCase {
  var name: Name
  /// nil for a case without associated values.
  var values: [CaseValue]?
  /// Its raw value: nil if none is written, `.plain` a plain string literal, `.other` any other.
  var rawValue: RawValue?

  enum RawValue: Equatable {
    case plain(String)
    case other
  }
}

/// A struct, enum, class, actor or protocol declared in the module.
final class TypeDeclaration {
  let kind: String
  /// The names from the module's top level down to this one.
  let path: [Name]
  let file: Int
  /// The least of its own and its enclosing types' access.
  var access: Access
  /// Declared with generic parameters, or inside a generic type or a constrained extension.
  var isGenericContext: Bool
  /// Declared between `#if` and `#endif`.
  var isConditional: Bool
  var inheritance: [String]
  var attributes: [String]
  var properties: [StoredProperty] = []
  var cases: [EnumCase] = []
  var markers = CodingMarkers()
  /// Why the generator does not write a conformance for it (the first found).
  var problem: String?
  /// Whether its body declares anything but stored properties and cases (functions,
  /// initializers, computed properties, nested types).
  var hasOtherMembers = false
  /// The type it was declared in, when it was.
  weak var parent: TypeDeclaration?
  /// The extension it was declared in, when it was (its path is then the extension's).
  var enclosingExtension: ExtensionDeclaration?

  init(
    kind: String, path: [Name], file: Int, access: Access, isGenericContext: Bool,
    isConditional: Bool, inheritance: [String], attributes: [String]
  ) {
    self.kind = kind
    self.path = path
    self.file = file
    self.access = access
    self.isGenericContext = isGenericContext
    self.isConditional = isConditional
    self.inheritance = inheritance
    self.attributes = attributes
  }

  var qualifiedName: String { path.map(\.text).joined(separator: ".") }
  var code: String { path.map(\.code).joined(separator: ".") }

  func reject(_ reason: String) {
    if problem == nil { problem = reason }
  }
}

/// An `extension`, with what it says about coding.
final class ExtensionDeclaration {
  let path: [Name]
  let file: Int
  /// `extension A<B>`, or with a `where` clause.
  let isConstrained: Bool
  let isConditional: Bool
  let inheritance: [String]
  var markers = CodingMarkers()
  /// The access its members take by default (`public extension`).
  let access: Access?

  init(
    path: [Name], file: Int, isConstrained: Bool, isConditional: Bool, inheritance: [String],
    access: Access?
  ) {
    self.path = path
    self.file = file
    self.isConstrained = isConstrained
    self.isConditional = isConditional
    self.inheritance = inheritance
    self.access = access
  }

  var qualifiedName: String { path.map(\.text).joined(separator: ".") }
}

/// Everything the generator read from a module's sources.
struct Module {
  var types: [TypeDeclaration] = []
  var extensions: [ExtensionDeclaration] = []
  /// Files that could not be read whole (a string or comment left open).
  var incompleteFiles: [Int] = []
}
