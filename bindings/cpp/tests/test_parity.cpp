// tca.hpp's parity test: every function of tca.h that the C++ binding reaches, each through the
// binding, with the C function named above the section (docs/bindings.md lists them side by side
// with the other bindings). Run as built and under valgrind by make test-cpp: no store, string or
// subscriber may leak.
#include "check.hpp"

#include <poll.h>

#include <stdexcept>
#include <string>
#include <vector>

static const char *const kCounter7 = R"({"count":7,"isNumberFactLoading":false})";

// The value at `name` of a JSON object's members (members() itself is tested below).
static std::string member(const std::string &object, const std::string &name) {
  for (auto &[key, value] : tca::members(object))
    if (key == name) return value;
  return "";
}

// tca_version, tca_status_str, tca_last_error, tca_options_init, tca_features,
// tca_feature_schema, tca_feature_schema_n, tca_canonical_action_n
static void test_library() {
  CHECK(tca::version() == std::to_string(TCA_VERSION_MAJOR) + "." +
                              std::to_string(TCA_VERSION_MINOR) + "." +
                              std::to_string(TCA_VERSION_PATCH));
  CHECK(tca::status_str(TCA_ERR_INVALID_HANDLE) == "invalid store handle");
  CHECK(tca::status_str(12345) == "unknown status");
  try {
    tca::Store store("nope");
    CHECK(false);
  } catch (const tca::Error &error) {
    // The status, its name and the library's last error (tca_last_error), naming the function.
    CHECK(error.status() == TCA_ERR_UNKNOWN_FEATURE);
    CHECK(error.status_str() == tca::status_str(TCA_ERR_UNKNOWN_FEATURE));
    CHECK(std::string(error.what()).find("tca_store_new_v2") != std::string::npos);
    CHECK(std::string(error.what()) == tca_last_error());
  }

  tca::Options options;
  CHECK(options.get()->version == TCA_OPTIONS_VERSION && options.get()->clock == TCA_CLOCK_REAL &&
        options.get()->record == 0 && options.get()->requests == TCA_REQUESTS_CALLBACK);
  options.record().manual_clock().queued().seed(9).answers_on_host_thread();
  CHECK(options.get()->record == 1 && options.get()->clock == TCA_CLOCK_MANUAL &&
        options.get()->requests == TCA_REQUESTS_QUEUED && options.get()->seed == 9 &&
        options.get()->answers == TCA_ANSWERS_HOST_THREAD);

  std::vector<tca::Feature> features = tca::features();
  bool counter = false, dice = false;
  for (const tca::Feature &feature : features) {
    if (feature.name == "counter") {
      counter = feature.requests ==
                    std::vector<std::string>{"numberFact.fetch", "numberFact.save"} &&
                member(feature.initial_state, "count") == "0" && !feature.description.empty();
    }
    if (feature.name == "dice")
      dice = feature.requests ==
             std::vector<std::string>{"haptics.impact", "shared.load", "shared.save"};
  }
  CHECK(counter && dice);

  // tca_feature_schema_n through tca::schema, tca_feature_schema as tca.h declares it.
  std::string schema = tca::schema("counter");
  CHECK(schema.rfind(R"({"feature":"counter",)", 0) == 0);
  CHECK(schema.find(R"("numberFact.fetch":{"kind":"oneShot")") != std::string::npos);
  expect_error([] { tca::schema("nope"); }, TCA_ERR_UNKNOWN_FEATURE, "nope");
  char *raw_schema = nullptr;
  size_t raw_length = 0;
  CHECK(tca_feature_schema("counter", &raw_schema, &raw_length) == TCA_OK);
  CHECK(raw_schema != nullptr && std::string(raw_schema, raw_length) == schema);
  tca_string_free(raw_schema);

  CHECK(tca::canonical_action("counter", R"("incrementButtonTapped")") ==
        R"({"incrementButtonTapped":{}})");
  expect_error([] { tca::canonical_action("counter", R"("jump")"); }, TCA_ERR_JSON_SHAPE,
               "tca_canonical_action_n");
  expect_error([] { tca::canonical_action("nope", "{}"); }, TCA_ERR_UNKNOWN_FEATURE, "nope");
}

