//! The raw C API of include/tca.h, declared by hand (the sys layer; `Store` is the safe one):
//! every function of the header, for calls the safe layer makes differently (the NUL-terminated
//! forms; `tca_store_set_effect_handler`, whose slot `Store::on_request` fills).
#![allow(non_camel_case_types, missing_docs)]

use std::os::raw::{c_char, c_int, c_void};

pub type tca_status = i32;

pub const TCA_OK: tca_status = 0;
pub const TCA_ERR_INVALID_ARGUMENT: tca_status = 1;
pub const TCA_ERR_INVALID_HANDLE: tca_status = 2;
pub const TCA_ERR_UNKNOWN_FEATURE: tca_status = 3;
pub const TCA_ERR_JSON_SYNTAX: tca_status = 4;
pub const TCA_ERR_JSON_SHAPE: tca_status = 5;
pub const TCA_ERR_UNENCODABLE: tca_status = 6;
pub const TCA_ERR_UNKNOWN_REQUEST: tca_status = 7;
pub const TCA_ERR_REQUEST_FINISHED: tca_status = 8;
pub const TCA_ERR_ALREADY_ANSWERED: tca_status = 9;
pub const TCA_ERR_NOT_A_STREAM: tca_status = 10;
pub const TCA_ERR_REAL_CLOCK: tca_status = 11;
pub const TCA_ERR_NOT_FOUND: tca_status = 12;
pub const TCA_ERR_SYSTEM: tca_status = 13;
pub const TCA_ERR_NO_MEMORY: tca_status = 14;
pub const TCA_ERR_CALLBACK_UNWOUND: tca_status = 15;
pub const TCA_ERR_VERSION_GONE: tca_status = 16;

pub const TCA_CLOCK_REAL: i32 = 0;
pub const TCA_CLOCK_MANUAL: i32 = 1;
pub const TCA_REQUESTS_CALLBACK: i32 = 0;
pub const TCA_REQUESTS_QUEUED: i32 = 1;
pub const TCA_ANSWERS_ANY_THREAD: i32 = 0;
pub const TCA_ANSWERS_HOST_THREAD: i32 = 1;
pub const TCA_REQUEST_ONE_SHOT: i32 = 0;
pub const TCA_REQUEST_STREAM: i32 = 1;
pub const TCA_REQUEST_FIRE_AND_FORGET: i32 = 2;
pub const TCA_REQUEST_CANCELLED: i32 = 3;
pub const TCA_SHARED_PROCESS: i32 = 0;
pub const TCA_SHARED_ISOLATED: i32 = 1;
pub const TCA_VERSION_NONE: u64 = u64::MAX;

#[repr(C)]
pub struct tca_store {
    _opaque: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct tca_options {
    pub version: u32,
    pub clock: i32,
    pub threaded: i32,
    pub requests: i32,
    pub seed: u64,
    pub answers: i32,
    pub record: i32,
    pub record_limit: u64,
    pub shared: i32,
    pub reserved32: i32,
    pub reserved: [u64; 2],
}

#[repr(C)]
pub struct tca_request {
    pub id: u64,
    pub name: *const c_char,
    pub payload_json: *const c_char,
    pub payload_length: usize,
    pub kind: i32,
}

pub type tca_request_fn = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        store: *mut tca_store,
        request: *const tca_request,
    ),
>;
pub type tca_cancel_fn =
    Option<unsafe extern "C" fn(userdata: *mut c_void, store: *mut tca_store, request_id: u64)>;
pub type tca_effect_fn = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        store: *mut tca_store,
        request_id: u64,
        name: *const c_char,
        payload_json: *const c_char,
        payload_length: usize,
    ),
>;
pub type tca_state_fn =
    Option<unsafe extern "C" fn(userdata: *mut c_void, store: *mut tca_store, state_version: u64)>;
pub type tca_state_json_fn = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        store: *mut tca_store,
        state_version: u64,
        state_json: *const c_char,
        length: usize,
    ),
>;

