// tca.hpp — libtca for C++17: header-only, over tca.h.
//
//     tca::Store store("counter");
//     store.send(R"("incrementButtonTapped")");
//     std::string count = store.get("/count");          // "1"
//
// - tca::Store is move-only and frees its store when destroyed (RAII); returned strings are
//   std::strings (the library's copies are freed at once), except state_borrow's view, which
//   the store lends until the next call on it.
// - Every failure throws tca::Error, which carries the status (tca::Error::status()) and the
//   library's message (what()).
// - Requests the feature makes of the host are taken when the host chooses (pull mode:
//   Options::queued, Store::take_requests) or handled by a lambda (Store::on_request).
//   Subscribers (Store::subscribe) hear of each change; Store::patch says what changed.
//   An exception thrown by a handler or subscriber never crosses libtca: a handler's fails the
//   request it was answering; either is rethrown from the Store call that ran it.
// - A Store may be called from several threads (the library serializes calls on one store).
//   Handlers and subscribers run on the thread of the call that runs them (or a threaded store's
//   own thread); an exception one throws is kept and rethrown by the Store's next call to check
//   (the call that ran it, when that call was on the same thread). Set handlers (on_request)
//   before sharing the Store: setting one is not itself thread-safe.
//
// The parts: tca/error.hpp (tca::Error, version, status_str), tca/json.hpp (quote, unquote,
// items, members, pointer_tokens, parse_patch), tca/records.hpp (Request, Reduction, features,
// schema, canonical_action), tca/subscription.hpp (Subscription); this file: Options, Store, replay.
// docs/cpp.md is the guide; bindings/cpp has the tests and examples.
#ifndef TCA_HPP
#define TCA_HPP

#include "tca.h"
#include "tca/error.hpp"
#include "tca/json.hpp"
#include "tca/records.hpp"
#include "tca/subscription.hpp"

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tca {

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
  /// Keeps a journal of every input (Store::journal, tca::replay) and allows the reductions
  /// log (Store::log_reductions).
  Options &record() noexcept { raw_.record = 1; return *this; }
  /// With record(): how many journal lines to keep (0: all); older ones fold into a checkpoint
  /// (docs/wire-format.md, "Checkpoints").
  Options &record_limit(uint64_t lines) noexcept { raw_.record_limit = lines; return *this; }
  /// The state's shared fields are this store's own: no other store of the process sees its
  /// changes, nor it theirs (docs/kernel.md, "Shared state").
  Options &isolated_shared() noexcept {
    raw_.shared = TCA_SHARED_ISOLATED;
    return *this;
  }
  const tca_options *get() const noexcept { return &raw_; }
  tca_options *get() noexcept { return &raw_; }

 private:
  tca_options raw_;
};

class Store;

