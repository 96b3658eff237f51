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
taken = dice:take_requests()
check(#taken == 1 and taken[1].name == "haptics.impact" and taken[1].kind == "fireAndForget"
      and taken[1].payload.style == "medium", "haptics")
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
