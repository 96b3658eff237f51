// Types of every shape the JSONCodablePlugin meets, declared only Codable: the plugin writes the
// direct paths of those it can (GeneratedJSONCodable.swift in the build folder), and the tests
// check each against its Codable conformance. Keep the shapes odd: this file is also what the
// generator's reading of sources is tested on.

import JSON

// MARK: - Written for

enum Mode: String, Codable, Equatable, CaseIterable {
  case fast, slow = "SLOW"
}

enum Level: Int, Codable, Equatable {
  case low = 1, high
}

struct Item: Codable, Equatable {
  var id: Int
  var title: String
  var note: String?
  var done: Bool
  var score: Double
  var ratio: Float
  var small: Int8
  var big: UInt64
  var tags: [String]
  var mode: Mode
  var level: Level?
  var children: [Item]
}

enum SubCommand: Codable, Equatable {
  case tapped
  case searchQueryChanged(String)
}

enum Command: Codable, Equatable {
  case reset
  case setCount(Int)
  case toggle(id: Int)
  case rename(String?)
  case setTags([String])
  case put(Item)
  case move(from: Int, to: Int)
  case child(SubCommand)
  case pair(Int, String?)
  case labeledOptional(name: String?, count: Int)
  case custom(Custom)
  case customs([Custom]?)
  case `default`
  indirect case again(Command)
}

/// Defaults, constants, observers, computed and static members, several bindings in one
/// declaration, closures and braces in initializers and strings.
struct Settings: Codable, Equatable {
  var count = 0
  let version = 2
  let name: String
  var flags: [Bool] = []
  var nickname: String? = "x"
  var a = 1, b: Int
  var watched: Int = 0 {
    didSet { if watched < 0 { watched = 0 } }
  }
  var observed = 3 {
    willSet {}
  }
  var doubled: Int { count * 2 }
  var spelled: String {
    get { "\(count) {" }
    set { count = Int(newValue) ?? 0 }
  }
  static let shared = Settings(name: "s", b: 0)
  nonisolated(unsafe) static var limit = 10
  var fromClosure: Int = { () -> Int in 5 }()
  var mapped = [1, 2].map { $0 + 1 }
  var table = [String: Int]()
  var text = "}{\("{" + "}")\u{7D}"
  var raw = #"}\(not) "{"#
  var lines = """
    } {
    """
  var `default`: Int? = nil

  init(name: String, b: Int) {
    self.name = name
    self.b = b
  }

  func describe() -> String {
    let open = "{"
    return open + "\(count)"
  }
}

struct Outer: Codable, Equatable {
  var inner: Inner
  var inners: [Inner]?

  struct Inner: Codable, Equatable {
    var x: Int
    var deeper: Deeper?

    enum Deeper: Codable, Equatable {
      case leaf
    }
  }
}

extension Outer {
  struct FromExtension: Codable, Equatable {
    var y: String
  }
}

struct Empty: Codable, Equatable {}

public struct PublicItem: Codable, Equatable {
  public var x: Int
  public var y: String?

  public init(x: Int, y: String?) {
    self.x = x
    self.y = y
  }
}

/// Members whose types have no direct path: decoded and encoded through Codable, in place.
struct Mixed: Codable, Equatable {
  var custom: Custom
  var customs: [Custom]
  var maybe: Custom?
  var table: [String: Int]
  var optionalTable: [String: Custom]?
  var number: Int
}

protocol Model: Codable {}

struct ThroughProtocol: Model, Equatable {
  var value: Int
}

struct DecodeOnly: Decodable, Equatable {
  var value: Int
}

struct EncodeOnly: Encodable {
  var value: Int
}

/// Members named by plain `CodingKeys`: renamed, reordered, one left out (it keeps its value).
struct Renamed: Codable, Equatable {
  var id: Int
  var fullName: String?
  var note = "kept"
  var score: Double

  enum CodingKeys: String, CodingKey {
    case score
    case fullName = "full_name"
    case id = "ID"
  }
}

struct LaterCodable: Equatable {
  var value: Int
}

extension LaterCodable: Codable {}

// MARK: - Left to Codable

/// Coded its own way: a number, not an object.
struct Custom: Codable, Equatable {
  var value: Int

  init(value: Int) { self.value = value }

  init(from decoder: any Decoder) throws {
    value = try decoder.singleValueContainer().decode(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}


/// `CodingKeys` that are not plain: an `Int` enum.
struct Numbered: Codable, Equatable {
  var value: Int

  enum CodingKeys: Int, CodingKey {
    case value = 7
  }
}

enum MixedPayload: Codable, Equatable {
  case both(Int, label: Int)
}

struct Generic<Value: Codable & Equatable>: Codable, Equatable {
  var value: Value

  struct Nested: Codable, Equatable {
    var x: Int
  }
}

#if DEBUG || !DEBUG
  struct Conditional: Codable, Equatable {
    var x: Int
  }
#endif

private struct Hidden: Codable, Equatable {
  var x: Int
}

@propertyWrapper
struct Clamped: Codable, Equatable {
  var wrappedValue: Int
}

struct Wrapped: Codable, Equatable {
  @Clamped var x: Int
}

struct Lazy: Codable, Equatable {
  var x: Int
  lazy var y = x + 1
}

struct HandWritten: Codable, Equatable {
  var x: Int
}

extension HandWritten: JSONCodable {
  init(json: JSONValueReader) throws(JSONDeclined) {
    x = try json.object().decode(Int.self, forKey: "x")
  }

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in object.encode(x, forKey: "x") }
  }
}

struct Conditionally: Codable, Equatable {
  #if DEBUG
    var x = 1
  #endif
  var y: Int
}

// MARK: - userInfo

/// Writes and reads `userInfo[.tag]` beside its value: a member without a direct path must see
/// the coder's `userInfo`.
struct Tagged: Codable, Equatable {
  var value: Int
  var tag: String = ""

  init(value: Int) { self.value = value }

  init(from decoder: any Decoder) throws {
    value = try decoder.singleValueContainer().decode(Int.self)
    tag = decoder.userInfo[.tag] as? String ?? "none"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value * (encoder.userInfo[.tag] == nil ? 1 : 10))
  }
}

extension CodingUserInfoKey {
  static let tag = CodingUserInfoKey(rawValue: "tag")!
}

struct HoldsTagged: Codable, Equatable {
  var tagged: Tagged
  var count: Int
}
