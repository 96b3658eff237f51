import CSystem
import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file of a `.fileStorage` key: read when first used and whenever its stamp (modification
/// time, size, inode) changes, written atomically (a temporary file renamed over it).
enum FileStorage {
  /// The largest file read (64 MiB); a larger one is ignored.
  static let sizeLimit = 64 << 20

  /// The file's value, if the file changed since the box last read or wrote it and decodes;
  /// nil else (unchanged, missing, unreadable or not a value of the field's type).
  static func readIfChanged(
    _ box: SharedBox, decode: ([UInt8]) throws(JSONError) -> any Sendable
  ) -> (any Sendable)? {
    let path = box.key.name
    var stamp = csystem_file_stamp()
    let missing = csystem_file_stamp_of(path, &stamp) != 0
    let changed = box.withFileStamp { known in
      guard !same(known, stamp) else { return false }
      known = stamp
      return !missing
    }
    guard changed else { return nil }
    var buffer: UnsafeMutablePointer<UInt8>?
    var length = 0
    guard csystem_read_file(path, sizeLimit, &buffer, &length) == 0, let buffer else {
      return nil
    }
    defer { free(buffer) }
    let bytes = Array(UnsafeBufferPointer(start: buffer, count: length))
    return try? decode(bytes)
  }

  /// Writes `json` to the key's file atomically, and notes its new stamp (a write of its own
  /// is no change to read again). A failed write leaves the old file.
  static func write(_ box: SharedBox, _ json: [UInt8]) {
    let path = box.key.name
    let written = json.withUnsafeBufferPointer { bytes in
      csystem_write_file_atomic(path, bytes.baseAddress, bytes.count)
    }
    guard written == 0 else { return }
    var stamp = csystem_file_stamp()
    guard csystem_file_stamp_of(path, &stamp) == 0 else { return }
    box.withFileStamp { $0 = stamp }
  }

  private static func same(_ a: csystem_file_stamp, _ b: csystem_file_stamp) -> Bool {
    a.mtime_ns == b.mtime_ns && a.size == b.size && a.inode == b.inode
  }
}