// tca_store_new_v2, tca_store_free, tca_store_send_n, tca_store_state, tca_store_get_n,
// tca_store_version, tca_store_state_borrow
static void test_state() {
  tca::Store store("counter", std::string_view(kCounter7));
  CHECK(store.version() == 0);
  store.send(R"("incrementButtonTapped")");
  CHECK(store.version() == 1);
  CHECK(store.get("/count") == "8");
  CHECK(member(store.state(), "count") == "8");
  // A pointer is given with its length: a NUL inside is part of a member's name.
  expect_error([&] { store.get(std::string_view("/co\0unt", 7)); }, TCA_ERR_NOT_FOUND,
               "tca_store_get_n");

  // The lent text: equal as JSON to state(), the same memory while the state is unchanged.
  std::string_view lent = store.state_borrow();
  CHECK(tca::members(lent) == tca::members(store.state()));
  const char *first = store.state_borrow().data();
  CHECK(store.state_borrow().data() == first);
  store.send(R"("incrementButtonTapped")");
  CHECK(member(std::string(store.state_borrow()), "count") == "9");

  tca::Store moved = std::move(store);
  expect_error([&] { store.state_borrow(); }, TCA_ERR_INVALID_HANDLE, "tca_store_state_borrow");
  expect_error([&] { (void)store.version(); }, TCA_ERR_INVALID_HANDLE, "tca_store_version");
  CHECK(moved.get("/count") == "9");
}

// tca_store_patch
static void test_patch() {
  tca::Store todos("todos");
  uint64_t seen = todos.version();
  CHECK(todos.patch(seen) == "[]");
  todos.send(R"("addTodoButtonTapped")");
  std::vector<tca::PatchOp> ops = tca::parse_patch(todos.patch(seen));
  bool added = false;
  for (const tca::PatchOp &op : ops)
    if (op.op == tca::PatchOp::add && op.tokens() == std::vector<std::string>{"todos", "0"})
      added = member(op.value, "description") == "\"\"" &&
              member(op.value, "isComplete") == "false";
  CHECK(added);

  // Versions the store no longer keeps (or never had) are refused with their own status. (A
  // version is counted when it is seen: each send here is read.)
  tca::Store counter("counter");
  for (int i = 0; i < 20; i++) {
    counter.send(R"("incrementButtonTapped")");
    CHECK(counter.version() == uint64_t(i + 1));
  }
  expect_error([&] { counter.patch(0); }, TCA_ERR_VERSION_GONE, "tca_store_patch");
  expect_error([&] { counter.patch(99); }, TCA_ERR_VERSION_GONE, "newer");
  std::vector<tca::PatchOp> last = tca::parse_patch(counter.patch(19));
  CHECK(last.size() == 1 && last[0].op == tca::PatchOp::replace && last[0].path == "/count" &&
        last[0].value == "20" && last[0].from.empty());
}

