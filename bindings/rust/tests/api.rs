//! The crate's API: stores, state, errors with the library's message, pull mode, request
//! closures and their panics. `make test-rust` also runs these under valgrind (no leak).
use std::cell::RefCell;
use std::panic;
use std::rc::Rc;

use tca::{sys, Options, Pending, RequestKind, Store};

fn expect_error<T: std::fmt::Debug>(result: Result<T, tca::Error>, status: i32, needle: &str) {
    let error = result.expect_err("expected a tca::Error");
    assert_eq!(error.status(), status, "status of {}", error);
    assert!(error.message().contains(needle), "message {:?} lacks {:?}", error.message(), needle);
}

#[test]
fn state_and_send() {
    let store = Store::new("counter").unwrap();
    assert_eq!(store.get("/count").unwrap(), "0");
    let version = store.version().unwrap();
    for _ in 0..43 {
        store.send(r#""incrementButtonTapped""#).unwrap();
    }
    store.send(r#""decrementButtonTapped""#).unwrap();
    assert_eq!(store.get("/count").unwrap(), "42");
    assert!(store.version().unwrap() > version);
    assert!(store.state().unwrap().starts_with(r#"{"count":42,"#));
    let copy =
        Store::with_options("counter", Some(&store.state().unwrap()), &Options::new()).unwrap();
    assert_eq!(copy.get("/count").unwrap(), "42");
    assert_eq!(tca::version(), "0.1.0");
}

#[test]
fn bad_input_is_an_error_with_the_library_message() {
    expect_error(Store::new("nope"), sys::TCA_ERR_UNKNOWN_FEATURE, "nope");
    expect_error(Store::new("counter\0"), sys::TCA_ERR_UNKNOWN_FEATURE, "tca_store_new_v2");
    expect_error(
        Store::with_options("counter", Some(r#"{"count":"#), &Options::new()),
        sys::TCA_ERR_JSON_SYNTAX,
        "state_json",
    );
    let store = Store::new("counter").unwrap();
    let version = store.version().unwrap();
    expect_error(store.send(r#""jumpButtonTapped""#), sys::TCA_ERR_JSON_SHAPE, "tca_store_send");
    expect_error(store.send("{"), sys::TCA_ERR_JSON_SYNTAX, "tca_store_send");
    expect_error(store.get("/nothing"), sys::TCA_ERR_NOT_FOUND, "/nothing");
    expect_error(store.get("count"), sys::TCA_ERR_INVALID_ARGUMENT, "json_pointer");
    expect_error(store.advance(16), sys::TCA_ERR_REAL_CLOCK, "tca_store_advance");
    expect_error(store.respond(99, r#""x""#), sys::TCA_ERR_UNKNOWN_REQUEST, "99");
    expect_error(store.fail(99, "x"), sys::TCA_ERR_UNKNOWN_REQUEST, "99");
    expect_error(store.complete(99), sys::TCA_ERR_UNKNOWN_REQUEST, "99");
    assert_eq!(store.version().unwrap(), version, "a failed call changes nothing");
    let shown = format!("{}", store.send("[").unwrap_err());
    assert!(shown.contains("(status 4: "), "{}", shown);
}

#[test]
fn json_helpers() {
    assert_eq!(tca::quote("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\u0001""#);
    assert_eq!(tca::unquote(r#""7 is lucky""#).unwrap(), "7 is lucky");
    assert_eq!(tca::unquote(r#""a\"b\u00e9\ud83c\udfb2""#).unwrap(), "a\"bé🎲");
    assert_eq!(tca::unquote(&tca::quote("round \t trip")).unwrap(), "round \t trip");
    expect_error(tca::unquote("42"), sys::TCA_ERR_JSON_SHAPE, "expected a JSON string");
    // A quote inside, or text after the string, is not one JSON string (both were once taken).
    expect_error(tca::unquote(r#""a"b""#), sys::TCA_ERR_JSON_SYNTAX, "the end of the text");
    expect_error(tca::unquote(r#""a" "b""#), sys::TCA_ERR_JSON_SYNTAX, "the end of the text");
    expect_error(tca::unquote(r#""\u12""#), sys::TCA_ERR_JSON_SYNTAX, "4 hex digits");
    expect_error(tca::unquote("\""), sys::TCA_ERR_JSON_SYNTAX, "the end of a string");
}

#[test]
fn pull_mode() {
    let store = Store::with_options("counter", None, &Options::new().queued()).unwrap();
    assert!(store.take_requests().unwrap().is_empty());
    store.send(r#""incrementButtonTapped""#).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    let taken = store.take_requests().unwrap();
    assert_eq!(taken.len(), 3, "{:?}", taken);
    let first = match &taken[0] {
        Pending::Request(request) => request.clone(),
        other => panic!("{:?}", other),
    };
    assert_eq!(
        (first.name.as_str(), first.payload.as_str(), first.kind),
        ("numberFact.fetch", "1", RequestKind::OneShot)
    );
    assert_eq!(taken[1], Pending::Cancelled(first.id));
    let second = match &taken[2] {
        Pending::Request(request) => request.clone(),
        other => panic!("{:?}", other),
    };
    store.respond(second.id, &tca::quote("1 is the loneliest number.")).unwrap();
    assert_eq!(
        tca::unquote(&store.get("/numberFact").unwrap()).unwrap(),
        "1 is the loneliest number."
    );
    expect_error(
        store.respond(first.id, r#""late""#),
        sys::TCA_ERR_REQUEST_FINISHED,
        "tca_store_respond",
    );
    assert!(store.take_requests().unwrap().is_empty());

    let dice = Store::with_options("dice", None, &Options::new().queued().manual_clock().seed(7))
        .unwrap();
    dice.send(r#""rollButtonTapped""#).unwrap();
    // NB: the history is shared state the host keeps: shared.load at the first turn.
    let taken = dice.take_requests().unwrap();
    assert_eq!(taken.len(), 2);
    let haptics = match &taken[1] {
        Pending::Request(request) => request.clone(),
        other => panic!("{:?}", other),
    };
    assert_eq!(haptics.name, "haptics.impact");
    assert_eq!(haptics.payload, r#"{"style":"medium"}"#);
    assert_eq!(haptics.kind, RequestKind::FireAndForget);
    dice.advance(500).unwrap();
    assert_eq!(dice.get("/currentRoll").unwrap(), "5");
}

#[test]
fn closures_answer_fail_and_see_cancels() {
    let store = Store::with_options(
        "counter",
        Some(r#"{"count":7,"isNumberFactLoading":false}"#),
        &Options::new(),
    )
    .unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    store
        .on_request(move |request| {
            log.borrow_mut().push(request.clone());
            Ok(Some(tca::quote(&format!("{} is the host's number.", request.payload))))
        })
        .unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    assert_eq!(seen.borrow().len(), 1);
    assert_eq!(seen.borrow()[0].name, "numberFact.fetch");
    assert_eq!(
        tca::unquote(&store.get("/numberFact").unwrap()).unwrap(),
        "7 is the host's number."
    );

    // Err(message) fails the request.
    store.on_request(|_| Err("offline".to_string())).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    assert!(store.get("/numberFactError").unwrap().contains("offline"));

    // An answer the feature refuses fails the request instead of leaving it waiting.
    store.on_request(|_| Ok(Some("42".to_string()))).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    assert!(store.get("/numberFactError").unwrap().contains("refused"));
    assert_eq!(store.get("/isNumberFactLoading").unwrap(), "false");

    // Later answers and cancellations.
    let ids = Rc::new(RefCell::new(Vec::new()));
    let cancelled = Rc::new(RefCell::new(Vec::new()));
    let (log, cancels) = (ids.clone(), cancelled.clone());
    store
        .on_request(move |request| {
            log.borrow_mut().push(request.id);
            Ok(None)
        })
        .unwrap();
    store.on_cancel(move |id| cancels.borrow_mut().push(id)).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    assert_eq!(cancelled.borrow().as_slice(), &ids.borrow()[..1]);
    store.respond(ids.borrow()[1], r#""late but fine""#).unwrap();
    assert_eq!(store.get("/numberFact").unwrap(), r#""late but fine""#);

    store.remove_handlers().unwrap();
    store.send(r#""numberFactButtonTapped""#).unwrap();
    assert!(store.get("/numberFactError").unwrap().contains("no handler"));
}

#[test]
fn a_panicking_closure_fails_its_request_and_the_panic_resumes() {
    let store = Store::new("counter").unwrap();
    store.on_request(|_| panic!("the network is down")).unwrap();
    let result =
        panic::catch_unwind(panic::AssertUnwindSafe(|| store.send(r#""numberFactButtonTapped""#)));
    let payload = result.expect_err("the panic resumes from send");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"the network is down"));
    assert_eq!(store.get("/isNumberFactLoading").unwrap(), "false");
    assert!(store.get("/numberFactError").unwrap().contains("the network is down"));
    // The store keeps working, and the panic resumed once only.
    store.send(r#""incrementButtonTapped""#).unwrap();
    assert_eq!(store.get("/count").unwrap(), "1");
}

#[test]
fn many_stores_and_strings_are_freed() {
    // Under valgrind (make test-rust), a leak of either fails the run.
    for i in 0..200 {
        let store = Store::with_options("counter", None, &Options::new().queued()).unwrap();
        store.send(r#""numberFactButtonTapped""#).unwrap();
        assert_eq!(store.take_requests().unwrap().len(), 1);
        assert!(store.state().unwrap().contains("\"count\":0"));
        let _ = store.get("/missing").unwrap_err();
        let _ = Store::new(&format!("nope{}", i)).err().unwrap();
    }
}
