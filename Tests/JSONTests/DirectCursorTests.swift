@testable import JSON
import JSONTestSupport
import Testing

// The direct read of big documents (DirectCursor): whatever it accepts, the scanner accepts too
// and reads as the same value; whatever it gives way on, the decoder still gives the scanner's
// value or error. Documents of every size are read directly here (the decoder tries it only
// past JSONDecoder.directThreshold bytes).

private struct Chore: Codable, Equatable {
  var description: String
  var id: Int
  var isComplete: Bool
}

private enum Show: String, Codable, Equatable {
  case all, active, completed
}

private struct Chores: Codable, Equatable {
  var editMode = false
  var filter = Show.all
  var todos: [Chore] = []
}

extension Chore: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      description: try object.decode(String.self, forKey: "description"),
      id: try object.decode(Int.self, forKey: "id"),
      isComplete: try object.decode(Bool.self, forKey: "isComplete"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(description, forKey: "description")
      object.encode(id, forKey: "id")
      object.encode(isComplete, forKey: "isComplete")
    }
  }
}

extension Show: JSONCodable {}

extension Chores: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      editMode: try object.decode(Bool.self, forKey: "editMode"),
      filter: try object.decode(Show.self, forKey: "filter"),
      todos: try object.decode([Chore].self, forKey: "todos"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(editMode, forKey: "editMode")
      try object.encode(filter, forKey: "filter")
      try object.encode(todos, forKey: "todos")
    }
  }
}

/// Every kind of read: optionals, doubles, nested arrays and objects, `forEachElement`,
/// `withUTF8`.
private struct Sample: Codable, Equatable {
  var name: String?
  var score: Double
  var ratio: Float
  var small: Int8
  var big: UInt64
  var grid: [[Int]]
  var child: [Sample]
  var tag: String
}

extension Sample: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    let name = try object.decodeIfPresent(String.self, forKey: "name")
    let score = try object.decode(Double.self, forKey: "score")
    let ratio = try object.decode(Float.self, forKey: "ratio")
    let small = try object.decode(Int8.self, forKey: "small")
    let big = try object.decode(UInt64.self, forKey: "big")
    let grid = try object.decode([[Int]].self, forKey: "grid")
    var child: [Sample] = []
    guard let children = object.member("child") else { throw JSONDeclined() }
    try children.forEachElement { (element) throws(JSONDeclined) in
      child.append(try Sample(json: element))
    }
    let tag = try object.decode(String.self, forKey: "tag")
    self.init(
      name: name, score: score, ratio: ratio, small: small, big: big, grid: grid, child: child,
      tag: tag)
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encodeIfPresent(name, forKey: "name")
      try object.encode(score, forKey: "score")
      try object.encode(ratio, forKey: "ratio")
      try object.encode(small, forKey: "small")
      try object.encode(big, forKey: "big")
      try object.encode(grid, forKey: "grid")
      try object.encode(child, forKey: "child")
      object.encode(tag, forKey: "tag")
    }
  }
}

/// Reads its members in sequence with ``JSONValueReader/forEachElement(_:)`` and
/// `decodeIfPresent` (the member lookup of `Sample` fails a direct read: `member(_:)`).
private struct Line: Codable, Equatable {
  var a: Int?
  var b: [String]
  var c: Bool?
}

extension Line: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    let a = try object.decodeIfPresent(Int.self, forKey: "a")
    guard let list = try object.decodeIfPresent([String].self, forKey: "b") else {
      throw JSONDeclined()
    }
    let c = try object.decodeIfPresent(Bool.self, forKey: "c")
    self.init(a: a, b: list, c: c)
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encodeIfPresent(a, forKey: "a")
      try object.encode(b, forKey: "b")
      object.encodeIfPresent(c, forKey: "c")
    }
  }
}

/// Asks for one member twice: a repeated name must not slip through, and the second read
/// must find the member again, as it does on a tape.
private struct Twice: Codable, Equatable {
  var a: Int

  init(a: Int) { self.a = a }

  private enum CodingKeys: String, CodingKey { case a }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let first = try container.decode(Int.self, forKey: .a)
    let second = try container.decodeIfPresent(Int.self, forKey: .a)
    self.init(a: first * 10 + (second ?? 0))
  }
}

extension Twice: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    let first = try object.decode(Int.self, forKey: "a")
    let second = try object.decodeIfPresent(Int.self, forKey: "a")
    self.init(a: first * 10 + (second ?? 0))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in object.encode(a, forKey: "a") }
  }
}

// MARK: - Helpers

