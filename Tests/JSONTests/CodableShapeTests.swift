import JSON
import JSONTestSupport
import Testing

// Every Codable shape round-trips: decode(encode(x)) == x.

struct Scalars: Codable, Equatable {
  var bool = true
  var int = Int.min
  var int8 = Int8.min
  var int16 = Int16.max
  var int32 = Int32.min
  var int64 = Int64.max
  var uint = UInt.max
  var uint8 = UInt8.max
  var uint16 = UInt16.max
  var uint32 = UInt32.max
  var uint64 = UInt64.max
  var double = 0.1
  var float: Float = 3.4028235e38
  var string = "héllo \"wörld\"\n\t\u{0}\u{1F}\u{7F} 𝄞 \u{2028}"
}

struct Containers: Codable, Equatable {
  var optional: Int? = 3
  var missing: String? = nil
  var array = [1, 2, 3]
  var empty: [String] = []
  var nested = [[1], [], [2, 3]]
  var dictionary = ["a": 1, "b/c": 2, "~": 3, "": 4]
  var intKeys = [1: "one", -2: "minus two", Int.max: "max"]
  var optionals: [Int?] = [1, nil, 3]
  var set: Set<String> = ["x"]
  var child = Child()
  var children = [Child(), Child(name: "b", tags: ["t"])]
}

struct Child: Codable, Equatable {
  var name = "a"
  var tags: [String] = []
}

enum AppAction: Codable, Equatable {
  case increment
  case setCount(Int)
  case toggle(id: Int)
  case pair(Int, String)
  case labeled(x: Int, y: String?)
  case optional(String?)
  case list([Int])
  case child(ChildAction)
  case record(Child)
  case empty(Nothing)

  enum ChildAction: Codable, Equatable {
    case searchQueryChanged(String)
    case clear
  }

  struct Nothing: Codable, Equatable {}
}

enum Filter: String, Codable { case all, active, completed }
enum Level: Int, Codable { case low = 1, high = 2 }

@Test func scalarsRoundTrip() throws {
  let value = Scalars()
  #expect(try decode(Scalars.self, encode(value)) == value)
  let other = Scalars(
    bool: false, int: Int.max, int8: Int8.max, int16: Int16.min, int32: Int32.max,
    int64: Int64.min,
    uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0, double: -1.5e-300, float: -0.0,
    string: "")
  #expect(try decode(Scalars.self, encode(other)) == other)
}

@Test func containersRoundTrip() throws {
  let value = Containers()
  #expect(try decode(Containers.self, encode(value)) == value)
}

@Test func intKeyedDictionariesAreObjectsWithStringKeys() throws {
  #expect(try encode([3: true]) == #"{"3":true}"#)
  #expect(try decode([Int: Bool].self, #"{"3":true,"-4":false}"#) == [3: true, -4: false])
  #expect(try decode([String: [Int: String]].self, #"{"a":{"1":"x"}}"#) == ["a": [1: "x"]])
}

@Test func enumsRoundTripInEveryForm() throws {
  let actions: [AppAction] = [
    .increment, .setCount(-7), .toggle(id: 3), .pair(1, "a"), .labeled(x: 1, y: nil),
    .labeled(x: 2, y: "z"), .optional(nil), .optional("o"), .list([]), .list([1, 2]),
    .child(.searchQueryChanged("bos")), .child(.clear), .record(Child(name: "r", tags: ["1"])),
    .empty(.init()),
  ]
  for action in actions {
    #expect(try decode(AppAction.self, encode(action)) == action, "\(action)")
  }
  #expect(try decode([AppAction].self, encode(actions)) == actions)
}

@Test func rawValueEnumsAndTopLevelScalars() throws {
  #expect(try encode(Filter.active) == #""active""#)
  #expect(try decode(Filter.self, #""completed""#) == .completed)
  #expect(try decode(Level.self, "2") == .high)
  #expect(try encode(Level.low) == "1")
  #expect(try encode(5) == "5")
  #expect(try encode("x") == #""x""#)
  #expect(try encode(true) == "true")
  #expect(try encode(Int?.none) == "null")
  #expect(try decode(Int?.self, "null") == nil)
  #expect(try decode(String.self, #""\ud83d\ude00""#) == "😀")
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
@Test func int128RoundTrips() throws {
  struct Wide: Codable, Equatable {
    var signed: Int128
    var unsigned: UInt128
  }
  let value = Wide(signed: .min, unsigned: .max)
  let text = try encode(value)
  #expect(
    text
      == #"{"signed":-170141183460469231731687303715884105728,"#
      + #""unsigned":340282366920938463463374607431768211455}"#
  )
  #expect(try decode(Wide.self, text) == value)
  #expect(
    error { () throws(JSONError) in
      try decode(UInt128.self, "340282366920938463463374607431768211456")
    }?.kind == .shape)
}

/// A class hierarchy written the Foundation way: `super` under its own key.
class Base: Codable, Equatable {
  var x: Int
  init(x: Int) { self.x = x }
  static func == (a: Base, b: Base) -> Bool { a.x == b.x && type(of: a) == type(of: b) }
}

final class Derived: Base {
  var y: String
  enum CodingKeys: CodingKey { case y }

  init(x: Int, y: String) {
    self.y = y
    super.init(x: x)
  }

  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    y = try container.decode(String.self, forKey: .y)
    try super.init(from: container.superDecoder())
  }

  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(y, forKey: .y)
    try super.encode(to: container.superEncoder())
  }
}

