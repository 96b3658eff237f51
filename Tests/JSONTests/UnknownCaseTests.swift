import JSON
import JSONTestSupport
import Testing

// Errors that teach (docs/wire-format.md, "Errors"): an unknown case is quoted as sent (escaped,
// whole up to 64 characters), with the valid cases at that level and the closest of them.

private enum Counter: Codable, Equatable {
  case decrementButtonTapped
  case incrementButtonTapped
  case numberFactButtonTapped
  case numberFactResponse(String)
  case numberFactFailed(String)
}

private enum Parent: Codable, Equatable {
  case child(Child)
  case other

  enum Child: Codable, Equatable {
    case tapped
    case typed(String)
  }
}

private enum Wide: Codable, Equatable {
  case case00, case01, case02, case03, case04, case05, case06, case07, case08, case09, case10,
    case11, case12, case13, case14, case15, case16, case17, case18, case19, case20, case21, case22,
    case23, case24, case25, case26, case27, case28, case29, case30, case31, case32, case33, case34,
    case35, case36, case37, case38, case39, case40, case41, case42, case43, case44, case45, case46,
    case47, case48, case49, case50, case51, case52, case53, case54, case55, case56, case57, case58,
    case59, case60, case61, case62, case63, case64, case65, case66, case67, case68, case69, case70,
    case71, case72, case73, case74, case75, case76, case77, case78, case79
}

private func failure<T: Decodable>(_ type: T.Type, _ text: String) -> String? {
  error { () throws(JSONError) in try decode(type, text) }?.description
}

private let counterCases =
  #"valid cases: "decrementButtonTapped", "incrementButtonTapped", "numberFactButtonTapped", "#
  + #""numberFactFailed", "numberFactResponse""#

@Test func aGuessedCaseIsQuotedWholeWithTheClosestAndTheValidOnes() {
  // The name a new user guessed (issue 37), 24 characters: never cut.
  #expect(
    failure(Counter.self, #"{"numberFactResponseFailed":"offline"}"#)
      == #"at /: expected exactly one known case, found "numberFactResponseFailed" (did you "#
      + #"mean "numberFactResponse" or "numberFactFailed"? "# + counterCases + ")")
  #expect(
    failure(Counter.self, #""incrementButtonTaped""#)
      == #"at /: "incrementButtonTaped" is not a known case (expected a case name or an "#
      + #"object; did you mean "incrementButtonTapped"? "# + counterCases + ")")
  // Case is ignored when looking for the closest.
  #expect(
    failure(Counter.self, #""IncrementButtonTapped""#)?.contains(
      #"did you mean "incrementButtonTapped"?"#) == true)
  // Nothing close: the valid cases only.
  #expect(
    failure(Counter.self, #"{"jump":{}}"#)
      == #"at /: expected exactly one known case, found "jump" ("# + counterCases + ")")
}

@Test func theValidCasesAreThoseAtTheLevelOfTheMistake() {
  #expect(
    failure(Parent.self, #"{"child":{"typd":"a"}}"#)
      == #"at /child: expected exactly one known case, found "typd" (did you mean "typed"? "#
      + #"valid cases: "tapped", "typed")"#)
  #expect(
    failure(Parent.self, #"{"child":"tapd"}"#)
      == #"at /child: "tapd" is not a known case (expected a case name or an object; did you "#
      + #"mean "tapped"? valid cases: "tapped", "typed")"#)
}

@Test func anUnknownCaseIsEscapedAndBounded() {
  // Escaped as JSON escapes it: one line, no raw control character.
  let odd = failure(Counter.self, #"{"a\"b\n\u0000":{}}"#)
  #expect(odd?.hasPrefix(#"at /: expected exactly one known case, found "a\"b\n\u0000" ("#) == true)
  #expect(odd?.contains("\n") == false)
  // Whole up to 64 characters, then cut with "…"; no suggestion for a long one.
  let sixtyFour = String(repeating: "x", count: 64)
  #expect(
    failure(Counter.self, "\"\(sixtyFour)\"")?.hasPrefix("at /: \"\(sixtyFour)\" is not") == true)
  let long = failure(Counter.self, "{\"\(String(repeating: "y", count: 10_000))\":{}}")
  #expect(long?.contains("\"\(String(repeating: "y", count: 64))…\"") == true)
  #expect(long?.contains("did you mean") == false)
  #expect((long?.utf8.count ?? 0) < 400)
  // Many cases: the list stops with a count of the rest, and the message stays short.
  let wide = failure(Wide.self, #""case7""#)
  #expect(wide?.contains(#"did you mean "case07" or "#) == true)
  #expect(wide?.hasSuffix(" more)") == true)
  #expect((wide?.utf8.count ?? 0) < 700)
}
