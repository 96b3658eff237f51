-- The dice roller as a LÖVE 11 game over libtca (LÖVE runs LuaJIT, with the JIT on; the tca
-- module is pull-mode only, so no FFI callback ever runs). love.update(dt) advances the store's
-- manual clock in fixed 60 Hz steps; each step takes the store's requests (haptics.impact: the
-- host flashes the screen and rumbles a joystick if one is there; shared.load and shared.save:
-- the roll history, shared state the game keeps in dice-history.json next to its saves, so it
-- outlives the run) and applies what changed (the patch since the last step) to the state the
-- game keeps; love.draw draws that state.
--
--   love bindings/lua/examples/love-dice        (TCA_LIBRARY=/path/to/libtca.so if not installed)
--
-- Keys: space or click to roll, u undo, r reset, h history. TCA_AUTOPLAY=1 plays one roll by
-- itself, saves a screenshot (dice-roll.png in the save directory), prints the final state on
-- stdout (and whether the kept state is the store's) and quits: what `make test-lua` runs under
-- Xvfb.
local source = love.filesystem.getSource()
package.path = source .. "/../../?.lua;" .. package.path
local tca = require("tca")

io.stdout:setvbuf("line")
if os.getenv("TCA_AUTOPLAY") == "1" then
  -- NB: LÖVE's own handler shows the error in the window until it is closed; a test must not
  -- wait for that.
  function love.errorhandler(message)
    print("error: " .. debug.traceback(tostring(message), 2))
    os.exit(1)
  end
end

local STEP = 1 / 60
-- The roll history's file, in LÖVE's save directory.
local HISTORY_FILE = "dice-history.json"
local store, autoplay
-- The state drawn, decoded once and then patched; the version it is of; patches applied.
local state, seen, patches
local accumulator, steps, elapsed_ms = 0, 0, 0
local flash_until, roll_started_at, was_rolling = -1, nil, false
local fonts = {}

local function roll()
  store:send('"rollButtonTapped"')
end

-- Brings the kept state up to date: the patch since the version it is of, applied in place.
local function catch_up()
  if store:version() == seen then return end
  local operations
  operations, seen = store:changes(seen)
  state = tca.apply_patch(state, operations)
  patches = patches + 1
end

function love.load()
  autoplay = os.getenv("TCA_AUTOPLAY") == "1"
  if jit then jit.on() end
  local seed = tonumber(os.getenv("TCA_DICE_SEED") or "7")
  store = tca.Store.new("dice", { clock = "manual", seed = seed })
  state, seen, patches = store:value(""), store:version(), 0
  fonts.die = love.graphics.newFont(72)
  fonts.text = love.graphics.newFont(18)
  fonts.small = love.graphics.newFont(14)
  local major, minor = love.getVersion()
  print(string.format("tca %s in LÖVE %d.%d, %s, JIT %s", tca.version(), major, minor,
                      jit.version, jit.status() and "on" or "off"))
end

-- One fixed 60 Hz step of game time.
local function step()
  steps = steps + 1
  if autoplay then
    if steps == 10 then roll() end
    if steps == 60 then love.graphics.captureScreenshot("dice-roll.png") end
    if steps == 66 then
      print("final state: " .. store:state())
      print(string.format("followed %d patches; the kept state is the store's: %s; JIT %s",
                          patches, tostring(tca.json.equal(state, store:value(""))),
                          jit.status() and "on" or "off"))
      love.event.quit(0)
    end
  end
  for _, request in ipairs(store:take_requests()) do
    if request.name == "haptics.impact" then
      flash_until = steps + 12
      roll_started_at = elapsed_ms
      print("haptics.impact " .. request.payload.style)
      for _, joystick in ipairs(love.joystick and love.joystick.getJoysticks() or {}) do
        joystick:setVibration(0.5, 0.5, 0.15)
      end
    elseif request.name == "shared.load" then
      -- The history saved by an earlier run ("null": none). A file the store refuses (edited
      -- by hand) counts as none.
      local saved = love.filesystem.getInfo(HISTORY_FILE) and love.filesystem.read(HISTORY_FILE)
      if not (saved and pcall(store.respond, store, request.id, saved)) then
        store:respond(request.id, "null")
      end
      print("history loaded: " .. (saved or "none"))
    elseif request.name == "shared.save" then
      love.filesystem.write(HISTORY_FILE, "[" .. table.concat(request.payload.value, ",") .. "]")
    end
  end
  local next_ms = math.floor(steps * 1000 / 60)
  store:advance(next_ms - elapsed_ms)
  elapsed_ms = next_ms
  catch_up()
  local rolling = state.isRolling
  if was_rolling and not rolling and roll_started_at then
    print(string.format("roll landed after %d ms: %s", elapsed_ms - roll_started_at,
                        tostring(state.currentRoll)))
  end
  was_rolling = rolling
end

function love.update(dt)
  -- NB: at most 10 steps per update, so a stalled window does not spiral.
  accumulator = math.min(accumulator + dt, 10 * STEP)
  while accumulator >= STEP do
    step()
    accumulator = accumulator - STEP
  end
end

function love.keypressed(key)
  catch_up()
  if key == "space" then roll()
  elseif key == "u" then store:send('"undoLastRoll"')
  elseif key == "r" then store:send('"resetHistory"')
  elseif key == "h" then
    if state.destination == tca.json.null then store:send('"viewFullHistoryTapped"')
    else store:send('{"destination":"dismiss"}') end
  elseif key == "escape" then love.event.quit(0) end
end

function love.mousepressed()
  roll()
end

function love.draw()
  local width = love.graphics.getWidth()
  catch_up()
  if steps < flash_until then
    love.graphics.clear(0.25, 0.22, 0.1)
  else
    love.graphics.clear(0.1, 0.12, 0.16)
  end
  love.graphics.setColor(1, 1, 1)
  love.graphics.setFont(fonts.text)
  love.graphics.printf("libtca dice", 0, 16, width, "center")

  -- The die: a square turning while it rolls, its face in the middle.
  local angle = 0
  if state.isRolling and roll_started_at then
    angle = math.rad(360 * math.min(1, (elapsed_ms - roll_started_at) / 500))
  end
  love.graphics.push()
  love.graphics.translate(width / 2, 150)
  love.graphics.rotate(angle)
  love.graphics.setColor(0.95, 0.95, 0.9)
  love.graphics.rectangle("fill", -60, -60, 120, 120, 14, 14)
  love.graphics.setColor(0.1, 0.1, 0.1)
  love.graphics.setFont(fonts.die)
  local face = state.isRolling and "?" or (state.currentRoll ~= tca.json.null and tostring(state.currentRoll) or "-")
  love.graphics.printf(face, -60, -44, 120, "center")
  love.graphics.pop()

  love.graphics.setColor(1, 1, 1)
  love.graphics.setFont(fonts.text)
  local line
  if state.isRolling then line = "Rolling…"
  elseif state.currentRoll ~= tca.json.null then line = "You rolled " .. state.currentRoll
  else line = "Press space to roll" end
  love.graphics.printf(line, 0, 240, width, "center")
  local last = {}
  for i, value in ipairs(state.lastFiveRolls) do last[i] = tostring(value) end
  love.graphics.setFont(fonts.small)
  love.graphics.printf("last rolls: " .. (#last > 0 and table.concat(last, " ") or "none"), 0, 280,
                       width, "center")
  love.graphics.printf(string.format("game time %d ms   space roll · u undo · r reset · h history",
                                     elapsed_ms), 0, 330, width, "center")
  if state.destination ~= tca.json.null then
    love.graphics.setColor(0, 0, 0, 0.85)
    love.graphics.rectangle("fill", 40, 60, width - 80, 240)
    love.graphics.setColor(1, 1, 1)
    local lines = { "History (h to close)" }
    for _, entry in ipairs(state.destination.history.entries) do
      lines[#lines + 1] = "Roll " .. entry.number .. ": " .. entry.value
    end
    love.graphics.printf(table.concat(lines, "\n"), 40, 70, width - 80, "center")
  end
end
