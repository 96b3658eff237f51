//! The crate's parity test: every function of tca.h, each through the safe layer where it has one
//! and through `sys` where the safe layer makes the call differently, with the C functions named
//! above each test (docs/bindings.md lists them side by side with the other bindings).
//! `make test-rust` also runs it under valgrind: no store, string or subscriber may leak.
use std::cell::{Cell, RefCell};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_void};
use std::panic;
use std::ptr;
use std::rc::Rc;

use tca::{sys, Op, Options, Origin, Pending, RequestKind, Store, Subscription};

const COUNTER7: &str = r#"{"count":7,"isNumberFactLoading":false}"#;

fn expect_error<T: std::fmt::Debug>(result: Result<T, tca::Error>, status: i32, needle: &str) {
    let error = result.expect_err("expected a tca::Error");
    assert_eq!(error.status(), status, "status of {}", error);
    assert!(error.message().contains(needle), "message {:?} lacks {:?}", error.message(), needle);
}

/// The value at `name` of a JSON object (`members` itself is tested below).
fn member(object: &str, name: &str) -> String {
    let fields = tca::members(object).unwrap();
    fields
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.to_string())
        .unwrap_or_default()
}

fn requests(store: &Store) -> Vec<tca::Request> {
    let taken = store.take_requests().unwrap();
    taken
        .into_iter()
        .filter_map(|pending| if let Pending::Request(r) = pending { Some(r) } else { None })
        .collect()
}

