@testable import JSON
import JSONTestSupport
import Testing

// The conformances JSONCodablePlugin wrote for Fixtures.swift against the Codable conformances
// Swift synthesized for the same types: for every input both give the same value or the same
// error, and both encoders write the same bytes.

// MARK: - Helpers

/// What `init(json:)` alone makes of `bytes`: nil if it declines (or the text is not JSON).
private func directly<T: Decodable>(
  _ type: T.Type, _ bytes: [UInt8], decoder: JSONDecoder = JSONDecoder()
) -> T? {
  guard let direct = T.self as? any JSONDecodable.Type else { return nil }
  return bytes.withUnsafeBufferPointer { buffer in
    try? Scanner.withDocument(buffer, userInfo: anyUserInfo(decoder.userInfo)) {
      (document) throws(JSONError) -> T? in
      (try? direct.init(json: JSONValueReader(document, at: 0))) as? T
    }
  } ?? nil
}

/// Both paths give the same value or the same error, and what `init(json:)` accepts is that
/// value. Returns whether the direct path accepted the input.
@discardableResult
private func expectSameDecoding<T: Decodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8], decoder: JSONDecoder = JSONDecoder(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  let direct = Result { () throws(JSONError) in try decoder.decode(type, from: bytes) }
  let codable = Result { () throws(JSONError) in
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try decoder.decodeThroughCodable(type, from: buffer)
    }
  }
  let text = String(decoding: bytes, as: UTF8.self)
  #expect(direct == codable, "\(T.self): \(text)", sourceLocation: sourceLocation)
  guard let accepted = directly(type, bytes, decoder: decoder) else { return false }
  #expect(codable == .success(accepted), "\(T.self): \(text)", sourceLocation: sourceLocation)
  return true
}

private func expectSameDecoding<T: Decodable & Equatable>(
  _ type: T.Type, _ text: String, accepted: Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let wasAccepted = expectSameDecoding(type, Array(text.utf8), sourceLocation: sourceLocation)
  #expect(wasAccepted == accepted, "\(T.self): \(text)", sourceLocation: sourceLocation)
}

