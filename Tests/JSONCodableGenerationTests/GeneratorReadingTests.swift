@testable import JSONCodableGeneration
import Testing

// What the generator reads from sources: the types it writes conformances for, their stored
// properties and cases, and the reason it gives for each type it leaves to Codable.

/// The plans and the skipped types (name: reason) for `sources`.
private func read(_ sources: String...) -> (plans: [Generator.Plan], skipped: [String: String]) {
  var module = Module()
  for (file, source) in sources.enumerated() {
    let (tokens, complete) = Lexer.tokens(of: source)
    var parser = Parser(tokens: tokens, file: file, into: module)
    parser.parseFile()
    module = parser.module
    if !complete { module.incompleteFiles.append(file) }
  }
  let (plans, skipped) = Generator.resolve(module)
  return (plans, Dictionary(skipped, uniquingKeysWith: { a, _ in a }))
}

private func plan(_ name: String, in result: (plans: [Generator.Plan], skipped: [String: String]))
  -> Generator.Plan?
{
  result.plans.first { $0.type.qualifiedName == name }
}

/// "both", "decode" or "encode": what is written for the type named `name`.
private func directions(
  _ name: String, in result: (plans: [Generator.Plan], skipped: [String: String])
) -> String? {
  plan(name, in: result).map { $0.decodes ? ($0.encodes ? "both" : "decode") : "encode" }
}

/// Each stored property as `name`, `name?` (optional), `name=` (a value), `let name`.
private func properties(_ plan: Generator.Plan?) -> [String] {
  (plan?.type.properties ?? []).map { property in
    (property.isLet ? "let " : "") + property.name.text + (property.isOptional ? "?" : "")
      + (property.hasInitializer ? "=" : "")
  }
}

