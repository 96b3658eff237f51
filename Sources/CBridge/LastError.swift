#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The message of the last failed call on each thread, as `tca_last_error` returns it.
///
/// NB: a pthread key rather than a Swift thread-local: the host's threads are not Swift's, and the
/// key's destructor frees each thread's message when the thread exits.
enum LastError {
  /// The longest message kept, in bytes (longer ones are cut at a character and end in "…").
  static let maximumLength = 1024

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
  }()

  /// Keeps `message` as this thread's last error, made safe to print on one line.
  ///
  ///     LastError.set("tca_store_send: at /: expected an object, found an array")
  ///
  /// NB: the places that quote input escape it as JSON does (``JSON/quoted(_:)``); this is the
  /// last line of defence: a control byte (a NUL would cut the C string short, a newline would
  /// start a forged line) becomes its JSON escape `\u000A`, and the whole is cut to
  /// ``maximumLength`` bytes.
  static func set(_ message: String) {
    var message = message
    let copy = message.withUTF8 { safeCopy($0) }
    free(pthread_getspecific(key))
    pthread_setspecific(key, copy)
  }

  /// A malloc'd NUL-terminated copy of `text`, control bytes escaped, cut to ``maximumLength``.
  static func safeCopy(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar>? {
    let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
    // NB: room for the message, an ellipsis and the NUL.
    guard let raw = malloc(maximumLength + ellipsis.count + 1) else { return nil }
    let out = raw.assumingMemoryBound(to: UInt8.self)
    let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
    var written = 0
    var i = 0
    while i < text.count {
      let byte = text[i]
      let escape = byte < 0x20 || byte == 0x7F
      // NB: the length of the UTF-8 sequence that starts here, so a cut never splits one.
      let length =
        escape ? 6 : byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      if written + length > maximumLength {
        for b in ellipsis {
          out[written] = b
          written += 1
        }
        break
      }
      if escape {
        for b in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")] {
          out[written] = b
          written += 1
        }
        out[written] = hex[Int(byte >> 4)]
        out[written + 1] = hex[Int(byte & 0xF)]
        written += 2
        i += 1
      } else {
        var k = 0
        while k < length && i < text.count {
          out[written] = text[i]
          written += 1
          i += 1
          k += 1
        }
      }
    }
    out[written] = 0
    return UnsafeMutableRawPointer(out).assumingMemoryBound(to: CChar.self)
  }

  /// The message, or an empty string if no call on this thread has failed. Never NULL.
  static var current: UnsafePointer<CChar> {
    if let message = pthread_getspecific(key) {
      return UnsafePointer(message.assumingMemoryBound(to: CChar.self))
    }
    let empty: StaticString = ""
    return UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
  }
}
