#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A NUL-terminated copy of `bytes` in memory from `malloc`, for the host to release with
/// `tca_string_free`.
func mallocString(_ bytes: [UInt8]) throws(Failure) -> UnsafeMutablePointer<CChar> {
  let (size, overflow) = bytes.count.addingReportingOverflow(1)
  guard !overflow, let memory = malloc(size) else {
    throw Failure(.noMemory, "out of memory for \(bytes.count) bytes")
  }
  let out = memory.bindMemory(to: CChar.self, capacity: size)
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
///
/// NB: `length` is a `size_t`: one above `Int.max` cannot be a real buffer, and would trap as a
/// negative count.
func bytes(
  of buffer: UnsafePointer<CChar>?, length: UInt, _ name: String
) throws(Failure) -> UnsafeBufferPointer<UInt8> {
  guard let buffer else { throw Failure(.invalidArgument, "\(name) is NULL") }
  guard length <= UInt(Int.max) else {
    throw Failure(.invalidArgument, "length \(length) of \(name) is not a buffer's length")
  }
  let raw = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
  return UnsafeBufferPointer(start: raw, count: Int(length))
}

/// A host's NUL-terminated UTF-8 text as a String; invalid UTF-8 is refused, never repaired.
func text(of string: UnsafePointer<CChar>?, _ name: String) throws(Failure) -> String {
  let utf8 = try bytes(of: string, name)
  guard let text = String(validating: utf8, as: UTF8.self) else {
    throw Failure(.invalidArgument, "\(name) is not valid UTF-8")
  }
  return text
}

/// A host's UTF-8 text of `length` bytes as a String; invalid UTF-8 is refused, never repaired.
func text(
  of buffer: UnsafePointer<CChar>?, length: UInt, _ name: String
) throws(Failure) -> String {
  let utf8 = try bytes(of: buffer, length: length, name)
  guard let text = String(validating: utf8, as: UTF8.self) else {
    throw Failure(.invalidArgument, "\(name) is not valid UTF-8")
  }
  return text
}

/// Hands `json` to the host through the out-parameters of a reading call.
func deliver(
  _ json: [UInt8], to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
  length outLength: UnsafeMutablePointer<UInt>?
) throws(Failure) {
  out.pointee = try mallocString(json)
  outLength?.pointee = UInt(json.count)
}
