-- LÖVE 11 settings for the dice example (bindings/lua/examples/love-dice).
function love.conf(t)
  t.identity = "tca-dice" -- screenshots go to the save directory: love/tca-dice/
  t.version = "11.0"
  t.window.title = "libtca dice (LÖVE)"
  t.window.width = 480
  t.window.height = 360
  t.modules.audio = false
  t.modules.sound = false
end
