-- 100,000 frames of dice at 60 Hz with the JIT on: a roll every 40 frames, requests taken each
-- frame, the state's version read each frame and, when it moved, the patch since the last frame
-- applied to a kept state (the history is reset every 50 rolls: a roll prepends to it, and the
-- library's patch of a list without ids replaces each element that moved). No callback exists,
-- so nothing can blacklist the loop from the JIT or panic out of a compiled FFI call; the JIT is
-- still on at the end.
package.path = "./?.lua;./tests/?.lua;" .. package.path
local tca = require("tca")
local h = require("harness")
jit.on()
local check = h.check

-- Counts the traces the JIT finishes while the loop runs: the loop is compiled, not interpreted.
local traces = 0
local function on_trace(what)
  if what == "stop" then traces = traces + 1 end
end
jit.attach(on_trace, "trace")

local store = tca.Store.new("dice", { clock = "manual", seed = 7 })
local frames, rolls, buzzes, versions_seen, since_reset = 100000, 0, 0, 0, 0
local last_version = -1
local state, seen, patches = store:value(""), store:version(), 0
local elapsed = 0
for frame = 0, frames - 1 do
  if frame % 2000 == 0 and frame > 0 then
    store:send('"resetHistory"')
    since_reset = 0
  end
  if frame % 40 == 0 then
    store:send('"rollButtonTapped"')
    rolls, since_reset = rolls + 1, since_reset + 1
  end
  local taken = store:take_requests()
  for i = 1, #taken do
    if taken[i].name == "haptics.impact" then buzzes = buzzes + 1 end
  end
  local version = store:version()
  if version ~= last_version then
    versions_seen = versions_seen + 1
    last_version = version
  end
  local next_ms = math.floor((frame + 1) * 1000 / 60)
  store:advance(next_ms - elapsed)
  elapsed = next_ms
  if store:version() ~= seen then
    local operations
    operations, seen = store:changes(seen)
    state = tca.apply_patch(state, operations)
    patches = patches + 1
  end
end
jit.attach(on_trace)
-- 40 frames is 666 ms: every roll lands before the next tap.
local history = store:value("/rollHistory")
check(#history == since_reset, "every roll landed: " .. #history .. " of " .. since_reset)
check(buzzes == rolls, "one haptics request per roll")
check(elapsed == math.floor(frames * 1000 / 60), "the clock moved by the frames' time")
check(versions_seen > rolls, "the version changed with each roll")
check(patches >= 2 * rolls, "a patch when a roll starts and when it lands: " .. patches)
check(tca.json.equal(state, store:value("")), "the kept state is the store's")
check(jit.status() == true, "the JIT is still on")
check(traces > 0, "the JIT compiled the loop (" .. traces .. " traces)")
print(string.format("%d frames, %d rolls, %d patches followed, JIT %s, %d traces", frames, rolls,
                    patches, jit.status() and "on" or "off", traces))
h.summary()
