import JSON
import JSONTestSupport
import Testing

// Property tests with a seeded generator (they repeat exactly): random Codable values
// round-trip; random bytes and random mutations of valid documents never crash, and always give
// a value or an error.

/// A Codable type with every shape in it, recursively.
indirect enum Tree: Codable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case small(Int8, UInt8, Int16, UInt16)
  case wide(Int32, UInt32, Int64, UInt64, UInt)
  case double(Double)
  case float(Float)
  case string(String)
  case list([Tree])
  case map([String: Tree])
  case intMap([Int: Tree])
  case record(Record)
  case optional(Tree?)
  case labeled(name: String, value: Tree?)
}

struct Record: Codable, Equatable {
  var a: Int?
  var b: [String]
  var c: Tree?
  var d: Bool
}

struct Generator {
  var random: SeededRandom

  init(seed: UInt64) { random = SeededRandom(seed: seed) }

  mutating func int<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return [T.min, T.max, 0, 1][Int.random(in: 0..<4, using: &random)]
    case 1: return T(truncatingIfNeeded: Int.random(in: -1000...1000, using: &random))
    default: return T.random(in: T.min...T.max, using: &random)
    }
  }

  mutating func double() -> Double {
    while true {
      let value: Double
      switch Int.random(in: 0..<4, using: &random) {
      case 0: value = Double(bitPattern: random.next())
      case 1: value = Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 100
      case 2:
        value =
          [0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, 1e16, 1e-7][
            Int.random(in: 0..<7, using: &random)]
      default: value = Double.random(in: -1e300...1e300, using: &random)
      }
      if value.isFinite { return value }
    }
  }

  mutating func float() -> Float {
    while true {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      if value.isFinite { return value }
    }
  }

  mutating func string() -> String {
    let pieces: [String] = [
      "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€",
      "𝄞", "😀", "\u{2028}", "\u{FFFF}", "\u{10FFFF}", "_0", "super", "~1", "abcdefghij",
    ]
    var out = ""
    for _ in 0..<Int.random(in: 0..<12, using: &random) {
      out += pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }
    return out
  }

  mutating func tree(depth: Int = 0) -> Tree {
    let leafOnly = depth >= 5
    switch Int.random(in: 0..<(leafOnly ? 8 : 14), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .int(int())
    case 3: return .small(int(), int(), int(), int())
    case 4: return .wide(int(), int(), int(), int(), int())
    case 5: return .double(double())
    case 6: return .float(float())
    case 7: return .string(string())
    case 8:
      return .list((0..<Int.random(in: 0..<5, using: &random)).map { _ in tree(depth: depth + 1) })
    case 9:
      var map: [String: Tree] = [:]
      for _ in 0..<Int.random(in: 0..<5, using: &random) { map[string()] = tree(depth: depth + 1) }
      return .map(map)
    case 10:
      var map: [Int: Tree] = [:]
      for _ in 0..<Int.random(in: 0..<5, using: &random) { map[int()] = tree(depth: depth + 1) }
      return .intMap(map)
    case 11:
      return .record(
        Record(
          a: Bool.random(using: &random) ? int() : nil, b: [string(), string()],
          c: Bool.random(using: &random) ? tree(depth: depth + 1) : nil,
          d: Bool.random(using: &random)))
    case 12: return .optional(Bool.random(using: &random) ? tree(depth: depth + 1) : nil)
    default:
      return .labeled(
        name: string(), value: Bool.random(using: &random) ? tree(depth: depth + 1) : nil)
    }
  }
}

@Test func randomValuesRoundTrip() throws {
  var generator = Generator(seed: 0x5EED)
  for _ in 0..<3000 {
    let value = generator.tree()
    let encoded = try JSONEncoder().encode(value)
    let decoded = try JSONDecoder().decode(Tree.self, from: encoded)
    #expect(decoded == value, "\(String(decoding: encoded, as: UTF8.self))")
    // The text is valid JSON, and the writer writes it back byte for byte.
    let parsed = try JSONParser.parse(encoded)
    #expect(JSONWriter.write(parsed) == encoded)
  }
}

@Test func randomFloatsRoundTripBitForBit() throws {
  var generator = Generator(seed: 42)
  for _ in 0..<5000 {
    let double = generator.double()
    let back = try JSONDecoder().decode(Double.self, from: JSONEncoder().encode(double))
    #expect(back.bitPattern == double.bitPattern, "\(double)")
    let float = generator.float()
    let floatBack = try JSONDecoder().decode(Float.self, from: JSONEncoder().encode(float))
    #expect(floatBack.bitPattern == float.bitPattern, "\(float)")
  }
}

/// Reads `bytes` every way there is; whatever happens must be a value or a `JSONError`.
private func readEveryWay(_ bytes: [UInt8]) {
  let parsed: JSONValue?
  do {
    parsed = try JSONParser.parse(bytes)
  } catch {
    // NB: a repeated member name is the one shape error of parsing (at a path, no offset).
    if error.kind == .shape {
      #expect(error.message.hasPrefix("duplicate member name "))
    } else {
      #expect(error.kind == .syntax)
      #expect((error.offset ?? -1) >= 0 && (error.offset ?? -1) <= bytes.count)
    }
    parsed = nil
  }
  if let parsed {
    #expect((try? JSONParser.parse(JSONWriter.write(parsed))) == parsed)
  }
  _ = try? JSONDecoder().decode(Tree.self, from: bytes)
  _ = try? JSONDecoder().decode([String: [Int]].self, from: bytes)
  _ = try? JSONDecoder().decode(Record.self, from: bytes)
  for pointer in ["", "/0", "/a", "/a/0/b", "/list/0"] {
    if let found = try? JSONPointer.lookup(pointer, in: bytes) {
      #expect(throws: Never.self) { try JSONParser.parse(found) }
    }
  }
}

@Test func randomBytesNeverCrash() {
  var random = SeededRandom(seed: 7)
  let alphabet =
    Array(#"{}[]",:0123456789-+.eEtrufalsn \\/u"#.utf8) + [
      0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF,
    ]
  for _ in 0..<20_000 {
    let length = Int.random(in: 0..<48, using: &random)
    let bytes: [UInt8] = (0..<length).map { _ in
      Bool.random(using: &random)
        ? alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        : UInt8.random(in: 0...255, using: &random)
    }
    readEveryWay(bytes)
  }
}

@Test func randomMutationsOfValidDocumentsNeverCrash() throws {
  var generator = Generator(seed: 99)
  var random = SeededRandom(seed: 100)
  let structural = Array(#"{}[]",:\u0"#.utf8) + [0x00, 0xFF, 0xED, 0xA0]
  for _ in 0..<5000 {
    var bytes = try JSONEncoder().encode(generator.tree())
    for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<6, using: &random) {
      case 0: bytes[at] = structural[Int.random(in: 0..<structural.count, using: &random)]
      case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
      case 2:
        bytes.insert(structural[Int.random(in: 0..<structural.count, using: &random)], at: at)
      case 3: bytes.remove(at: at)
      case 4: bytes.removeSubrange(at...)
      default:
        let end = min(bytes.count, at + Int.random(in: 1..<16, using: &random))
        bytes.insert(contentsOf: bytes[at..<end], at: at)
      }
    }
    readEveryWay(bytes)
  }
}
