@testable import JSON
import JSONTestSupport
import Testing

// The direct path (JSONCodable) against the Codable path it stands in for: for every input both
// give the same value or the same error, the direct path accepts everything the encoder writes,
// and both encoders write the same bytes.

private enum Mode: String, Codable, Equatable, CaseIterable {
  case fast, slow
}

private struct Item: Codable, Equatable {
  var id: Int
  var title: String
  var note: String?
  var done: Bool
  var score: Double
  var tags: [String]
  var mode: Mode
  var children: [Item]
}

private enum SubCommand: Codable, Equatable {
  case tapped
  case searchQueryChanged(String)
}

private enum Command: Codable, Equatable {
  case reset
  case setCount(Int)
  case toggle(id: Int)
  case rename(String?)
  case setTags([String])
  case put(Item)
  case move(from: Int, to: Int)
  case child(SubCommand)
}

extension Mode: JSONCodable {}

extension Item: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      id: try object.decode(Int.self, forKey: "id"),
      title: try object.decode(String.self, forKey: "title"),
      note: try object.decodeIfPresent(String.self, forKey: "note"),
      done: try object.decode(Bool.self, forKey: "done"),
      score: try object.decode(Double.self, forKey: "score"),
      tags: try object.decode([String].self, forKey: "tags"),
      mode: try object.decode(Mode.self, forKey: "mode"),
      children: try object.decode([Item].self, forKey: "children"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(id, forKey: "id")
      object.encode(title, forKey: "title")
      object.encodeIfPresent(note, forKey: "note")
      object.encode(done, forKey: "done")
      try object.encode(score, forKey: "score")
      try object.encode(tags, forKey: "tags")
      try object.encode(mode, forKey: "mode")
      try object.encode(children, forKey: "children")
    }
  }
}

extension SubCommand: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "tapped":
      try action.noPayload()
      self = .tapped
    case "searchQueryChanged":
      self = .searchQueryChanged(try action.payload(String.self))
    default:
      throw JSONDeclined()
    }
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .tapped: try json.enumCase("tapped")
    case let .searchQueryChanged(query): try json.enumCase("searchQueryChanged", payload: query)
    }
  }
}

extension Command: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let action = try json.enumCase()
    switch action {
    case "reset":
      try action.noPayload()
      self = .reset
    case "setCount":
      self = .setCount(try action.payload(Int.self))
    case "toggle":
      self = .toggle(id: try action.labeled().decode(Int.self, forKey: "id"))
    case "rename":
      self = .rename(try action.payloadIfPresent(String.self))
    case "setTags":
      self = .setTags(try action.payload([String].self))
    case "put":
      self = .put(try action.payload(Item.self))
    case "move":
      let payload = try action.labeled()
      self = .move(
        from: try payload.decode(Int.self, forKey: "from"),
        to: try payload.decode(Int.self, forKey: "to"))
    case "child":
      self = .child(try action.payload(SubCommand.self))
    default:
      throw JSONDeclined()
    }
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    switch self {
    case .reset: try json.enumCase("reset")
    case let .setCount(count): try json.enumCase("setCount", payload: count)
    case let .toggle(id):
      try json.enumCase("toggle") { (payload) throws(JSONDeclined) in
        payload.encode(id, forKey: "id")
      }
    case let .rename(name):
      try json.enumCase("rename") { (payload) throws(JSONDeclined) in
        payload.encodeIfPresent(name, forKey: "_0")
      }
    case let .setTags(tags): try json.enumCase("setTags", payload: tags)
    case let .put(item): try json.enumCase("put", payload: item)
    case let .move(from, to):
      try json.enumCase("move") { (payload) throws(JSONDeclined) in
        payload.encode(from, forKey: "from")
        payload.encode(to, forKey: "to")
      }
    case let .child(child): try json.enumCase("child", payload: child)
    }
  }
}

// MARK: - Helpers

/// What `init(json:)` alone makes of `bytes`: nil if it declines (or the text is not JSON).
private func directly<T: JSONDecodable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
  bytes.withUnsafeBufferPointer { buffer in
    try? Scanner.withDocument(buffer) { (document) throws(JSONError) -> T? in
      try? T(json: JSONValueReader(document, at: 0))
    }
  } ?? nil
}

