import Features
import JSON
import Testing

// docs/wire-format.md: a nil optional is left out by a synthesized Codable conformance and by
// `encodeIfPresent`, and written as null by `encode(_:forKey:)`; a JSONCodable type writes it as
// its Codable conformance does. Read back, both give nil.

private struct Synthesized: Codable, Equatable {
  var name = "a"
  var note: String?
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Test func aSynthesizedCodableLeavesANilOptionalOut() throws {
  #expect(text(try JSONEncoder().encode(Synthesized())) == #"{"name":"a"}"#)
  let withNull = Array(#"{"name":"a","note":null}"#.utf8)
  #expect(try JSONDecoder().decode(Synthesized.self, from: withNull) == Synthesized())
}

@Test func theCountersTwoPathsBothLeaveItsNilOptionalsOut() throws {
  let state = Counter.State(count: 2)
  let direct = text(try JSONEncoder().encode(state))
  #expect(direct == text(try JSONEncoder().encodeThroughCodable(state)))
  #expect(direct == #"{"count":2,"isNumberFactLoading":false}"#)
}

@Test func theDiceWriteTheirNilOptionalAsNull() throws {
  let json = text(try JSONEncoder().encode(Dice.State()))
  #expect(json.contains(#""currentRoll":null"#))
  #expect(try JSONDecoder().decode(Dice.State.self, from: Array(json.utf8)) == Dice.State())
}
