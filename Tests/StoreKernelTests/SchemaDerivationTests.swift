import JSON
import StoreKernel
import Testing

// Schemas derived from Codable types (docs/schema.md): structs, optionals, collections, enums
// with every payload form, nested and recursive types, navigation types, and types that cannot
// be derived. Each schema is also checked against the JSON the library reads and writes.

/// `type`'s schema and the `$defs` it needs, as one document (`root` is the schema).
private func derive(_ type: Any.Type) throws -> (root: JSONValue, validator: SchemaValidator) {
  let builder = JSONSchemaBuilder()
  let root = try builder.schema(for: type)
  let document: JSONValue = .object([
    ("root", root), ("$defs", builder.definitions(reachableFrom: [root])),
  ])
  return (root, SchemaValidator(document: document))
}

/// The `$defs` entry a `$ref` schema names.
private func definition(_ schema: JSONValue, in validator: SchemaValidator) -> JSONValue? {
  guard case let .string(target)? = schema["$ref"] else { return nil }
  return validator.document["$defs"]?[String(target.dropFirst("#/$defs/".count))]
}

private func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
  try JSONParser.parse(JSONEncoder().encode(value))
}

private func names(_ value: JSONValue?) -> [String] {
  guard case let .array(elements)? = value else { return [] }
  return elements.compactMap { if case let .string(name) = $0 { name } else { nil } }
}

private func keys(_ value: JSONValue?) -> [String] {
  guard case let .object(members)? = value else { return [] }
  return members.map(\.key)
}

// MARK: - Structs and collections

private struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

private struct Profile: Codable, Equatable {
  var name: String
  var nickname: String?
  var tags: [String]
  var scores: [String: Int]
  var points: [Int: Point]
  var small: Int8
  var count: UInt
  var ratio: Double
  var id: UUID
  var history: [Point?]
}

@Test func aStructIsAnObjectOfItsMembersInOrder() throws {
  let (root, validator) = try derive(Profile.self)
  #expect(root == .object([("$ref", "#/$defs/Profile")]))
  let profile = try #require(definition(root, in: validator))
  #expect(profile["title"] == "Profile")
  #expect(profile["x-tca-kind"] == "struct")
  #expect(profile["type"] == "object")
  #expect(
    keys(profile["properties"])
      == [
        "name", "nickname", "tags", "scores", "points", "small", "count", "ratio", "id", "history",
      ])
  // NB: the synthesized encode(to:) leaves a nil optional out: not required.
  #expect(
    names(profile["required"])
      == ["name", "tags", "scores", "points", "small", "count", "ratio", "id", "history"])
  #expect(profile["additionalProperties"] == nil)
  let properties = try #require(profile["properties"])
  #expect(
    properties["nickname"]
      == .object([("anyOf", .array([.object([("type", "string")]), .object([("type", "null")])]))]))
  #expect(
    properties["tags"]
      == .object([("type", "array"), ("items", .object([("type", "string")]))]))
  #expect(
    properties["scores"]
      == .object([("type", "object"), ("additionalProperties", .object([("type", "integer")]))]))
  #expect(properties["points"]?["propertyNames"] != nil)
  #expect(properties["points"]?["additionalProperties"] == .object([("$ref", "#/$defs/Point")]))
  #expect(
    properties["small"]
      == .object([("type", "integer"), ("minimum", .number("-128")), ("maximum", .number("127"))]))
  #expect(properties["count"] == .object([("type", "integer"), ("minimum", .number("0"))]))
  #expect(properties["ratio"] == .object([("type", "number")]))
  #expect(properties["id"]?["format"] == "uuid")
  #expect(properties["history"]?["items"]?["anyOf"] != nil)

  let value = Profile(
    name: "a", nickname: nil, tags: ["x"], scores: ["s": 1], points: [3: Point(x: 1, y: 2)],
    small: -3, count: 7, ratio: 0.5, id: UUID(high: 1, low: 2), history: [nil, Point(x: 0, y: 0)])
  #expect(validator.accepts(try encoded(value), root))
  var named = value
  named.nickname = "b"
  #expect(validator.accepts(try encoded(named), root))
  #expect(!validator.accepts(#"{"name":"a"}"#, root))
  let rest = #""tags":[],"scores":{},"points":{},"count":0,"ratio":0,"id":"x","history":[]"#
  #expect(validator.accepts(#"{"name":"a","small":0,"# + rest + "}", root))
  #expect(!validator.accepts(#"{"name":1,"small":0,"# + rest + "}", root))
  #expect(!validator.accepts(#"{"name":"a","small":300,"# + rest + "}", root))
}

