// tca.hpp — libtca for C++17: header-only, over tca.h.
//
//     tca::Store store("counter");
//     store.send(R"("incrementButtonTapped")");
//     std::string count = store.get("/count");          // "1"
//
// - tca::Store is move-only and frees its store when destroyed (RAII); returned strings are
//   std::strings (the library's copies are freed at once).
// - Every failure throws tca::Error, which carries the status (tca::Error::status()) and the
//   library's message (what()).
// - Requests the feature makes of the host are taken when the host chooses (pull mode:
//   Options::queued, Store::take_requests) or handled by a lambda (Store::on_request). An
//   exception thrown by a handler never crosses libtca: it fails the request it was answering,
//   and is rethrown from the Store call that ran the handler.
// - A Store is used from one thread at a time (the library serializes calls on one store, but a
//   handler's exception is kept per Store).
//
// docs/cpp.md is the guide; bindings/cpp has the tests and examples.
#ifndef TCA_HPP
#define TCA_HPP

#include <tca.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tca {

/// A failed call: the status (TCA_ERR_*) and the library's message, which names the function and
/// the place ("tca_store_send: at /: expected an object, found \"x\"").
class Error : public std::runtime_error {
 public:
  Error(tca_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  tca_status status() const noexcept { return status_; }

 private:
  tca_status status_;
};

namespace detail {

inline void check(tca_status status) {
  if (status != TCA_OK) throw Error(status, tca_last_error());
}

/// Takes a string the library returned: copies it, frees the library's.
inline std::string take(char *text, size_t length) {
  std::unique_ptr<char, void (*)(char *)> owned(text, tca_string_free);
  return text == nullptr ? std::string() : std::string(text, length);
}

}  // namespace detail

/// `text` as a JSON string, quoted and escaped: quote("a\"b") is "\"a\\\"b\"".
inline std::string quote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", c);
          out += escape;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

/// The text of a JSON string ("\"a\\nb\"" gives "a\nb"); throws tca::Error
/// (TCA_ERR_JSON_SHAPE) if `json` is not one.
inline std::string unquote(std::string_view json) {
  auto bad = [&]() {
    return Error(TCA_ERR_JSON_SHAPE,
                 "tca::unquote: expected a JSON string, found " + std::string(json.substr(0, 40)));
  };
  if (json.size() < 2 || json.front() != '"' || json.back() != '"') throw bad();
  std::string out;
  for (size_t i = 1; i + 1 < json.size(); i++) {
    char c = json[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i + 1 >= json.size()) throw bad();
    switch (json[i]) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        auto hex = [&](size_t at) {
          unsigned value = 0;
          if (at + 4 > json.size() - 1) throw bad();
          for (size_t k = at; k < at + 4; k++) {
            char h = json[k];
            unsigned digit = h >= '0' && h <= '9'   ? unsigned(h - '0')
                             : h >= 'a' && h <= 'f' ? unsigned(h - 'a' + 10)
                             : h >= 'A' && h <= 'F' ? unsigned(h - 'A' + 10)
                                                    : 16u;
            if (digit == 16u) throw bad();
            value = value * 16 + digit;
          }
          return value;
        };
        unsigned code = hex(i + 1);
        i += 4;
        if (code >= 0xD800 && code < 0xDC00 && i + 6 < json.size() - 1 && json[i + 1] == '\\' &&
            json[i + 2] == 'u') {
          unsigned low = hex(i + 3);
          if (low < 0xDC00 || low > 0xDFFF) throw bad();
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xF0 | (code >> 18));
          out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default: out += json[i];
    }
  }
  return out;
}

/// How a request is answered (tca_request.kind).
enum class RequestKind { one_shot = TCA_REQUEST_ONE_SHOT, stream = TCA_REQUEST_STREAM,
                         fire_and_forget = TCA_REQUEST_FIRE_AND_FORGET };

