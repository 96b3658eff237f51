/// Where a ``Shared`` value lives, and so which stores share it: every field of every store of the
/// process with the same key holds the same value.
///
///     @Shared(.inMemory("session")) var session = Session()
///     @Shared(.fileStorage("/var/lib/game/settings.json")) var settings = Settings()
///     @Shared(.host("dice.history")) var history: [Int] = []
public struct SharedKey: Hashable, Sendable, CustomStringConvertible {
  /// The kinds of storage.
  public enum Kind: String, Hashable, Sendable {
    /// In memory, for as long as the process runs.
    case inMemory
    /// A JSON file, written atomically at the end of the call that changed it, read at first
    /// use and again when it changes (noticed at a `poll`).
    case fileStorage
    /// The host's: loaded with the request `shared.load`, saved with `shared.save`.
    case host
  }

  public let kind: Kind
  /// The key's name (`.inMemory`, `.host`) or the file's path (`.fileStorage`).
  public let name: String

  public init(kind: Kind, name: String) {
    self.kind = kind
    self.name = name
  }

  /// Shared by every store of the process, in memory.
  public static func inMemory(_ name: String) -> SharedKey {
    SharedKey(kind: .inMemory, name: name)
  }

  /// Kept in the JSON file at `path` (see ``Kind/fileStorage``).
  public static func fileStorage(_ path: String) -> SharedKey {
    SharedKey(kind: .fileStorage, name: path)
  }

  /// Kept by the host, which loads and saves it through the requests `shared.load` and
  /// `shared.save` (docs/wire-format.md, "Shared state").
  public static func host(_ name: String) -> SharedKey { SharedKey(kind: .host, name: name) }

  /// `kind:name`, as journals write it: `host:dice.history`.
  public var description: String { "\(kind.rawValue):\(name)" }

  /// The key `description` wrote; nil if it is not one.
  init?(description: String) {
    guard let colon = description.firstIndex(of: ":"),
      let kind = Kind(rawValue: String(description[..<colon]))
    else { return nil }
    self.init(kind: kind, name: String(description[description.index(after: colon)...]))
  }
}
