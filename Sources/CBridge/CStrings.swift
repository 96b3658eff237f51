#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A NUL-terminated copy of `bytes` in memory from `malloc`, for the host to release with
/// `tca_string_free`.
func mallocString(_ bytes: [UInt8]) throws(Failure) -> UnsafeMutablePointer<CChar> {
  guard let memory = malloc(bytes.count + 1) else {
    throw Failure(.invalidArgument, "out of memory for \(bytes.count) bytes")
  }
  let out = memory.bindMemory(to: CChar.self, capacity: bytes.count + 1)
  bytes.withUnsafeBufferPointer { buffer in
    if let base = buffer.baseAddress {
      memcpy(out, base, bytes.count)
    }
  }
  out[bytes.count] = 0
  return out
}

/// The bytes of a host's NUL-terminated string.
func bytes(
  of string: UnsafePointer<CChar>?, _ name: String
) throws(Failure) -> UnsafeBufferPointer<UInt8> {
  guard let string else { throw Failure(.invalidArgument, "\(name) is NULL") }
  let raw = UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self)
  return UnsafeBufferPointer(start: raw, count: strlen(string))
}

/// The bytes of a host's buffer of `length` bytes.
func bytes(
  of buffer: UnsafePointer<CChar>?, length: Int, _ name: String
) throws(Failure) -> UnsafeBufferPointer<UInt8> {
  guard let buffer else { throw Failure(.invalidArgument, "\(name) is NULL") }
  let raw = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
  return UnsafeBufferPointer(start: raw, count: length)
}

/// Hands `json` to the host through the out-parameters of a reading call.
func deliver(
  _ json: [UInt8], to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  length outLength: UnsafeMutablePointer<Int>?
) throws(Failure) {
  guard let out else { throw Failure(.invalidArgument, "out_json is NULL") }
  out.pointee = try mallocString(json)
  outLength?.pointee = json.count
}
