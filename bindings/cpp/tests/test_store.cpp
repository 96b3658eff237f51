// tca.hpp's API: stores, state, errors with the library's message, request handlers and their
// exceptions, moves. Run under valgrind by make test-cpp (no string or store may leak).
#include "check.hpp"

#include <stdexcept>
#include <string>
#include <vector>

static void test_state_and_send() {
  tca::Store store("counter");
  CHECK(store.get("/count") == "0");
  uint64_t version = store.version();
  for (int i = 0; i < 43; i++) store.send(R"("incrementButtonTapped")");
  store.send(R"("decrementButtonTapped")");
  CHECK(store.get("/count") == "42");
  CHECK(store.version() > version);
  CHECK(store.state().rfind(R"({"count":42,)", 0) == 0);

  // A snapshot restores.
  tca::Store copy("counter", store.state());
  CHECK(copy.get("/count") == "42");
}

static void test_errors() {
  expect_error([] { tca::Store store("nope"); }, TCA_ERR_UNKNOWN_FEATURE, "nope");
  expect_error([] { tca::Store store("counter", std::string_view("{\"count\":")); },
               TCA_ERR_JSON_SYNTAX, "state_json");
  tca::Store store("counter");
  uint64_t version = store.version();
  expect_error([&] { store.send(R"("jumpButtonTapped")"); }, TCA_ERR_JSON_SHAPE,
               "tca_store_send");
  expect_error([&] { store.send("{"); }, TCA_ERR_JSON_SYNTAX, "tca_store_send");
  expect_error([&] { store.get("/nothing"); }, TCA_ERR_NOT_FOUND, "/nothing");
  expect_error([&] { store.get("count"); }, TCA_ERR_INVALID_ARGUMENT, "json_pointer");
  expect_error([&] { store.advance(16); }, TCA_ERR_REAL_CLOCK, "tca_store_advance");
  expect_error([&] { store.respond(99, "\"x\""); }, TCA_ERR_UNKNOWN_REQUEST, "99");
  expect_error([&] { store.fail(99, "x"); }, TCA_ERR_UNKNOWN_REQUEST, "99");
  CHECK(store.version() == version);  // a failed call changes nothing

  // A moved-from store is an invalid handle, not a crash.
  tca::Store moved = std::move(store);
  expect_error([&] { store.send(R"("incrementButtonTapped")"); }, TCA_ERR_INVALID_HANDLE,
               "tca_store_send");
  moved.send(R"("incrementButtonTapped")");
  CHECK(moved.get("/count") == "1");
  // Setting a handler on a moved-from store is refused too (it once read through a null pointer).
  expect_error([&] { store.on_request([](tca::Store &, const tca::Request &) {}); },
               TCA_ERR_INVALID_HANDLE, "moved from");
}

