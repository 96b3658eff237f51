import StoreKernel
import Testing

@Test func randomSourcesFollowTheDocumentedAlgorithm() {
  // Values from an independent implementation of SplitMix64 + xoshiro256** 1.0.
  let source = RandomSource(seed: 42)
  #expect(source.next() == 0x1578_0B2E_0C2E_C716)
  #expect(source.next() == 0x6104_D986_6D11_3A7E)
  #expect(source.next() == 0xAE17_5332_39E4_99A1)
  #expect(RandomSource(seed: 0).next() == 0x99EC_5F36_CB75_F2B4)
  let dice = RandomSource(seed: 42)
  #expect((0..<10).map { _ in dice.int(in: 1...6) } == [1, 3, 5, 6, 6, 5, 5, 6, 5, 4])
  let wide = RandomSource(seed: 7)
  for _ in 0..<1000 {
    #expect((-3...3).contains(wide.int(in: -3...3)))
    #expect((0..<1).contains(wide.double()))
  }
  _ = wide.int(in: Int.min...Int.max)
  #expect(wide.int(in: 5..<5) == 5)
}

@Test func uuidsFormatParseAndIncrement() throws {
  let uuid = try #require(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
  #expect(uuid.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
  #expect(UUID(uuidString: "E621E1F8C36C495A93FC0C247A3E6E5F") == nil)
  #expect(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5G") == nil)
  // Every byte that is not a hex digit, at every digit's place, and lengths around 36.
  let valid = Array("01234567-89ab-CDEF-abcd-0123456789AB".utf8)
  #expect(UUID(uuidString: String(decoding: valid, as: UTF8.self))?.uuidString
    == "01234567-89AB-CDEF-ABCD-0123456789AB")
  for place in valid.indices where valid[place] != UInt8(ascii: "-") {
    for byte in UInt8(0)...UInt8(255) {
      var text = valid
      text[place] = byte
      let isHex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
      let parsed = text.withUnsafeBufferPointer { UUID(utf8: $0) }
      #expect((parsed != nil) == isHex)
    }
  }
  for length in [0, 35, 37] {
    let text = Array(repeating: UInt8(ascii: "0"), count: length)
    #expect(text.withUnsafeBufferPointer { UUID(utf8: $0) } == nil)
  }
  // Each nibble lands in its place, written back in upper case.
  for place in 0..<32 {
    let uuid = UUID(high: place < 16 ? 0xA << (60 - 4 * UInt64(place)) : 0,
                    low: place >= 16 ? 0xA << (60 - 4 * UInt64(place - 16)) : 0)
    let text = uuid.uuidString
    #expect(UUID(uuidString: text) == uuid)
    #expect(UUID(uuidString: text.lowercased()) == uuid)
  }
  let generate = UUIDGenerator.incrementing
  #expect(generate().uuidString == "00000000-0000-0000-0000-000000000000")
  #expect(generate().uuidString == "00000000-0000-0000-0000-000000000001")
  let random = UUIDGenerator.random(RandomSource(seed: 1))()
  let text = Array(random.uuidString)
  #expect(text[14] == "4")
  #expect("89AB".contains(text[19]))
  #expect(UUIDGenerator.random(RandomSource(seed: 1))() == random)
}

/// Rolls a die with the store's random source, names the roll with a UUID, stamps it.
struct Roller: Reducer {
  struct State: Equatable { var rolls: [String] = [] }
  enum Action: Equatable { case roll, rolled(Int) }
  @Dependency(\.random) var random
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .roll:
      // NB: read inside the effect too: effects run within a call into the store.
      return .run { send in
        @Dependency(\.random) var random
        await send(.rolled(random.int(in: 1...6)))
      }
    case let .rolled(face):
      state.rolls.append("\(face) \(uuid().uuidString.suffix(1)) \(date.now.millisecondsSince1970)")
      return .none
    }
  }
}

@Test func storesReadTheirOwnDependencies() {
  let seeded = { (seed: UInt64) in
    let store = Store(initialState: Roller.State(), reducer: Roller(), seed: seed) {
      $0.uuid = .incrementing
      $0.date = .constant(Timestamp(millisecondsSince1970: 5))
    }
    for _ in 0..<5 { store.send(.roll) }
    return store.state.rolls
  }
  #expect(seeded(42) == seeded(42))
  #expect(seeded(42) != seeded(43))
  #expect(seeded(42).first == "1 0 5")

  let test = TestStore(initialState: Roller.State(), reducer: Roller(), reporter: .swiftTesting)
  test.send(.roll)
  test.receive(.rolled(4)) { $0.rolls = ["4 0 0"] }
  #expect(test.dependencies.random.seed == 0)
}

enum GreetingKey: DependencyKey {
  static let defaultValue = "hello"
}

extension Dependencies {
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

@Test func featuresCanAddDependenciesOfTheirOwn() {
  struct Greeter: Reducer {
    @Dependency(\.greeting) var greeting
    func reduce(into state: inout String, action: Void) -> Effect<Void> {
      state = greeting
      return .none
    }
  }
  let plain = Store(initialState: "", reducer: Greeter())
  plain.send(())
  #expect(plain.state == "hello")
  let custom = Store(initialState: "", reducer: Greeter()) { $0.greeting = "hi" }
  custom.send(())
  #expect(custom.state == "hi")
  // Outside any store, reducers see the fixed fallback.
  var state = ""
  _ = Greeter().reduce(into: &state, action: ())
  #expect(state == "hello")
}
