//! `Store`: a running store of one feature, and what its callbacks share (`Shared`).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::fmt;
use std::ops::Deref;
use std::os::raw::{c_char, c_void};
use std::os::unix::io::RawFd;
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::rc::Rc;

use crate::records::{read_reductions, read_requests, Pending, Reduction, Request, RequestKind};
use crate::subscription::{self, free_slot, Slot, SlotFn, Subscription};
use crate::{check, sys, take, Error, Options};

/// What a request handler returns: `Ok(Some(json))` answers at once, `Ok(None)` answers later
/// (by id) or not at all (fire-and-forget), `Err(message)` fails the request.
pub type Answer = Result<Option<String>, String>;

type RequestHandler = Box<dyn FnMut(&Request) -> Answer>;
type CancelHandler = Box<dyn FnMut(u64)>;

/// What a store's callbacks and subscriptions share with it: the handle, the handlers, a panic to
/// resume. Behind an `Rc`, so that its address (the callbacks' userdata) outlives moves of the
/// `Store`, and a `Subscription` can outlive the `Store`.
pub(crate) struct Shared {
    handle: NonNull<sys::tca_store>,
    /// The store was freed: no callback comes any more, and calls would be refused.
    closed: Cell<bool>,
    on_request: RefCell<Option<RequestHandler>>,
    on_cancel: RefCell<Option<CancelHandler>>,
    panic: Cell<Option<Box<dyn Any + Send>>>,
    /// A `StateText` is out: no call may be made on the store until it is given back.
    lent: Cell<bool>,
    /// Subscriptions dropped while the text was lent, unsubscribed once it is given back.
    deferred: RefCell<Vec<(u64, *mut Slot)>>,
}

impl Shared {
    /// Keeps a callback's panic (the first one) for the `Store` call that ran the callback.
    pub(crate) fn keep_panic(&self, payload: Box<dyn Any + Send>) {
        if let Some(earlier) = self.panic.replace(Some(payload)) {
            self.panic.set(Some(earlier));
        }
    }

    /// Ends subscription `token` and frees its slot (`Subscription`'s drop).
    ///
    /// SAFETY: `slot` is the subscription's, from `Box::into_raw`.
    pub(crate) unsafe fn release(&self, token: u64, slot: *mut Slot) {
        if self.closed.get() {
            // NB: tca_store_free returned: the store calls nothing any more.
            free_slot(slot);
        } else if self.lent.get() {
            // NB: tca_store_unsubscribe now would be a call on the store while its text is lent.
            self.deferred.borrow_mut().push((token, slot));
        } else {
            match sys::tca_store_unsubscribe(self.handle.as_ptr(), token) {
                sys::TCA_OK | sys::TCA_ERR_INVALID_HANDLE | sys::TCA_ERR_NOT_FOUND => {
                    free_slot(slot)
                }
                // NB: a store a callback unwound out of refuses the call: the slot is left to
                // leak rather than risk a call into freed memory.
                _ => {}
            }
        }
    }

    fn release_deferred(&self) {
        let deferred = std::mem::take(&mut *self.deferred.borrow_mut());
        for (token, slot) in deferred {
            // SAFETY: each was a subscription's slot, handed over by its drop.
            unsafe { self.release(token, slot) };
        }
    }
}

/// A running store of one feature. Dropping it frees the store.
pub struct Store {
    // NB: the handle again, next to the Rc, so that send's hot path loads it without going
    // through the Rc (docs/benchmarks.md, the Bindings rows).
    raw: NonNull<sys::tca_store>,
    pub(crate) shared: Rc<Shared>,
}

/// The state's JSON lent by the store (`Store::state_borrow`): a `str` (through `Deref`) that
/// borrows the store mutably, so that no other call is made on it while the text is read.
pub struct StateText<'a> {
    text: &'a str,
    shared: &'a Shared,
}

impl Deref for StateText<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.text
    }
}

impl fmt::Display for StateText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Debug for StateText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.text, f)
    }
}

impl Drop for StateText<'_> {
    fn drop(&mut self) {
        self.shared.lent.set(false);
        self.shared.release_deferred();
    }
}