/// What the direct read alone makes of `bytes`, or nil where it gives way.
private func readDirectly<T: JSONDecodable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
  bytes.withUnsafeBufferPointer { buffer in
    var value: T?
    let read = JSONValueReader.readDirectly(buffer) { (root) throws(JSONDeclined) in
      value = try T(json: root)
    }
    return read ? value : nil
  }
}

/// The decoder gives Codable's value or error, and whatever the direct read accepts, the
/// scanner accepts too, as that same value. Returns whether the direct read accepted.
@discardableResult
private func expectAgreement<T: JSONDecodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  let text = String(decoding: bytes, as: UTF8.self)
  let decoded = Result { () throws(JSONError) in try JSONDecoder().decode(type, from: bytes) }
  let codable = Result { () throws(JSONError) in
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
      try JSONDecoder().decodeThroughCodable(type, from: buffer)
    }
  }
  #expect(decoded == codable, "\(text)", sourceLocation: sourceLocation)
  guard let direct = readDirectly(type, bytes) else { return false }
  #expect(codable == .success(direct), "\(text)", sourceLocation: sourceLocation)
  let scanned = bytes.withUnsafeBufferPointer { buffer in
    (try? Scanner.withDocument(buffer) { _ in true }) ?? false
  }
  #expect(scanned, "\(text)", sourceLocation: sourceLocation)
  return true
}

private func expectAgreement<T: JSONDecodable & Equatable>(
  _ type: T.Type, _ text: String, accepted: Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let wasAccepted = expectAgreement(type, Array(text.utf8), sourceLocation: sourceLocation)
  #expect(wasAccepted == accepted, "\(text)", sourceLocation: sourceLocation)
}

private func todos(_ count: Int) -> Chores {
  var state = Chores(editMode: count % 2 == 0, filter: .active)
  for id in 0..<count {
    var text = "Chore number \(id)"
    if id % 3 == 1 { text += " at the café" }
    if id % 5 == 2 { text += " \"soon\"\t!\u{1F600}\\" }
    state.todos.append(Chore(description: text, id: id * 7919 - 100, isComplete: id % 2 == 0))
  }
  return state
}

// MARK: - Tests

@Test func encodedStatesAreReadDirectly() throws {
  for count in [0, 1, 2, 3, 10, 100] {
    let state = todos(count)
    let bytes = try JSONEncoder().encode(state)
    #expect(readDirectly(Chores.self, bytes) == state)
    #expect(try JSONDecoder().decode(Chores.self, from: bytes) == state)
    expectAgreement(Chores.self, bytes)
  }
}

@Test func plainVariationsAreReadDirectly() {
  let accepted = [
    #"{"editMode":true,"filter":"all","todos":[]}"#,
    #" { "editMode" : true , "filter" : "all" , "todos" : [ ] } "#,
    "{\n  \"editMode\": false,\n  \"filter\": \"completed\",\n  \"todos\": [\n"
      + "    {\"description\": \"a\", \"id\": 1, \"isComplete\": true},\n"
      + "    {\"description\": \"\", \"id\": -0, \"isComplete\": false}\n  ]\n}\n",
    #"{"editMode":true,"filter":"all","todos":[{"description":"\u00e9\ud83d\ude00","#
      + #""id":9223372036854775807,"isComplete":true}]}"#,
    #"{"editMode":true,"filter":"all","todos":[{"description":"x","#
      + #""id":-9223372036854775808,"isComplete":false},"#
      + #"{"description":"y","id":0,"isComplete":true}]}"#,
  ]
  for text in accepted { expectAgreement(Chores.self, text, accepted: true) }
  // NB: whole numbers with a fraction or exponent read as from a tape.
  for number in ["1e2", "1.0", "-5E+1", "0.0e5"] {
    let text = #"{"editMode":true,"filter":"all","todos":[{"description":"a","id":"#
      + number + #","isComplete":true}]}"#
    expectAgreement(Chores.self, text, accepted: true)
  }
}