private func decodeBothWays<T: JSONDecodable>(
  _ type: T.Type, _ bytes: [UInt8]
) -> (direct: Result<T, JSONError>, codable: Result<T, JSONError>) {
  let direct = Result { () throws(JSONError) in try JSONDecoder().decode(type, from: bytes) }
  let codable = Result { () throws(JSONError) in
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try JSONDecoder().decodeThroughCodable(type, from: buffer)
    }
  }
  return (direct, codable)
}

/// Both paths give the same value or the same error, and what `init(json:)` accepts is that
/// value. Returns whether the direct path accepted the input.
@discardableResult
private func expectSameDecoding<T: JSONDecodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  let (direct, codable) = decodeBothWays(type, bytes)
  #expect(direct == codable, "\(String(decoding: bytes, as: UTF8.self))",
    sourceLocation: sourceLocation)
  guard let accepted = directly(type, bytes) else { return false }
  #expect(codable == .success(accepted), "\(String(decoding: bytes, as: UTF8.self))",
    sourceLocation: sourceLocation)
  return true
}

private func expectSameDecoding<T: JSONDecodable & Equatable>(
  _ type: T.Type, _ text: String, accepted: Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let wasAccepted = expectSameDecoding(type, Array(text.utf8), sourceLocation: sourceLocation)
  #expect(wasAccepted == accepted, "\(text)", sourceLocation: sourceLocation)
}

private func expectSameEncoding<T: JSONEncodable>(
  _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) {
  func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
  let direct = Result { () throws(JSONError) in try JSONEncoder().encode(value) }.map(text)
  let codable = Result { () throws(JSONError) in
    try JSONEncoder().encodeThroughCodable(value)
  }.map(text)
  #expect(direct == codable, sourceLocation: sourceLocation)
}

// MARK: - Tests

@Test func directPathTakesEveryFormOfTheWireFormat() {
  let accepted = [
    #""reset""#, #"{"reset":{}}"#, #"{"reset":{"ignored":1}}"#,
    #"{"setCount":{"_0":5}}"#, #"{"setCount":5}"#, #"{"setCount":1e2}"#, #"{"setCount":-0}"#,
    #"{"toggle":{"id":3}}"#, #"{"toggle":{"id":3,"extra":[1,{}]}}"#,
    #"{"rename":"x"}"#, #"{"rename":null}"#, #"{"rename":{}}"#, #"{"rename":{"_0":"y"}}"#,
    #"{"rename":{"_0":null}}"#,
    #"{"setTags":["a","b"]}"#, #"{"setTags":{"_0":[]}}"#, #"{"setTags":[]}"#,
    #"{"move":{"from":1,"to":2}}"#, #"{"move":{"to":2,"from":1}}"#,
    // NB: member names with escapes (found past the lookup's first guess).
    #"{"move":{"\u0066rom":1,"t\u006F":2}}"#, #"{"toggle":{"\u0069d":3}}"#,
    #"{"child":{"searchQueryChanged":"bos"}}"#, #"{"child":"tapped"}"#,
    #"{"child":{"_0":{"searchQueryChanged":{"_0":"é\n\"\u00e9"}}}}"#,
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"tags":[],"mode":"slow","children":[]}}"#,
    #" { "setCount" : { "_0" : -5 } } "#,
  ]
  for text in accepted { expectSameDecoding(Command.self, text, accepted: true) }
}

@Test func directPathDeclinesWhatItDoesNotTakeAndTheErrorsStayTheSame() {
  // Wrong shapes: both paths fail with Codable's error. Rare forms: the direct path declines and
  // Codable decides (`{"_0":…}` with other members, several members naming one case).
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
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"tags":[],"mode":"medium","children":[]}}"#,
    #"{"put":{"id":1,"title":"t","done":false,"score":0.1,"tags":[],"mode":"slow"}}"#,
    #"{"toggle":1"#, #"{"toggle":{"id":3}} x"#, #"{"a":1,"a":2}"#,
  ]
  for text in declined { expectSameDecoding(Command.self, text, accepted: false) }
}