// tca_store_subscribe, tca_store_subscribe_state, tca_store_unsubscribe
static void test_subscriptions() {
  tca::Store store("counter");
  std::vector<uint64_t> versions;
  std::vector<std::string> states;
  {
    tca::Subscription subscription =
        store.subscribe([&](uint64_t version) { versions.push_back(version); });
    tca::Subscription with_state = store.subscribe_state(
        [&](uint64_t, std::string_view json) { states.push_back(std::string(json)); });
    CHECK(subscription.active() && subscription.token() != 0 &&
          subscription.token() != with_state.token());
    store.send(R"("incrementButtonTapped")");
    store.send(R"("incrementButtonTapped")");
    CHECK(versions == (std::vector<uint64_t>{1, 2}));
    CHECK(states.size() == 2 && member(states[1], "count") == "2");

    // A token moves; the moved-from one is inactive and unsubscribes nothing.
    tca::Subscription moved = std::move(subscription);
    CHECK(!subscription.active() && subscription.token() == 0 && moved.active());
    subscription.unsubscribe();
    store.send(R"("incrementButtonTapped")");
    CHECK(versions.size() == 3);
    moved.unsubscribe();
    moved.unsubscribe();  // twice is fine
    store.send(R"("incrementButtonTapped")");
    CHECK(versions.size() == 3 && states.size() == 4);
  }  // with_state's destructor unsubscribes
  store.send(R"("incrementButtonTapped")");
  CHECK(states.size() == 4);

  // Unsubscribing from inside the subscriber itself: not called again; freed once it returns.
  tca::Subscription self;
  int calls = 0;
  self = store.subscribe([&](uint64_t) {
    calls++;
    self.unsubscribe();
  });
  store.send(R"("incrementButtonTapped")");
  store.send(R"("incrementButtonTapped")");
  CHECK(calls == 1 && !self.active());

  // A subscriber's exception never crosses libtca: the send that ran it rethrows it, once.
  tca::Subscription thrower =
      store.subscribe([](uint64_t) { throw std::runtime_error("subscriber failed"); });
  bool rethrown = false;
  try {
    store.send(R"("incrementButtonTapped")");
  } catch (const std::runtime_error &error) {
    rethrown = std::string(error.what()) == "subscriber failed";
  }
  CHECK(rethrown);
  thrower.unsubscribe();
  store.send(R"("incrementButtonTapped")");
  CHECK(store.get("/count") == "9");

  expect_error([&] { (void)store.subscribe(nullptr); }, TCA_ERR_INVALID_ARGUMENT, "empty");

  // A token may outlive its store: unsubscribing then does nothing.
  tca::Subscription orphan;
  {
    tca::Store short_lived("counter");
    orphan = short_lived.subscribe([](uint64_t) {});
  }
  orphan.unsubscribe();
  CHECK(!orphan.active());
}

// tca_store_set_request_handler, tca_store_respond_n, tca_store_fail_n, tca_store_complete
static void test_answers() {
  tca::Store store("counter", std::string_view(kCounter7));
  std::vector<tca::Request> seen;
  store.on_request([&](tca::Store &, const tca::Request &request) { seen.push_back(request); });
  store.send(R"("numberFactButtonTapped")");
  CHECK(seen.size() == 1 && seen[0].name == "numberFact.fetch" && seen[0].payload == "7");
  // A one-shot request is not a stream: complete is refused, and it still takes its answer.
  expect_error([&] { store.complete(seen[0].id); }, TCA_ERR_NOT_A_STREAM, "tca_store_complete");
  store.fail(seen[0].id, std::string_view("no\0network", 10));
  CHECK(store.get("/isNumberFactLoading") == "false");
  CHECK(store.get("/numberFactError").find("network") != std::string::npos);
  expect_error([&] { store.respond(seen[0].id, "\"late\""); }, TCA_ERR_REQUEST_FINISHED,
               "tca_store_respond_n");
  store.send(R"("numberFactButtonTapped")");
  store.respond(seen[1].id, tca::quote("7 is a fine number."));
  CHECK(tca::unquote(store.get("/numberFact")) == "7 is a fine number.");
  expect_error([&] { store.complete(777); }, TCA_ERR_UNKNOWN_REQUEST, "777");
}