/// tca_version, tca_status_str, tca_last_error, tca_options_init, tca_features,
/// tca_feature_schema, tca_feature_schema_n, tca_canonical_action_n
#[test]
fn library() {
    assert_eq!(tca::version(), format!("{}.{}.{}", 0, 1, 0));
    assert_eq!(tca::status_str(sys::TCA_ERR_INVALID_HANDLE), "invalid store handle");
    assert_eq!(tca::status_str(12345), "unknown status");
    let error = Store::new("nope").unwrap_err();
    assert_eq!(error.status(), sys::TCA_ERR_UNKNOWN_FEATURE);
    assert_eq!(error.status_str(), tca::status_str(sys::TCA_ERR_UNKNOWN_FEATURE));
    assert!(error.message().contains("tca_store_new_v2"), "{}", error);
    // SAFETY: never NULL; the last failure on this thread.
    assert_eq!(
        error.message(),
        unsafe { CStr::from_ptr(sys::tca_last_error()) }.to_str().unwrap()
    );
    assert!(
        error.to_string().ends_with(&format!("(status 3: {})", error.status_str())),
        "{}",
        error
    );

    let raw = *Options::new().as_raw();
    assert_eq!(
        (raw.version, raw.clock, raw.record, raw.requests),
        (2, sys::TCA_CLOCK_REAL, 0, sys::TCA_REQUESTS_CALLBACK)
    );
    let raw =
        *Options::new().record().manual_clock().queued().seed(9).answers_on_host_thread().as_raw();
    assert_eq!(
        (raw.record, raw.clock, raw.requests, raw.seed, raw.answers),
        (1, sys::TCA_CLOCK_MANUAL, sys::TCA_REQUESTS_QUEUED, 9, sys::TCA_ANSWERS_HOST_THREAD)
    );

    let features = tca::features().unwrap();
    let counter = features.iter().find(|f| f.name == "counter").expect("counter");
    assert_eq!(counter.requests, vec!["numberFact.fetch", "numberFact.save"]);
    assert_eq!(member(&counter.initial_state, "count"), "0");
    assert!(!counter.description.is_empty());
    let dice = features.iter().find(|f| f.name == "dice").expect("dice");
    assert_eq!(dice.requests, vec!["haptics.impact", "shared.load", "shared.save"]);

    // tca_feature_schema_n through tca::schema, tca_feature_schema through sys.
    let schema = tca::schema("counter").unwrap();
    assert!(schema.starts_with(r#"{"feature":"counter","#));
    assert!(schema.contains(r#""numberFact.fetch":{"kind":"oneShot""#));
    expect_error(tca::schema("nope"), sys::TCA_ERR_UNKNOWN_FEATURE, "nope");
    let (mut raw, mut length) = (std::ptr::null_mut(), 0usize);
    // SAFETY: a NUL-terminated name; on success a string of `length` bytes, released below.
    let status =
        unsafe { sys::tca_feature_schema(b"counter\0".as_ptr().cast(), &mut raw, &mut length) };
    assert_eq!(status, sys::TCA_OK);
    // SAFETY: as above.
    let text = unsafe { std::slice::from_raw_parts(raw as *const u8, length) };
    assert_eq!(text, schema.as_bytes());
    // SAFETY: the library's string, released once.
    unsafe { sys::tca_string_free(raw) };

    assert_eq!(
        tca::canonical_action("counter", r#""incrementButtonTapped""#).unwrap(),
        r#"{"incrementButtonTapped":{}}"#
    );
    expect_error(
        tca::canonical_action("counter", r#""jump""#),
        sys::TCA_ERR_JSON_SHAPE,
        "tca_canonical_action_n",
    );
    expect_error(tca::canonical_action("nope", "{}"), sys::TCA_ERR_UNKNOWN_FEATURE, "nope");
}

/// tca_store_new_v2, tca_store_free, tca_store_send_n, tca_store_state, tca_store_get_n,
/// tca_store_version, tca_store_state_borrow
#[test]
fn state() {
    let mut store = Store::with_options("counter", Some(COUNTER7), &Options::new()).unwrap();
    assert_eq!(store.version().unwrap(), 0);
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(store.version().unwrap(), 1);
    assert_eq!(store.get("/count").unwrap(), "8");
    assert_eq!(member(&store.state().unwrap(), "count"), "8");
    // A pointer is given with its length: a NUL inside is part of a member's name.
    expect_error(store.get("/co\0unt"), sys::TCA_ERR_NOT_FOUND, "tca_store_get_n");

    // The lent text: equal as JSON to state(), the same memory while the state is unchanged.
    let whole = store.state().unwrap();
    let first = {
        let lent = store.state_borrow().unwrap();
        assert_eq!(tca::members(&lent).unwrap(), tca::members(&whole).unwrap());
        lent.as_ptr()
    };
    assert_eq!(store.state_borrow().unwrap().as_ptr(), first);
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(member(&store.state_borrow().unwrap(), "count"), "9");
    assert!(format!("{}", store.state_borrow().unwrap()).contains("\"count\":9"));
}

/// tca_store_patch
#[test]
fn patch() {
    let todos = Store::new("todos").unwrap();
    let seen = todos.version().unwrap();
    assert_eq!(todos.patch(seen).unwrap(), "[]");
    todos.send(r#""addTodoButtonTapped""#).unwrap();
    let ops = tca::parse_patch(&todos.patch(seen).unwrap()).unwrap();
    let added = ops
        .iter()
        .find(|op| op.op == Op::Add && op.tokens().unwrap() == ["todos", "0"])
        .expect("an add of /todos/0");
    let todo = added.value.as_deref().unwrap();
    assert_eq!(
        (member(todo, "description").as_str(), member(todo, "isComplete").as_str()),
        ("\"\"", "false")
    );

    // Versions the store no longer keeps (or never had) are refused with their own status. (A
    // version is counted when it is seen: each send here is read.)
    let counter = Store::new("counter").unwrap();
    for i in 1..=20 {
        counter.send(r#""incrementButtonTapped""#).unwrap();
        assert_eq!(counter.version().unwrap(), i);
    }
    expect_error(counter.patch(0), sys::TCA_ERR_VERSION_GONE, "tca_store_patch");
    expect_error(counter.patch(99), sys::TCA_ERR_VERSION_GONE, "newer");
    let last = tca::parse_patch(&counter.patch(19).unwrap()).unwrap();
    assert_eq!(
        last,
        vec![tca::PatchOp {
            op: Op::Replace,
            path: "/count".to_string(),
            from: None,
            value: Some("20".to_string())
        }]
    );
}

/// tca_store_subscribe, tca_store_subscribe_state, tca_store_unsubscribe
#[test]
fn subscriptions() {
    let mut store = Store::new("counter").unwrap();
    let versions = Rc::new(RefCell::new(Vec::new()));
    let states = Rc::new(RefCell::new(Vec::new()));
    let (v, s) = (versions.clone(), states.clone());
    let subscription = store.subscribe(move |version| v.borrow_mut().push(version)).unwrap();
    let with_state =
        store.subscribe_state(move |_, json| s.borrow_mut().push(json.to_string())).unwrap();
    assert!(subscription.token() != 0 && subscription.token() != with_state.token());
    store.send(r#""incrementButtonTapped""#).unwrap();
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(*versions.borrow(), vec![1, 2]);
    assert_eq!(member(&states.borrow()[1], "count"), "2");
    subscription.unsubscribe();
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(versions.borrow().len(), 2);
    assert_eq!(states.borrow().len(), 3);

    // Dropped while the state text is lent: unsubscribed once the text is given back.
    {
        let lent = store.state_borrow().unwrap();
        drop(with_state);
        assert!(lent.contains("\"count\":3"));
    }
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(states.borrow().len(), 3);

    // Unsubscribing from inside the subscriber itself: not called again; freed once it returns.
    let holder: Rc<RefCell<Option<Subscription>>> = Rc::new(RefCell::new(None));
    let calls = Rc::new(Cell::new(0));
    let (inner, count) = (holder.clone(), calls.clone());
    let own = store
        .subscribe(move |_| {
            count.set(count.get() + 1);
            inner.borrow_mut().take();
        })
        .unwrap();
    *holder.borrow_mut() = Some(own);
    store.send(r#""incrementButtonTapped""#).unwrap();
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(calls.get(), 1);
    assert!(holder.borrow().is_none());

    // A subscriber's panic never crosses libtca: the send that ran it resumes it, once.
    let thrower = store.subscribe(|_| panic!("subscriber failed")).unwrap();
    let payload =
        panic::catch_unwind(panic::AssertUnwindSafe(|| store.send(r#""incrementButtonTapped""#)))
            .expect_err("the panic resumes from send");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"subscriber failed"));
    drop(thrower);
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(store.get("/count").unwrap(), "8");

    // A guard may outlive its store: dropping it then only frees the closure.
    let orphan = {
        let short_lived = Store::new("counter").unwrap();
        short_lived.subscribe(|_| {}).unwrap()
    };
    drop(orphan);
}

/// tca_store_set_request_handler, tca_store_respond_n, tca_store_fail_n, tca_store_complete
#[test]
fn answers() {
    let store = Store::with_options("counter", Some(COUNTER7), &Options::new()).unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    store
        .on_request(move |request| {
            log.borrow_mut().push(request.clone());
            Ok(None)
        })
        .unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let first = seen.borrow()[0].clone();
    assert_eq!((first.name.as_str(), first.payload.as_str()), ("numberFact.fetch", "7"));
    // A one-shot request is not a stream: complete is refused, and it still takes its answer.
    expect_error(store.complete(first.id), sys::TCA_ERR_NOT_A_STREAM, "tca_store_complete");
    store.fail(first.id, "no\0network").unwrap();
    assert_eq!(store.get("/isNumberFactLoading").unwrap(), "false");
    assert!(store.get("/numberFactError").unwrap().contains("network"));
    expect_error(
        store.respond(first.id, r#""late""#),
        sys::TCA_ERR_REQUEST_FINISHED,
        "tca_store_respond_n",
    );
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let second = seen.borrow()[1].id;
    store.respond(second, &tca::quote("7 is a fine number.")).unwrap();
    assert_eq!(tca::unquote(&store.get("/numberFact").unwrap()).unwrap(), "7 is a fine number.");
    expect_error(store.complete(777), sys::TCA_ERR_UNKNOWN_REQUEST, "777");
}

/// tca_store_take_requests, tca_store_advance, tca_store_next_deadline_ms
#[test]
fn pull_and_clock() {
    let dice = Store::with_options("dice", None, &Options::new().queued().manual_clock().seed(7))
        .unwrap();
    assert_eq!(dice.next_deadline_ms(), None);
    dice.send(r#""rollButtonTapped""#).unwrap();
    // NB: the history is shared state the host keeps: shared.load comes first.
    let taken = requests(&dice);
    assert_eq!(taken.len(), 2);
    assert_eq!(taken[0].name, "shared.load");
    assert_eq!(
        (taken[1].kind, taken[1].payload.as_str()),
        (RequestKind::FireAndForget, r#"{"style":"medium"}"#)
    );
    assert!(dice.take_requests().unwrap().is_empty());
    assert_eq!(dice.next_deadline_ms(), Some(500));
    dice.advance(499).unwrap();
    assert_eq!(
        (dice.get("/isRolling").unwrap().as_str(), dice.next_deadline_ms()),
        ("true", Some(1))
    );
    dice.advance(1).unwrap();
    assert_eq!((dice.get("/currentRoll").unwrap().as_str(), dice.next_deadline_ms()), ("5", None));
}

/// tca_store_take_requests_v2 (through sys: the struct form is lent, for C and FFI hosts)
#[test]
fn pull_as_structs() {
    let store = Store::with_options("counter", None, &Options::new().queued()).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let mut taken: *const sys::tca_request = ptr::null();
    let mut count = 0usize;
    let status = unsafe { sys::tca_store_take_requests_v2(store.as_ptr(), &mut taken, &mut count) };
    assert_eq!((status, count), (sys::TCA_OK, 3));
    let entries = unsafe { std::slice::from_raw_parts(taken, count) };
    let name = unsafe { CStr::from_ptr(entries[0].name) }.to_str().unwrap();
    let payload = unsafe { CStr::from_ptr(entries[0].payload_json) }.to_str().unwrap();
    assert_eq!((entries[0].id, name, payload), (1, "numberFact.fetch", "0"));
    assert_eq!((entries[1].id, entries[1].kind), (1, sys::TCA_REQUEST_CANCELLED));
    assert_eq!((entries[2].id, entries[2].kind), (2, sys::TCA_REQUEST_ONE_SHOT));
    store.respond(2, r#""0 is zero""#).unwrap();
    assert_eq!(store.get("/numberFact").unwrap(), r#""0 is zero""#);
}

/// tca_options.shared: an isolated store's shared fields are its own
#[test]
fn isolated_shared_fields() {
    let teams = std::fs::read_to_string("../../Tests/fixtures/matchscores/teams_page1.json")
        .unwrap();
    let with_teams = |options: Options| {
        let store = Store::with_options("matchscores", None, &options.queued().manual_clock())
            .unwrap();
        store.send(r#"{"teamList":"onAppear"}"#).unwrap();
        for request in requests(&store) {
            if request.name == "matchScores.fetchTeams" {
                store.respond(request.id, &teams).unwrap();
            }
        }
        store
    };
    let (a, b) = (with_teams(Options::new()), with_teams(Options::new()));
    let isolated = with_teams(Options::new().isolated_shared());
    a.send(r#"{"favoriteButtonTapped":2}"#).unwrap();
    b.poll().unwrap();
    isolated.poll().unwrap();
    assert_eq!(b.get("/favorites/teams/0/id").unwrap(), "2");
    assert_eq!(isolated.get("/favorites/teams").unwrap(), "[]");
}

#[repr(C)]
struct PollFd {
    fd: i32,
    events: i16,
    revents: i16,
}

extern "C" {
    fn poll(fds: *mut PollFd, count: u64, timeout: i32) -> i32;
}

/// tca_store_poll, tca_store_fd
#[test]
fn poll_and_fd() {
    let store =
        Store::with_options("counter", None, &Options::new().queued().answers_on_host_thread())
            .unwrap();
    let fd = store.fd().unwrap();
    assert!(fd >= 0);
    assert_eq!(store.fd().unwrap(), fd);
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let taken = requests(&store);
    assert_eq!(taken.len(), 1);
    assert_eq!(store.poll().unwrap(), 0);
    // The answer only waits (answers on the host's thread) and makes the descriptor readable;
    // poll applies it.
    store.respond(taken[0].id, r#""polled""#).unwrap();
    assert_eq!(store.get("/isNumberFactLoading").unwrap(), "true");
    let mut ready = PollFd { fd, events: 1, revents: 0 };
    // SAFETY: one valid pollfd; no waiting.
    assert_eq!(unsafe { poll(&mut ready, 1, 0) }, 1);
    assert!(store.poll().unwrap() > 0);
    assert_eq!(store.get("/numberFact").unwrap(), r#""polled""#);
    assert_eq!(store.poll().unwrap(), 0);
}

/// tca_store_journal, tca_store_replay
#[test]
fn journal_and_replay() {
    let dice = Store::with_options(
        "dice",
        None,
        &Options::new().record().manual_clock().queued().seed(3),
    )
    .unwrap();
    dice.send(r#""rollButtonTapped""#).unwrap();
    let rolling = dice.version().unwrap();
    let rolling_state = dice.state().unwrap();
    dice.advance(500).unwrap();
    let journal = dice.journal().unwrap();
    assert!(journal.starts_with(r#"{"tcaJournal":1,"feature":"dice""#), "{}", journal);
    assert_eq!(member(journal.lines().next().unwrap(), "seed"), "3");

    let replayed = tca::replay(&journal, None).unwrap();
    assert_eq!(replayed.state().unwrap(), dice.state().unwrap());
    let halfway =
        tca::replay_with_options(&journal, Some(rolling), &Options::new().queued()).unwrap();
    assert_eq!(halfway.state().unwrap(), rolling_state);
    halfway.advance(500).unwrap(); // a replay runs on a manual clock, and goes on from there
    assert_eq!(halfway.get("/currentRoll").unwrap(), dice.get("/currentRoll").unwrap());
    assert!(halfway.journal().unwrap().starts_with(r#"{"tcaJournal":1,"feature":"dice""#));

    expect_error(
        tca::replay("{\"tcaJournal\":1}\n", None),
        sys::TCA_ERR_JSON_SHAPE,
        "journal line 1",
    );
    expect_error(tca::replay("not json", None), sys::TCA_ERR_JSON_SYNTAX, "journal line 1");
    expect_error(
        Store::new("counter").unwrap().journal(),
        sys::TCA_ERR_INVALID_ARGUMENT,
        "tca_store_journal",
    );
}

/// tca_store_log_reductions, tca_store_take_reductions
#[test]
fn reductions() {
    let store = Store::with_options("counter", Some(COUNTER7), &Options::new().record()).unwrap();
    expect_error(
        store.take_reductions(),
        sys::TCA_ERR_INVALID_ARGUMENT,
        "tca_store_take_reductions",
    );
    store.log_reductions(true).unwrap();
    store.on_request(|_| Ok(Some(r#""a fact""#.to_string()))).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let log = store.take_reductions().unwrap();
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].origin, Origin::Host);
    assert_eq!(
        log[0].action,
        tca::canonical_action("counter", r#""numberFactButtonTapped""#).unwrap()
    );
    assert_eq!(member(&log[0].state, "isNumberFactLoading"), "true");
    assert_eq!(log[1].origin, Origin::Effect);
    assert_eq!(member(&log[1].state, "numberFact"), r#""a fact""#);
    assert!(store.take_reductions().unwrap().is_empty());
    store.log_reductions(false).unwrap();
    expect_error(
        store.take_reductions(),
        sys::TCA_ERR_INVALID_ARGUMENT,
        "tca_store_log_reductions first",
    );
    expect_error(
        Store::new("counter").unwrap().log_reductions(true),
        sys::TCA_ERR_INVALID_ARGUMENT,
        "tca_store_log_reductions",
    );
}

/// The JSON helpers the crate reads the library's reports with.
#[test]
fn json() {
    assert_eq!(
        tca::items(r#"[1, "a" ,[2,{"b":null}], -0.5e+3]"#).unwrap(),
        vec!["1", "\"a\"", r#"[2,{"b":null}]"#, "-0.5e+3"]
    );
    assert!(tca::items(" [ ] ").unwrap().is_empty());
    let fields = tca::members(r#"{"a\/b":true,"c":{"d":[]}}"#).unwrap();
    assert_eq!(fields, vec![("a/b".to_string(), "true"), ("c".to_string(), r#"{"d":[]}"#)]);
    assert!(tca::pointer_tokens("").unwrap().is_empty());
    assert_eq!(tca::pointer_tokens("/a~1b/~0/").unwrap(), vec!["a/b", "~", ""]);
    expect_error(tca::pointer_tokens("count"), sys::TCA_ERR_INVALID_ARGUMENT, "leading");
    expect_error(tca::pointer_tokens("/a~2"), sys::TCA_ERR_INVALID_ARGUMENT, "'~'");

    let ops = tca::parse_patch(
        r#"[{"op":"move","from":"/a/0","path":"/a/1"},{"op":"copy","from":"/b","path":"/c"},
            {"op":"remove","path":"/d"},{"op":"test","path":"/e","value":[1]}]"#,
    )
    .unwrap();
    let kinds: Vec<Op> = ops.iter().map(|op| op.op).collect();
    assert_eq!(kinds, vec![Op::Move, Op::Copy, Op::Remove, Op::Test]);
    assert_eq!(
        (ops[0].from.as_deref(), ops[2].value.as_deref(), ops[3].value.as_deref()),
        (Some("/a/0"), None, Some("[1]"))
    );
    expect_error(
        tca::parse_patch(r#"[{"op":"jump","path":""}]"#),
        sys::TCA_ERR_JSON_SHAPE,
        "RFC 6902",
    );
    expect_error(tca::parse_patch(r#"[{"op":"add"}]"#), sys::TCA_ERR_JSON_SHAPE, "path");

    // Bad text is an error naming the byte, never a panic.
    for text in [
        "",
        "[",
        "[1,]",
        "[01]",
        "[1.]",
        "[\"\\x\"]",
        "[\"a",
        "[tru]",
        "{\"a\"}",
        "[1] 2",
        "[\"\u{1}\"]",
        "[-]",
        "[1]\0",
    ] {
        expect_error(tca::items(text), sys::TCA_ERR_JSON_SYNTAX, "byte");
    }
    expect_error(tca::items("{}"), sys::TCA_ERR_JSON_SHAPE, "an array");
    expect_error(tca::members("[]"), sys::TCA_ERR_JSON_SHAPE, "an object");
    expect_error(tca::unquote(r#""\udc00""#), sys::TCA_ERR_JSON_SYNTAX, "surrogate");
    expect_error(tca::items(&"[".repeat(600)), sys::TCA_ERR_JSON_SYNTAX, "512");
    assert_eq!(tca::unquote(r#""\ud83c\udfb2 \/""#).unwrap(), "🎲 /");
    let long = format!("[{}", "é".repeat(30));
    let error = tca::items(&long).unwrap_err();
    assert!(error.message().ends_with("é…\""), "{}", error);
}

unsafe extern "C" fn effect(
    userdata: *mut c_void,
    store: *mut sys::tca_store,
    id: u64,
    _name: *const c_char,
    _payload: *const c_char,
    _length: usize,
) {
    *(userdata as *mut u64) = id;
    let answer = CString::new("\"from sys\"").unwrap();
    sys::tca_store_respond(store, id, answer.as_ptr());
}

/// The NUL-terminated forms and the kind-less effect handler, which the safe layer does not use
/// (it passes every string with its length): tca_store_new, tca_store_new_n, tca_store_send,
/// tca_store_get, tca_store_respond, tca_store_fail, tca_store_set_effect_handler,
/// tca_canonical_action, tca_string_free
#[test]
fn sys_forms() {
    let feature = CString::new("counter").unwrap();
    let text = |json: *mut c_char| {
        // SAFETY: a string the library returned, freed once read.
        let owned = unsafe { CStr::from_ptr(json) }.to_str().unwrap().to_string();
        unsafe { sys::tca_string_free(json) };
        owned
    };
    unsafe {
        let mut store = ptr::null_mut();
        assert_eq!(
            sys::tca_store_new(feature.as_ptr(), ptr::null(), ptr::null(), &mut store),
            sys::TCA_OK
        );
        let action = CString::new("\"incrementButtonTapped\"").unwrap();
        assert_eq!(sys::tca_store_send(store, action.as_ptr()), sys::TCA_OK);
        let (mut json, pointer) = (ptr::null_mut(), CString::new("/count").unwrap());
        assert_eq!(
            sys::tca_store_get(store, pointer.as_ptr(), &mut json, ptr::null_mut()),
            sys::TCA_OK
        );
        assert_eq!(text(json), "1");
        let mut id = 0u64;
        let status = sys::tca_store_set_effect_handler(
            store,
            Some(effect),
            None,
            &mut id as *mut u64 as *mut c_void,
        );
        assert_eq!(status, sys::TCA_OK);
        let tap = CString::new("\"numberFactButtonTapped\"").unwrap();
        assert_eq!(sys::tca_store_send(store, tap.as_ptr()), sys::TCA_OK);
        let fact = CString::new("/numberFact").unwrap();
        assert_eq!(
            sys::tca_store_get(store, fact.as_ptr(), &mut json, ptr::null_mut()),
            sys::TCA_OK
        );
        assert_eq!(text(json), "\"from sys\"");
        let message = CString::new("too late").unwrap();
        assert_eq!(
            sys::tca_store_fail(store, id, message.as_ptr()),
            sys::TCA_ERR_REQUEST_FINISHED
        );
        sys::tca_store_free(store);

        let state = "{\"count\":3}";
        let mut other = ptr::null_mut();
        let status = sys::tca_store_new_n(
            feature.as_ptr(),
            state.as_ptr() as *const c_char,
            state.len(),
            ptr::null(),
            &mut other,
        );
        assert_eq!(status, sys::TCA_OK);
        assert_eq!(sys::tca_store_version(other), 0);
        sys::tca_store_free(other);

        let mut canonical = ptr::null_mut();
        let status = sys::tca_canonical_action(
            feature.as_ptr(),
            action.as_ptr(),
            &mut canonical,
            ptr::null_mut(),
        );
        assert_eq!(status, sys::TCA_OK);
        assert_eq!(text(canonical), r#"{"incrementButtonTapped":{}}"#);
    }
}
