-- 100,000 frames of dice at 60 Hz with the JIT on: a roll every 40 frames, requests taken each
-- frame, the state's version read each frame. No callback exists, so nothing can blacklist the
-- loop from the JIT or panic out of a compiled FFI call; the JIT is still on at the end.
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
local frames, rolls, buzzes, versions_seen = 100000, 0, 0, 0
local last_version = -1
local elapsed = 0
for frame = 0, frames - 1 do
  if frame % 40 == 0 then
    store:send('"rollButtonTapped"')
    rolls = rolls + 1
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
end
jit.attach(on_trace)
-- 40 frames is 666 ms: every roll lands before the next tap.
local history = store:value("/rollHistory")
check(#history == rolls, "every roll landed: " .. #history .. " of " .. rolls)
check(buzzes == rolls, "one haptics request per roll")
check(elapsed == math.floor(frames * 1000 / 60), "the clock moved by the frames' time")
check(versions_seen > rolls, "the version changed with each roll")
check(jit.status() == true, "the JIT is still on")
check(traces > 0, "the JIT compiled the loop (" .. traces .. " traces)")
print(string.format("%d frames, %d rolls, JIT %s, %d traces", frames, rolls,
                    jit.status() and "on" or "off", traces))
h.summary()
