#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where debug output goes: `_printChanges()`'s action and state diffs, and a store's trace of
/// host requests. Each write is one message (possibly several lines), without a final newline.
///
///     Counter()._printChanges(to: .standardError)
///
/// The C bridge routes a store's trace to ``standardError`` when `TCA_TRACE=1`.
public struct TraceSink: Sendable {
  public let write: @Sendable (String) -> Void

  public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

  /// `print`.
  public static let standardOutput = TraceSink { print($0) }

  /// File descriptor 2, one `write` per message.
  public static let standardError = TraceSink { message in
    var bytes = Array(message.utf8)
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = Glibc.write(2, base + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
