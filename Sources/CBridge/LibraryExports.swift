#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The library's version, `"MAJOR.MINOR.PATCH"`; keep in step with `TCA_VERSION_*` in tca.h.
let libraryVersion: StaticString = "0.1.0"

@c public func tca_version() -> UnsafePointer<CChar> {
  UnsafeRawPointer(libraryVersion.utf8Start).assumingMemoryBound(to: CChar.self)
}

@c public func tca_features() -> UnsafeMutablePointer<CChar>? {
  var catalog: UnsafeMutablePointer<CChar>?
  _ = exported("tca_features") { () throws(Failure) in
    catalog = try mallocString(LinkedFeatures.catalogJSON())
  }
  return catalog
}

@c public func tca_string_free(_ string: UnsafeMutablePointer<CChar>?) {
  free(string)
}

@c public func tca_last_error() -> UnsafePointer<CChar> {
  LastError.current
}

@c public func tca_status_str(_ status: Int32) -> UnsafePointer<CChar> {
  let text: StaticString = Status(rawValue: status)?.text ?? "unknown status"
  return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}