impl Store {
    /// A store of `feature` from its default state.
    pub fn new(feature: &str) -> Result<Store, Error> {
        Store::with_options(feature, None, &Options::new())
    }

    /// A store of `feature` from a snapshot (`state_json`, as `Store::state` returns it) or its
    /// default state, with `options`.
    pub fn with_options(
        feature: &str,
        state_json: Option<&str>,
        options: &Options,
    ) -> Result<Store, Error> {
        let mut out: *mut sys::tca_store = ptr::null_mut();
        let (state, state_length) = match state_json {
            Some(state) => (state.as_ptr() as *const c_char, state.len()),
            None => (ptr::null(), 0),
        };
        // SAFETY: every buffer is valid for its length during the call.
        let status = unsafe {
            sys::tca_store_new_v2(
                feature.as_ptr() as *const c_char,
                feature.len(),
                state,
                state_length,
                &options.raw,
                &mut out,
            )
        };
        Store::adopt(status, out)
    }

    /// A Store for a handle the library made, or the error `status` says.
    pub(crate) fn adopt(
        status: sys::tca_status,
        out: *mut sys::tca_store,
    ) -> Result<Store, Error> {
        check(status)?;
        let handle = NonNull::new(out).ok_or_else(|| Error::last(sys::TCA_ERR_NO_MEMORY))?;
        let shared = Shared {
            handle,
            closed: Cell::new(false),
            on_request: RefCell::new(None),
            on_cancel: RefCell::new(None),
            panic: Cell::new(None),
            lent: Cell::new(false),
            deferred: RefCell::new(Vec::new()),
        };
        Ok(Store { raw: handle, shared: Rc::new(shared) })
    }

    /// The C handle, for `sys` calls. Stays the Store's.
    pub fn as_ptr(&self) -> *mut sys::tca_store {
        self.raw.as_ptr()
    }

    /// Checks a call's status, after resuming a panic of a handler that the call ran.
    fn call(&self, status: sys::tca_status) -> Result<(), Error> {
        if let Some(payload) = self.shared.panic.take() {
            panic::resume_unwind(payload);
        }
        check(status)
    }

    /// A call that gives back a string: copied into a `String`, the library's freed.
    fn text_of(
        &self,
        call: impl FnOnce(*mut *mut c_char, *mut usize) -> sys::tca_status,
    ) -> Result<String, Error> {
        let (mut json, mut length) = (ptr::null_mut(), 0usize);
        check(call(&mut json, &mut length))?;
        // SAFETY: on success, a string of `length` bytes the caller releases.
        Ok(unsafe { take(json, length) })
    }

    /// Sends one action (JSON): `store.send(r#"{"rollCompleted":4}"#)`.
    pub fn send(&self, action_json: &str) -> Result<(), Error> {
        // SAFETY: the buffer is valid for its length during the call.
        let status = unsafe {
            sys::tca_store_send_n(
                self.as_ptr(),
                action_json.as_ptr() as *const c_char,
                action_json.len(),
            )
        };
        self.call(status)
    }

    /// The whole state as JSON.
    pub fn state(&self) -> Result<String, Error> {
        // SAFETY: out-parameters valid for the call.
        self.text_of(|json, length| unsafe { sys::tca_store_state(self.as_ptr(), json, length) })
    }

