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
  ///
  /// NB: values from the input are quoted and escaped where a message is made; as a last line
  /// of defence a control byte other than the newlines between a message's lines is written as
  /// its JSON escape (`\u001B`), so nothing a host sends puts raw control bytes on a terminal.
  public static let standardError = TraceSink { message in
    var bytes = escapingControlBytes(message)
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

/// `message` as UTF-8, each control byte but `\n` written `\u00XX`.
func escapingControlBytes(_ message: String) -> [UInt8] {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(message.utf8.count + 1)
  let hex = Array("0123456789ABCDEF".utf8)
  for byte in message.utf8 {
    if (byte < 0x20 && byte != UInt8(ascii: "\n")) || byte == 0x7F {
      bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
      bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    } else {
      bytes.append(byte)
    }
  }
  return bytes
}
