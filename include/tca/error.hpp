// tca/error.hpp — part of tca.hpp: tca::Error, the library's version and status names, and the
// two helpers every call goes through (a status checked, a returned string taken).
#ifndef TCA_ERROR_HPP
#define TCA_ERROR_HPP

#include "../tca.h"

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace tca {

/// A failed call: the status (TCA_ERR_*) and the library's message, which names the function and
/// the place ("tca_store_send: at /: expected an object, found \"x\"").
class Error : public std::runtime_error {
 public:
  Error(tca_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  /// The TCA_ERR_* code.
  tca_status status() const noexcept { return status_; }
  /// The code's short English name (tca_status_str): "invalid store handle".
  std::string_view status_str() const noexcept { return tca_status_str(status_); }

 private:
  tca_status status_;
};

/// The library's version, "MAJOR.MINOR.PATCH" (tca_version): static text, never freed.
inline std::string_view version() noexcept { return tca_version(); }

/// A short English description of a status code (tca_status_str): static text.
inline std::string_view status_str(tca_status status) noexcept { return tca_status_str(status); }

namespace detail {

inline void check(tca_status status) {
  if (status != TCA_OK) throw Error(status, tca_last_error());
}

/// Takes a string the library returned: copies it, frees the library's (tca_string_free).
inline std::string take(char *text, size_t length) {
  std::unique_ptr<char, void (*)(char *)> owned(text, tca_string_free);
  return text == nullptr ? std::string() : std::string(text, length);
}

/// The first exception a Store's handler or subscriber threw (on whichever thread ran it), kept
/// for the Store call that ran it to rethrow.
class Pending {
 public:
  /// Keeps the exception being handled, unless one is kept already.
  void keep() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!exception_) exception_ = std::current_exception();
    set_.store(true, std::memory_order_release);
  }
  /// Rethrows the exception kept (once), if any.
  void rethrow() {
    // NB: the hot path (every send) is this one load.
    if (!set_.load(std::memory_order_acquire)) return;
    std::exception_ptr exception;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      exception = std::exchange(exception_, nullptr);
      set_.store(false, std::memory_order_relaxed);
    }
    if (exception) std::rethrow_exception(exception);
  }
 private:
  std::atomic<bool> set_{false};
  std::mutex mutex_;
  std::exception_ptr exception_;
};

}  // namespace detail
}  // namespace tca

#endif  // TCA_ERROR_HPP
