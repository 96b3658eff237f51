//! libtca from Rust: a safe `Store` over the C API of `include/tca.h` (the `sys` module).
//!
//! ```no_run
//! let store = tca::Store::new("counter")?;
//! store.send(r#""incrementButtonTapped""#)?;
//! assert_eq!(store.get("/count")?, "1");
//! # Ok::<(), tca::Error>(())
//! ```
//!
//! - A `Store` frees its store when dropped. Every fallible call returns `Result<_, tca::Error>`,
//!   which carries the status (`sys::TCA_ERR_*`) and the library's message.
//! - Requests the feature makes of the host: taken when the host chooses (pull mode:
//!   `Options::queued`, `Store::take_requests`), or handled by a closure (`Store::on_request`).
//!   A closure that panics never unwinds through libtca: the panic is caught, the request it was
//!   handling fails with the panic's message, and the panic resumes from the `Store` call that
//!   ran the closure, once that call is back in Rust.
//!
//! docs/rust.md is the guide.

pub mod json;
pub mod sys;

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};

pub use json::{quote, unquote};

/// A failed call: the status (`sys::TCA_ERR_*`) and the library's message, which names the
/// function and the place (`tca_store_send_n: at /: expected an object, found "x"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: sys::tca_status,
    message: String,
}

impl Error {
    pub(crate) fn new(status: sys::tca_status, message: String) -> Error {
        Error { status, message }
    }
    /// The status code, one of `sys::TCA_ERR_*`.
    pub fn status(&self) -> sys::tca_status {
        self.status
    }
    /// The library's message.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The error of the last failed call on this thread, with `status`.
    fn last(status: sys::tca_status) -> Error {
        // SAFETY: tca_last_error never returns NULL; the text is valid until the next failure.
        let message = unsafe { CStr::from_ptr(sys::tca_last_error()) };
        Error::new(status, message.to_string_lossy().into_owned())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (status {})", self.message, self.status)
    }
}

impl std::error::Error for Error {}

fn check(status: sys::tca_status) -> Result<(), Error> {
    if status == sys::TCA_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

/// Takes a string the library returned: copies it, frees the library's.
unsafe fn take(text: *mut c_char, length: usize) -> String {
    if text.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(text as *const u8, length);
    let owned = String::from_utf8_lossy(bytes).into_owned();
    sys::tca_string_free(text);
    owned
}

/// The library's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    // SAFETY: static storage, never NULL.
    unsafe { CStr::from_ptr(sys::tca_version()) }.to_string_lossy().into_owned()
}

/// How a request is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// One `respond`, or one `fail`.
    OneShot,
    /// Any number of `respond`, then `complete` (or `fail`).
    Stream,
    /// No answer.
    FireAndForget,
}

/// A request the feature makes of the host; answer it by `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: u64,
    /// `"numberFact.fetch"`
    pub name: String,
    /// JSON: `"7"`
    pub payload: String,
    pub kind: RequestKind,
}

/// What `Store::take_requests` returns: a request, or the notice that one was cancelled (it
/// takes no answer any more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    Request(Request),
    Cancelled(u64),
}

/// Store options: `Options::new().manual_clock().queued().seed(7)`.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    raw: sys::tca_options,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// The defaults: a real clock, no thread, requests through `on_request`, a system seed.
    pub fn new() -> Options {
        let mut raw = sys::tca_options {
            version: 0, clock: 0, threaded: 0, requests: 0, seed: 0, answers: 0, record: 0, reserved: [0; 4],
        };
        // SAFETY: raw is a valid tca_options.
        unsafe { sys::tca_options_init(&mut raw) };
        Options { raw }
    }
    /// Time stands still until `Store::advance` (game loops, tests).
    pub fn manual_clock(mut self) -> Options {
        self.raw.clock = sys::TCA_CLOCK_MANUAL;
        self
    }
    /// Pull mode: requests wait in the store until `Store::take_requests`.
    pub fn queued(mut self) -> Options {
        self.raw.requests = sys::TCA_REQUESTS_QUEUED;
        self
    }
    /// The random seed (dice): same seed, same actions, same states.
    pub fn seed(mut self, seed: u64) -> Options {
        self.raw.seed = seed;
        self
    }
    /// Answers given from any thread are applied by the host's next poll, send or advance.
    pub fn answers_on_host_thread(mut self) -> Options {
        self.raw.answers = sys::TCA_ANSWERS_HOST_THREAD;
        self
    }
}

/// What a request handler returns: `Ok(Some(json))` answers at once, `Ok(None)` answers later
/// (by id) or not at all (fire-and-forget), `Err(message)` fails the request.
pub type Answer = Result<Option<String>, String>;

type RequestHandler = Box<dyn FnMut(&Request) -> Answer>;
type CancelHandler = Box<dyn FnMut(u64)>;