@Test func directOutputIsCodablesOutputByteForByte() throws {
  let item = Item(
    id: -4, title: "é\n\"tab\t\u{1F600}", note: nil, done: true, score: 1e-7, tags: ["a", ""],
    mode: .fast,
    children: [
      Item(
        id: 2, title: "", note: "n", done: false, score: -0.0, tags: [], mode: .slow,
        children: [])
    ])
  let commands: [Command] = [
    .reset, .setCount(Int.min), .toggle(id: 3), .rename(nil), .rename("x"), .setTags([]),
    .setTags(["a", "b"]), .put(item), .move(from: 0, to: 9), .child(.tapped),
    .child(.searchQueryChanged("bos")),
  ]
  for command in commands {
    expectSameEncoding(command)
    let bytes = try JSONEncoder().encode(command)
    #expect(directly(Command.self, bytes) == command)
  }
  #expect(
    String(decoding: try JSONEncoder().encode(Command.rename(nil)), as: UTF8.self)
      == #"{"rename":{}}"#)
}

@Test func unencodableValuesGiveCodablesErrors() {
  var item = Item(
    id: 1, title: "", note: nil, done: false, score: .nan, tags: [], mode: .fast, children: [])
  expectSameEncoding(item)
  expectSameEncoding(Command.put(item))
  item.score = -.infinity
  expectSameEncoding(item)
  // Deeper than JSONParser.maxDepth: the direct path declines, Codable reports it.
  var deep = Item(
    id: 0, title: "", note: nil, done: false, score: 0, tags: [], mode: .fast, children: [])
  for level in 1...600 {
    deep = Item(
      id: level, title: "", note: nil, done: false, score: 0, tags: [], mode: .fast,
      children: [deep])
  }
  expectSameEncoding(deep)
  #expect((try? JSONEncoder().encode(deep)) == nil)
}

// MARK: - Properties

private struct ItemGenerator {
  var random: SeededRandom

  mutating func string() -> String {
    let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{1F600}", " ", "z", "tab\t", "/"]
    return (0..<Int.random(in: 0...6, using: &random)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }.joined()
  }

  mutating func double() -> Double {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return Double(Int.random(in: -1000...1000, using: &random))
    case 1: return Double.random(in: -1...1, using: &random)
    case 2: return Double(bitPattern: random.next()).isFinite ? Double(bitPattern: random.next()) : 0
    default:
      let values = [0.1, -0.0, 1e300, Double.leastNonzeroMagnitude, 1e15, 123456789.125]
      return values[Int.random(in: 0..<values.count, using: &random)]
    }
  }

  mutating func item(depth: Int = 0) -> Item {
    Item(
      id: Int(truncatingIfNeeded: random.next()), title: string(),
      note: Bool.random(using: &random) ? nil : string(), done: Bool.random(using: &random),
      score: double(), tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in string() },
      mode: Mode.allCases[Int.random(in: 0..<2, using: &random)],
      children: depth > 2
        ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in item(depth: depth + 1) })
  }

  mutating func command() -> Command {
    switch Int.random(in: 0..<9, using: &random) {
    case 0: return .reset
    case 1: return .setCount(Int(truncatingIfNeeded: random.next()))
    case 2: return .toggle(id: Int.random(in: -5...5, using: &random))
    case 3: return .rename(Bool.random(using: &random) ? nil : string())
    case 4: return .setTags((0..<Int.random(in: 0...3, using: &random)).map { _ in string() })
    case 5: return .put(item())
    case 6: return .move(from: Int.random(in: 0...9, using: &random), to: 3)
    case 7: return .child(.tapped)
    default: return .child(.searchQueryChanged(string()))
    }
  }
}

@Test func randomValuesTakeTheDirectPathBothWays() throws {
  var generator = ItemGenerator(random: SeededRandom(seed: 7))
  for _ in 0..<2000 {
    let command = generator.command()
    expectSameEncoding(command)
    let bytes = try JSONEncoder().encode(command)
    #expect(directly(Command.self, bytes) == command)
    #expect(try JSONDecoder().decode(Command.self, from: bytes) == command)
  }
}