// tca_store_take_requests, tca_store_advance, tca_store_next_deadline_ms
static void test_pull_and_clock() {
  tca::Store dice("dice", tca::Options().queued().manual_clock().seed(7));
  CHECK(dice.next_deadline_ms() == -1);
  dice.send(R"("rollButtonTapped")");
  // NB: the history is shared state the host keeps: shared.load comes first.
  std::vector<tca::Request> taken = dice.take_requests();
  CHECK(taken.size() == 2 && taken[0].name == "shared.load" &&
        taken[1].kind == tca::RequestKind::fire_and_forget &&
        taken[1].payload == R"({"style":"medium"})");
  CHECK(dice.take_requests().empty());
  CHECK(dice.next_deadline_ms() == 500);
  dice.advance(499);
  CHECK(dice.get("/isRolling") == "true" && dice.next_deadline_ms() == 1);
  dice.advance(1);
  CHECK(dice.get("/currentRoll") == "5" && dice.next_deadline_ms() == -1);
}

// tca_store_poll, tca_store_fd
static void test_poll_and_fd() {
  tca::Store store("counter", tca::Options().queued().answers_on_host_thread());
  int fd = store.fd();
  CHECK(fd >= 0 && store.fd() == fd);
  store.send(R"("numberFactButtonTapped")");
  std::vector<tca::Request> taken = store.take_requests();
  CHECK(taken.size() == 1);
  if (taken.size() != 1) return;
  CHECK(store.poll() == 0);
  // The answer only waits (answers on the host's thread) and makes the descriptor readable;
  // poll applies it.
  store.respond(taken[0].id, "\"polled\"");
  CHECK(store.get("/isNumberFactLoading") == "true");
  struct pollfd ready = {fd, POLLIN, 0};
  CHECK(::poll(&ready, 1, 0) == 1);
  CHECK(store.poll() > 0);
  CHECK(store.get("/numberFact") == "\"polled\"");
  CHECK(store.poll() == 0);
}

// tca_store_journal, tca_store_replay
static void test_journal_and_replay() {
  tca::Store dice("dice", tca::Options().record().manual_clock().queued().seed(3));
  dice.send(R"("rollButtonTapped")");
  uint64_t rolling = dice.version();
  std::string rolling_state = dice.state();
  dice.advance(500);
  std::string journal = dice.journal();
  CHECK(journal.rfind(R"({"tcaJournal":1,"feature":"dice")", 0) == 0);
  CHECK(member(journal.substr(0, journal.find('\n')), "seed") == "3");

  tca::Store replayed = tca::replay(journal);
  CHECK(replayed.state() == dice.state());
  tca::Store halfway = tca::replay(journal, rolling, tca::Options().queued());
  CHECK(halfway.state() == rolling_state);
  halfway.advance(500);  // a replay runs on a manual clock, and goes on from there
  CHECK(halfway.get("/currentRoll") == dice.get("/currentRoll"));
  CHECK(halfway.journal().rfind(R"({"tcaJournal":1,"feature":"dice")", 0) == 0);

  expect_error([] { tca::replay("{\"tcaJournal\":1}\n"); }, TCA_ERR_JSON_SHAPE, "journal line 1");
  expect_error([] { tca::replay("not json"); }, TCA_ERR_JSON_SYNTAX, "journal line 1");
  tca::Store plain("counter");
  expect_error([&] { plain.journal(); }, TCA_ERR_INVALID_ARGUMENT, "tca_store_journal");
}

// tca_store_log_reductions, tca_store_take_reductions
static void test_reductions() {
  tca::Store store("counter", std::string_view(kCounter7), tca::Options().record());
  expect_error([&] { store.take_reductions(); }, TCA_ERR_INVALID_ARGUMENT,
               "tca_store_take_reductions");
  store.log_reductions(true);
  store.on_request([](tca::Store &self, const tca::Request &request) {
    self.respond(request.id, "\"a fact\"");
  });
  store.send(R"("numberFactButtonTapped")");
  std::vector<tca::Reduction> log = store.take_reductions();
  CHECK(log.size() == 2);
  if (log.size() == 2) {
    CHECK(log[0].origin == tca::Origin::host &&
          log[0].action == tca::canonical_action("counter", R"("numberFactButtonTapped")") &&
          member(log[0].state, "isNumberFactLoading") == "true");
    CHECK(log[1].origin == tca::Origin::effect &&
          member(log[1].state, "numberFact") == "\"a fact\"");
  }
  CHECK(store.take_reductions().empty());
  store.log_reductions(false);
  expect_error([&] { store.take_reductions(); }, TCA_ERR_INVALID_ARGUMENT,
               "tca_store_log_reductions first");
  tca::Store plain("counter");
  expect_error([&] { plain.log_reductions(true); }, TCA_ERR_INVALID_ARGUMENT,
               "tca_store_log_reductions");
}

