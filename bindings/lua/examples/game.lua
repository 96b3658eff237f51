-- A LuaJIT game loop over libtca: the dice roller on the store's manual clock at a fixed 60 Hz
-- timestep, its requests taken once a frame (pull mode) and the haptics performed by the host,
-- the roll landing 500 ms after the tap, the die drawn as text; then the counter, whose number
-- fact the host answers when it takes the request.
--
--   cd bindings/lua && TCA_LIBRARY=../../build/lib/libtca.so.0 luajit examples/game.lua
package.path = "./?.lua;" .. package.path
local tca = require("tca")

local dice = tca.Store.new("dice", { clock = "manual", seed = 7 })
local buzzes, elapsed = 0, 0
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
  if frame % 5 == 0 then
    local face = dice:get("/currentRoll")
    local shown = dice:value("/isRolling") and "~" or (face == "null" and " " or face)
    print(string.format("frame %2d  t=%3d ms  die [%s]", frame, elapsed, shown))
  end
  -- Fixed timestep: frame n is at n * 1000 / 60 ms.
  local next_ms = math.floor((frame + 1) * 1000 / 60)
  dice:advance(next_ms - elapsed)
  elapsed = next_ms
end
print(string.format("dice: rolled %s after 500 ms (%d buzz), history %s", dice:get("/currentRoll"),
                    buzzes, dice:get("/rollHistory")))

local counter = tca.Store.new("counter")
counter:send('"incrementButtonTapped"')
counter:send('"incrementButtonTapped"')
counter:send('"numberFactButtonTapped"')
for _, request in ipairs(counter:take_requests()) do
  if request.name == "numberFact.fetch" then
    -- The host's number facts (a real one would ask a service, and answer in a later frame).
    counter:respond(request.id, tca.json.quote(request.payload .. " is the number of this example."))
  end
end
print(string.format("counter: %s — %s", counter:get("/count"), counter:value("/numberFact")))