/// A state whose `init(from:)` gives defaults and whose `encode(to:)` writes `null` and a
/// derived member it never reads.
private struct Screen: Codable, Equatable {
  var count = 0
  var note: String?
  var items: [Int] = []

  enum CodingKeys: String, CodingKey { case count, note, items, total }

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
    note = try container.decodeIfPresent(String.self, forKey: .note)
    items = try container.decodeIfPresent([Int].self, forKey: .items) ?? []
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(note, forKey: .note)
    try container.encode(items, forKey: .items)
    try container.encode(items.reduce(0, &+), forKey: .total)
  }
}

@Test func requiredMembersAreThoseAlwaysWritten() throws {
  let (root, validator) = try derive(Screen.self)
  let screen = try #require(definition(root, in: validator))
  #expect(keys(screen["properties"]) == ["count", "note", "items", "total"])
  #expect(names(screen["required"]) == ["count", "note", "items", "total"])
  #expect(screen["properties"]?["count"] == .object([("type", "integer")]))
  #expect(screen["properties"]?["note"]?["anyOf"] != nil)
  #expect(validator.accepts(try encoded(Screen()), root))
  #expect(!validator.accepts(#"{"count":0,"items":[],"total":0}"#, root))
}

// MARK: - Enums

private enum Filter: String, Codable, Equatable {
  case all, active, completed
}

private enum Action: Codable, Equatable {
  case increment
  case setCount(Int)
  case toggle(id: Int)
  case move(Int, Int)
  case setName(String?)
  case setPoint(Point)
  case filter(Filter)
  case child(Child)

  enum Child: Codable, Equatable {
    case tapped
    case typed(String)
  }
}

@Test func aRawEnumIsItsStrings() throws {
  let (root, validator) = try derive(Filter.self)
  let filter = try #require(definition(root, in: validator))
  #expect(filter["x-tca-kind"] == "enum")
  #expect(filter["type"] == "string")
  #expect(filter["enum"] == .array(["all", "active", "completed"]))
  #expect(validator.accepts(#""active""#, root))
  #expect(!validator.accepts(#""some""#, root))
}