// The JSON helpers the binding reads the library's reports with.
static void test_json() {
  CHECK(tca::items(R"([1, "a" ,[2,{"b":null}], -0.5e+3])") ==
        (std::vector<std::string>{"1", "\"a\"", R"([2,{"b":null}])", "-0.5e+3"}));
  CHECK(tca::items(" [ ] ").empty());
  auto fields = tca::members(R"({"a\/b":true,"c":{"d":[]}})");
  CHECK(fields.size() == 2 && fields[0].first == "a/b" && fields[0].second == "true" &&
        fields[1].second == R"({"d":[]})");
  CHECK(tca::pointer_tokens("") == std::vector<std::string>{});
  CHECK(tca::pointer_tokens("/a~1b/~0/") == (std::vector<std::string>{"a/b", "~", ""}));
  expect_error([] { tca::pointer_tokens("count"); }, TCA_ERR_INVALID_ARGUMENT, "leading");
  expect_error([] { tca::pointer_tokens("/a~2"); }, TCA_ERR_INVALID_ARGUMENT, "'~'");

  auto ops = tca::parse_patch(R"([{"op":"move","from":"/a/0","path":"/a/1"},
    {"op":"copy","from":"/b","path":"/c"},{"op":"remove","path":"/d"},
    {"op":"test","path":"/e","value":[1]}])");
  CHECK(ops.size() == 4 && ops[0].op == tca::PatchOp::move && ops[0].from == "/a/0" &&
        ops[1].op == tca::PatchOp::copy && ops[2].op == tca::PatchOp::remove &&
        ops[2].value.empty() && ops[3].op == tca::PatchOp::test && ops[3].value == "[1]");
  expect_error([] { tca::parse_patch(R"([{"op":"jump","path":""}])"); }, TCA_ERR_JSON_SHAPE,
               "RFC 6902");
  expect_error([] { tca::parse_patch(R"([{"op":"add"}])"); }, TCA_ERR_JSON_SHAPE, "path");

  // Bad text is an error naming the byte, never a crash.
  const char *bad[] = {"", "[", "[1,]", "[01]", "[1.]", "[\"\\x\"]", "[\"a", "[tru]", "{\"a\"}",
                       "[1] 2", "[\"\x01\"]", "[-]"};
  for (const char *text : bad)
    expect_error([&] { tca::items(text); }, TCA_ERR_JSON_SYNTAX, "byte");
  expect_error([] { tca::items(std::string_view("[1]\0", 4)); }, TCA_ERR_JSON_SYNTAX, "end");
  expect_error([] { tca::items("{}"); }, TCA_ERR_JSON_SHAPE, "an array");
  expect_error([] { tca::members("[]"); }, TCA_ERR_JSON_SHAPE, "an object");
  expect_error([] { tca::unquote("\"\\udc00\""); }, TCA_ERR_JSON_SYNTAX, "surrogate");
  std::string deep(600, '[');
  expect_error([&] { tca::items(deep); }, TCA_ERR_JSON_SYNTAX, "512");
  CHECK(tca::unquote(R"("\ud83c\udfb2 \/")") == "\xf0\x9f\x8e\xb2 /");
}

int main() {
  test_library();
  test_state();
  test_patch();
  test_subscriptions();
  test_answers();
  test_pull_and_clock();
  test_poll_and_fd();
  test_journal_and_replay();
  test_reductions();
  test_json();
  return report();
}
