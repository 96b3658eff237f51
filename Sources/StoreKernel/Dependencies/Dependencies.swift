/// What a store's reducers and effects may read of the outside world: time, randomness, UUIDs,
/// the date, and values of the feature's own (``DependencyKey``).
///
///     struct Dice: Reducer {
///       @Dependency(\.random) var random
///       @Dependency(\.clock) var clock
///       …
///     }
///
/// Every store has its own, made from its options (clock kind, seed) and overridable when it is
/// made: `Store(initialState:reducer:withDependencies:)`, `TestStore(…) { $0.uuid = … }`, and
/// in the middle of a test, `testStore.withDependencies { $0.date = … } operation: { … }`.
/// Nothing in a reducer should read time or randomness any other way: that is what makes a session
/// replayable from its seed and its actions.
public struct Dependencies: Sendable {
  /// The clock effects sleep on: the store's own (``StoreClock``, whose kind is chosen when the
  /// store is made) unless overridden.
  ///
  ///     let store = TestStore(initialState: Search.State(), reducer: Search()) {
  ///       $0.clock = ImmediateClock()
  ///     }
  ///
  /// NB: the store's own timers (`debounce`, `throttle`, `Effect.sleep`) stay on the store's
  /// clock: `poll` and `advance` fire them. An overriding clock ends its sleeps on its own terms;
  /// an effect it wakes runs in the store's next call (an ``ImmediateClock`` wakes it at once).
  public var clock: any Clock<Duration> {
    get {
      guard !values.isEmpty, let clock = values[ObjectIdentifier(ClockKey.self)] else {
        return storeClock
      }
      return (clock as? any Clock<Duration>) ?? storeClock
    }
    set { values[ObjectIdentifier(ClockKey.self)] = newValue }
  }
  /// The store's own clock, whatever ``clock`` is set to.
  ///
  /// NB: kept apart from overrides (in ``values``): a reference, as the clock was before it could
  /// be overridden (8 bytes in every store's dependencies, not an existential's 40).
  var storeClock: StoreClock
  /// Random numbers, from the store's seed.
  public var random: RandomSource
  /// UUIDs; by default random ones from ``random``.
  public var uuid: UUIDGenerator
  /// The date; by default the system's.
  public var date: DateGenerator
  private var values: [ObjectIdentifier: any Sendable] = [:]

  /// The dependencies of a store: a clock of `clock` kind, random numbers from `seed` (nil: a
  /// seed from the system), random UUIDs from them, the system's date.
  public init(clock: StoreClock.Kind = .real, seed: UInt64? = nil) {
    self.init(clock: StoreClock(kind: clock), seed: seed)
  }

  init(clock: StoreClock, seed: UInt64?) {
    let random = seed.map(RandomSource.init(seed:)) ?? RandomSource()
    self.storeClock = clock
    self.random = random
    self.uuid = .random(random)
    self.date = .system
  }

  /// The dependencies of a test store: a manual clock, seed 0, incrementing UUIDs, the date
  /// fixed at 0 (1970), and ``context`` `.test`.
  public static func test(clock: StoreClock) -> Dependencies {
    var dependencies = Dependencies(clock: clock, seed: 0)
    dependencies.uuid = .incrementing
    dependencies.date = .constant(Timestamp(millisecondsSince1970: 0))
    dependencies.context = .test
    return dependencies
  }

  /// Where the feature runs: `.live` in a ``Store``, `.test` in a ``TestStore`` (and outside
  /// any store, ``outsideStore``). A dependency of the feature's own may pick its value by it:
  ///
  ///     enum APIClientKey: DependencyKey {
  ///       static var defaultValue: APIClient {
  ///         Dependencies.current.context == .test ? .unimplemented : .live
  ///       }
  ///     }
  public var context: DependencyContext {
    get { values.isEmpty ? .live : self[ContextKey.self] }
    set { self[ContextKey.self] = newValue }
  }

  /// Where `unimplemented(…)` reports a call: a test store's failures (nil: nowhere).
  var issueReporter: IssueReporter? {
    get { values.isEmpty ? nil : self[IssueReporterKey.self] }
    set { self[IssueReporterKey.self] = newValue }
  }

  /// A value of the feature's own, keyed by type:
  ///
  ///     enum APIBaseKey: DependencyKey { static let defaultValue = "https://example.com" }
  ///     extension Dependencies {
  ///       var apiBase: String {
  ///         get { self[APIBaseKey.self] }
  ///         set { self[APIBaseKey.self] = newValue }
  ///       }
  ///     }
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get { values[ObjectIdentifier(key)].flatMap { $0 as? Key.Value } ?? Key.defaultValue }
    set { values[ObjectIdentifier(key)] = newValue }
  }

  /// The dependencies of the store whose call is running on this thread; outside any store (a
  /// reducer called directly), ``outsideStore``.
  public static var current: Dependencies {
    DependencyContext.effective?.dependencies ?? outsideStore
  }

  /// What ``current`` is outside any store: a manual clock that is never advanced, seed 0,
  /// incrementing UUIDs, the date fixed at 0, context `.test`.
  public static let outsideStore = Dependencies.test(clock: StoreClock(kind: .manual))
}

/// Where ``Dependencies/clock`` keeps an override.
private enum ClockKey: DependencyKey {
  static var defaultValue: Int { 0 }
}

private enum ContextKey: DependencyKey {
  static var defaultValue: DependencyContext { .live }
}

private enum IssueReporterKey: DependencyKey {
  static var defaultValue: IssueReporter? { nil }
}

/// Reports a misuse found while a store runs (an `unimplemented(…)` dependency called): a test
/// store turns it into a failure.
struct IssueReporter: Sendable {
  let report: @Sendable (_ message: String, _ fileID: String, _ filePath: String, _ line: Int,
    _ column: Int) -> Void
}

/// A key for a dependency of a feature's own, with the value used where none was set.
public protocol DependencyKey {
  associatedtype Value: Sendable
  static var defaultValue: Value { get }
}

/// Reads a dependency of the store the reducer is running in.
///
///     struct Todos: Reducer {
///       @Dependency(\.uuid) var uuid
///       func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         state.todos.append(Todo(id: uuid()))
///         …
///       }
///     }
///
/// Read it inside `reduce` or inside an effect: both run within a call into the store, which is
/// what selects the store's dependencies.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let keyPath: KeyPath<Dependencies, Value> & Sendable

  public init(_ keyPath: KeyPath<Dependencies, Value> & Sendable) { self.keyPath = keyPath }

  public var wrappedValue: Value { Dependencies.current[keyPath: keyPath] }
}