    /// The whole state as JSON, lent by the store (`tca_store_state_borrow`): no copy, and the
    /// same text again while the state is unchanged. It borrows the store mutably: the library's
    /// text is valid until the next call on the store, which the borrow rules out. It may hold
    /// runs of spaces between values (room to update it in place); as JSON it equals `state()`.
    pub fn state_borrow(&mut self) -> Result<StateText<'_>, Error> {
        let (mut json, mut length) = (ptr::null(), 0usize);
        // SAFETY: out-parameters valid for the call.
        check(unsafe { sys::tca_store_state_borrow(self.as_ptr(), &mut json, &mut length) })?;
        // SAFETY: the store's text, valid until the next call on it (none while `self` is
        // borrowed; a Subscription dropped meanwhile waits for the text to be given back). The
        // library's JSON is UTF-8: it takes only UTF-8 in (tca.h) and writes JSON of it.
        let text = unsafe {
            let bytes = std::slice::from_raw_parts(json as *const u8, length);
            debug_assert!(std::str::from_utf8(bytes).is_ok());
            std::str::from_utf8_unchecked(bytes)
        };
        self.shared.lent.set(true);
        Ok(StateText { text, shared: &self.shared })
    }

    /// The value at a JSON Pointer (`"/count"`) as JSON.
    pub fn get(&self, json_pointer: &str) -> Result<String, Error> {
        let (pointer, pointer_length) =
            (json_pointer.as_ptr() as *const c_char, json_pointer.len());
        // SAFETY: the buffers are valid for the call.
        self.text_of(|json, length| unsafe {
            sys::tca_store_get_n(self.as_ptr(), pointer, pointer_length, json, length)
        })
    }

    /// The state's version: changes exactly when the state does.
    pub fn version(&self) -> Result<u64, Error> {
        // SAFETY: a handle the library checks.
        match unsafe { sys::tca_store_version(self.as_ptr()) } {
            sys::TCA_VERSION_NONE => Err(Error::last(sys::TCA_ERR_INVALID_HANDLE)),
            version => Ok(version),
        }
    }

    /// What changed since version `since` (one this host saw: `version()`, a subscriber's), as
    /// the text of an RFC 6902 JSON Patch: `"[]"` when nothing did; `tca::parse_patch` reads it.
    /// `Error` with TCA_ERR_VERSION_GONE when the store no longer keeps that version (it keeps
    /// its last 16): read `state()` instead.
    pub fn patch(&self, since: u64) -> Result<String, Error> {
        // SAFETY: out-parameters valid for the call.
        self.text_of(|json, length| unsafe {
            sys::tca_store_patch(self.as_ptr(), since, json, length)
        })
    }

    /// Calls `f(version)` at the end of each call into the store that changed its state. Returns
    /// the guard: the calls stop when it is dropped. A panic in `f` resumes from the `Store` call
    /// that ran it.
    pub fn subscribe(&self, f: impl FnMut(u64) + 'static) -> Result<Subscription, Error> {
        self.subscribe_slot(SlotFn::Version(Box::new(f)))
    }

    /// `subscribe`, with the new state's JSON too (`tca_store_subscribe_state`): the `&str` is the
    /// library's, valid only during the call.
    pub fn subscribe_state(
        &self,
        f: impl FnMut(u64, &str) + 'static,
    ) -> Result<Subscription, Error> {
        self.subscribe_slot(SlotFn::State(Box::new(f)))
    }

    fn subscribe_slot(&self, f: SlotFn) -> Result<Subscription, Error> {
        let with_state = matches!(f, SlotFn::State(_));
        let slot = Box::into_raw(Box::new(Slot::new(Rc::as_ptr(&self.shared), f)));
        let mut token = 0u64;
        // SAFETY: the slot lives until the Subscription releases it (after unsubscribing).
        let status = unsafe {
            if with_state {
                sys::tca_store_subscribe_state(
                    self.as_ptr(),
                    Some(subscription::on_state),
                    slot as *mut c_void,
                    &mut token,
                )
            } else {
                sys::tca_store_subscribe(
                    self.as_ptr(),
                    Some(subscription::on_version),
                    slot as *mut c_void,
                    &mut token,
                )
            }
        };
        if let Err(error) = check(status) {
            // SAFETY: never subscribed: C does not know the slot.
            drop(unsafe { Box::from_raw(slot) });
            return Err(error);
        }
        Ok(Subscription { shared: self.shared.clone(), token, slot })
    }

    /// Moves a manual clock forward (a fixed-timestep loop: 16 or 17 ms a tick at 60 Hz).
    pub fn advance(&self, milliseconds: u64) -> Result<(), Error> {
        // SAFETY: a handle the library checks.
        let status = unsafe { sys::tca_store_advance(self.as_ptr(), milliseconds) };
        self.call(status)
    }

    /// Runs what is due (answers from other threads, real-clock timers); how much ran.
    pub fn poll(&self) -> Result<u32, Error> {
        let mut ran = 0u32;
        // SAFETY: out-parameter valid for the call.
        let status = unsafe { sys::tca_store_poll(self.as_ptr(), &mut ran) };
        self.call(status).map(|_| ran)
    }

    /// Milliseconds until the next timer is due, or None.
    pub fn next_deadline_ms(&self) -> Option<u64> {
        // SAFETY: a handle the library checks.
        let ms = unsafe { sys::tca_store_next_deadline_ms(self.as_ptr()) };
        u64::try_from(ms).ok()
    }

    /// The store's descriptor, readable when `poll` would do something (for an event loop:
    /// wait on it, then poll). The store's: do not close it.
    pub fn fd(&self) -> Result<RawFd, Error> {
        // SAFETY: a handle the library checks.
        match unsafe { sys::tca_store_fd(self.as_ptr()) } {
            fd if fd >= 0 => Ok(fd),
            _ => Err(Error::last(sys::TCA_ERR_SYSTEM)),
        }
    }

    /// Answers request `id` with a JSON value (a stream: one more element).
    pub fn respond(&self, id: u64, response_json: &str) -> Result<(), Error> {
        // SAFETY: the buffer is valid for its length during the call.
        let status = unsafe {
            sys::tca_store_respond_n(
                self.as_ptr(),
                id,
                response_json.as_ptr() as *const c_char,
                response_json.len(),
            )
        };
        self.call(status)
    }

    /// Fails request `id`: the feature gets `message`.
    pub fn fail(&self, id: u64, message: &str) -> Result<(), Error> {
        // SAFETY: the buffer is valid for its length during the call.
        let status = unsafe {
            sys::tca_store_fail_n(
                self.as_ptr(),
                id,
                message.as_ptr() as *const c_char,
                message.len(),
            )
        };
        self.call(status)
    }

    /// Ends stream `id`.
    pub fn complete(&self, id: u64) -> Result<(), Error> {
        // SAFETY: a handle the library checks.
        let status = unsafe { sys::tca_store_complete(self.as_ptr(), id) };
        self.call(status)
    }

    /// Pull mode (`Options::queued`): the requests and cancellation notices waiting, oldest
    /// first; empty when none waits.
    ///
    /// ```no_run
    /// # let store = tca::Store::new("counter")?;
    /// for pending in store.take_requests()? {
    ///     if let tca::Pending::Request(request) = pending {
    ///         store.respond(request.id, &tca::quote("a fact"))?;
    ///     }
    /// }
    /// # Ok::<(), tca::Error>(())
    /// ```
    pub fn take_requests(&self) -> Result<Vec<Pending>, Error> {
        // SAFETY: out-parameters valid for the call.
        read_requests(&self.text_of(|json, length| unsafe {
            sys::tca_store_take_requests(self.as_ptr(), json, length)
        })?)
    }

    /// Handles each request with `handler`, called inside the `Store` call that made the request
    /// (callback mode). See `Answer`. A panic in it fails the request and resumes from that call.
    pub fn on_request(
        &self,
        handler: impl FnMut(&Request) -> Answer + 'static,
    ) -> Result<(), Error> {
        *self.shared.on_request.borrow_mut() = Some(Box::new(handler));
        self.install()
    }

    /// Called with the id of each request cancelled while in flight (with `on_request`).
    pub fn on_cancel(&self, handler: impl FnMut(u64) + 'static) -> Result<(), Error> {
        *self.shared.on_cancel.borrow_mut() = Some(Box::new(handler));
        self.install()
    }

    /// Removes the handlers: requests then fail at once (callback mode).
    pub fn remove_handlers(&self) -> Result<(), Error> {
        // SAFETY: a handle the library checks.
        check(unsafe {
            sys::tca_store_set_request_handler(self.as_ptr(), None, None, ptr::null_mut())
        })?;
        self.shared.on_request.borrow_mut().take();
        self.shared.on_cancel.borrow_mut().take();
        Ok(())
    }

    fn install(&self) -> Result<(), Error> {
        let userdata = Rc::as_ptr(&self.shared) as *mut c_void;
        // SAFETY: the Shared lives as long as the store (freed in Drop before the last Rc goes).
        check(unsafe {
            sys::tca_store_set_request_handler(
                self.as_ptr(),
                Some(on_request),
                Some(on_cancel),
                userdata,
            )
        })
    }

    /// The store's journal (`Options::record`): JSON Lines, a header and then one line per input
    /// (docs/wire-format.md, "Journals"). `tca::replay` rebuilds the store from it.
    pub fn journal(&self) -> Result<String, Error> {
        // SAFETY: out-parameters valid for the call.
        self.text_of(|json, length| unsafe { sys::tca_store_journal(self.as_ptr(), json, length) })
    }

    /// Starts (true) or stops and drops (false) the log of the actions a recorded store reduces.
    pub fn log_reductions(&self, enabled: bool) -> Result<(), Error> {
        // SAFETY: a handle the library checks.
        check(unsafe { sys::tca_store_log_reductions(self.as_ptr(), i32::from(enabled)) })
    }

    /// The actions reduced since the last take (`log_reductions(true)` first), oldest first,
    /// each with its origin and the state after it: what a test asserts.
    pub fn take_reductions(&self) -> Result<Vec<Reduction>, Error> {
        // SAFETY: out-parameters valid for the call.
        read_reductions(&self.text_of(|json, length| unsafe {
            sys::tca_store_take_reductions(self.as_ptr(), json, length)
        })?)
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("handle", &self.raw).finish()
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // SAFETY: the handle is ours; no callback runs after tca_store_free returns.
        unsafe { sys::tca_store_free(self.as_ptr()) };
        self.shared.closed.set(true);
        self.shared.release_deferred();
        // NB: a panic of a cancel handler during free is dropped: never panic in drop.
        drop(self.shared.panic.take());
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "the host's request handler panicked".to_string()
    }
}

