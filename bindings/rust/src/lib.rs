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
//!   which carries the status (`sys::TCA_ERR_*`) and the library's message. Strings the library
//!   returns are copied into `String`s (and its copies freed at once); `Store::state_borrow`
//!   lends the store's own text for as long as the store is borrowed.
//! - Requests the feature makes of the host: taken when the host chooses (pull mode:
//!   `Options::queued`, `Store::take_requests`), or handled by a closure (`Store::on_request`).
//!   A closure that panics never unwinds through libtca: the panic is caught, the request it was
//!   handling fails with the panic's message, and the panic resumes from the `Store` call that
//!   ran the closure, once that call is back in Rust.
//! - Changes: `Store::subscribe` returns a guard (`Subscription`) that ends the subscription when
//!   dropped; `Store::patch(since)` says what changed (RFC 6902; `parse_patch` reads it).
//! - Recording: `Options::record`, `Store::journal`, `tca::replay`, the reductions log.
//!
//! docs/rust.md is the guide.

pub mod json;
mod options;
mod records;
mod store;
mod subscription;
pub mod sys;

use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_char;
use std::ptr;

pub use json::{items, members, pointer_tokens, quote, unquote};
pub use options::Options;
pub use records::{
    parse_patch, Feature, Op, Origin, PatchOp, Pending, Reduction, Request, RequestKind,
};
pub use store::{Answer, StateText, Store};
pub use subscription::Subscription;

/// A failed call: the status (`sys::TCA_ERR_*`) and the library's message, which names the
/// function and the place (`tca_store_send_n: at /: expected an object, found "x"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: sys::tca_status,
    message: String,
}

impl Error {
    /// An error of the host's own, with a status of `sys::TCA_ERR_*`: the generated host types
    /// (`python -m tca types FEATURE --lang rust`, docs/schema.md) report JSON of the wrong
    /// shape with `TCA_ERR_JSON_SHAPE`.
    pub fn new(status: sys::tca_status, message: String) -> Error {
        Error { status, message }
    }
    /// The status code, one of `sys::TCA_ERR_*`.
    pub fn status(&self) -> sys::tca_status {
        self.status
    }
    /// The code's short English name (`tca_status_str`): `"invalid store handle"`.
    pub fn status_str(&self) -> &'static str {
        status_str(self.status)
    }
    /// The library's message.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The error of the last failed call on this thread (`tca_last_error`), with `status`.
    pub(crate) fn last(status: sys::tca_status) -> Error {
        // SAFETY: tca_last_error never returns NULL; the text is valid until the next failure.
        let message = unsafe { CStr::from_ptr(sys::tca_last_error()) };
        Error::new(status, message.to_string_lossy().into_owned())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (status {}: {})", self.message, self.status, self.status_str())
    }
}

impl std::error::Error for Error {}

pub(crate) fn check(status: sys::tca_status) -> Result<(), Error> {
    if status == sys::TCA_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

/// Takes a string the library returned: copies it, frees the library's (`tca_string_free`).
///
/// SAFETY: `text` is NULL or a string of `length` bytes from the library, not yet freed.
pub(crate) unsafe fn take(text: *mut c_char, length: usize) -> String {
    if text.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(text as *const u8, length);
    let owned = String::from_utf8_lossy(bytes).into_owned();
    sys::tca_string_free(text);
    owned
}

/// The library's version, "MAJOR.MINOR.PATCH" (`tca_version`).
pub fn version() -> String {
    // SAFETY: static storage, never NULL.
    unsafe { CStr::from_ptr(sys::tca_version()) }.to_string_lossy().into_owned()
}

/// A short English description of a status code (`tca_status_str`): `"invalid store handle"`.
pub fn status_str(status: sys::tca_status) -> &'static str {
    // SAFETY: static storage, never NULL; the library's names are ASCII.
    unsafe { CStr::from_ptr(sys::tca_status_str(status)) }.to_str().unwrap_or("unknown status")
}

/// The features compiled into the library (`tca_features`), in the library's order.
pub fn features() -> Result<Vec<Feature>, Error> {
    // SAFETY: a NUL-terminated string the caller releases, or NULL (tca_last_error says why).
    let json = unsafe { sys::tca_features() };
    if json.is_null() {
        return Err(Error::last(sys::TCA_ERR_NO_MEMORY));
    }
    // SAFETY: as above; its length is up to the NUL.
    let text = unsafe { take(json, CStr::from_ptr(json).to_bytes().len()) };
    records::read_features(&text)
}

/// The schema of `feature` (`tca_feature_schema_n`; docs/schema.md): one JSON document with the
/// JSON Schemas of its state, its actions and its requests' payloads and answers, the text
/// `python -m tca types` writes host types from. `Error` with TCA_ERR_UNKNOWN_FEATURE.
pub fn schema(feature: &str) -> Result<String, Error> {
    let (mut json, mut length) = (ptr::null_mut(), 0usize);
    // SAFETY: the name is valid for its length during the call.
    check(unsafe {
        sys::tca_feature_schema_n(
            feature.as_ptr() as *const c_char,
            feature.len(),
            &mut json,
            &mut length,
        )
    })?;
    // SAFETY: on success, a string of `length` bytes the caller releases.
    Ok(unsafe { take(json, length) })
}

/// The canonical form of an action of `feature` (`tca_canonical_action_n`): any form its stores
/// accept, decoded and encoded again. `canonical_action("counter", r#""incrementButtonTapped""#)`
/// is `{"incrementButtonTapped":{}}`; two actions are the same exactly when these are equal.
pub fn canonical_action(feature: &str, action_json: &str) -> Result<String, Error> {
    let (mut json, mut length) = (ptr::null_mut(), 0usize);
    // SAFETY: every buffer is valid for its length during the call.
    check(unsafe {
        sys::tca_canonical_action_n(
            feature.as_ptr() as *const c_char,
            feature.len(),
            action_json.as_ptr() as *const c_char,
            action_json.len(),
            &mut json,
            &mut length,
        )
    })?;
    // SAFETY: on success, a string of `length` bytes the caller releases.
    Ok(unsafe { take(json, length) })
}

/// Time travel: a new store rebuilt from `journal` (`Store::journal`'s text) up to state version
/// `to` (`None`: every version), on a manual clock, recording (`tca_store_replay`).
pub fn replay(journal: &str, to: Option<u64>) -> Result<Store, Error> {
    replay_with_options(journal, to, &Options::new())
}

/// `replay`, taking `queued` and `answers_on_host_thread` from `options` (the clock is manual,
/// the seed the journal's).
pub fn replay_with_options(
    journal: &str,
    to: Option<u64>,
    options: &Options,
) -> Result<Store, Error> {
    let mut out: *mut sys::tca_store = ptr::null_mut();
    // SAFETY: the journal is valid for its length during the call.
    let status = unsafe {
        sys::tca_store_replay(
            journal.as_ptr() as *const c_char,
            journal.len(),
            to.unwrap_or(sys::TCA_VERSION_NONE),
            &options.raw,
            &mut out,
        )
    };
    Store::adopt(status, out)
}