/// A request the feature makes of the host: answer it by id (Store::respond, fail, complete).
/// From Store::take_requests, also a cancellation notice: `cancelled` true, `id` the request
/// cancelled (it takes no answer any more), the other fields empty.
struct Request {
  uint64_t id = 0;
  std::string name;     // "numberFact.fetch"
  std::string payload;  // JSON: "7"
  RequestKind kind = RequestKind::one_shot;
  bool cancelled = false;
};

namespace detail {

/// Reads the array tca_store_take_requests returns (its shape is fixed: objects of numbers,
/// strings and one JSON payload each), without a JSON library.
class RequestReader {
 public:
  explicit RequestReader(std::string_view json) : json_(json) {}

  std::vector<Request> read() {
    std::vector<Request> out;
    expect('[');
    if (peek() == ']') return out;
    do {
      out.push_back(object());
    } while (next_is(','));
    expect(']');
    return out;
  }

 private:
  Request object() {
    Request request;
    expect('{');
    do {
      std::string key = unquote(string_token());
      expect(':');
      if (key == "id") {
        request.id = number();
      } else if (key == "cancelled") {
        request.id = number();
        request.cancelled = true;
      } else if (key == "name") {
        request.name = unquote(string_token());
      } else if (key == "kind") {
        std::string kind = unquote(string_token());
        request.kind = kind == "stream"          ? RequestKind::stream
                       : kind == "fireAndForget" ? RequestKind::fire_and_forget
                                                 : RequestKind::one_shot;
      } else {
        size_t start = skip_space();
        skip_value();
        std::string_view value = json_.substr(start, at_ - start);
        if (key == "payload") request.payload = std::string(value);
      }
    } while (next_is(','));
    expect('}');
    return request;
  }

  size_t skip_space() {
    while (at_ < json_.size() && (json_[at_] == ' ' || json_[at_] == '\n' || json_[at_] == '\t' ||
                                  json_[at_] == '\r'))
      at_++;
    return at_;
  }
  char peek() { return skip_space() < json_.size() ? json_[at_] : '\0'; }
  bool next_is(char c) {
    if (peek() != c) return false;
    at_++;
    return true;
  }
  void expect(char c) {
    if (!next_is(c)) fail();
  }
  [[noreturn]] void fail() {
    throw Error(TCA_ERR_JSON_SYNTAX, "tca::Store::take_requests: unexpected JSON at byte " +
                                         std::to_string(at_));
  }
  std::string_view string_token() {
    size_t start = skip_space();
    if (peek() != '"') fail();
    for (at_++; at_ < json_.size() && json_[at_] != '"'; at_++)
      if (json_[at_] == '\\') at_++;
    if (at_ >= json_.size()) fail();
    at_++;
    return json_.substr(start, at_ - start);
  }
  uint64_t number() {
    skip_space();
    uint64_t value = 0;
    size_t start = at_;
    while (at_ < json_.size() && json_[at_] >= '0' && json_[at_] <= '9')
      value = value * 10 + uint64_t(json_[at_++] - '0');
    if (at_ == start) fail();
    return value;
  }
  void skip_value() {
    char c = peek();
    if (c == '"') {
      string_token();
    } else if (c == '{' || c == '[') {
      int depth = 0;
      do {
        c = json_[at_];
        if (c == '"') {
          string_token();
          continue;
        }
        if (c == '{' || c == '[') depth++;
        if (c == '}' || c == ']') depth--;
        at_++;
      } while (depth > 0 && at_ < json_.size());
      if (depth != 0) fail();
    } else {
      while (at_ < json_.size() && json_[at_] != ',' && json_[at_] != '}' && json_[at_] != ']')
        at_++;
    }
  }

  std::string_view json_;
  size_t at_ = 0;
};

}  // namespace detail