@Test func anActionIsOneOfItsCasesInEveryForm() throws {
  let (root, validator) = try derive(Action.self)
  let action = try #require(definition(root, in: validator))
  #expect(action["x-tca-kind"] == "action")
  guard case let .array(cases)? = action["oneOf"] else {
    Issue.record("no oneOf")
    return
  }
  #expect(
    cases.map { $0["x-tca-case"] }
      == ["increment", "setCount", "toggle", "move", "setName", "setPoint", "filter", "child"])
  // The payloads, for generators: labels and schemas in order.
  #expect(cases[0]["x-tca-payload"] == nil)
  #expect(
    cases[1]["x-tca-payload"]
      == .array([.object([("label", .null), ("schema", .object([("type", "integer")]))])]))
  #expect(cases[2]["x-tca-payload"]?.labels == ["id"])
  #expect(cases[3]["x-tca-payload"]?.labels == [nil, nil])

  // Every form the decoder accepts (docs/wire-format.md) is valid, and decodes.
  let accepted = [
    #""increment""#, #"{"increment":{}}"#, #"{"setCount":5}"#, #"{"setCount":{"_0":5}}"#,
    #"{"toggle":{"id":3}}"#, #"{"move":{"_0":1,"_1":2}}"#, #"{"setName":"x"}"#,
    #"{"setName":null}"#, #"{"setName":{}}"#, #"{"setName":{"_0":"y"}}"#,
    #"{"setPoint":{"x":1,"y":2}}"#, #"{"setPoint":{"_0":{"x":1,"y":2}}}"#,
    #"{"filter":"active"}"#, #"{"child":"tapped"}"#, #"{"child":{"typed":"a"}}"#,
    #"{"child":{"_0":{"typed":{"_0":"a"}}}}"#,
    // NB: the decoder ignores members it does not know, in a payload and beside the case.
    #"{"toggle":{"id":3,"other":1}}"#, #"{"increment":{},"other":1}"#,
  ]
  for text in accepted {
    #expect(validator.accepts(text, root), "\(text)")
    #expect(throws: Never.self, "\(text)") {
      try JSONDecoder().decode(Action.self, from: Array(text.utf8))
    }
  }
  // What the decoder refuses is invalid.
  let refused = [
    #""jump""#, #"{"jump":{}}"#, #"{"increment":{},"setCount":1}"#, #"{}"#,
    #"{"setCount":"x"}"#, #"{"toggle":{}}"#, #"{"increment":true}"#, #"12"#,
    #"{"filter":"some"}"#, #"{"child":"typed"}"#, #"{"move":{"_0":1}}"#,
  ]
  for text in refused {
    #expect(!validator.accepts(text, root), "\(text)")
    #expect(throws: JSONError.self, "\(text)") {
      try JSONDecoder().decode(Action.self, from: Array(text.utf8))
    }
  }
  // And what the library writes is valid.
  for value: Action in [
    .increment, .setCount(-7), .toggle(id: 3), .move(1, 2), .setName(nil), .setName("n"),
    .setPoint(Point(x: 1, y: 2)), .filter(.completed), .child(.typed("é")),
  ] {
    #expect(validator.accepts(try encoded(value), root), "\(value)")
  }
}

extension JSONValue {
  fileprivate var labels: [String?] {
    guard case let .array(entries) = self else { return [] }
    return entries.map { if case let .string(label)? = $0["label"] { label } else { nil } }
  }
}

@Test func nestedFeaturesNest() throws {
  let (root, validator) = try derive(Action.self)
  let action = try #require(definition(root, in: validator))
  guard case let .array(cases)? = action["oneOf"] else { return }
  let child = cases[7]["x-tca-payload"]
  #expect(child?.labels == [nil])
  guard case let .array(payload)? = child else { return }
  #expect(payload[0]["schema"] == .object([("$ref", "#/$defs/Action.Child")]))
  #expect(validator.document["$defs"]?["Action.Child"]?["x-tca-kind"] == "action")
}

// MARK: - Recursive types

private indirect enum Expression: Codable, Equatable {
  case add(Expression, Expression)
  case negate(Negation)
  case number(Int)
}

private struct Negation: Codable, Equatable {
  var inner: Expression
}

private struct Tree: Codable, Equatable {
  var value: Int
  var children: [Tree]
}

private final class Link: Codable {
  let value: Int
  let next: Link?
}

@Test func recursiveTypesReferToThemselves() throws {
  let (expression, validator) = try derive(Expression.self)
  #expect(expression == .object([("$ref", "#/$defs/Expression")]))
  let cases = try #require(definition(expression, in: validator)?["oneOf"])
  guard case let .array(list) = cases else { return }
  #expect(list.map { $0["x-tca-case"] } == ["add", "negate", "number"])
  #expect(validator.document["$defs"]?["Negation"]?["properties"]?["inner"] == expression)
  let value = Expression.add(.number(1), .negate(Negation(inner: .number(2))))
  #expect(validator.accepts(try encoded(value), expression))
  #expect(!validator.accepts(#"{"add":{"_0":{"number":1},"_1":{"number":"x"}}}"#, expression))

  let (tree, trees) = try derive(Tree.self)
  #expect(
    definition(tree, in: trees)?["properties"]?["children"]
      == .object([("type", "array"), ("items", tree)]))
  let grown = Tree(value: 1, children: [Tree(value: 2, children: [])])
  #expect(trees.accepts(try encoded(grown), tree))

  let (link, links) = try derive(Link.self)
  #expect(
    definition(link, in: links)?["properties"]?["next"]
      == .object([("anyOf", .array([link, .object([("type", "null")])]))]))
}