extern "C" {
    pub fn tca_version() -> *const c_char;
    pub fn tca_features() -> *mut c_char;
    pub fn tca_feature_schema(
        feature: *const c_char,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_feature_schema_n(
        feature: *const c_char,
        feature_length: usize,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_string_free(string: *mut c_char);
    pub fn tca_last_error() -> *const c_char;
    pub fn tca_status_str(status: tca_status) -> *const c_char;
    pub fn tca_options_init(options: *mut tca_options);
    pub fn tca_store_new(
        feature: *const c_char,
        state_json: *const c_char,
        options: *const tca_options,
        out: *mut *mut tca_store,
    ) -> tca_status;
    pub fn tca_store_new_n(
        feature: *const c_char,
        state_json: *const c_char,
        state_length: usize,
        options: *const tca_options,
        out: *mut *mut tca_store,
    ) -> tca_status;
    pub fn tca_store_new_v2(
        feature: *const c_char,
        feature_length: usize,
        state_json: *const c_char,
        state_length: usize,
        options: *const tca_options,
        out: *mut *mut tca_store,
    ) -> tca_status;
    pub fn tca_store_free(store: *mut tca_store);
    pub fn tca_store_send(store: *mut tca_store, action_json: *const c_char) -> tca_status;
    pub fn tca_store_send_n(
        store: *mut tca_store,
        action_json: *const c_char,
        length: usize,
    ) -> tca_status;
    pub fn tca_store_state(
        store: *mut tca_store,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_state_borrow(
        store: *mut tca_store,
        out_json: *mut *const c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_get(
        store: *mut tca_store,
        json_pointer: *const c_char,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_get_n(
        store: *mut tca_store,
        json_pointer: *const c_char,
        pointer_length: usize,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_version(store: *const tca_store) -> u64;
    pub fn tca_store_patch(
        store: *mut tca_store,
        since_version: u64,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_subscribe(
        store: *mut tca_store,
        function: tca_state_fn,
        userdata: *mut c_void,
        out_token: *mut u64,
    ) -> tca_status;
    pub fn tca_store_subscribe_state(
        store: *mut tca_store,
        function: tca_state_json_fn,
        userdata: *mut c_void,
        out_token: *mut u64,
    ) -> tca_status;
    pub fn tca_store_unsubscribe(store: *mut tca_store, token: u64) -> tca_status;
    pub fn tca_store_set_effect_handler(
        store: *mut tca_store,
        function: tca_effect_fn,
        on_cancel: tca_cancel_fn,
        userdata: *mut c_void,
    ) -> tca_status;
    pub fn tca_store_set_request_handler(
        store: *mut tca_store,
        function: tca_request_fn,
        on_cancel: tca_cancel_fn,
        userdata: *mut c_void,
    ) -> tca_status;
    pub fn tca_store_take_requests(
        store: *mut tca_store,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_take_requests_v2(
        store: *mut tca_store,
        out_requests: *mut *const tca_request,
        out_count: *mut usize,
    ) -> tca_status;
    pub fn tca_store_respond(
        store: *mut tca_store,
        request_id: u64,
        response_json: *const c_char,
    ) -> tca_status;
    pub fn tca_store_respond_n(
        store: *mut tca_store,
        request_id: u64,
        response_json: *const c_char,
        length: usize,
    ) -> tca_status;
    pub fn tca_store_fail(
        store: *mut tca_store,
        request_id: u64,
        message: *const c_char,
    ) -> tca_status;
    pub fn tca_store_fail_n(
        store: *mut tca_store,
        request_id: u64,
        message: *const c_char,
        length: usize,
    ) -> tca_status;
    pub fn tca_store_complete(store: *mut tca_store, request_id: u64) -> tca_status;
    pub fn tca_store_poll(store: *mut tca_store, out_ran: *mut u32) -> tca_status;
    pub fn tca_store_advance(store: *mut tca_store, milliseconds: u64) -> tca_status;
    pub fn tca_store_next_deadline_ms(store: *const tca_store) -> i64;
    pub fn tca_store_fd(store: *mut tca_store) -> c_int;
    pub fn tca_store_journal(
        store: *mut tca_store,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_store_replay(
        journal: *const c_char,
        length: usize,
        to_version: u64,
        options: *const tca_options,
        out: *mut *mut tca_store,
    ) -> tca_status;
    pub fn tca_store_log_reductions(store: *mut tca_store, enabled: i32) -> tca_status;
    pub fn tca_store_take_reductions(
        store: *mut tca_store,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_canonical_action(
        feature: *const c_char,
        action_json: *const c_char,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
    pub fn tca_canonical_action_n(
        feature: *const c_char,
        feature_length: usize,
        action_json: *const c_char,
        action_length: usize,
        out_json: *mut *mut c_char,
        out_length: *mut usize,
    ) -> tca_status;
}
