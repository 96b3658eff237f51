import Features
import JSON
import StoreKernel
import Testing

// Every built-in feature's schema (docs/schema.md) derives, with every `$ref` resolved and every
// request declared with its kind and types. What it says is checked against the JSON the stores
// read and write by bindings/python/tests/test_schema.py, with an independent validator.

private func references(in value: JSONValue) -> [String] {
  switch value {
  case let .array(elements): return elements.flatMap(references(in:))
  case let .object(members):
    return members.flatMap { member -> [String] in
      if member.key == "$ref", case let .string(target) = member.value { return [target] }
      return references(in: member.value)
    }
  default: return []
  }
}

@Test(arguments: BuiltinFeatures.all.map(\.name))
func eachBuiltInFeatureHasAWholeSchema(name: String) throws {
  let feature = try #require(BuiltinFeatures.all.first { $0.name == name })
  let document = try JSONParser.parse(feature.schemaJSON())
  #expect(document["feature"] == .string(name))
  guard case let .object(defs)? = document["$defs"] else {
    Issue.record("no $defs")
    return
  }
  let keys = Set(defs.map(\.key))
  for target in references(in: document) {
    #expect(target.hasPrefix("#/$defs/"), "\(target)")
    #expect(keys.contains(String(target.dropFirst("#/$defs/".count))), "\(target)")
  }
  // Each entry is reached from the state, the actions or the requests, and says what it is.
  for (key, definition) in defs {
    #expect(definition["title"] != nil, "\(key)")
    #expect(definition["x-tca-kind"] != nil, "\(key)")
  }
  guard case let .object(requests)? = document["requests"] else { return }
  #expect(requests.map(\.key) == feature.requests)
  for (request, schema) in requests {
    #expect(schema["kind"] != nil, "\(request) is declared by name only")
    #expect(schema["payload"] != nil, "\(request)")
  }
  // The same text each time: derived once.
  #expect(try feature.schemaJSON() == feature.schemaJSON())
}

@Test func theRegistryDerivesEachSchemaOnce() throws {
  let registry = FeatureRegistry()
  try registry.register(contentsOf: BuiltinFeatures.all)
  #expect(registry.features.map(\.name) == ["counter", "todos", "dice", "matchscores"])
}

@Test func diceTakesItsViewAndInternalActionsWithoutTheirGroup() throws {
  let dice = try #require(BuiltinFeatures.all.first { $0.name == "dice" })
  let document = try JSONParser.parse(dice.schemaJSON())
  guard case let .array(cases)? = document["$defs"]?["Dice.Action"]?["oneOf"] else {
    Issue.record("Dice.Action has no cases")
    return
  }
  #expect(
    cases.map { $0["x-tca-case"] }
      == [
        "view", "internal", "destination", "alert", "rollButtonTapped", "undoLastRoll",
        "resetHistory", "resetButtonTapped", "viewFullHistoryTapped", "rollCompleted",
        "startAnimation",
      ])
}

@Test func diceNamesEveryCaseAHostMaySendWhenOneIsUnknown() {
  func failure(_ text: String) -> String? {
    do {
      _ = try JSONDecoder().decode(Dice.Action.self, from: Array(text.utf8))
      return nil
    } catch {
      return error.description
    }
  }
  let cases =
    #"valid cases: "alert", "destination", "internal", "resetButtonTapped", "resetHistory", "#
    + #""rollButtonTapped", "rollCompleted", "startAnimation", "undoLastRoll", "view", "#
    + #""viewFullHistoryTapped""#
  #expect(
    failure(#""rollButtonTaped""#)
      == #"at /: "rollButtonTaped" is not a known case (expected a case name or an object; "#
      + #"did you mean "rollButtonTapped"? "# + cases + ")")
  #expect(
    failure(#"{"rollCompleet":4}"#)
      == #"at /: expected exactly one known case, found "rollCompleet" (did you mean "#
      + #""rollCompleted"? "# + cases + ")")
  // Inside a group, the group's cases.
  #expect(
    failure(#"{"view":"undo"}"#)?.hasPrefix(
      #"at /view: "undo" is not a known case (expected a case name or an object; did you mean "#
        + #""undoLastRoll"? valid cases: "resetButtonTapped","#) == true)
}