/// The handlers' state: boxed, so that its address (the callbacks' userdata) outlives moves.
#[derive(Default)]
struct Handlers {
    on_request: RefCell<Option<RequestHandler>>,
    on_cancel: RefCell<Option<CancelHandler>>,
    panic: Cell<Option<Box<dyn Any + Send>>>,
}

/// A running store of one feature. Dropping it frees the store.
pub struct Store {
    raw: NonNull<sys::tca_store>,
    handlers: Box<Handlers>,
}

impl Store {
    /// A store of `feature` from its default state.
    pub fn new(feature: &str) -> Result<Store, Error> {
        Store::with_options(feature, None, &Options::new())
    }

    /// A store of `feature` from a snapshot (`state_json`, as `Store::state` returns it) or its
    /// default state, with `options`.
    pub fn with_options(feature: &str, state_json: Option<&str>, options: &Options) -> Result<Store, Error> {
        let mut out: *mut sys::tca_store = ptr::null_mut();
        let (state, state_length) = match state_json {
            Some(state) => (state.as_ptr() as *const c_char, state.len()),
            None => (ptr::null(), 0),
        };
        // SAFETY: every buffer is valid for its length during the call.
        check(unsafe {
            sys::tca_store_new_v2(
                feature.as_ptr() as *const c_char,
                feature.len(),
                state,
                state_length,
                &options.raw,
                &mut out,
            )
        })?;
        let raw = NonNull::new(out).ok_or_else(|| Error::last(sys::TCA_ERR_NO_MEMORY))?;
        Ok(Store { raw, handlers: Box::default() })
    }

    /// The C handle, for calls this crate does not wrap. Stays the Store's.
    pub fn as_ptr(&self) -> *mut sys::tca_store {
        self.raw.as_ptr()
    }

    /// Checks a call's status, after resuming a panic of a handler that the call ran.
    fn call(&self, status: sys::tca_status) -> Result<(), Error> {
        if let Some(payload) = self.handlers.panic.take() {
            panic::resume_unwind(payload);
        }
        check(status)
    }

    /// Sends one action (JSON): `store.send(r#"{"rollCompleted":4}"#)`.
    pub fn send(&self, action_json: &str) -> Result<(), Error> {
        // SAFETY: the buffer is valid for its length during the call.
        let status = unsafe { sys::tca_store_send_n(self.as_ptr(), action_json.as_ptr() as *const c_char, action_json.len()) };
        self.call(status)
    }

    /// The whole state as JSON.
    pub fn state(&self) -> Result<String, Error> {
        let (mut json, mut length) = (ptr::null_mut(), 0usize);
        // SAFETY: out-parameters are valid; the string is taken (copied and freed).
        check(unsafe { sys::tca_store_state(self.as_ptr(), &mut json, &mut length) })?;
        Ok(unsafe { take(json, length) })
    }

    /// The value at a JSON Pointer (`"/count"`) as JSON.
    pub fn get(&self, json_pointer: &str) -> Result<String, Error> {
        let (mut json, mut length) = (ptr::null_mut(), 0usize);
        // SAFETY: as `state`.
        check(unsafe {
            sys::tca_store_get_n(self.as_ptr(), json_pointer.as_ptr() as *const c_char, json_pointer.len(), &mut json, &mut length)
        })?;
        Ok(unsafe { take(json, length) })
    }

    /// The state's version: changes exactly when the state does.
    pub fn version(&self) -> Result<u64, Error> {
        // SAFETY: a handle the library checks.
        match unsafe { sys::tca_store_version(self.as_ptr()) } {
            sys::TCA_VERSION_NONE => Err(Error::last(sys::TCA_ERR_INVALID_HANDLE)),
            version => Ok(version),
        }
    }

    /// Moves a manual clock forward (a fixed-timestep loop: 16 or 17 ms a tick at 60 Hz).
    pub fn advance(&self, milliseconds: u64) -> Result<(), Error> {
        let status = unsafe { sys::tca_store_advance(self.as_ptr(), milliseconds) };
        self.call(status)
    }

    /// Runs what is due (answers from other threads, real-clock timers); how much ran.
    pub fn poll(&self) -> Result<u32, Error> {
        let mut ran = 0u32;
        let status = unsafe { sys::tca_store_poll(self.as_ptr(), &mut ran) };
        self.call(status).map(|_| ran)
    }

    /// Milliseconds until the next timer is due, or None.
    pub fn next_deadline_ms(&self) -> Option<u64> {
        let ms = unsafe { sys::tca_store_next_deadline_ms(self.as_ptr()) };
        u64::try_from(ms).ok()
    }

    /// Answers request `id` with a JSON value (a stream: one more element).
    pub fn respond(&self, id: u64, response_json: &str) -> Result<(), Error> {
        let status = unsafe { sys::tca_store_respond_n(self.as_ptr(), id, response_json.as_ptr() as *const c_char, response_json.len()) };
        self.call(status)
    }