// MARK: - Navigation

private struct Child: Reducer, Sendable {
  struct State: Codable, Equatable, Sendable {
    var text = ""
  }
  enum Action: Codable, Equatable, Sendable {
    case edited(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

private enum AlertAction: Codable, Equatable, Sendable {
  case confirm
}

private struct Navigating: Codable, Equatable {
  @PresentationState var sheet: Child.State?
  var path = StackState<Child.State>()
  @PresentationState var alert: AlertState<AlertAction>?
  var dialog: ConfirmationDialogState<AlertAction>?

  enum Action: Codable, Equatable {
    case sheet(PresentationAction<Child.Action>)
    case path(StackAction<Child.State, Child.Action>)
    case alert(PresentationAction<AlertAction>)
  }
}

@Test func navigationTypesAreSpelledAsTheWireFormatSpellsThem() throws {
  let (root, validator) = try derive(Navigating.self)
  let state = try #require(definition(root, in: validator))
  let defs = try #require(validator.document["$defs"])
  let sheetMember = try #require(state["properties"]?["sheet"])
  let sheet = try #require(definition(sheetMember, in: validator))
  #expect(sheet["title"] == "PresentationState<Child.State>")
  #expect(sheet["x-tca-kind"] == "presentation")
  #expect(
    sheet["anyOf"]
      == .array([.object([("$ref", "#/$defs/Child.State")]), .object([("type", "null")])]))
  let stack = try #require(defs["StackState_Child.State_"])
  #expect(stack["x-tca-kind"] == "stack")
  #expect(names(stack["required"]) == ["elements", "nextID"])
  #expect(defs["AlertState_AlertAction_"]?["x-tca-kind"] == "alert")
  #expect(defs["ConfirmationDialogState_AlertAction_"]?["x-tca-kind"] == "dialog")
  #expect(
    keys(defs["ConfirmationDialogState_AlertAction_"]?["properties"])
      == ["titleVisibility", "title", "message", "buttons"])

  var value = Navigating()
  value.sheet = Child.State(text: "a")
  value.path.append(Child.State(text: "b"))
  value.alert = AlertState(
    title: "Sure?", buttons: [ButtonState(role: .destructive, action: .confirm, label: "Yes")])
  value.dialog = ConfirmationDialogState(title: "Pick", buttons: [ButtonState(label: "No")])
  #expect(validator.accepts(try encoded(value), root))
  #expect(validator.accepts(try encoded(Navigating()), root))
  #expect(
    !validator.accepts(
      #"{"sheet":null,"path":{"elements":[{"id":-1,"state":{"text":""}}],"nextID":0},"#
        + #""alert":null}"#,
      root))

  let (action, actions) = try derive(Navigating.Action.self)
  for text in [
    #"{"sheet":"dismiss"}"#, #"{"sheet":{"presented":{"edited":"x"}}}"#,
    #"{"sheet":{"presented":{"_0":{"edited":{"_0":"x"}}}}}"#,
    #"{"path":{"element":{"id":0,"action":{"edited":"x"}}}}"#, #"{"path":{"popFrom":{"id":0}}}"#,
    #"{"path":{"push":{"id":3,"state":{"text":"c"}}}}"#, #"{"alert":{"presented":"confirm"}}"#,
  ] {
    #expect(actions.accepts(text, action), "\(text)")
    #expect(throws: Never.self, "\(text)") {
      try JSONDecoder().decode(Navigating.Action.self, from: Array(text.utf8))
    }
  }
  #expect(!actions.accepts(#"{"path":{"popFrom":{}}}"#, action))
  let stackAction = try #require(
    actions.document["$defs"]?["StackAction_Child.State__Child.Action_"])
  #expect(stackAction["x-tca-kind"] == "action")
}

