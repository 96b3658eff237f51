-- The Lua module's API: stores, state, pull-mode requests, errors with the library's message,
-- stores freed by free() and by the collector. make test-lua also runs it under valgrind (a
-- string the module forgot to free is "definitely lost").
package.path = "./?.lua;./tests/?.lua;" .. package.path
local ffi = require("ffi")
local tca = require("tca")
local h = require("harness")
local check, raises = h.check, h.raises

-- State and send.
local store = tca.Store.new("counter")
check(store:get("/count") == "0", "a new counter is 0")
local version = store:version()
for _ = 1, 3 do store:send('"incrementButtonTapped"') end
check(store:value("/count") == 3, "three taps")
check(store:version() > version, "the version moved")
check(store:state():find('^{"count":3,') ~= nil, "state: " .. store:state())
local copy = tca.Store.new("counter", { state = store:state() })
check(copy:value("/count") == 3, "a snapshot restores")
check(tca.version() == "0.1.0", "version")

-- Bad input raises tca.Error with the library's message; nothing changes.
version = store:version()
raises(tca.ERR_UNKNOWN_FEATURE, "nope", tca.Store.new, "nope")
raises(tca.ERR_JSON_SYNTAX, "state_json", tca.Store.new, "counter", { state = '{"count":' })
raises(tca.ERR_INVALID_ARGUMENT, "clock", tca.Store.new, "counter", { clock = "sundial" })
raises(tca.ERR_JSON_SHAPE, "tca_store_send", store.send, store, '"jumpButtonTapped"')
raises(tca.ERR_JSON_SYNTAX, "tca_store_send", store.send, store, "{")
raises(tca.ERR_NOT_FOUND, "/nothing", store.get, store, "/nothing")
raises(tca.ERR_INVALID_ARGUMENT, "json_pointer", store.get, store, "count")
raises(tca.ERR_REAL_CLOCK, "tca_store_advance", store.advance, store, 16)
raises(tca.ERR_UNKNOWN_REQUEST, "99", store.respond, store, 99, '"x"')
raises(tca.ERR_UNKNOWN_REQUEST, "99", store.fail, store, 99, "x")
raises(tca.ERR_UNKNOWN_REQUEST, "99", store.complete, store, 99)
check(store:version() == version, "a failed call changes nothing")
local ok, err = pcall(store.send, store, "[")
check(not ok and tostring(err):find("tca_store_send", 1, true) and err.name == "TCA_ERR_JSON_SYNTAX",
      "tostring and name of an error: " .. tostring(err))

