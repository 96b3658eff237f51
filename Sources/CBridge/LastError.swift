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
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
  }()

  static func set(_ message: String) {
    let copy = strdup(message)
    free(pthread_getspecific(key))
    pthread_setspecific(key, copy)
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