// MARK: - Types that cannot be derived

/// Refuses the probe's value (0): its schema cannot be derived.
private struct Positive: Codable, Equatable, Sendable {
  var value: Int
  init(from decoder: any Decoder) throws {
    value = try Int(from: decoder)
    guard value > 0 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "\(value) is not positive"))
    }
  }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// Reads member names that are not the cases of an enum.
private struct Bag: Codable, Equatable, Sendable {
  var names: [String]
  struct Name: CodingKey {
    var stringValue: String
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
  init(from decoder: any Decoder) throws {
    names = try decoder.container(keyedBy: Name.self).allKeys.map(\.stringValue)
  }
  func encode(to encoder: any Encoder) throws {}
}

private struct Broken<Member: Codable & Equatable & Sendable>: Reducer, Sendable {
  struct State: Codable, Equatable, Sendable {
    var member: Member
  }
  enum Action: Codable, Equatable, Sendable { case tap }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

@Test func aTypeThatCannotBeDerivedIsNamedWithWhy() throws {
  let positive = #expect(throws: JSONSchemaError.self) { try derive(Positive.self) }
  #expect(positive?.typeName == "Positive")
  #expect(positive?.reason.contains("is not positive") == true)
  #expect(positive?.reason.hasSuffix("make it JSONSchemaDescribing") == true)

  let bag = #expect(throws: JSONSchemaError.self) { try derive(Bag.self) }
  #expect(bag?.typeName == "Bag")
  #expect(bag?.reason.contains("allKeys") == true)

  // Registration says which feature, which type and why; the feature is not registered.
  let registry = FeatureRegistry()
  let failure = #expect(throws: FeatureRegistry.Error.self) {
    try registry.register(
      name: "broken", summary: "",
      initialState: Broken<Positive>.State(
        member: try JSONDecoder().decode(Positive.self, from: Array("1".utf8))),
      reducer: Broken<Positive>())
  }
  #expect(
    failure?.description.hasPrefix(
      "feature \"broken\": cannot derive a schema for Positive: its init(from:) threw") == true)
  #expect(registry.features.isEmpty)
}

@Test func aFeatureWithoutSchemaCodeGetsOne() throws {
  let registry = FeatureRegistry()
  try registry.register(
    name: "navigating", summary: "", requests: ["save", "save"],
    initialState: Broken<Int>.State(member: 1), reducer: Broken<Int>())
  try registry.register(
    name: "typed", summary: "",
    requests: [
      .oneShot("load", payload: Int.self, response: [Point].self),
      .stream("ticks", element: Double.self), .fireAndForget("log", payload: String.self),
    ],
    initialState: Broken<Int>.State(member: 1), reducer: Broken<Int>())
  let features = registry.features
  let names = try JSONParser.parse(features[0].schemaJSON())
  #expect(names["feature"] == "navigating")
  #expect(names["$schema"] == "https://json-schema.org/draft/2020-12/schema")
  #expect(
    names["requests"]
      == .object([
        ("save", .object([("payload", true), ("response", true), ("x-tca-undeclared", true)]))
      ]))
  let typed = try JSONParser.parse(features[1].schemaJSON())
  #expect(
    typed["requests"]?["load"]
      == .object([
        ("kind", "oneShot"), ("payload", .object([("type", "integer")])),
        (
          "response", .object([("type", "array"), ("items", .object([("$ref", "#/$defs/Point")]))])
        ),
      ]))
  #expect(typed["requests"]?["ticks"]?["kind"] == "stream")
  #expect(typed["requests"]?["ticks"]?["payload"]?["type"] == "object")
  #expect(typed["requests"]?["log"]?["response"] == nil)
  #expect(keys(typed["$defs"]) == ["Broken_Int_.State", "Broken_Int_.Action", "Point"])
  #expect(typed["$defs"]?["Broken_Int_.State"]?["title"] == "Broken<Int>.State")
}

