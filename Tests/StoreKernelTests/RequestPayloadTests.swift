import JSON
@testable import StoreKernel
import Testing

/// A request's payload is kept inline up to 16 bytes and in an array beyond (issue 17): both
/// forms give back the same bytes and compare by them.
@Test func aPayloadGivesBackItsBytesInlineOrNot() {
  for count in 0...40 {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: 0x30 + $0) }
    let lent = bytes.withUnsafeBufferPointer { RequestPayload($0) }
    let kept = RequestPayload(bytes)
    #expect(lent.count == count)
    #expect(lent.bytes == bytes)
    #expect(lent.withUnsafeBytes { Array($0) } == bytes)
    #expect(lent == kept)
    if count > 0 {
      var other = bytes
      other[count - 1] ^= 1
      #expect(lent != RequestPayload(other))
    }
  }
}

/// Encoded through a type's own writer or through Codable, the text is the encoder's.
@Test func aPayloadIsEncodedAsTheEncoderWritesIt() throws {
  struct Query: Codable, Equatable { var term = "numbers"; var page = 2 }
  #expect(try RequestPayload.encoding(7).bytes == Array("7".utf8))
  #expect(try RequestPayload.encoding(NoPayload()).bytes == Array("{}".utf8))
  #expect(try RequestPayload.encoding(Query()).bytes == JSONEncoder().encode(Query()))
  let long = String(repeating: "x", count: 100)
  #expect(try RequestPayload.encoding(long).bytes == JSONEncoder().encode(long))
}

/// What a handler is given: the payload whatever its length, and the info compares by it.
@Test func aHandlerGetsPayloadsOfEveryLength() {
  struct Echo: Reducer {
    struct State: Equatable {}
    enum Action: Equatable { case ask(String), answered(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .ask(text):
        return .request("echo", payload: text, as: String.self) { .answered($0) } failure: {
          _ in nil
        }
      case .answered: return .none
      }
    }
  }
  let store = Store(initialState: Echo.State(), reducer: Echo())
  let seen = Recorder<HostRequestInfo>()
  store.setRequestHandler(HostRequestHandler(onRequest: { seen.append($0) }))
  // 14 characters quoted are 16 bytes (inline), 15 are 17 (an array).
  let texts = ["", "a", String(repeating: "b", count: 14), String(repeating: "c", count: 15)]
  for text in texts { store.send(.ask(text)) }
  let payloads = seen.all.map { String(decoding: $0.payload, as: UTF8.self) }
  #expect(payloads == texts.map { "\"\($0)\"" })
  // Kept inline by the store, made from an array here: equal all the same.
  let empty = HostRequestInfo(id: 1, name: "echo", payload: Array(#""""#.utf8), kind: .oneShot)
  #expect(seen.all.first == empty)
}