@Test func storedPropertiesAreReadPastStringsCommentsAndClosures() {
  let result = read(
    #"""
    struct S: Codable {
      var a = 1, b: Int
      let c: String? // a comment { with a brace
      let d = "}" /* and { a block /* nested } */ comment */
      var e: [String: Int] = [:] { didSet { print("{") } }
      var f = { () -> Int in 5 }()
      var g = [1, 2]
        .map { $0 + 1 }
      var h: Int { 5 }
      var i: Int {
        get { 1 }
        set {}
      }
      static var j = 0
      nonisolated(unsafe) static var k = 0
      var l = "\("}" + "{")"
      var m = #"}"{"#
      var n = """
        }
        """
      var o: Int! = nil
      var p: Optional<Int>
      var q: Swift.Optional<[Int]>
      var r: [Int?]
      var s: Optional<Int>.Wrapped
      var t, u: Int?
      var v = Dictionary<String, Int>()
      var w: Int = 0 {
        willSet {}
      }
      func f() -> String { "}" }
      init() {}
    }
    """#)
  #expect(
    properties(plan("S", in: result)) == [
      "a=", "b", "let c?", "let d=", "e=", "f=", "g=", "l=", "m=", "n=", "o?=", "p?", "q?",
      "r", "s", "t?", "u?", "v=", "w=",
    ])
}

@Test func enumCasesAndTheirPayloadsAreRead() {
  let result = read(
    """
    enum E: Codable {
      case a, b(Int), c(x: Int, y: String? = nil)
      case d(Dictionary<String, [Int]>, Int?)
      indirect case e(E)
      case `default`
      var computed: Int { 0 }
      static func make() -> E { .a }
    }
    enum Raw: String, Codable { case x = "X", y }
    enum Numbers: Int, Codable { case one = 1 }
    """)
  let cases = plan("E", in: result)?.type.cases.map { enumCase -> String in
    let values = enumCase.values?.map { ($0.label?.text ?? "_") + ($0.isOptional ? "?" : "") }
    return enumCase.name.text + (values.map { "(\($0.joined(separator: ",")))" } ?? "")
  }
  #expect(cases == ["a", "b(_)", "c(x,y?)", "d(_,_?)", "e(_)", "default"])
  #expect(plan("Raw", in: result)?.rawType == "String")
  #expect(plan("Numbers", in: result)?.rawType == "Int")
}

@Test func typesThatCodeThemselvesOrAreNotFollowedAreLeftToCodable() {
  let result = read(
    """
    struct Keys: Codable {
      var a: Int
      enum CodingKeys: String, CodingKey { case a = "A" }
    }
    struct Decoded: Codable {
      var a: Int
      init(from decoder: any Decoder) throws { a = 0 }
    }
    struct Encoded: Codable {
      var a: Int
      func encode(to encoder: Encoder) throws {}
    }
    struct NotACoder: Codable {
      var a: Int
      init(from other: NotACoder) { a = other.a }
      func encode(to file: String) {}
    }
    struct Wrapper: Codable { @Clamped var a: Int }
    struct Conditional: Codable {
      #if DEBUG
      var a = 1
      #endif
    }
    struct Macro: Codable {
      #Members
      var a: Int
    }
    struct Generic<T: Codable>: Codable {
      var t: T
      struct Inner: Codable { var a: Int }
    }
    extension Array where Element == Int { struct InConstrained: Codable { var a: Int } }
    extension Elsewhere { struct InForeign: Codable { var a: Int } }
    private struct Private: Codable { var a: Int }
    struct Outer { fileprivate struct Inner: Codable { var a: Int } }
    #if os(Linux)
    struct IfConfig: Codable { var a: Int }
    #endif
    struct Lazy: Codable { lazy var a = 1 }
    enum UnknownRaw: Text, Codable { case a }
    enum Mixed: Codable { case a(Int, b: Int) }
    @MainActor struct Isolated: Codable { var a: Int }
    struct ByHand: Codable { var a: Int }
    extension ByHand: JSONCodable {}
    struct ByAlias: Codable { var a: Int }
    extension Alias.ByAlias: JSON.JSONDecodable {}
    struct Half: Codable { var a: Int }
    extension Half: JSONEncodable {}
    """)
  let expected: [String: String] = [
    "Wrapper": "a stored property has an attribute (a property wrapper?)",
    "Conditional": "its body has #if",
    "Macro": "its body expands a macro",
    "Generic": "it is generic, or in a generic type or a constrained extension",
    "Generic.Inner": "it is generic, or in a generic type or a constrained extension",
    "Array.InConstrained": "it is in an extension of a type this module does not declare",
    "Elsewhere.InForeign": "it is in an extension of a type this module does not declare",
    "Private": "it is private",
    "Outer.Inner": "it is private",
    "IfConfig": "it is declared between #if and #endif",
    "Lazy": "it has a lazy property",
    "UnknownRaw": "its first inherited type (Text) may be a raw type",
    "Mixed": "a case has one unlabeled payload value beside labeled ones",
    "Isolated": "it has an attribute (@MainActor)",
    "ByHand": "it has a JSONCodable conformance by hand",
  ]
  for (name, reason) in expected { #expect(result.skipped[name] == reason, "\(name)") }
  #expect(plan("Keys", in: result).map { $0.members.map(\.key) } == ["A"])
  #expect(directions("Decoded", in: result) == "encode")
  #expect(directions("Encoded", in: result) == "decode")
  #expect(directions("ByAlias", in: result) == "encode")
  #expect(directions("Half", in: result) == "decode")
  #expect(directions("NotACoder", in: result) == "both")
}

@Test func codabilityComesFromExtensionsAndTheModulesProtocols() {
  let result = read(
    """
    protocol Model: Codable {}
    protocol Record: Model {}
    protocol Reading: Decodable {}
    struct A: Record { var a: Int }
    struct B: Reading { var a: Int }
    struct C { var a: Int }
    struct D: Equatable { var a: Int }
    public struct E: Hashable { public var a: Int }
    struct Plain { var a: Int }
    """,
    """
    extension C: Codable {}
    extension D: Encodable {}
    public extension E { struct Nested: Codable { var b: Int } }
    extension E: Swift.Codable {}
    """)
  #expect(directions("A", in: result) == "both")
  #expect(directions("B", in: result) == "decode")
  #expect(directions("C", in: result) == "both")
  #expect(directions("D", in: result) == "encode")
  #expect(plan("E", in: result)?.type.access == .public)
  #expect(plan("E.Nested", in: result)?.type.access == .public)
  #expect(plan("Plain", in: result) == nil && result.skipped["Plain"] == nil)
}

@Test func aFileLeftOpenInAStringIsNotTrusted() {
  let result = read(
    """
    struct A: Codable { var a: Int }
    let text = "never closed
    """,
    "struct B: Codable { var b: Int }")
  #expect(result.skipped["A"] == "its file has a string or comment left open")
  #expect(plan("B", in: result) != nil)
}

@Test func theOutputNamesNoTypesOfItsOwn() {
  let code = Generator.generate(sources: [
    """
    public struct Feature {
      public struct State: Codable { var count = 0; var fact: String? }
      public enum Action: Codable { case tapped, loaded(String), failed(message: String?) }
    }
    """
  ])
  #expect(code.contains("public import JSON"))
  #expect(code.contains("extension Feature.State: JSON.JSONDecodable {"))
  #expect(code.contains(#"self.count = try object.decodeMember("count")"#))
  #expect(code.contains(#"self.fact = try object.decodeMemberIfPresent("fact")"#))
  #expect(code.contains(#"try object.encodeMember(self.fact, forKey: "fact")"#))
  #expect(code.contains(#"self = .loaded(try value.decodePayload())"#))
  #expect(code.contains(#"message: try payload.decodeMemberIfPresent("message")"#))
  #expect(code.contains("public init(json: JSON.JSONValueReader) throws(JSON.JSONDeclined) {"))
}

@Test func plainCodingKeysNameAStructsMembers() {
  let result = read(
    """
    struct Renamed: Codable {
      var id: Int
      var fullName: String?
      var note = ""
      enum CodingKeys: String, CodingKey {
        case fullName = "full_name"
        case id
      }
    }
    struct Elsewhere: Codable { var a: Int }
    extension Elsewhere { enum CodingKeys: String, CodingKey { case a = "A" } }
    struct Numbered: Codable {
      var a: Int
      enum CodingKeys: Int, CodingKey { case a = 1 }
    }
    struct Computed: Codable {
      var a: Int
      enum CodingKeys: String, CodingKey {
        case a
        var stringValue: String { "x" }
      }
    }
    struct Stray: Codable {
      var a: Int
      enum CodingKeys: String, CodingKey { case a, b }
    }
    struct Positional: Codable {
      var a: Int
      enum CodingKeys: String, CodingKey { case a = "_0" }
    }
    enum Cased: Codable {
      case a
      enum CodingKeys: String, CodingKey { case a = "A" }
    }
    struct Aliased: Codable {
      var a: Int
      typealias CodingKeys = Other
    }
    """)
  #expect(
    plan("Renamed", in: result).map { $0.members.map { "\($0.property.name.text):\($0.key)" } }
      == ["fullName:full_name", "id:id"])
  #expect(plan("Elsewhere", in: result).map { $0.members.map(\.key) } == ["A"])
  let plain = "its CodingKeys are not a String enum of plain cases"
  #expect(result.skipped["Numbered"] == plain)
  #expect(result.skipped["Computed"] == plain)
  #expect(result.skipped["Stray"] == "a CodingKeys case names no stored property")
  #expect(result.skipped["Positional"] == "a member is named like a payload value (_0)")
  #expect(result.skipped["Cased"] == "it has CodingKeys of its own")
  #expect(result.skipped["Aliased"] == "it has CodingKeys of its own")
}