/// Both encoders write the same bytes (or fail alike); returns them.
@discardableResult
private func expectSameEncoding<T: Encodable>(
  _ value: T, encoder: JSONEncoder = JSONEncoder(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> [UInt8]? {
  func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
  let direct = Result { () throws(JSONError) in try encoder.encode(value) }
  let codable = Result { () throws(JSONError) in try encoder.encodeThroughCodable(value) }
  #expect(direct.map(text) == codable.map(text), sourceLocation: sourceLocation)
  return try? direct.get()
}

private func isDecodable(_ type: Any.Type) -> Bool { type is any JSONDecodable.Type }
private func isEncodable(_ type: Any.Type) -> Bool { type is any JSONEncodable.Type }

// MARK: - Which types

@Test func theSynthesizedTypesGetConformancesAndTheOthersDoNot() {
  let both: [Any.Type] = [
    Mode.self, Level.self, Item.self, SubCommand.self, Command.self, Settings.self,
    Outer.self, Outer.Inner.self, Outer.Inner.Deeper.self, Outer.FromExtension.self,
    Empty.self, PublicItem.self, Mixed.self, ThroughProtocol.self, LaterCodable.self,
    HoldsTagged.self, HandWritten.self, Renamed.self,
  ]
  for type in both {
    #expect(isDecodable(type), "\(type)")
    #expect(isEncodable(type), "\(type)")
  }
  #expect(isDecodable(DecodeOnly.self) && !isEncodable(DecodeOnly.self))
  #expect(!isDecodable(EncodeOnly.self) && isEncodable(EncodeOnly.self))
  let neither: [Any.Type] = [
    Custom.self, Numbered.self, MixedPayload.self, Generic<Int>.self, Generic<Int>.Nested.self,
    Conditional.self, Wrapped.self, Lazy.self, Conditionally.self, Tagged.self,
  ]
  for type in neither {
    #expect(!isDecodable(type), "\(type)")
    #expect(!isEncodable(type), "\(type)")
  }
}

// MARK: - Enums

@Test func anEnumTakesEveryFormOfTheWireFormatDirectly() {
  let accepted = [
    #""reset""#, #"{"reset":{}}"#, #"{"reset":{"ignored":1}}"#,
    #"{"setCount":{"_0":5}}"#, #"{"setCount":5}"#, #"{"setCount":1e2}"#, #"{"setCount":-0}"#,
    #"{"toggle":{"id":3}}"#, #"{"toggle":{"id":3,"extra":[1,{}]}}"#,
    #"{"rename":"x"}"#, #"{"rename":null}"#, #"{"rename":{}}"#, #"{"rename":{"_0":"y"}}"#,
    #"{"rename":{"_0":null}}"#,
    #"{"setTags":["a","b"]}"#, #"{"setTags":{"_0":[]}}"#, #"{"setTags":[]}"#,
    #"{"move":{"from":1,"to":2}}"#, #"{"move":{"to":2,"from":1}}"#,
    #"{"move":{"\u0066rom":1,"t\u006F":2}}"#, #"{"toggle":{"\u0069d":3}}"#,
    #"{"child":{"searchQueryChanged":"bos"}}"#, #"{"child":"tapped"}"#,
    #"{"child":{"_0":{"searchQueryChanged":{"_0":"é\n\"\u00e9"}}}}"#,
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"ratio":1,"small":-3,"big":7,"#
      + #""tags":[],"mode":"SLOW","children":[]}}"#,
    #"{"pair":{"_0":1,"_1":"a"}}"#, #"{"pair":{"_0":1}}"#, #"{"pair":{"_1":null,"_0":1}}"#,
    #"{"labeledOptional":{"count":1}}"#, #"{"labeledOptional":{"name":"n","count":1}}"#,
    #"{"custom":5}"#, #"{"custom":{"_0":5}}"#, #"{"customs":[1,2]}"#, #"{"customs":null}"#,
    #"{"customs":{}}"#, #""default""#, #"{"default":{}}"#,
    #"{"again":{"again":"reset"}}"#, #"{"again":{"_0":{"setCount":2}}}"#,
    #" { "setCount" : { "_0" : -5 } } "#,
  ]
  for text in accepted { expectSameDecoding(Command.self, text, accepted: true) }
}

@Test func anEnumDeclinesWhatItDoesNotTakeAndTheErrorsStayTheSame() {
  let declined = [
    #""jump""#, #"{"jump":{}}"#, #"{}"#, #"12"#, #"[1]"#, #"null"#,
    #"{"reset":{},"setCount":1}"#, #"{"reset":{},"other":1}"#,
    #"{"setCount":"x"}"#, #"{"setCount":1.5}"#, #"{"setCount":1e400}"#,
    #"{"setCount":99999999999999999999}"#, #""setCount""#, #"{"setCount":{}}"#,
    #"{"setCount":{"_0":1,"x":2}}"#, #"{"setCount":{"x":2,"_0":1}}"#,
    #"{"toggle":{}}"#, #"{"toggle":{"id":true}}"#, #"{"toggle":3}"#, #""toggle""#,
    #"{"reset":true}"#, #"{"reset":"x"}"#, #"{"rename":5}"#, #""rename""#,
    #"{"setTags":"a"}"#, #"{"setTags":[1]}"#, #"{"move":{"from":1}}"#,
    #"{"child":"jump"}"#, #"{"child":{"tapped":{},"x":1}}"#,
    #"{"pair":{"_1":"a"}}"#, #"{"pair":[1,"a"]}"#, #"{"labeledOptional":{"name":"n"}}"#,
    #"{"custom":"x"}"#, #"{"custom":{}}"#, #"{"customs":["x"]}"#, #"{"default":1}"#,
    #"{"again":"jump"}"#,
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"ratio":1,"small":300,"big":7,"#
      + #""tags":[],"mode":"SLOW","children":[]}}"#,
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"ratio":1,"small":1,"big":-7,"#
      + #""tags":[],"mode":"slow","children":[]}}"#,
    #"{"toggle":1"#, #"{"toggle":{"id":3}} x"#, #"{"a":1,"a":2}"#,
  ]
  for text in declined { expectSameDecoding(Command.self, text, accepted: false) }
  for text in [#""low""#, "3", "1.5", "null"] {
    expectSameDecoding(Level.self, text, accepted: false)
  }
  for text in [#""slow""#, #""fast ""#, "1"] {
    expectSameDecoding(Mode.self, text, accepted: false)
  }
  expectSameDecoding(Level.self, "2", accepted: true)
  expectSameDecoding(Mode.self, #""SLOW""#, accepted: true)
}

// MARK: - Structs

private let settingsText = #"""
  {"count":3,"version":9,"name":"n","flags":[true],"nickname":null,"a":4,"b":5,"watched":-2,
  "observed":1,"fromClosure":6,"mapped":[],"table":{"k":1},"text":"t","raw":"r","lines":"l",
  "default":7}
  """#

@Test func aStructReadsItsStoredPropertiesAsCodableDoes() {
  let accepted = [
    settingsText,
    settingsText.replacing(#""nickname":null,"#, with: ""),
    settingsText.replacing(#""default":7"#, with: #""default":null"#),
    settingsText.replacing(#""version":9,"#, with: ""),
  ]
  for text in accepted { expectSameDecoding(Settings.self, text, accepted: true) }
  let declined = [
    settingsText.replacing(#""count":3,"#, with: ""),
    settingsText.replacing(#""table":{"k":1}"#, with: #""table":[1]"#),
    settingsText.replacing(#""b":5"#, with: #""b":"5""#),
    "[]", "null", "{}",
  ]
  for text in declined { expectSameDecoding(Settings.self, text, accepted: false) }
  // `let version = 2` is written, never read.
  let settings = try? decode(Settings.self, settingsText)
  #expect(settings?.version == 2)
  #expect(settings?.watched == -2)

  expectSameDecoding(Empty.self, "{}", accepted: true)
  expectSameDecoding(Empty.self, "5", accepted: true)
  expectSameDecoding(Outer.self, #"{"inner":{"x":1,"deeper":"leaf"},"inners":[{"x":2}]}"#,
    accepted: true)
  expectSameDecoding(Outer.self, #"{"inner":{"x":1,"deeper":"tree"}}"#, accepted: false)
  expectSameDecoding(Outer.FromExtension.self, #"{"y":"z"}"#, accepted: true)
  expectSameDecoding(PublicItem.self, #"{"x":1}"#, accepted: true)
  expectSameDecoding(ThroughProtocol.self, #"{"value":1}"#, accepted: true)
  expectSameDecoding(LaterCodable.self, #"{"value":1}"#, accepted: true)
  expectSameDecoding(DecodeOnly.self, #"{"value":1}"#, accepted: true)
  expectSameDecoding(HandWritten.self, #"{"x":1}"#, accepted: true)
}

@Test func plainCodingKeysRenameReorderAndLeaveOut() throws {
  let accepted = [
    #"{"score":1.5,"full_name":"Ann","ID":3}"#, #"{"ID":3,"score":1.5}"#,
    #"{"score":1.5,"full_name":null,"ID":3,"note":"x","id":4,"fullName":"y"}"#,
  ]
  for text in accepted { expectSameDecoding(Renamed.self, text, accepted: true) }
  for text in [#"{"score":1.5,"id":3}"#, #"{"score":"1","ID":3}"#, #"{"ID":3}"#] {
    expectSameDecoding(Renamed.self, text, accepted: false)
  }
  #expect(try decode(Renamed.self, #"{"score":0,"ID":1,"note":"x"}"#).note == "kept")
  let bytes = expectSameEncoding(Renamed(id: 2, fullName: "é", note: "n", score: -1))
  #expect(bytes.map { String(decoding: $0, as: UTF8.self) }
    == #"{"score":-1,"full_name":"é","ID":2}"#)
  expectSameEncoding(Renamed(id: 2, fullName: nil, note: "n", score: 0.5))
}

@Test func membersWithoutADirectPathGoThroughCodableInPlace() {
  let text =
    #"{"custom":1,"customs":[2,3],"maybe":4,"table":{"a":1,"b":2},"#
    + #""optionalTable":{"z":5},"number":6}"#
  expectSameDecoding(Mixed.self, text, accepted: true)
  expectSameDecoding(Mixed.self, text.replacing(#""maybe":4,"#, with: ""), accepted: true)
  expectSameDecoding(
    Mixed.self, text.replacing(#""optionalTable":{"z":5}"#, with: #""optionalTable":null"#),
    accepted: true)
  let broken = [
    (#""custom":1"#, #""custom":"1""#), (#""customs":[2,3]"#, #""customs":[2,"x"]"#),
    (#""table":{"a":1,"b":2}"#, #""table":[]"#), (#""maybe":4"#, #""maybe":{}"#),
  ]
  for (from, to) in broken {
    expectSameDecoding(Mixed.self, text.replacing(from, with: to), accepted: false)
  }
  let mixed = Mixed(
    custom: Custom(value: 1), customs: [Custom(value: 2)], maybe: nil, table: ["a": 1],
    optionalTable: ["b": Custom(value: 3)], number: 4)
  let bytes = expectSameEncoding(mixed)
  #expect(bytes.map { String(decoding: $0, as: UTF8.self) }
    == #"{"custom":1,"customs":[2],"table":{"a":1},"optionalTable":{"b":3},"number":4}"#)
}

@Test func membersThroughCodableSeeTheCodersUserInfo() throws {
  var encoder = JSONEncoder()
  encoder.userInfo[.tag] = "t"
  var decoder = JSONDecoder()
  decoder.userInfo[.tag] = "d"
  let value = HoldsTagged(tagged: Tagged(value: 2), count: 1)
  #expect(expectSameEncoding(value, encoder: encoder).map { String(decoding: $0, as: UTF8.self) }
    == #"{"tagged":20,"count":1}"#)
  expectSameEncoding(value)
  let bytes = Array(#"{"tagged":3,"count":1}"#.utf8)
  expectSameDecoding(HoldsTagged.self, bytes, decoder: decoder)
  #expect(try decoder.decode(HoldsTagged.self, from: bytes).tagged.tag == "d")
  expectSameDecoding(HoldsTagged.self, bytes)
}

@Test func aStructWritesWhatCodableWrites() {
  var settings = Settings(name: "é\n\"", b: -1)
  expectSameEncoding(settings)
  settings.nickname = nil
  settings.default = 3
  settings.table = ["x": 1]
  expectSameEncoding(settings)
  expectSameEncoding(Empty())
  expectSameEncoding(PublicItem(x: 1, y: nil))
  expectSameEncoding(PublicItem(x: 1, y: "y"))
  expectSameEncoding(Outer(inner: .init(x: 1, deeper: .leaf), inners: nil))
  expectSameEncoding(Outer(inner: .init(x: 1, deeper: nil), inners: [.init(x: 2, deeper: nil)]))
  expectSameEncoding(Outer.FromExtension(y: ""))
  expectSameEncoding(EncodeOnly(value: 3))
  expectSameEncoding(ThroughProtocol(value: 3))
}

@Test func unencodableValuesGiveCodablesErrors() {
  var item = Item(
    id: 1, title: "", note: nil, done: false, score: .nan, ratio: 0, small: 0, big: 0, tags: [],
    mode: .fast, level: nil, children: [])
  expectSameEncoding(item)
  expectSameEncoding(Command.put(item))
  item.score = 0
  item.ratio = .infinity
  expectSameEncoding(item)
  // Deeper than JSONParser.maxDepth: the direct path declines, Codable reports it.
  var deep = Command.reset
  for _ in 1...600 { deep = .again(deep) }
  expectSameEncoding(deep)
  #expect((try? JSONEncoder().encode(deep)) == nil)
  // Through a member without a direct path, at the edge of the depth.
  var customs = Command.customs([Custom(value: 1)])
  for level in 1...258 {
    customs = .again(customs)
    if level >= 250 { expectSameEncoding(customs) }
  }
}

// MARK: - The safety net

@Test func aConformanceWhoseFieldsDifferFromTheTypesDeclinesEverything() {
  let settings = Settings(name: "n", b: 1)
  let right = GeneratedFields([
    "count", "version", "name", "flags", "nickname", "a", "b", "watched", "observed",
    "fromClosure", "mapped", "table", "text", "raw", "lines", "default",
  ])
  #expect(throws: Never.self) { try right.check(settings) }
  #expect(throws: Never.self) { try right.check(settings) }
  for wrong in [
    GeneratedFields(["count"]), GeneratedFields([]),
    GeneratedFields([
      "count", "version", "name", "flags", "nickname", "a", "b", "watched", "observed",
      "fromClosure", "mapped", "table", "text", "raw", "default", "lines",
    ]),
  ] {
    #expect(throws: JSONDeclined.self) { try wrong.check(settings) }
    #expect(throws: JSONDeclined.self) { try wrong.check(settings) }
  }
  #expect(throws: JSONDeclined.self) { try GeneratedFields(["x"]).check(Command.reset) }
}

// MARK: - Properties

private struct Values {
  var random: SeededRandom

  mutating func string() -> String {
    let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{1F600}", " ", "z", "tab\t", "/"]
    return (0..<Int.random(in: 0...6, using: &random)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }.joined()
  }

  mutating func item(depth: Int = 0) -> Item {
    Item(
      id: Int(truncatingIfNeeded: random.next()), title: string(),
      note: Bool.random(using: &random) ? nil : string(), done: Bool.random(using: &random),
      score: Double(Int.random(in: -1000...1000, using: &random)) / 8,
      ratio: Float(Int.random(in: -10...10, using: &random)),
      small: Int8(truncatingIfNeeded: random.next()), big: random.next(),
      tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in string() },
      mode: Mode.allCases[Int.random(in: 0..<2, using: &random)],
      level: [nil, .low, .high][Int.random(in: 0..<3, using: &random)],
      children: depth > 2
        ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in item(depth: depth + 1) })
  }

  mutating func command(depth: Int = 0) -> Command {
    switch Int.random(in: 0..<15, using: &random) {
    case 0: return .reset
    case 1: return .setCount(Int(truncatingIfNeeded: random.next()))
    case 2: return .toggle(id: Int.random(in: -5...5, using: &random))
    case 3: return .rename(Bool.random(using: &random) ? nil : string())
    case 4: return .setTags((0..<Int.random(in: 0...3, using: &random)).map { _ in string() })
    case 5: return .put(item())
    case 6: return .move(from: Int.random(in: 0...9, using: &random), to: 3)
    case 7: return .child(.tapped)
    case 8: return .child(.searchQueryChanged(string()))
    case 9:
      return .pair(
        Int.random(in: 0...9, using: &random), Bool.random(using: &random) ? nil : string())
    case 10:
      return .labeledOptional(
        name: Bool.random(using: &random) ? nil : string(),
        count: Int.random(in: 0...3, using: &random))
    case 11: return .custom(Custom(value: Int.random(in: -9...9, using: &random)))
    case 12:
      return .customs(
        Bool.random(using: &random) ? nil : [Custom(value: 1), Custom(value: 2)])
    case 13: return .default
    default: return depth > 3 ? .reset : .again(command(depth: depth + 1))
    }
  }

  mutating func settings() -> Settings {
    var settings = Settings(name: string(), b: Int.random(in: -3...3, using: &random))
    settings.count = Int.random(in: 0...100, using: &random)
    settings.nickname = Bool.random(using: &random) ? nil : string()
    settings.flags = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      Bool.random(using: &random)
    }
    settings.table = Bool.random(using: &random) ? [:] : [string(): 1]
    settings.default = Bool.random(using: &random) ? nil : 5
    return settings
  }
}

@Test func randomValuesTakeTheGeneratedPathBothWays() throws {
  var values = Values(random: SeededRandom(seed: 7))
  for _ in 0..<2000 {
    let command = values.command()
    expectSameEncoding(command)
    let bytes = try JSONEncoder().encode(command)
    #expect(directly(Command.self, bytes) == command)
    #expect(try JSONDecoder().decode(Command.self, from: bytes) == command)
    let settings = values.settings()
    expectSameEncoding(settings)
    let settingsBytes = try JSONEncoder().encode(settings)
    #expect(directly(Settings.self, settingsBytes) == settings)
  }
}

@Test func randomMutationsDecodeTheSameBothWays() throws {
  var values = Values(random: SeededRandom(seed: 11))
  var random = SeededRandom(seed: 12)
  let structural = Array(#"{}[]",:_0n"#.utf8) + [0x00, 0xFF, UInt8(ascii: "1")]
  var accepted = (commands: 0, settings: 0)
  for round in 0..<6000 {
    var bytes =
      round % 2 == 0
      ? try JSONEncoder().encode(values.command()) : try JSONEncoder().encode(values.settings())
    for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: bytes[at] = structural[Int.random(in: 0..<structural.count, using: &random)]
      case 1: bytes.insert(structural[Int.random(in: 0..<structural.count, using: &random)], at: at)
      case 2: bytes.remove(at: at)
      default:
        let end = min(bytes.count, at + Int.random(in: 1..<12, using: &random))
        bytes.removeSubrange(at..<end)
      }
    }
    if round % 2 == 0 {
      if expectSameDecoding(Command.self, bytes) { accepted.commands += 1 }
    } else {
      if expectSameDecoding(Settings.self, bytes) { accepted.settings += 1 }
    }
  }
  // NB: the mutations must reach the generated code's decisions, not only the scanner's errors.
  #expect(accepted.commands > 50)
  #expect(accepted.settings > 50)
}

@Test func aBigDocumentIsReadInOnePassThroughGeneratedCode() throws {
  var values = Values(random: SeededRandom(seed: 3))
  let items = (0..<200).map { _ in values.item() }
  let outer = Command.setTags(items.map(\.title))
  expectSameEncoding(items)
  let bytes = try JSONEncoder().encode(items)
  #expect(bytes.count > 4096)
  expectSameDecoding([Item].self, bytes)
  #expect(try JSONDecoder().decode([Item].self, from: bytes) == items)
  expectSameEncoding(outer)
}