@Test func randomMutationsDecodeTheSameBothWays() throws {
  var generator = ItemGenerator(random: SeededRandom(seed: 11))
  var random = SeededRandom(seed: 12)
  let structural = Array(#"{}[]",:_0"#.utf8) + [0x00, 0xFF, UInt8(ascii: "1")]
  var acceptedMutants = 0
  for _ in 0..<4000 {
    var bytes = try JSONEncoder().encode(generator.command())
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
    if expectSameDecoding(Command.self, bytes) { acceptedMutants += 1 }
  }
  // NB: the mutations must reach the direct path's decisions, not only the scanner's errors.
  #expect(acceptedMutants > 100)
}

@Test func everyScalarTypeReadsAndWritesAsThroughCodable() {
  let numbers = [
    "0", "-0", "1", "-1", "127", "128", "-129", "255", "256", "300", "32768", "65536",
    "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "1e2", "1.0", "1.5", "-1e-400", "1e400",
    "0.1", "\"1\"", "null", "true",
  ]
  for number in numbers {
    let bytes = Array(number.utf8)
    expectSameDecoding(Int8.self, bytes)
    expectSameDecoding(Int16.self, bytes)
    expectSameDecoding(Int32.self, bytes)
    expectSameDecoding(Int64.self, bytes)
    expectSameDecoding(Int.self, bytes)
    expectSameDecoding(UInt8.self, bytes)
    expectSameDecoding(UInt16.self, bytes)
    expectSameDecoding(UInt32.self, bytes)
    expectSameDecoding(UInt64.self, bytes)
    expectSameDecoding(UInt.self, bytes)
    expectSameDecoding(Double.self, bytes)
    expectSameDecoding(Float.self, bytes)
    expectSameDecoding(Bool.self, bytes)
    expectSameDecoding(String.self, bytes)
    expectSameDecoding(Int?.self, bytes)
    expectSameDecoding([Int].self, Array("[\(number),\(number)]".utf8))
  }
  expectSameEncoding(Int8.min)
  expectSameEncoding(UInt64.max)
  expectSameEncoding(Int.min)
  expectSameEncoding(Float(0.1))
  expectSameEncoding(Float.nan)
  expectSameEncoding(-0.0)
  expectSameEncoding([Int?.none, 3])
  expectSameEncoding(["a\u{0}b", "\u{7F}é"])
}

/// Member names of every length a word copy treats differently (0, short, 8, 9, 16, 17), with
/// bytes to escape at the start, the middle and the end, and UTF-8.
private struct Names: Codable, Equatable, JSONEncodable {
  var values: [Int] = Array(0..<12)

  private enum CodingKeys: String, CodingKey {
    case empty = ""
    case one = "a"
    case eight = "abcdefgh"
    case nine = "abcdefghi"
    case sixteen = "abcdefghijklmnop"
    case seventeen = "abcdefghijklmnopq"
    case quoteFirst = "\"abcdefghij"
    case quoteLast = "abcdefghij\""
    case tabMiddle = "abc\tdef"
    case backslashNine = "abcdefgh\\"
    case control = "\u{1}"
    case utf8 = "é caf\u{e9} 😀"
  }

  private static let keys: [CodingKeys] = [
    .empty, .one, .eight, .nine, .sixteen, .seventeen, .quoteFirst, .quoteLast, .tabMiddle,
    .backslashNine, .control, .utf8,
  ]

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    values = try Self.keys.map { try container.decode(Int.self, forKey: $0) }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    for (key, value) in zip(Self.keys, values) { try container.encode(value, forKey: key) }
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(values[0], forKey: "")
      object.encode(values[1], forKey: "a")
      object.encode(values[2], forKey: "abcdefgh")
      object.encode(values[3], forKey: "abcdefghi")
      object.encode(values[4], forKey: "abcdefghijklmnop")
      object.encode(values[5], forKey: "abcdefghijklmnopq")
      object.encode(values[6], forKey: "\"abcdefghij")
      object.encode(values[7], forKey: "abcdefghij\"")
      object.encode(values[8], forKey: "abc\tdef")
      object.encode(values[9], forKey: "abcdefgh\\")
      object.encode(values[10], forKey: "\u{1}")
      object.encode(values[11], forKey: "é caf\u{e9} 😀")
    }
  }
}

@Test func memberNamesAreWrittenAsCodableWritesThem() throws {
  expectSameEncoding(Names())
  let bytes = try JSONEncoder().encode(Names())
  let decoded = try bytes.withUnsafeBufferPointer {
    try JSONDecoder().decodeThroughCodable(Names.self, from: $0)
  }
  #expect(decoded == Names())
  #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"":0,"a":1,"abcdefgh":2,"#))
  #expect(String(decoding: bytes, as: UTF8.self).contains(#""abc\tdef":8,"abcdefgh\\":9,"#))
}
