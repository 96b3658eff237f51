-- A LuaJIT game loop over libtca: the dice roller on the store's manual clock at a fixed 60 Hz
-- timestep, its requests taken once a frame (pull mode) and the haptics performed by the host,
-- the roll landing 500 ms after the tap, the die drawn as text from a state the game keeps: read
-- whole once, then brought up to date each frame by the patch since the last frame. Then the
-- counter, whose number fact the host answers when it takes the request.
--
--   luajit bindings/lua/examples/game.lua      (from any directory; TCA_LIBRARY=… to choose
--                                               the library, else the repository's build/lib)
local here = debug.getinfo(1, "S").source:match("^@(.*)/") or "."
package.path = here .. "/../?.lua;" .. package.path
local tca = require("tca")

local dice = tca.Store.new("dice", { clock = "manual", seed = 7 })
-- The state the game draws, and the version it is of.
local state, seen = dice:value(""), dice:version()
local buzzes, elapsed, patches = 0, 0, 0
for frame = 0, 44 do
  if frame == 5 then
    print(string.format("frame %2d  tap: roll", frame))
    dice:send('"rollButtonTapped"')
  end
  -- The requests of this frame, at the point of the frame the game chooses.
  for _, request in ipairs(dice:take_requests()) do
    if request.name == "haptics.impact" then
      buzzes = buzzes + 1 -- a real game buzzes the controller here
      print(string.format("        host: %s %s  *bzzt*", request.name, request.payload.style))
    end
  end
  -- Fixed timestep: frame n ends at (n + 1) * 1000 / 60 ms.
  local next_ms = math.floor((frame + 1) * 1000 / 60)
  dice:advance(next_ms - elapsed)
  elapsed = next_ms
  -- What changed this frame, applied to the kept state (nothing to do when nothing did).
  if dice:version() ~= seen then
    local operations
    operations, seen = dice:changes(seen)
    state = tca.apply_patch(state, operations)
    patches = patches + 1
  end
  if frame % 5 == 0 then
    local shown = state.isRolling and "~"
      or (state.currentRoll == tca.json.null and " " or tostring(state.currentRoll))
    print(string.format("frame %2d  t=%3d ms  die [%s]", frame, elapsed, shown))
  end
end
print(string.format("dice: rolled %s after 500 ms (%d buzz), history [%s]",
                    tostring(state.currentRoll), buzzes, table.concat(state.rollHistory, ",")))
print(string.format("followed %d patches; the kept state is the store's: %s", patches,
                    tostring(tca.json.equal(state, dice:value("")))))

local counter = tca.Store.new("counter")
counter:send('"incrementButtonTapped"')
counter:send('"incrementButtonTapped"')
counter:send('"numberFactButtonTapped"')
for _, request in ipairs(counter:take_requests()) do
  if request.name == "numberFact.fetch" then
    -- The host's number facts (a real one would ask a service, and answer in a later frame).
    local fact = request.payload .. " is the number of this example."
    counter:respond(request.id, tca.json.quote(fact))
  end
end
print(string.format("counter: %s — %s", counter:get("/count"), counter:value("/numberFact")))
