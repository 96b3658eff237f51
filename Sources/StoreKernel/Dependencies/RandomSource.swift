import Synchronization

/// A seedable source of random numbers whose sequence is fixed by its seed on every platform and
/// every Swift version, so that a seed replays a session exactly.
///
///     @Dependency(\.random) var random
///     …
///     let face = random.int(in: 1...6)
///
/// The algorithm is part of the contract: the seed is expanded by SplitMix64 into the 256-bit
/// state of xoshiro256** 1.0 (Blackman and Vigna, 2018); `int(in:)` maps outputs to a range with
/// Lemire's multiply-and-reject method, `double()` takes the top 53 bits. It also conforms to
/// `RandomNumberGenerator`, but the standard library's `Int.random(in:using:)` may change
/// between Swift versions: use this type's own methods where a replay must hold.
public final class RandomSource: RandomNumberGenerator, Sendable {
  /// The generator's state, made from the seed by the first number drawn.
  ///
  /// NB: most stores never draw one: an idle store keeps the seed alone (docs/benchmarks.md: memory
  /// per idle store; the state and its lock were 32 bytes of every store).
  private let generator = LazyObject<Generator>()
  /// The seed the source started from.
  public let seed: UInt64

  private final class Generator: Sendable {
    let state: Mutex<Xoshiro256StarStar>
    init(seed: UInt64) { state = Mutex(Xoshiro256StarStar(seed: seed)) }
  }

  /// A source seeded with `seed`.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// A source seeded from the system's entropy (the seed is kept in ``seed``).
  public convenience init() {
    var system = SystemRandomNumberGenerator()
    self.init(seed: system.next())
  }

  /// The next 64 random bits.
  public func next() -> UInt64 {
    generator.withObject({ Generator(seed: seed) }) { generator in
      generator.state.withLock { $0.next() }
    }
  }

  /// The generator's state, nil while no number was drawn (a journal's checkpoint keeps it:
  /// docs/wire-format.md, "Checkpoints").
  var position: [UInt64]? {
    generator.ifMade { generator in generator.state.withLock { $0.words } }
  }

  /// Puts the generator where ``position`` read it (four words).
  func restore(_ words: [UInt64]) {
    guard words.count == 4 else { return }
    generator.withObject({ Generator(seed: seed) }) { generator in
      generator.state.withLock { $0 = Xoshiro256StarStar(words: words) }
    }
  }

  /// A uniformly distributed integer in `range`.
  public func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound)) &+ 1
    // NB: a width of 0 means the range covers all 2^64 values.
    guard width != 0 else { return Int(truncatingIfNeeded: next()) }
    return range.lowerBound &+ Int(truncatingIfNeeded: bounded(width))
  }

  /// A uniformly distributed integer in `range`; `range.lowerBound` if the range is empty.
  public func int(in range: Range<Int>) -> Int {
    guard range.lowerBound < range.upperBound else { return range.lowerBound }
    return int(in: range.lowerBound...(range.upperBound - 1))
  }

  /// A uniformly distributed `Double` in `0..<1` (53 random bits).
  public func double() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A random `Bool`.
  public func bool() -> Bool { next() >> 63 == 1 }

  /// Lemire's nearly divisionless method: a uniform value in `0..<bound`, `bound > 0`.
  private func bounded(_ bound: UInt64) -> UInt64 {
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return product.high
  }
}

/// xoshiro256** 1.0, seeded through SplitMix64.
struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
  private var s0, s1, s2, s3: UInt64

  init(seed: UInt64) {
    var splitMix = seed
    func nextSplitMix() -> UInt64 {
      splitMix &+= 0x9E37_79B9_7F4A_7C15
      var z = splitMix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = nextSplitMix()
    s1 = nextSplitMix()
    s2 = nextSplitMix()
    s3 = nextSplitMix()
  }

  /// A generator in the state `words` (four: what ``words`` read).
  init(words: [UInt64]) {
    s0 = words[0]
    s1 = words[1]
    s2 = words[2]
    s3 = words[3]
  }

  var words: [UInt64] { [s0, s1, s2, s3] }

  mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, 45)
    return result
  }

  private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
