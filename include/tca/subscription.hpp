// tca/subscription.hpp — part of tca.hpp: tca::Subscription, the token Store::subscribe and
// Store::subscribe_state return. It owns the subscriber (the closure C calls) and unsubscribes
// when destroyed (RAII).
#ifndef TCA_SUBSCRIPTION_HPP
#define TCA_SUBSCRIPTION_HPP

#include "error.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>

namespace tca {

class Store;

/// A live subscription (Store::subscribe, Store::subscribe_state). Move-only; destroying it, or
/// calling unsubscribe(), ends it: once that returns, its function is not called again. It may
/// outlive its Store (unsubscribing then does nothing). Keep it as long as you want the calls:
///
///     tca::Subscription subscription = store.subscribe([](uint64_t version) { … });
class [[nodiscard]] Subscription {
 public:
  Subscription() noexcept = default;
  Subscription(Subscription &&other) noexcept
      : store_(std::exchange(other.store_, nullptr)), token_(std::exchange(other.token_, 0)),
        slot_(std::exchange(other.slot_, nullptr)) {}
  Subscription &operator=(Subscription &&other) noexcept {
    if (this != &other) {
      unsubscribe();
      store_ = std::exchange(other.store_, nullptr);
      token_ = std::exchange(other.token_, 0);
      slot_ = std::exchange(other.slot_, nullptr);
    }
    return *this;
  }
  Subscription(const Subscription &) = delete;
  Subscription &operator=(const Subscription &) = delete;
  ~Subscription() { unsubscribe(); }

  /// Ends the subscription (tca_store_unsubscribe); from inside its own function too, which is
  /// then not called again. Unsubscribing twice, or after the Store is gone, does nothing.
  void unsubscribe() noexcept {
    Slot *slot = std::exchange(slot_, nullptr);
    if (slot == nullptr) return;
    tca_status status = tca_store_unsubscribe(std::exchange(store_, nullptr), token_);
    // NB: once this returns, C no longer calls the slot (a call running on another thread was
    // waited for), except the call this thread may be inside: that one frees the slot as it
    // returns. A store a callback unwound out of refuses the call; its slot is then left to
    // leak rather than risk a call into freed memory.
    if (status != TCA_OK && status != TCA_ERR_INVALID_HANDLE && status != TCA_ERR_NOT_FOUND)
      return;
    slot->dead = true;
    if (slot->running.load() == 0) delete slot;
  }

  /// Whether it is still subscribed (not moved from, not unsubscribed).
  bool active() const noexcept { return slot_ != nullptr; }
  /// The library's token for it (tca_store_subscribe's out_token); 0 once inactive.
  uint64_t token() const noexcept { return slot_ ? token_ : 0; }

 private:
  friend class Store;

  /// The subscriber C calls: the function, and the Store's slot for an exception it throws.
  struct Slot {
    std::function<void(uint64_t)> on_version;
    std::function<void(uint64_t, std::string_view)> on_state;
    detail::Pending *pending = nullptr;  // the Store's: rethrown by the Store call
    std::atomic<int> running{0};
    std::atomic<bool> dead{false};
  };

  // NB: nothing may unwind out of a callback through libtca: every exception is caught here.
  static void version_trampoline(void *userdata, tca_store *, uint64_t version) noexcept {
    run(static_cast<Slot *>(userdata), [&](Slot &slot) { slot.on_version(version); });
  }
  static void state_trampoline(void *userdata, tca_store *, uint64_t version, const char *json,
                               size_t length) noexcept {
    run(static_cast<Slot *>(userdata), [&](Slot &slot) {
      slot.on_state(version, json ? std::string_view(json, length) : std::string_view());
    });
  }
  template <typename Call>
  static void run(Slot *slot, Call &&call) noexcept {
    if (slot->dead) return;
    slot->running++;
    try {
      call(*slot);
    } catch (...) {
      slot->pending->keep();
    }
    if (--slot->running == 0 && slot->dead) delete slot;
  }

  /// Subscribes `slot` (taken) to `store`; throws tca::Error, freeing it, on failure.
  static Subscription make(tca_store *store, Slot *slot) {
    uint64_t token = 0;
    tca_status status =
        slot->on_state
            ? tca_store_subscribe_state(store, &state_trampoline, slot, &token)
            : tca_store_subscribe(store, &version_trampoline, slot, &token);
    if (status != TCA_OK) {
      delete slot;
      detail::check(status);
    }
    Subscription subscription;
    subscription.store_ = store;
    subscription.token_ = token;
    subscription.slot_ = slot;
    return subscription;
  }

  tca_store *store_ = nullptr;
  uint64_t token_ = 0;
  Slot *slot_ = nullptr;
};

}  // namespace tca

#endif  // TCA_SUBSCRIPTION_HPP