-- Pull mode: requests, a cancellation notice, answers given later.
store = tca.Store.new("counter")
check(#store:take_requests() == 0, "nothing waits")
store:send('"incrementButtonTapped"')
store:send('"numberFactButtonTapped"')
store:send('"numberFactButtonTapped"')
local taken = store:take_requests()
check(#taken == 3, "three taken")
raises(tca.ERR_NOT_A_STREAM, "tca_store_complete", store.complete, store, taken[3].id)
check(taken[1].name == "numberFact.fetch" and taken[1].kind == "oneShot" and taken[1].payload == 1,
      "the request")
check(taken[2].cancelled == taken[1].id, "the cancellation notice")
store:respond(taken[3].id, tca.json.quote('1 is "the" loneliest number.'))
check(store:value("/numberFact") == '1 is "the" loneliest number.', "answered later")
raises(tca.ERR_REQUEST_FINISHED, "tca_store_respond", store.respond, store, taken[1].id, '"late"')
store:send('"numberFactButtonTapped"')
local again = store:take_requests()
store:fail(again[1].id, "offline")
check(store:value("/numberFactError"):find("offline") ~= nil, "failed by the host")

-- Dice: a fire-and-forget request with an object payload; the seeded roll lands at 500 ms.
local dice = tca.Store.new("dice", { clock = "manual", seed = 7 })
dice:send('"rollButtonTapped"')
-- NB: the history is shared state the host keeps: shared.load at the first turn.
taken = dice:take_requests()
check(#taken == 2 and taken[1].name == "shared.load" and taken[2].name == "haptics.impact"
      and taken[2].kind == "fireAndForget" and taken[2].payload.style == "medium", "haptics")
dice:advance(499)
check(dice:value("/isRolling") == true, "still rolling at 499 ms")
check(dice:next_deadline_ms() == 1, "one ms to go")
dice:advance(1)
check(dice:value("/currentRoll") == 5, "seed 7 rolls 5")
check(dice:value("/destination") == tca.json.null, "null is json.null")

-- Freed by free(), and by the collector: the library refuses the old handle afterwards.
local freed = tca.Store.new("counter")
local address = ffi.cast("uintptr_t", freed.handle)
freed:free()
raises(tca.ERR_INVALID_HANDLE, "", freed.send, freed, '"incrementButtonTapped"')
freed:free()  -- twice is fine
local collected = tca.Store.new("counter")
address = ffi.cast("uintptr_t", collected.handle)
collected = nil
collectgarbage()
collectgarbage()
check(tca.lib.tca_store_version(ffi.cast("tca_store *", address)) == 0xFFFFFFFFFFFFFFFFULL,
      "the collector freed the store")

-- Many stores and strings (under valgrind, any string not freed is "definitely lost").
for i = 1, 200 do
  local s = tca.Store.new("counter")
  s:send('"numberFactButtonTapped"')
  check(#s:take_requests() == 1, "taken " .. i)
  s:state()
  pcall(s.get, s, "/missing")
  pcall(tca.Store.new, "nope" .. i)
  if i % 2 == 0 then s:free() end
end
collectgarbage()

-- The library: features, canonical actions, an error's description.
local features = tca.features()
local names = {}
for _, feature in ipairs(features) do names[feature.name] = feature end
check(names.counter and names.dice and names.counter.requests[1] == "numberFact.fetch",
      "features lists counter and dice, with the counter's request")
check(names.dice.initialState.rollHistory ~= nil, "a feature's initial state is decoded")
check(tca.canonical_action("counter", '"incrementButtonTapped"') == '{"incrementButtonTapped":{}}',
      "canonical action")
raises(tca.ERR_UNKNOWN_FEATURE, "nope", tca.canonical_action, "nope", '"x"')
-- tca_feature_schema_n
local schema = tca.schema("counter")
check(schema.feature == "counter" and schema.requests["numberFact.fetch"].kind == "oneShot",
      "tca.schema gives the counter's schema")
check(tca.schema_text("counter"):find('"%$defs"') ~= nil, "tca.schema_text gives its text")
raises(tca.ERR_UNKNOWN_FEATURE, "counter", tca.schema, "nope")
raises(tca.ERR_JSON_SHAPE, "tca_canonical_action", tca.canonical_action, "counter", '"jump"')
ok, err = pcall(tca.Store.new, "nope")
check(not ok and err.description == ffi.string(tca.lib.tca_status_str(tca.ERR_UNKNOWN_FEATURE))
      and #err.description > 0, "an error's description is tca_status_str's")

-- Patches: the text, the decoded form, and a kept state that follows them.
local todo = tca.Store.new("counter", { clock = "manual" })
local kept, seen = todo:value(""), todo:version()
check(todo:patch(seen) == "[]", "nothing changed: []")
todo:send('"incrementButtonTapped"')
todo:send('"incrementButtonTapped"')
check(todo:patch(seen) == '[{"op":"replace","path":"/count","value":2}]',
      "patch text: " .. todo:patch(seen))
local operations, now = todo:changes(seen)
check(now == todo:version() and #operations == 1 and operations[1].op == "replace", "changes")
kept = tca.apply_patch(kept, todo:patch(seen))
check(kept.count == 2 and tca.json.decode(todo:state()).count == 2, "a kept state follows")
raises(tca.ERR_VERSION_GONE, "tca_store_patch", todo.patch, todo, now + 5)
-- NB: a store without subscribers computes its version when it is read (tca_store_version):
-- sends in between make one version. Reading each makes 20 versions, more than the 16 kept.
for _ = 1, 20 do
  todo:send('"incrementButtonTapped"')
  todo:version()
end
raises(tca.ERR_VERSION_GONE, "tca_store_patch", todo.patch, todo, seen)
operations, now = todo:changes(seen)
check(#operations == 1 and operations[1].path == "" and operations[1].value.count == 22,
      "a version no longer kept: the whole state replaced")
check(now == todo:version(), "changes gives the current version")

-- apply_patch: every op, arrays told from objects, escaped tokens, failures.
local doc = tca.json.decode('{"a":[1,2,3],"b":{},"c":[],"d~/e":1}')
doc = tca.apply_patch(doc, {
  { op = "add", path = "/a/1", value = 9 },       -- [1,9,2,3]
  { op = "remove", path = "/a/0" },               -- [9,2,3]
  { op = "add", path = "/a/-", value = 4 },       -- [9,2,3,4]
  { op = "replace", path = "/a/1", value = 5 },   -- [9,5,3,4]
  { op = "move", from = "/a/0", path = "/c/0" },  -- a [5,3,4], c [9]
  { op = "copy", from = "/a", path = "/b/x" },
  { op = "add", path = "/b/0", value = "member" },
  { op = "replace", path = "/d~0~1e", value = 2 },
  { op = "test", path = "/c", value = tca.json.decode("[9]") },
})
check(table.concat(doc.a, ",") == "5,3,4" and doc.c[1] == 9 and #doc.c == 1,
      "array ops: " .. table.concat(doc.a, ","))
check(doc.b.x[3] == 4 and doc.b.x ~= doc.a and doc.b["0"] == "member" and doc["d~/e"] == 2,
      "copy, an object's numeric member, escapes")
check(tca.apply_patch(doc, '[{"op":"replace","path":"","value":3}]') == 3, "whole replace")
check(not pcall(tca.apply_patch, doc, { { op = "remove", path = "/a/7" } }), "out of range")
check(not pcall(tca.apply_patch, doc, { { op = "test", path = "/c", value = 1 } }), "test fails")
check(not pcall(tca.apply_patch, doc, { { op = "jump", path = "/a" } }), "unknown op")

-- Subscriptions: told once per call that changed the state, pull style (no C callback).
local versions, patched = {}, todo:value("")
local plain = todo:subscribe(function(version) versions[#versions + 1] = version end)
local follower = todo:subscribe(function(version, ops)
  patched = tca.apply_patch(patched, ops)
end, { patches = true })
local before = todo:version()
todo:send('"incrementButtonTapped"')
todo:send('"incrementButtonTapped"')
check(#versions == 2 and versions[2] == todo:version() and versions[1] == before + 1,
      "a subscriber hears each change")
todo:get("/count")
check(#versions == 2, "a read tells nobody")
check(patched.count == 24, "a patch subscriber keeps the state: " .. tostring(patched.count))
plain:unsubscribe()
plain:unsubscribe()  -- twice is fine
todo:send('"incrementButtonTapped"')
check(#versions == 2 and patched.count == 25, "unsubscribed: no more calls")
-- A subscriber that sends: the round in progress tells everyone of the later change too.
local echoed = {}
local echo = todo:subscribe(function(version)
  echoed[#echoed + 1] = version
  if #echoed == 1 then todo:send('"decrementButtonTapped"') end
end)
todo:send('"incrementButtonTapped"')
check(#echoed == 2 and echoed[2] == todo:version() and patched.count == 25,
      "a send from a subscriber is told too")
echo:unsubscribe()
local broken = todo:subscribe(function() error("subscriber failed") end)
ok, err = pcall(todo.send, todo, '"incrementButtonTapped"')
check(not ok and tostring(err):find("subscriber failed", 1, true), "a subscriber's error surfaces")
broken:unsubscribe()
todo:send('"incrementButtonTapped"')
check(patched.count == 27, "the others are told at the next call: " .. tostring(patched.count))
raises(tca.ERR_INVALID_ARGUMENT, "fn", todo.subscribe, todo, 42)
-- Answers, advances and polls tell subscribers too.
local answers = tca.Store.new("counter", { clock = "manual" })
local heard = 0
answers:subscribe(function() heard = heard + 1 end)
answers:send('"numberFactButtonTapped"')
answers:respond(answers:take_requests()[1].id, '"a fact"')
check(heard == 2, "respond tells subscribers")
check(answers:poll() == 0 and heard == 2, "a poll with nothing due tells nobody")
answers:free()
todo:free()
check(follower.store == nil, "free ends the subscriptions")

-- The borrowed state: the store's text, valid until the next call.
local counter = tca.Store.new("counter", { state = '{"count":4}' })
local pointer, length = counter:state_borrow()
local lent = ffi.string(pointer, length)
check(tca.json.decode(lent).count == 4 and length == #lent, "the lent text")
local again = counter:state_borrow()
check(again == pointer, "an unchanged state lends the same text")
check(counter:fd() >= 0, "the store's descriptor")
counter:free()
raises(tca.ERR_INVALID_HANDLE, "", counter.state_borrow, counter)

-- Recording: the journal, a replay to any version, the reductions log.
local recorded = tca.Store.new("counter", { clock = "manual", seed = 7, record = true })
-- A line's version is the one the host reads next: read after each input, as a renderer does.
recorded:send('"incrementButtonTapped"')
check(recorded:version() == 1, "version 1")
recorded:send('"numberFactButtonTapped"')
check(recorded:version() == 2, "version 2")
local fetch = recorded:take_requests()[1]
recorded:respond(fetch.id, '"1 is a number."')
local journal = recorded:journal()
check(journal:find('^{"tcaJournal":1,"feature":"counter","clock":"manual","seed":7,') ~= nil,
      "the journal's header")
local at_one = tca.replay(journal, 1)
check(at_one:value("/count") == 1 and at_one:version() == 1, "replayed to version 1")
check(at_one:take_requests()[1] == nil, "the replay asked nothing yet")
local whole = tca.replay(journal)
check(whole:state() == recorded:state(), "replayed to the end, byte for byte")
local pending = tca.replay(journal, 2)
local waiting = pending:take_requests()
check(#waiting == 1 and waiting[1].id == fetch.id, "a request the journal left open waits")
pending:respond(waiting[1].id, '"replayed"')
check(pending:value("/numberFact") == "replayed", "answered after the replay")
check(whole:journal():find('"version":3') ~= nil, "a replay records")
raises(tca.ERR_JSON_SYNTAX, "journal line 1", tca.replay, "nonsense")
raises(tca.ERR_INVALID_ARGUMENT, "record", tca.Store.new("counter").journal,
       tca.Store.new("counter"))
raises(tca.ERR_INVALID_ARGUMENT, "answers", tca.replay, journal, nil, { answers = "never" })
raises(tca.ERR_INVALID_ARGUMENT, "", recorded.take_reductions, recorded)
recorded:log_reductions(true)
recorded:send('"decrementButtonTapped"')
local reductions = recorded:take_reductions()
check(#reductions == 1 and reductions[1].origin == "host" and
      reductions[1].action.decrementButtonTapped ~= nil and reductions[1].state.count == 0,
      "the reductions log")
check(#recorded:take_reductions() == 0, "taken once")
recorded:log_reductions(false)
raises(tca.ERR_INVALID_ARGUMENT, "", recorded.take_reductions, recorded)
for _, s in ipairs({ recorded, at_one, whole, pending }) do s:free() end

-- A host-thread store and a threaded one (still no callback into Lua).
local host = tca.Store.new("counter", { answers = "host_thread", threaded = false })
host:send('"incrementButtonTapped"')
check(host:value("/count") == 1, "answers = host_thread")
host:free()
local threaded = tca.Store.new("dice", { threaded = true, seed = 7 })
local landed = threaded:subscribe(function() end)
threaded:send('"rollButtonTapped"')
local deadline = os.time() + 10
while threaded:value("/isRolling") and os.time() < deadline do threaded:poll() end
threaded:poll()  -- NB: the roll may land between a poll and the read that saw it landed
check(threaded:value("/currentRoll") == 5 and landed.version == threaded:version(),
      "a threaded store's roll lands, told at poll()")
threaded:free()

-- shared = "isolated": the state's shared fields (matchscores' favorites) are the store's own.
do
  local file = assert(io.open("../../Tests/fixtures/matchscores/teams_page1.json"))
  local teams = file:read("*a")
  file:close()
  local function with_teams(options)
    local made = tca.Store.new("matchscores", options)
    made:send('{"teamList":"onAppear"}')
    for _, request in ipairs(made:take_requests()) do
      if request.name == "matchScores.fetchTeams" then made:respond(request.id, teams) end
    end
    return made
  end
  local a = with_teams({ clock = "manual" })
  local b = with_teams({ clock = "manual" })
  local isolated = with_teams({ clock = "manual", shared = "isolated" })
  a:send('{"favoriteButtonTapped":2}')
  b:poll()
  isolated:poll()
  check(#b:value("/favorites/teams") == 1 and #isolated:value("/favorites/teams") == 0,
        "an isolated store does not take another store's change")
  isolated:send('{"favoriteButtonTapped":3}')
  a:poll()
  check(#a:value("/favorites/teams") == 1 and isolated:value("/favorites/teams/0/id") == 3,
        "nor does another store take the isolated one's")
  raises(tca.ERR_INVALID_ARGUMENT, "shared", tca.Store.new, "matchscores",
         { shared = "private" })
  for _, made in ipairs({ a, b, isolated }) do made:free() end
end

-- The NUL-terminated forms, reachable raw through tca.lib (the module calls the _n forms).
do
  local lib = tca.lib
  local out = ffi.new("tca_store *[1]")
  local text, length = ffi.new("char *[1]"), ffi.new("size_t[1]")
  check(lib.tca_store_new("counter", nil, nil, out) == 0, "tca_store_new")
  local raw = out[0]
  check(lib.tca_store_send(raw, '"incrementButtonTapped"') == 0, "tca_store_send")
  check(lib.tca_store_get(raw, "/count", text, length) == 0 and ffi.string(text[0]) == "1",
        "tca_store_get")
  lib.tca_string_free(text[0])
  check(lib.tca_store_new_n("counter", '{"count":2}', 11, nil, out) == 0, "tca_store_new_n")
  local second = out[0]
  local options = ffi.new("tca_options")
  lib.tca_options_init(options)
  options.requests = lib.TCA_REQUESTS_QUEUED
  check(lib.tca_store_new_v2("counter", 7, nil, 0, options, out) == 0, "tca_store_new_v2")
  local queued = out[0]
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  lib.tca_store_take_requests(queued, text, length)
  local ids = {}
  for id in ffi.string(text[0]):gmatch('"id":(%d+)') do ids[#ids + 1] = tonumber(id) end
  lib.tca_string_free(text[0])
  check(lib.tca_store_respond(queued, ids[3], '"raw"') == 0, "tca_store_respond")
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  lib.tca_store_take_requests(queued, text, length)
  local last = tonumber(ffi.string(text[0]):match('"id":(%d+)'))
  lib.tca_string_free(text[0])
  check(lib.tca_store_fail(queued, last, "raw failure") == 0, "tca_store_fail")
  -- The struct form: the requests and notices read through the FFI, without JSON.
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  lib.tca_store_send(queued, '"numberFactButtonTapped"')
  local taken, count = ffi.new("const tca_request *[1]"), ffi.new("size_t[1]")
  check(lib.tca_store_take_requests_v2(queued, taken, count) == 0 and count[0] == 3,
        "tca_store_take_requests_v2 takes three entries")
  local entries = taken[0]
  check(ffi.string(entries[0].name) == "numberFact.fetch" and entries[0].kind == 0
        and entries[1].kind == lib.TCA_REQUEST_CANCELLED and entries[1].id == entries[0].id,
        "a request, then its cancellation notice")
  check(lib.tca_store_respond(queued, entries[2].id, '"struct"') == 0,
        "tca_store_respond to a request taken as a struct")
  check(lib.tca_canonical_action("counter", '"incrementButtonTapped"', text, length) == 0
        and ffi.string(text[0], length[0]) == '{"incrementButtonTapped":{}}', "tca_canonical_action")
  lib.tca_string_free(text[0])
  for _, handle in ipairs({ raw, second, queued }) do lib.tca_store_free(handle) end
end

-- A library that cannot be found: the error says where the loader looked and what to set.
local loader = io.popen("TCA_LIBRARY=/nonexistent/libtca.so.0 luajit -e 'require(\"tca\")' 2>&1")
local said = loader:read("*a")
loader:close()
check(said:find("/nonexistent/libtca.so.0 ($TCA_LIBRARY): not found", 1, true)
      and said:find("set TCA_LIBRARY", 1, true), "a missing library: " .. said)

-- JSON helpers.
check(tca.json.quote('a"b\\\n\1') == '"a\\"b\\\\\\n\\u0001"', "quote")
check(tca.json.decode('"\\u00e9\\ud83c\\udfb2"') == "é🎲", "unicode escapes")
local decoded = tca.json.decode(' {"a":[1,-2.5e1,true,false,null],"b":{}} ')
check(decoded.a[2] == -25 and decoded.a[5] == tca.json.null and next(decoded.b) == nil, "decode")
check(not pcall(tca.json.decode, "[1,"), "bad JSON raises")

-- NB: free what is still open before exit. A store left open is still reachable, but the weak
-- reference a running effect keeps (its side table, pointed to only from tagged refcount bits)
-- is reported by valgrind as "definitely lost" when the process ends with the store alive.
store:free()
copy:free()
dice:free()

h.summary()
