"""Subscriptions: Python functions called when a store's state changes."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, List, Optional

from . import _native
from .patch import Patches

__all__ = ["Subscription", "Subscriptions"]


class Subscription:
    """What `Store.subscribe` returns: call it, or its `unsubscribe()`, or leave its `with` block,
    to stop the calls."""

    __slots__ = ("_store", "_fn", "_patches", "_version", "_on_close", "__weakref__")

    def __init__(
        self, store: Subscriptions, fn: Callable[..., Any], patches: bool = False, version: int = 0
    ) -> None:
        self._store: Optional[Subscriptions] = store
        self._fn = fn
        # With patches: the version the subscriber's last patch brought it to.
        self._patches = patches
        self._version = version
        # Called when the store closes (tca.aio's waits), on the closing thread.
        self._on_close: Optional[Callable[[], Any]] = None

    @property
    def active(self) -> bool:
        return self._store is not None

    def unsubscribe(self) -> None:
        """Stops the calls. Unsubscribing twice is fine."""
        store, self._store = self._store, None
        if store is not None:
            store._drop_subscriber(self)

    __call__ = unsubscribe

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.unsubscribe()


class Subscriptions(Patches):
    """The subscription methods of `Store` (on its patches: a subscriber may take them)."""

    _subscribers: List[Subscription]
    # The library's subscription for all of them (None: no subscriber).
    _subscription_token: Optional[int]

    def subscribe(self, fn: Callable[..., Any], *, patches: bool = False) -> Subscription:
        """Calls `fn(version)` at the end of each call into the store that changed its state
        (once per call, on that call's thread). Returns a `Subscription`: call it (or its
        `unsubscribe()`, or use it in a `with` block) to stop.

        With `patches=True`, calls `fn(version, patch)`: `patch` (a JSON Patch list, see
        `Store.patch`) turns the state of the version the subscriber last heard of (at first,
        the version when it subscribed) into the state of `version`.

        Closing the store ends its subscriptions (`active` turns false)."""
        if self._h is None:
            raise self._closed_error()
        version = _native.lib.tca_store_version(self._h) if patches and self._h else 0
        subscription = Subscription(self, fn, patches, version)
        if self._subscription_token is None:
            token = ctypes.c_uint64()
            self._check(
                _native.lib.tca_store_subscribe(self._h, self._state_fn, None, ctypes.byref(token))
            )
            self._subscription_token = token.value
        self._subscribers.append(subscription)
        return subscription

    def _watch(self, fn: Callable[..., Any], on_close: Callable[[], Any]) -> Subscription:
        """`subscribe(fn)`, and `on_close()` when the store closes: the end of a wait."""
        subscription = self.subscribe(fn)
        subscription._on_close = on_close
        if self._h is None:
            # NB: closed on another thread after subscribe's check, before the subscriber was
            # added: close() has ended the subscriptions it found; this one ends here.
            self._end_subscriptions()
        return subscription

    def _end_subscriptions(self) -> None:
        """The store closed: every subscription ends, and those with an `_on_close` hear of it
        (what one raises comes out of close())."""
        ended, self._subscribers = self._subscribers, []
        self._subscription_token = None
        for subscription in ended:
            subscription._store = None
            if subscription._on_close is not None:
                try:
                    subscription._on_close()
                except BaseException as error:  # noqa: BLE001 - raised by close()
                    self._raise_later(error)

    def _drop_subscriber(self, subscription: Subscription) -> None:
        try:
            self._subscribers.remove(subscription)
        except ValueError:
            return
        if not self._subscribers and self._subscription_token is not None and self._h:
            _native.lib.tca_store_unsubscribe(self._h, self._subscription_token)
            self._subscription_token = None

    def _notify(self, version: int) -> None:
        """The state changed (the library's state callback): calls every subscriber."""
        for subscription in list(self._subscribers):
            if subscription.active:
                try:
                    if subscription._patches:
                        now, patch = self._patch_for(subscription._version)
                        subscription._version = now
                        subscription._fn(now, patch)
                    else:
                        subscription._fn(version)
                except BaseException as error:  # noqa: BLE001 - nothing may unwind into C
                    self._raise_later(error)