/// Store options: Options().manual_clock().seed(42).
class Options {
 public:
  Options() noexcept { tca_options_init(&raw_); }
  /// Time stands still until Store::advance (game loops, tests).
  Options &manual_clock() noexcept { raw_.clock = TCA_CLOCK_MANUAL; return *this; }
  Options &seed(uint64_t seed) noexcept { raw_.seed = seed; return *this; }
  Options &threaded() noexcept { raw_.threaded = 1; return *this; }
  /// Pull mode: requests wait in the store until Store::take_requests; no handler needed.
  Options &queued() noexcept { raw_.requests = TCA_REQUESTS_QUEUED; return *this; }
  /// Answers given from any thread are applied by this thread's next poll, send or advance.
  Options &answers_on_host_thread() noexcept {
    raw_.answers = TCA_ANSWERS_HOST_THREAD;
    return *this;
  }
  const tca_options *get() const noexcept { return &raw_; }
  tca_options *get() noexcept { return &raw_; }

 private:
  tca_options raw_;
};

/// A running store of one feature. Move-only; the destructor frees it.
class Store {
 public:
  using RequestHandler = std::function<void(Store &, const Request &)>;
  using CancelHandler = std::function<void(Store &, uint64_t)>;

  /// A store of `feature`, from its default state. Throws tca::Error (TCA_ERR_UNKNOWN_FEATURE…).
  explicit Store(std::string_view feature, const Options &options = Options())
      : Store(feature, std::nullopt, options) {}

  /// A store of `feature` from a snapshot (`state_json`, as Store::state returns it).
  Store(std::string_view feature, std::optional<std::string_view> state_json,
        const Options &options = Options())
      : impl_(std::make_unique<Impl>()) {
    detail::check(tca_store_new_v2(feature.data(), feature.size(),
                                   state_json ? state_json->data() : nullptr,
                                   state_json ? state_json->size() : 0, options.get(),
                                   &impl_->handle));
  }

  Store(Store &&other) noexcept : impl_(std::move(other.impl_)) {
    if (impl_) impl_->owner = this;
  }
  Store &operator=(Store &&other) noexcept {
    if (this != &other) {
      reset();
      impl_ = std::move(other.impl_);
      if (impl_) impl_->owner = this;
    }
    return *this;
  }
  Store(const Store &) = delete;
  Store &operator=(const Store &) = delete;
  ~Store() { reset(); }

  /// The C handle, for tca.h calls this class does not wrap. Stays the Store's.
  tca_store *handle() const noexcept { return impl_ ? impl_->handle : nullptr; }

  /// Sends one action (JSON): store.send(R"({"setCount":5})").
  void send(std::string_view action_json) {
    call(tca_store_send_n(handle(), action_json.data(), action_json.size()));
  }