@Test func whatTheDirectReadGivesWayOnDecodesAsBefore() {
  let todo = #"{"description":"a","id":1,"isComplete":true}"#
  func state(_ todos: String, filter: String = #""all""#) -> String {
    #"{"editMode":true,"filter":"# + filter + #","todos":["# + todos + "]}"
  }
  let givenWay = [
    // Out of order, extra, missing or repeated members.
    #"{"filter":"all","editMode":true,"todos":[]}"#,
    state(#"{"id":1,"description":"a","isComplete":true}"#),
    state(#"{"description":"a","id":1,"isComplete":true,"extra":[1,{"b":2}]}"#),
    state(#"{"description":"a","id":1}"#),
    state(#"{"description":"a","id":1,"isComplete":true,"id":2}"#),
    state(#"{"description":"a","description":"b","id":1,"isComplete":true}"#),
    #"{"editMode":true,"filter":"all","todos":[],"editMode":false}"#,
    // Escaped names, numbers out of range, wrong types.
    state(#"{"descr\u0069ption":"a","id":1,"isComplete":true}"#),
    state(#"{"description":"a","id":9223372036854775808,"isComplete":true}"#),
    state(#"{"description":"a","id":"1","isComplete":true}"#),
    state(#"{"description":1,"id":1,"isComplete":true}"#),
    state(#"{"description":"a","id":1,"isComplete":null}"#),
    state(todo, filter: #""none""#),
    state(todo, filter: "null"),
    #"{"editMode":true,"filter":"all","todos":{}}"#,
    #"{"editMode":true,"filter":"all","todos":null}"#,
    "[]", "null", "{}", "",
    // Syntax errors anywhere: the scanner's error, with its offset.
    state(todo + "," + todo + ","),
    state(todo + " " + todo),
    state(todo) + " x",
    state(todo) + "}",
    String(state(todo).dropLast()),
    state(#"{"description":"a\x","id":1,"isComplete":true}"#),
    state(#"{"description":"a\ud800","id":1,"isComplete":true}"#),
    state(#"{"description":"a"#) ,
    state(#"{"description":"a","id":01,"isComplete":true}"#),
    state(#"{"description":"a","id":-,"isComplete":true}"#),
    state(#"{"description":"a","id":1,"isComplete":tru}"#),
    state(#"{"description":"a","id":1,"isComplete":truee}"#),
    state(#"{"description":"a","id":1,"isComplete":true"#),
    "\u{FEFF}" + state(todo),
  ]
  for text in givenWay { expectAgreement(Chores.self, text, accepted: false) }
  // Raw bytes the text above cannot hold: a control character, invalid UTF-8.
  for bad: UInt8 in [0x01, 0x1F, 0x80, 0xC0, 0xED, 0xF5, 0xFF] {
    var bytes = Array(state(#"{"description":"ab","id":1,"isComplete":true}"#).utf8)
    let at = bytes.firstIndex(of: UInt8(ascii: "b")) ?? 0
    bytes[at] = bad
    #expect(!expectAgreement(Chores.self, bytes))
  }
}

@Test func aMemberAskedForTwiceStillFindsARepeatedName() throws {
  expectAgreement(Twice.self, #"{"a":1}"#, accepted: false)
  expectAgreement(Twice.self, #"{"a":1,"a":2}"#, accepted: false)
  #expect(error { () throws(JSONError) in try decode(Twice.self, #"{"a":1,"a":2}"#) } != nil)
  #expect(try decode(Twice.self, #"{"a":1}"#) == Twice(a: 11))
}

@Test func optionalsNullsAndNestedArraysReadInOrder() {
  let accepted = [
    #"{"a":1,"b":["x","y"],"c":true}"#, #"{"a":null,"b":[],"c":null}"#,
    #"{"a":null,"b":["\n"]}"#, #"{"a":-5,"b":[""],"c":false}"#, #"{"a":3,"b":["é"],"c":null}"#,
  ]
  for text in accepted { expectAgreement(Line.self, text, accepted: true) }
  let givenWay = [
    // NB: a missing member before others: absent, or later? A direct read cannot look ahead.
    #"{"b":[]}"#, #"{"b":["é"],"c":null}"#,
    #"{"b":[],"a":1}"#, #"{"a":nul,"b":[]}"#, #"{"a":null,"b":[1]}"#, #"{"a":1}"#,
    #"{"a":1,"b":[],"c":true,"d":null}"#, #"{"a":1,"b":["x",],"c":true}"#,
    #"{"a":1.5,"b":[]}"#, #"{"a":1,"b":[]"#,
  ]
  for text in givenWay { expectAgreement(Line.self, text, accepted: false) }
}

@Test func recordsWithEveryKindOfValueAgree() throws {
  // NB: `Sample` asks for `child` with `member(_:)`: a lookup, which a direct read gives way on.
  let leaf = Sample(
    name: nil, score: 0.1, ratio: 1.5, small: -128, big: .max, grid: [[], [1, -2]], child: [],
    tag: "t\u{1}")
  let root = Sample(
    name: "n\"", score: -1e300, ratio: 0, small: 127, big: 0, grid: [[3]], child: [leaf, leaf],
    tag: "")
  let bytes = try JSONEncoder().encode(root)
  #expect(!expectAgreement(Sample.self, bytes))
  #expect(try JSONDecoder().decode(Sample.self, from: bytes) == root)
}

@Test func deepDocumentsGiveWay() {
  // Deeper than the direct read's frames, and deeper than the scanner's limit.
  for depth in [DirectCursor.maxDepth - 1, DirectCursor.maxDepth + 1, JSONParser.maxDepth + 1] {
    let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let accepted = expectAgreement([[Int]].self, Array(text.utf8))
    #expect(!accepted)
  }
  let nested = "[[" + String(repeating: "1,", count: 300) + "1]]"
  expectAgreement([[Int]].self, nested, accepted: true)
}

@Test func scalarsAtTheirEdgesReadAsFromATape() {
  let numbers = [
    "0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "65535", "65536",
    "2147483647", "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "1e2", "1.0", "1.5", "-1e-400", "1e400", "0.1", "01", "-", "1.",
    "1e", "\"1\"", "null", "true", "false", "nul", "\"a\\u0041\"", "\"\\ud800\"",
    // NB: too many digits for the one-loop read, yet whole and in range.
    "100000000000000000000e-5", "-100000000000000000000E-5", "0.5e1", "00", "-00", "-",
    "tru", "fals", "falsee", "truth", "-a",
  ]
  for number in numbers {
    let bytes = Array(" \(number) ".utf8)
    expectAgreement(Int8.self, bytes)
    expectAgreement(Int.self, bytes)
    expectAgreement(UInt8.self, bytes)
    expectAgreement(UInt64.self, bytes)
    expectAgreement(Double.self, bytes)
    expectAgreement(Float.self, bytes)
    expectAgreement(Bool.self, bytes)
    expectAgreement(String.self, bytes)
    expectAgreement(Int?.self, bytes)
    expectAgreement([Int].self, Array("[\(number),\(number)]".utf8))
    expectAgreement([Int?].self, Array("[\(number) , null]".utf8))
  }
}

@Test func randomStatesAndMutationsAgree() throws {
  var random = SeededRandom(seed: 17)
  let structural = Array(#"{}[]",:\ "#.utf8) + [0x00, 0xFF, 0xC3, UInt8(ascii: "1")]
  var accepted = 0
  var givenWay = 0
  for round in 0..<1500 {
    var bytes = try JSONEncoder().encode(todos(Int.random(in: 0...10, using: &random)))
    if round % 3 != 0 {
      for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        let byte = structural[Int.random(in: 0..<structural.count, using: &random)]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        case 2: bytes.remove(at: at)
        default:
          let end = min(bytes.count, at + Int.random(in: 1..<12, using: &random))
          bytes.removeSubrange(at..<end)
        }
      }
    }
    if expectAgreement(Chores.self, bytes) { accepted += 1 } else { givenWay += 1 }
  }
  // NB: both ways must be taken often, or the comparison says little.
  #expect(accepted > 500)
  #expect(givenWay > 300)
}

@Test func arraysOfEveryLengthAndShapeReadWhole() throws {
  // NB: an array's storage is sized from its first element: short first elements, long ones,
  // and lengths around the 64 KB bound must all come out whole.
  var random = SeededRandom(seed: 23)
  for count in [0, 1, 2, 3, 7, 64, 1000, 3000] {
    let strings = (0..<count).map { index in
      String(repeating: "é", count: index == 0 ? 0 : Int.random(in: 0...40, using: &random))
    }
    let bytes = try JSONEncoder().encode(strings)
    #expect(readDirectly([String].self, bytes) == strings)
    expectAgreement([String].self, bytes)
    let reversed = try JSONEncoder().encode(Array(strings.reversed()))
    #expect(readDirectly([String].self, reversed) == Array(strings.reversed()))
    let numbers = (0..<count).map { _ in Int.random(in: -9...9, using: &random) }
    let numberBytes = try JSONEncoder().encode(numbers)
    #expect(readDirectly([Int].self, numberBytes) == numbers)
    let grid = (0..<count % 50).map { row in Array(repeating: Int8(row % 100), count: row) }
    #expect(readDirectly([[Int8]].self, try JSONEncoder().encode(grid)) == grid)
  }
  // Past the bound: 20,000 one-digit numbers.
  let many = (0..<20_000).map { $0 % 10 }
  #expect(readDirectly([Int].self, try JSONEncoder().encode(many)) == many)
  expectAgreement([[Int]].self, " [ [ 1 , 2 ] , [ ] , [ 3 ] ] ", accepted: true)
  expectAgreement([[Int]].self, "[[1,2],[],[3],]", accepted: false)
  expectAgreement([String?].self, #"[null,"a",null]"#, accepted: true)
}

// MARK: - Scalar members read where their names are constants

/// ScalarMembers read by `decode(_:forKey:)`, inlined here (the name matched as a constant): names
/// of one character (a literal that may be held as a scalar), of 2 to 8, and longer than 8.
private struct ScalarMembers: Codable, Equatable {
  var s: String
  var n: Int
  var b: Bool
  var longerName: String
  var id: Int
  var flag: Bool
}

extension ScalarMembers: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    let object = try json.object()
    self.init(
      s: try object.decode(String.self, forKey: "s"),
      n: try object.decode(Int.self, forKey: "n"),
      b: try object.decode(Bool.self, forKey: "b"),
      longerName: try object.decode(String.self, forKey: "longerName"),
      id: try object.decode(Int.self, forKey: "id"),
      flag: try object.decode(Bool.self, forKey: "flag"))
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(s, forKey: "s")
      object.encode(n, forKey: "n")
      object.encode(b, forKey: "b")
      object.encode(longerName, forKey: "longerName")
      object.encode(id, forKey: "id")
      object.encode(flag, forKey: "flag")
    }
  }
}

@Test func scalarMembersMatchedAsConstantsAgree() {
  let plain = #"{"s":"x","n":-3,"b":true,"longerName":"caf\u00e9 \"q\"","id":7,"flag":false}"#
  expectAgreement([ScalarMembers].self, "[" + plain + "]", accepted: true)
  expectAgreement(ScalarMembers.self, plain, accepted: true)
  let cases: [(String, Bool)] = [
    // Whitespace, and names that share the constant's first and last bytes or its length.
    (#"{ "s" : "x" , "n":1,"b":false,"longerName":"","id":0,"flag":true }"#, true),
    (#"{"s":"x","n":1,"b":true,"longerNamf":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerNam":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerNamee":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","ie":0,"flag":true}"#, false),
    (#"{"t":"x","n":1,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    // Out of order, missing, repeated, unknown, escaped names.
    (#"{"n":1,"s":"x","b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":0,"flag":true,"id":1}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":0,"flag":true,"more":1}"#, false),
    (#"{"\u0073":"x","n":1,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longer\u004eame":"","id":0,"flag":true}"#, false),
    // Wrong types, edge numbers, syntax errors right after a matched name.
    (#"{"s":1,"n":1,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":"1","b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":1,"longerName":"","id":0,"flag":true}"#, false),
    (
      #"{"s":"x","n":9223372036854775807,"b":true,"longerName":"","#
        + #""id":-9223372036854775808,"flag":true}"#, true
    ),
    (#"{"s":"x","n":9223372036854775808,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1e2,"b":true,"longerName":"","id":-0,"flag":true}"#, true),
    // Whole numbers of 1, 17, 18 and 19 digits (the 18th and on read by the general path),
    // zeros, fractions and exponents right after the digits.
    (#"{"s":"x","n":0,"b":true,"longerName":"","id":12345678901234567,"flag":true}"#, true),
    (#"{"s":"x","n":123456789012345678,"b":true,"longerName":"","id":9,"flag":true}"#, true),
    (#"{"s":"x","n":1234567890123456789,"b":true,"longerName":"","id":9,"flag":true}"#, true),
    (#"{"s":"x","n":99999999999999999,"b":true,"longerName":"","id":10E1,"flag":true}"#, true),
    (#"{"s":"x","n":01,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":00,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":0.0,"b":true,"longerName":"","id":2.50,"flag":true}"#, false),
    (#"{"s":"x","n":0.0,"b":true,"longerName":"","id":2.0,"flag":true}"#, true),
    (#"{"s":"x","n":7e,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":7.,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":-12,"b":true,"longerName":"","id":-,"flag":true}"#, false),
    (#"{"s":"x","n":- 1,"b":true,"longerName":"","id":0,"flag":true}"#, false),
    (#"{"s":"x","n":1 ,"b":true,"longerName":"","id":0 ,"flag":true}"#, true),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":0,"flag":tru}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id" 0,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":,"flag":true}"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":0,"flag":true"#, false),
    (#"{"s":"x","n":1,"b":true,"longerName":"","id":0,"flag":true}}"#, false),
  ]
  for (text, accepted) in cases {
    expectAgreement(ScalarMembers.self, text, accepted: accepted)
    expectAgreement([ScalarMembers].self, "[" + plain + "," + text + "]", accepted: accepted)
  }
}
