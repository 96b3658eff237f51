//! `Subscription`: the guard `Store::subscribe` and `Store::subscribe_state` return. It owns the
//! subscriber (the closure C calls, boxed in a `Slot`) and ends the subscription when dropped.

use std::cell::{Cell, RefCell};
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

use crate::store::Shared;
use crate::sys;

type VersionFn = Box<dyn FnMut(u64)>;
type StateFn = Box<dyn FnMut(u64, &str)>;

/// The subscriber's closure.
pub(crate) enum SlotFn {
    Version(VersionFn),
    State(StateFn),
}

/// What C's userdata points to: the closure, and who frees it. Made by `Box::into_raw`; freed by
/// `release` once C no longer calls it, or by the call running it when it unsubscribed itself.
pub(crate) struct Slot {
    /// The store's shared state, for a panic to resume; valid whenever C calls the slot.
    pub(crate) shared: *const Shared,
    pub(crate) f: RefCell<SlotFn>,
    running: Cell<u32>,
    dead: Cell<bool>,
}

impl Slot {
    pub(crate) fn new(shared: *const Shared, f: SlotFn) -> Slot {
        Slot { shared, f: RefCell::new(f), running: Cell::new(0), dead: Cell::new(false) }
    }
}

/// Frees `slot`, or leaves it to the call of it running now on this thread (a subscriber that
/// unsubscribed itself), which frees it as it returns.
///
/// SAFETY: `slot` came from `Box::into_raw` and C no longer calls it (except the call running).
pub(crate) unsafe fn free_slot(slot: *mut Slot) {
    if (*slot).running.get() > 0 {
        (*slot).dead.set(true);
    } else {
        drop(Box::from_raw(slot));
    }
}

/// A live subscription: dropping it ends it (`tca_store_unsubscribe`), after which its closure is
/// not called again. It may outlive its `Store` (dropping it then only frees the closure).
///
/// ```no_run
/// let store = tca::Store::new("counter")?;
/// let subscription = store.subscribe(|version| println!("now at version {}", version))?;
/// store.send(r#""incrementButtonTapped""#)?;   // prints "now at version 1"
/// drop(subscription);
/// # Ok::<(), tca::Error>(())
/// ```
#[must_use = "the subscription ends when this guard is dropped"]
pub struct Subscription {
    pub(crate) shared: Rc<Shared>,
    pub(crate) token: u64,
    pub(crate) slot: *mut Slot,
}

impl Subscription {
    /// The library's token for it (`tca_store_subscribe`'s out_token, never 0).
    pub fn token(&self) -> u64 {
        self.token
    }
    /// Ends it now (as dropping it does).
    pub fn unsubscribe(self) {}
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription").field("token", &self.token).finish()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // SAFETY: the slot is this subscription's, made by Box::into_raw in Store::subscribe.
        unsafe { self.shared.release(self.token, self.slot) };
    }
}

/// Runs a subscriber; nothing may unwind out of it through libtca: a panic is caught, and
/// resumes from the `Store` call that ran it.
unsafe fn run(slot: *mut Slot, call: impl FnOnce(&mut SlotFn)) {
    let this = &*slot;
    if this.dead.get() {
        return;
    }
    this.running.set(this.running.get() + 1);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        // NB: the library never calls a subscriber from inside itself; try_borrow_mut is a guard.
        if let Ok(mut f) = this.f.try_borrow_mut() {
            call(&mut f);
        }
    }));
    this.running.set(this.running.get() - 1);
    if let Err(payload) = result {
        (*this.shared).keep_panic(payload);
    }
    if this.running.get() == 0 && this.dead.get() {
        drop(Box::from_raw(slot));
    }
}

pub(crate) unsafe extern "C" fn on_version(
    userdata: *mut c_void,
    _store: *mut sys::tca_store,
    version: u64,
) {
    run(userdata as *mut Slot, |f| {
        if let SlotFn::Version(f) = f {
            f(version)
        }
    });
}

pub(crate) unsafe extern "C" fn on_state(
    userdata: *mut c_void,
    _store: *mut sys::tca_store,
    version: u64,
    json: *const c_char,
    length: usize,
) {
    let bytes = if json.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(json as *const u8, length)
    };
    // NB: the library's JSON is UTF-8; lossy only borrows it (no copy) once checked.
    let text = String::from_utf8_lossy(bytes);
    run(userdata as *mut Slot, |f| {
        if let SlotFn::State(f) = f {
            f(version, &text)
        }
    });
}