    /// Fails request `id`: the feature gets `message`.
    pub fn fail(&self, id: u64, message: &str) -> Result<(), Error> {
        let status = unsafe { sys::tca_store_fail_n(self.as_ptr(), id, message.as_ptr() as *const c_char, message.len()) };
        self.call(status)
    }

    /// Ends stream `id`.
    pub fn complete(&self, id: u64) -> Result<(), Error> {
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
        let (mut json, mut length) = (ptr::null_mut(), 0usize);
        check(unsafe { sys::tca_store_take_requests(self.as_ptr(), &mut json, &mut length) })?;
        json::read_requests(&unsafe { take(json, length) })
    }

    /// Handles each request with `handler`, called inside the `Store` call that made the request
    /// (callback mode). See `Answer`. A panic in it fails the request and resumes from that call.
    pub fn on_request(&self, handler: impl FnMut(&Request) -> Answer + 'static) -> Result<(), Error> {
        *self.handlers.on_request.borrow_mut() = Some(Box::new(handler));
        self.install()
    }

    /// Called with the id of each request cancelled while in flight (with `on_request`).
    pub fn on_cancel(&self, handler: impl FnMut(u64) + 'static) -> Result<(), Error> {
        *self.handlers.on_cancel.borrow_mut() = Some(Box::new(handler));
        self.install()
    }

    /// Removes the handlers: requests then fail at once (callback mode).
    pub fn remove_handlers(&self) -> Result<(), Error> {
        check(unsafe { sys::tca_store_set_request_handler(self.as_ptr(), None, None, ptr::null_mut()) })?;
        self.handlers.on_request.borrow_mut().take();
        self.handlers.on_cancel.borrow_mut().take();
        Ok(())
    }

    fn install(&self) -> Result<(), Error> {
        let userdata = &*self.handlers as *const Handlers as *mut c_void;
        // SAFETY: the Handlers box lives as long as the store (freed in Drop before the box).
        check(unsafe { sys::tca_store_set_request_handler(self.as_ptr(), Some(on_request), Some(on_cancel), userdata) })
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
        unsafe { sys::tca_store_free(self.raw.as_ptr()) };
        // NB: a panic of a cancel handler during free is dropped: never panic in drop.
        drop(self.handlers.panic.take());
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
unsafe extern "C" fn on_request(userdata: *mut c_void, store: *mut sys::tca_store, raw: *const sys::tca_request) {
    let handlers = &*(userdata as *const Handlers);
    let raw = &*raw;
    let request = Request {
        id: raw.id,
        name: CStr::from_ptr(raw.name).to_string_lossy().into_owned(),
        payload: String::from_utf8_lossy(std::slice::from_raw_parts(raw.payload_json as *const u8, raw.payload_length))
            .into_owned(),
        kind: match raw.kind {
            sys::TCA_REQUEST_STREAM => RequestKind::Stream,
            sys::TCA_REQUEST_FIRE_AND_FORGET => RequestKind::FireAndForget,
            _ => RequestKind::OneShot,
        },
    };
    let answer = panic::catch_unwind(AssertUnwindSafe(|| match handlers.on_request.try_borrow_mut() {
        Ok(mut slot) => match slot.as_mut() {
            Some(handler) => handler(&request),
            None => Err("no request handler".to_string()),
        },
        Err(_) => Err("the request handler is already running".to_string()),
    }));
    let fail = |message: &str| {
        if request.kind != RequestKind::FireAndForget {
            sys::tca_store_fail_n(store, request.id, message.as_ptr() as *const c_char, message.len());
        }
    };
    match answer {
        Ok(Ok(Some(json))) => {
            if sys::tca_store_respond_n(store, request.id, json.as_ptr() as *const c_char, json.len()) != sys::TCA_OK {
                // NB: a bad answer must not leave the request waiting for ever.
                let message = format!("the host's answer was refused: {}", Error::last(0).message);
                fail(&message);
            }
        }
        Ok(Ok(None)) => {}
        Ok(Err(message)) => fail(&message),
        Err(payload) => {
            fail(&panic_message(&*payload));
            if let Some(earlier) = handlers.panic.replace(Some(payload)) {
                handlers.panic.set(Some(earlier));
            }
        }
    }
}

unsafe extern "C" fn on_cancel(userdata: *mut c_void, _store: *mut sys::tca_store, id: u64) {
    let handlers = &*(userdata as *const Handlers);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        if let Ok(mut slot) = handlers.on_cancel.try_borrow_mut() {
            if let Some(handler) = slot.as_mut() {
                handler(id);
            }
        }
    }));
    if let Err(payload) = result {
        if let Some(earlier) = handlers.panic.replace(Some(payload)) {
            handlers.panic.set(Some(earlier));
        }
    }
}