/// Time travel: a new store rebuilt from `journal` (Store::journal's text) up to state version
/// `to` (every version by default), on a manual clock, recording (tca_store_replay). From
/// `options` it takes threaded(), queued() and answers_on_host_thread().
Store replay(std::string_view journal, uint64_t to = TCA_VERSION_NONE,
             const Options &options = Options());

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

  /// The whole state as JSON, lent by the store (tca_store_state_borrow): no copy, and the same
  /// text again while the state is unchanged. The view is valid until the next call on this
  /// store (any function, from any thread) or its destruction; copy it to keep it. The text may
  /// hold runs of spaces between values (room to update it in place); as JSON it equals state().
  std::string_view state_borrow() const {
    const char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_state_borrow(handle(), &json, &length));
    return std::string_view(json, length);
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

  /// What changed since version `since` (one this host saw: version(), a subscriber's), as the
  /// text of an RFC 6902 JSON Patch: "[]" when nothing did. tca::parse_patch reads it. Throws
  /// tca::Error with TCA_ERR_VERSION_GONE when the store no longer keeps that version (it keeps
  /// its last 16): read state() instead.
  std::string patch(uint64_t since) const {
    char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_patch(handle(), since, &json, &length));
    return detail::take(json, length);
  }

  /// Calls `fn(version)` at the end of each call into the store that changed its state, on that
  /// call's thread. Returns the token: the calls stop when it is destroyed (or unsubscribed).
  /// An exception from `fn` is rethrown from the Store call that ran it.
  Subscription subscribe(std::function<void(uint64_t version)> fn) {
    if (!fn) throw Error(TCA_ERR_INVALID_ARGUMENT, "tca::Store::subscribe: an empty function");
    auto slot = std::make_unique<Subscription::Slot>();
    slot->on_version = std::move(fn);
    slot->pending = &live().pending;
    return Subscription::make(handle(), slot.release());
  }

  /// subscribe, with the new state's JSON too (tca_store_subscribe_state): `state_json` is the
  /// library's, valid only during the call (copy what you keep); empty if it could not be
  /// encoded.
  Subscription subscribe_state(
      std::function<void(uint64_t version, std::string_view state_json)> fn) {
    if (!fn) throw Error(TCA_ERR_INVALID_ARGUMENT, "tca::Store::subscribe: an empty function");
    auto slot = std::make_unique<Subscription::Slot>();
    slot->on_state = std::move(fn);
    slot->pending = &live().pending;
    return Subscription::make(handle(), slot.release());
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
    return detail::read_requests(detail::take(json, length));
  }

  /// Handles each request with `handler` (called inside the Store call that made the request,
  /// on its thread). An exception from it fails the request (one-shot or stream) with what(),
  /// and is rethrown from that Store call. `on_cancel`: a request in flight was cancelled.
  /// An empty handler removes both.
  void on_request(RequestHandler handler, CancelHandler on_cancel = nullptr) {
    Impl &impl = live();
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

  /// The store's journal (Options().record()): JSON Lines, a header and then one line per
  /// input (docs/wire-format.md, "Journals"). tca::replay rebuilds the store from it.
  std::string journal() const {
    char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_journal(handle(), &json, &length));
    return detail::take(json, length);
  }

  /// Starts (true) or stops and drops (false) the log of the actions a recorded store reduces.
  void log_reductions(bool enabled) {
    detail::check(tca_store_log_reductions(handle(), enabled ? 1 : 0));
  }

  /// The actions reduced since the last take (log_reductions(true) first), oldest first, each
  /// with its origin and the state after it: what a test asserts.
  std::vector<Reduction> take_reductions() {
    char *json = nullptr;
    size_t length = 0;
    detail::check(tca_store_take_reductions(handle(), &json, &length));
    return detail::read_reductions(detail::take(json, length));
  }

 private:
  friend Store replay(std::string_view journal, uint64_t to, const Options &options);

  struct Adopt {};
  /// A Store for a handle the library made (replay): none on failure, which `status` says.
  Store(Adopt, tca_status status, tca_store *handle) : impl_(std::make_unique<Impl>()) {
    impl_->handle = handle;
    detail::check(status);
  }

  struct Impl {
    tca_store *handle = nullptr;
    Store *owner = nullptr;
    RequestHandler on_request;
    CancelHandler on_cancel;
    // A handler's or subscriber's exception, rethrown by the Store call that ran it.
    detail::Pending pending;

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
        impl->pending.keep();
      }
    }

    static void cancel_trampoline(void *userdata, tca_store *, uint64_t id) noexcept {
      Impl *impl = static_cast<Impl *>(userdata);
      if (!impl->on_cancel) return;
      try {
        impl->on_cancel(*impl->owner, id);
      } catch (...) {
        impl->pending.keep();
      }
    }
  };

  /// The state of a Store not moved from; a moved-from one throws (TCA_ERR_INVALID_HANDLE).
  Impl &live() const {
    if (!impl_) throw Error(TCA_ERR_INVALID_HANDLE, "tca::Store: the store was moved from");
    return *impl_;
  }

  /// Checks a call's status, then rethrows a handler's exception that the call ran into.
  void call(tca_status status) {
    if (impl_) impl_->pending.rethrow();
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

inline Store replay(std::string_view journal, uint64_t to, const Options &options) {
  tca_store *handle = nullptr;
  tca_status status =
      tca_store_replay(journal.data(), journal.size(), to, options.get(), &handle);
  return Store(Store::Adopt{}, status, handle);
}

}  // namespace tca

#endif  // TCA_HPP