private func firstSpot() -> Any.Type {
  struct Spot: Codable { var x: Int }
  return Spot.self
}

private func secondSpot() -> Any.Type {
  struct Spot: Codable { var z: Int }
  return Spot.self
}

@Test func typesOfTheSameTitleGetTheirOwnKeys() throws {
  let builder = JSONSchemaBuilder()
  let first = try builder.schema(for: firstSpot())
  let second = try builder.schema(for: secondSpot())
  #expect(first == .object([("$ref", "#/$defs/Spot")]))
  #expect(second == .object([("$ref", "#/$defs/Spot_2")]))
  let defs = builder.definitions(reachableFrom: [first, second])
  #expect(defs["Spot"]?["title"] == "Spot")
  #expect(defs["Spot_2"]?["title"] == "Spot")
  #expect(defs["Spot_2"]?["properties"]?["z"] != nil)
}

@Test func titlesAreSwiftNamesWithoutModules() {
  #expect(JSONSchemaNames.title(of: StackState<Child.State>.self) == "StackState<Child.State>")
  #expect(JSONSchemaNames.title(of: [String: [Int]].self) == "Dictionary<String, Array<Int>>")
  #expect(
    JSONSchemaNames.title(of: StackAction<Child.State, Child.Action>.self)
      == "StackAction<Child.State, Child.Action>")
  #expect(JSONSchemaNames.title(of: firstSpot()) == "Spot")
  #expect(
    JSONSchemaNames.key(for: "StackAction<Child.State, Child.Action>")
      == "StackAction_Child.State__Child.Action_")
}

/// A folder browser: a feature that presents itself (a recursive feature).
private struct Folders: Reducer, Sendable {
  struct State: Codable, Equatable, Sendable {
    var name = "/"
    @PresentationState var subfolder: State?
  }
  enum Action: Codable, Equatable, Sendable {
    case open(String)
    indirect case subfolder(PresentationAction<Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case let .open(name) = action { state.subfolder = State(name: name) }
      return .none
    }
    .ifLet(
      \.$subfolder,
      action: AnyCasePath<Action, PresentationAction<Action>>(
        embed: Action.subfolder,
        extract: { if case let .subfolder(action) = $0 { action } else { nil } })
    ) { Folders() }
  }
}

@Test func aRecursiveFeatureGetsASchemaThatReferToItself() throws {
  let registry = FeatureRegistry()
  try registry.register(
    name: "folders", summary: "", initialState: Folders.State(), reducer: Folders())
  let document = try JSONParser.parse(try #require(registry.features.first).schemaJSON())
  let validator = SchemaValidator(document: document)
  let defs = try #require(document["$defs"])
  #expect(
    defs["Folders.State"]?["properties"]?["subfolder"]
      == .object([("$ref", "#/$defs/PresentationState_Folders.State_")]))
  #expect(
    defs["PresentationState_Folders.State_"]?["anyOf"]
      == .array([.object([("$ref", "#/$defs/Folders.State")]), .object([("type", "null")])]))
  let state = try #require(document["state"])
  let action = try #require(document["action"])
  #expect(validator.accepts(#"{"name":"/","subfolder":{"name":"a","subfolder":null}}"#, state))
  #expect(!validator.accepts(#"{"name":"/","subfolder":{"name":3,"subfolder":null}}"#, state))
  #expect(validator.accepts(#"{"subfolder":{"presented":{"subfolder":"dismiss"}}}"#, action))
  #expect(validator.accepts(#"{"subfolder":{"presented":{"open":"b"}}}"#, action))
  #expect(!validator.accepts(#"{"subfolder":{"presented":{"opn":"b"}}}"#, action))
}