  /// The whole state as JSON.
  std::string state() const {
    char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_state(handle(), &json, &length));
    return detail::take(json, length);
  }

  /// The value at a JSON Pointer ("/count") as JSON.
  std::string get(std::string_view json_pointer) const {
    char *json = nullptr;
    size_t length = 0;
    detail::check(
        tca_store_get_n(handle(), json_pointer.data(), json_pointer.size(), &json, &length));
    return detail::take(json, length);
  }

  /// The state's version: changes exactly when the state does.
  uint64_t version() const {
    uint64_t version = tca_store_version(handle());
    if (version == TCA_VERSION_NONE) throw Error(TCA_ERR_INVALID_HANDLE, tca_last_error());
    return version;
  }

  /// Moves a manual clock forward (a fixed-timestep loop: advance(16) or 17 each tick).
  void advance(uint64_t milliseconds) { call(tca_store_advance(handle(), milliseconds)); }

  /// Runs what is due (answers from other threads, real-clock timers); how much ran.
  uint32_t poll() {
    uint32_t ran = 0;
    call(tca_store_poll(handle(), &ran));
    return ran;
  }

  /// Milliseconds until the next timer is due; -1 if none.
  int64_t next_deadline_ms() const { return tca_store_next_deadline_ms(handle()); }

  /// The store's descriptor (readable when poll would do something); owned by the store.
  int fd() {
    int fd = tca_store_fd(handle());
    if (fd < 0) throw Error(TCA_ERR_SYSTEM, tca_last_error());
    return fd;
  }

  /// Answers request `id` with a JSON value (a stream: one more element).
  void respond(uint64_t id, std::string_view response_json) {
    call(tca_store_respond_n(handle(), id, response_json.data(), response_json.size()));
  }
  /// Fails request `id`: the feature gets `message`.
  void fail(uint64_t id, std::string_view message) {
    call(tca_store_fail_n(handle(), id, message.data(), message.size()));
  }
  /// Ends stream `id`.
  void complete(uint64_t id) { call(tca_store_complete(handle(), id)); }

  /// Pull mode (Options().queued()): the requests and cancellation notices waiting, oldest first;
  /// empty when none waits. Iterate and answer:
  ///
  ///     for (const tca::Request &request : store.take_requests())
  ///       if (!request.cancelled) store.respond(request.id, "\"a fact\"");
  std::vector<Request> take_requests() {
    char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_take_requests(handle(), &json, &length));
    std::string text = detail::take(json, length);
    return detail::RequestReader(text).read();
  }

  /// Handles each request with `handler` (called inside the Store call that made the request,
  /// on its thread). An exception from it fails the request (one-shot or stream) with what(),
  /// and is rethrown from that Store call. `on_cancel`: a request in flight was cancelled.
  /// An empty handler removes both.
  void on_request(RequestHandler handler, CancelHandler on_cancel = nullptr) {
    Impl &impl = *impl_;
    if (!handler) {
      detail::check(tca_store_set_request_handler(handle(), nullptr, nullptr, nullptr));
      impl.on_request = nullptr;
      impl.on_cancel = nullptr;
      return;
    }
    impl.owner = this;
    impl.on_request = std::move(handler);
    impl.on_cancel = std::move(on_cancel);
    detail::check(
        tca_store_set_request_handler(handle(), &Impl::request_trampoline,
                                      &Impl::cancel_trampoline, &impl));
  }

 private:
  struct Impl {
    tca_store *handle = nullptr;
    Store *owner = nullptr;
    RequestHandler on_request;
    CancelHandler on_cancel;
    std::exception_ptr pending;  // a handler's exception, rethrown by the Store call that ran it

    // NB: nothing may unwind out of a callback through libtca: every exception is caught here.
    static void request_trampoline(void *userdata, tca_store *store,
                                   const tca_request *raw) noexcept {
      Impl *impl = static_cast<Impl *>(userdata);
      try {
        Request request;
        request.id = raw->id;
        request.name = raw->name;
        request.payload.assign(raw->payload_json, raw->payload_length);
        request.kind = static_cast<RequestKind>(raw->kind);
        impl->on_request(*impl->owner, request);
      } catch (...) {
        std::string message = "the host's request handler threw";
        try {
          throw;
        } catch (const std::exception &error) {
          message = error.what();
        } catch (...) {
        }
        if (raw->kind != TCA_REQUEST_FIRE_AND_FORGET)
          tca_store_fail_n(store, raw->id, message.data(), message.size());
        if (!impl->pending) impl->pending = std::current_exception();
      }
    }

    static void cancel_trampoline(void *userdata, tca_store *, uint64_t id) noexcept {
      Impl *impl = static_cast<Impl *>(userdata);
      if (!impl->on_cancel) return;
      try {
        impl->on_cancel(*impl->owner, id);
      } catch (...) {
        if (!impl->pending) impl->pending = std::current_exception();
      }
    }
  };

  /// Checks a call's status, then rethrows a handler's exception that the call ran into.
  void call(tca_status status) {
    if (impl_ && impl_->pending) {
      std::exception_ptr pending = std::exchange(impl_->pending, nullptr);
      std::rethrow_exception(pending);
    }
    detail::check(status);
  }

  void reset() noexcept {
    if (!impl_) return;
    // NB: the cancel callback may run inside tca_store_free; it must not rethrow from here.
    tca_store_free(impl_->handle);
    impl_.reset();
  }

  // NB: the handler state lives on the heap, so its address (the callbacks' userdata) survives
  // moves of the Store; the moves update `owner`, the Store the handlers are given.
  std::unique_ptr<Impl> impl_;
};

}  // namespace tca

#endif  // TCA_HPP