// NB: nothing may unwind out of a callback through libtca: both trampolines catch every panic.
unsafe extern "C" fn on_request(
    userdata: *mut c_void,
    store: *mut sys::tca_store,
    raw: *const sys::tca_request,
) {
    let shared = &*(userdata as *const Shared);
    let raw = &*raw;
    let request = Request {
        id: raw.id,
        name: CStr::from_ptr(raw.name).to_string_lossy().into_owned(),
        payload: String::from_utf8_lossy(std::slice::from_raw_parts(
            raw.payload_json as *const u8,
            raw.payload_length,
        ))
        .into_owned(),
        kind: match raw.kind {
            sys::TCA_REQUEST_STREAM => RequestKind::Stream,
            sys::TCA_REQUEST_FIRE_AND_FORGET => RequestKind::FireAndForget,
            _ => RequestKind::OneShot,
        },
    };
    let answer =
        panic::catch_unwind(AssertUnwindSafe(|| match shared.on_request.try_borrow_mut() {
            Ok(mut slot) => match slot.as_mut() {
                Some(handler) => handler(&request),
                None => Err("no request handler".to_string()),
            },
            Err(_) => Err("the request handler is already running".to_string()),
        }));
    let fail = |message: &str| {
        if request.kind != RequestKind::FireAndForget {
            sys::tca_store_fail_n(
                store,
                request.id,
                message.as_ptr() as *const c_char,
                message.len(),
            );
        }
    };
    match answer {
        Ok(Ok(Some(json))) => {
            if sys::tca_store_respond_n(
                store,
                request.id,
                json.as_ptr() as *const c_char,
                json.len(),
            ) != sys::TCA_OK
            {
                // NB: a bad answer must not leave the request waiting for ever.
                let message =
                    format!("the host's answer was refused: {}", Error::last(0).message());
                fail(&message);
            }
        }
        Ok(Ok(None)) => {}
        Ok(Err(message)) => fail(&message),
        Err(payload) => {
            fail(&panic_message(&*payload));
            shared.keep_panic(payload);
        }
    }
}

unsafe extern "C" fn on_cancel(userdata: *mut c_void, _store: *mut sys::tca_store, id: u64) {
    let shared = &*(userdata as *const Shared);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        if let Ok(mut slot) = shared.on_cancel.try_borrow_mut() {
            if let Some(handler) = slot.as_mut() {
                handler(id);
            }
        }
    }));
    if let Err(payload) = result {
        shared.keep_panic(payload);
    }
}