static void test_json_helpers() {
  CHECK(tca::quote("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"");
  CHECK(tca::quote(std::string("\x01", 1)) == "\"\\u0001\"");
  CHECK(tca::unquote("\"7 is lucky\"") == "7 is lucky");
  CHECK(tca::unquote("\"a\\\"b\\u00e9\\ud83c\\udfb2\"") == "a\"b\xc3\xa9\xf0\x9f\x8e\xb2");
  CHECK(tca::unquote(tca::quote("round \t trip \"x\"")) == "round \t trip \"x\"");
  expect_error([] { tca::unquote("42"); }, TCA_ERR_JSON_SHAPE, "expected a JSON string");
  // A quote inside, or text after the string, is not one JSON string (both were once taken).
  expect_error([] { tca::unquote(R"("a"b")"); }, TCA_ERR_JSON_SYNTAX, "the end of the text");
  expect_error([] { tca::unquote(R"("a" "b")"); }, TCA_ERR_JSON_SYNTAX, "the end of the text");
  expect_error([] { tca::unquote("\"\\u12\""); }, TCA_ERR_JSON_SYNTAX, "4 hex digits");
}

static void test_request_handler() {
  tca::Store store("counter", std::string_view(R"({"count":7,"isNumberFactLoading":false})"));
  std::vector<tca::Request> seen;
  store.on_request([&](tca::Store &self, const tca::Request &request) {
    seen.push_back(request);
    self.respond(request.id, tca::quote(request.payload + " is the host's number."));
  });
  store.send(R"("numberFactButtonTapped")");
  CHECK(seen.size() == 1);
  CHECK(seen.size() == 1 && seen[0].name == "numberFact.fetch" && seen[0].payload == "7" &&
        seen[0].kind == tca::RequestKind::one_shot);
  CHECK(tca::unquote(store.get("/numberFact")) == "7 is the host's number.");
  CHECK(store.get("/isNumberFactLoading") == "false");

  // Moving the store keeps the handler working, and it gets the new Store.
  tca::Store moved = std::move(store);
  moved.send(R"("numberFactButtonTapped")");
  CHECK(seen.size() == 2);
  CHECK(tca::unquote(moved.get("/numberFact")) == "7 is the host's number.");

  // Removing it: requests fail at once (no handler).
  moved.on_request(nullptr);
  moved.send(R"("numberFactButtonTapped")");
  CHECK(seen.size() == 2);
  CHECK(moved.get("/numberFactError").find("no handler") != std::string::npos);
}

static void test_handler_exception() {
  tca::Store store("counter");
  int calls = 0;
  store.on_request([&](tca::Store &, const tca::Request &) {
    calls++;
    throw std::runtime_error("the network is down");
  });
  // The exception fails the request, and comes out of the call that ran the handler.
  bool rethrown = false;
  try {
    store.send(R"("numberFactButtonTapped")");
  } catch (const std::runtime_error &error) {
    rethrown = std::strcmp(error.what(), "the network is down") == 0;
  }
  CHECK(rethrown);
  CHECK(calls == 1);
  CHECK(store.get("/isNumberFactLoading") == "false");
  CHECK(store.get("/numberFactError").find("the network is down") != std::string::npos);
  // The store keeps working; the exception is thrown once only.
  store.send(R"("incrementButtonTapped")");
  CHECK(store.get("/count") == "1");

  // A fire-and-forget request's exception (dice's haptics): rethrown; the roll goes on.
  tca::Store dice("dice", tca::Options().manual_clock().seed(7));
  dice.on_request([](tca::Store &, const tca::Request &request) {
    // NB: the haptics only: the history's shared.save is fire-and-forget too.
    if (request.name == "haptics.impact") throw 42;
  });
  bool caught = false;
  try {
    dice.send(R"("rollButtonTapped")");
  } catch (int value) {
    caught = value == 42;
  }
  CHECK(caught);
  CHECK(dice.get("/isRolling") == "true");
  dice.advance(500);
  CHECK(dice.get("/currentRoll") == "5");  // seed 7 rolls 5 first
}

static void test_cancel_handler() {
  tca::Store store("counter");
  std::vector<uint64_t> ids, cancelled;
  store.on_request([&](tca::Store &, const tca::Request &request) { ids.push_back(request.id); },
                   [&](tca::Store &, uint64_t id) { cancelled.push_back(id); });
  store.send(R"("numberFactButtonTapped")");
  store.send(R"("numberFactButtonTapped")");  // a second tap cancels the first request
  CHECK(ids.size() == 2);
  CHECK(cancelled.size() == 1 && ids.size() == 2 && cancelled[0] == ids[0]);
  store.respond(ids[1], "\"late but fine\"");
  CHECK(tca::unquote(store.get("/numberFact")) == "late but fine");
  expect_error([&] { store.respond(ids[0], "\"too late\""); }, TCA_ERR_REQUEST_FINISHED,
               "tca_store_respond");
}

static void test_pull_mode() {
  tca::Store store("counter", tca::Options().queued());
  CHECK(store.take_requests().empty());
  store.send(R"("incrementButtonTapped")");
  store.send(R"("numberFactButtonTapped")");
  store.send(R"("numberFactButtonTapped")");  // cancels the first
  std::vector<tca::Request> taken = store.take_requests();
  CHECK(taken.size() == 3);
  if (taken.size() == 3) {
    CHECK(!taken[0].cancelled && taken[0].name == "numberFact.fetch" && taken[0].payload == "1" &&
          taken[0].kind == tca::RequestKind::one_shot);
    CHECK(taken[1].cancelled && taken[1].id == taken[0].id && taken[1].name.empty());
    CHECK(!taken[2].cancelled && taken[2].id != taken[0].id);
    // Answered later, outside any callback.
    store.respond(taken[2].id, tca::quote("1 is the loneliest number."));
    CHECK(tca::unquote(store.get("/numberFact")) == "1 is the loneliest number.");
    expect_error([&] { store.respond(taken[0].id, "\"late\""); }, TCA_ERR_REQUEST_FINISHED,
                 "tca_store_respond");
  }
  CHECK(store.take_requests().empty());

  // Iteration: dice's fire-and-forget haptics, with an object payload.
  tca::Store dice("dice", tca::Options().queued().manual_clock().seed(7));
  dice.send(R"("rollButtonTapped")");
  int buzzes = 0;
  for (const tca::Request &request : dice.take_requests()) {
    // NB: the history is shared state the host keeps (shared.load at the first turn).
    if (request.name == "shared.load") continue;
    CHECK(request.name == "haptics.impact" && request.payload == R"({"style":"medium"})" &&
          request.kind == tca::RequestKind::fire_and_forget);
    buzzes++;
  }
  CHECK(buzzes == 1);
  dice.advance(500);
  CHECK(dice.get("/currentRoll") == "5");

  // The reader refuses what is not the library's array (as take_requests would report it).
  expect_error([] { tca::detail::read_requests("[{\"id\":}]"); }, TCA_ERR_JSON_SYNTAX,
               "take_requests");
  // An id past 64 bits is refused (it once wrapped around to another request's id).
  expect_error([] { tca::detail::read_requests(R"([{"id":18446744073709551616}])"); },
               TCA_ERR_JSON_SHAPE, "64 bits");
  expect_error([] { tca::detail::read_requests("[{\"payload\":[1,2}"); },
               TCA_ERR_JSON_SYNTAX, "take_requests");
}

int main() {
  test_pull_mode();
  test_state_and_send();
  test_errors();
  test_json_helpers();
  test_request_handler();
  test_handler_exception();
  test_cancel_handler();
  return report();
}