@Test func superEncoderAndSuperDecoder() throws {
  let value = Derived(x: 1, y: "two")
  let text = try encode(value)
  #expect(text == #"{"y":"two","super":{"x":1}}"#)
  let back = try decode(Derived.self, text)
  #expect(back.x == 1 && back.y == "two")
}

/// Containers used out of order: legal Codable that a streaming writer cannot stream.
struct Interleaved: Codable, Equatable {
  var a: Int
  var inner: [String: Int]
  var b: Int
  enum CodingKeys: CodingKey { case a, inner, b }
  enum InnerKeys: CodingKey { case p, q }

  init(a: Int, inner: [String: Int], b: Int) {
    self.a = a
    self.inner = inner
    self.b = b
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    a = try container.decode(Int.self, forKey: .a)
    inner = try container.decode([String: Int].self, forKey: .inner)
    b = try container.decode(Int.self, forKey: .b)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
    let superEncoder = container.superEncoder(forKey: .b)
    try container.encode(a, forKey: .a)
    try nested.encode(inner["p"] ?? 0, forKey: .p)  // after its parent went on
    try nested.encode(inner["q"] ?? 0, forKey: .q)
    var single = superEncoder.singleValueContainer()  // a slot kept for later
    try single.encode(b)
  }
}

@Test func containersUsedOutOfOrderStillEncodeRight() throws {
  let value = Interleaved(a: 1, inner: ["p": 2, "q": 3], b: 4)
  let text = try encode(value)
  #expect(try decode(Interleaved.self, text) == value)
  #expect(
    try JSONParser.parse(Array(text.utf8))
      == .object([
        ("inner", .object([("p", .number("2")), ("q", .number("3"))])), ("b", .number("4")),
        ("a", .number("1")),
      ]))
}

/// A type that writes a key twice: the last value wins, as with Foundation.
struct RepeatedKey: Encodable {
  enum CodingKeys: String, CodingKey { case a, b }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(1, forKey: .a)
    try container.encode(2, forKey: .b)
    try container.encode(3, forKey: .a)
  }
}

@Test func aRepeatedKeyIsWrittenOnceWithTheLastValue() throws {
  let text = try encode(RepeatedKey())
  #expect(try decode([String: Int].self, text) == ["a": 3, "b": 2])
}

/// A big object whose names collide in the encoder's filter, but never repeat.
@Test func bigObjectsAndDictionaries() throws {
  let dictionary = Dictionary(uniqueKeysWithValues: (0..<2000).map { ("key \($0)", $0) })
  #expect(try decode([String: Int].self, encode(dictionary)) == dictionary)
  let ints = Dictionary(uniqueKeysWithValues: (0..<2000).map { ($0 * 7, String($0)) })
  #expect(try decode([Int: String].self, encode(ints)) == ints)
  struct Wide: Codable, Equatable {
    var a1 = 1, b1 = 2, c1 = 3, d1 = 4, e1 = 5, f1 = 6, g1 = 7, h1 = 8, i1 = 9, j1 = 10
    var a2 = 1, b2 = 2, c2 = 3, d2 = 4, e2 = 5, f2 = 6, g2 = 7, h2 = 8, i2 = 9, j2 = 10
    var aa = 0, ab = 0, ac = 0, ad = 0, ae = 0, af = 0, ag = 0, ah = 0, ai = 0, aj = 0
  }
  #expect(try decode(Wide.self, encode(Wide())) == Wide())
}

/// Members asked for in any order, and more than once.
@Test func membersAreFoundInAnyOrder() throws {
  struct Backwards: Decodable, Equatable {
    var a: Int, b: Int, c: Int
    enum CodingKeys: CodingKey { case a, b, c }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      c = try container.decode(Int.self, forKey: .c)
      b = try container.decode(Int.self, forKey: .b)
      a = try container.decode(Int.self, forKey: .a)
      #expect(try container.decode(Int.self, forKey: .c) == c)
      #expect(container.allKeys.count == 3)
      #expect(container.contains(.b))
    }
  }
  let value = try decode(Backwards.self, #"{"a":1,"b":2,"c":3,"extra":[{"a":9}]}"#)
  #expect(value.a == 1 && value.b == 2 && value.c == 3)
}

/// What encodes nothing is `{}`, as with Foundation.
@Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
  struct Silent: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
  }
  #expect(try encode(Silent()) == "{}")
  #expect(try encode([Silent(), Silent()]) == "[{},{}]")
  #expect(try decode([Silent].self, "[{},{}]").count == 2)
}

@Test func userInfoReachesTheCodingTypes() throws {
  struct Reader: Codable {
    static let key = CodingUserInfoKey(rawValue: "scale")!
    var value: Int
    init(value: Int) { self.value = value }
    init(from decoder: any Decoder) throws {
      value = try Int(from: decoder) * (decoder.userInfo[Reader.key] as? Int ?? 1)
    }
    func encode(to encoder: any Encoder) throws {
      try (value * (encoder.userInfo[Reader.key] as? Int ?? 1)).encode(to: encoder)
    }
  }
  var decoder = JSONDecoder()
  decoder.userInfo[Reader.key] = 10
  #expect(try decoder.decode(Reader.self, from: Array("4".utf8)).value == 40)
  var encoder = JSONEncoder()
  encoder.userInfo[Reader.key] = 3
  #expect(try encoder.encode(Reader(value: 2)) == Array("6".utf8))
}

@Test func encodeValueAndDecodeFromValue() throws {
  let value = try JSONEncoder().encodeValue(Child(name: "n", tags: ["a"]))
  #expect(value == .object([("name", .string("n")), ("tags", .array([.string("a")]))]))
  #expect(try JSONDecoder().decode(Child.self, from: value) == Child(name: "n", tags: ["a"]))
}
