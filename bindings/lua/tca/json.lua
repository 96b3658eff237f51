-- The JSON a host needs, in plain Lua: decode (state parts, request payloads, patches), quote
-- (answers), equal (decoded values compared), is_array (an array told from an object).
--
--   local json = require("tca.json")
--   json.decode('{"a":[1,true,null]}')   --> {a = {1, true, json.null}}
--   json.quote('say "hi"')               --> "\"say \\\"hi\\\"\""
local json = {}

-- JSON's null, distinct from a missing member.
json.null = setmetatable({}, { __tostring = function() return "null" end })

-- The metatable of every decoded JSON array, so that an empty array is told from an empty object
-- (tca.apply_patch needs to know: "/list/0" indexes an array, names a member of an object).
json.array = {}

-- Whether `value` is a decoded JSON array.
function json.is_array(value)
  return getmetatable(value) == json.array
end

-- Whether two decoded JSON values are equal (objects whatever their members' order).
function json.equal(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  if a == b then return true end
  if getmetatable(a) ~= getmetatable(b) then return false end
  for key, element in pairs(a) do
    if not json.equal(element, b[key]) then return false end
  end
  for key in pairs(b) do
    if a[key] == nil then return false end
  end
  return true
end

local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
                  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

-- `text` as a JSON string, quoted and escaped.
function json.quote(text)
  return '"' .. tostring(text):gsub('[%c"\\]', function(c)
    return escapes[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

local function utf8_char(code)
  if code < 0x80 then return string.char(code) end
  if code < 0x800 then
    return string.char(0xC0 + math.floor(code / 64), 0x80 + code % 64)
  end
  if code < 0x10000 then
    return string.char(0xE0 + math.floor(code / 4096), 0x80 + math.floor(code / 64) % 64,
                       0x80 + code % 64)
  end
  return string.char(0xF0 + math.floor(code / 262144), 0x80 + math.floor(code / 4096) % 64,
                     0x80 + math.floor(code / 64) % 64, 0x80 + code % 64)
end

local function fail(text, at, what)
  error(string.format("tca.json: %s at byte %d of %q", what, at, text:sub(1, 60)), 0)
end

local decode_value

local function skip(text, at)
  return text:find("[^ \t\r\n]", at) or #text + 1
end

local function decode_string(text, at)
  local out, i = {}, at + 1
  while true do
    local j = text:find('["\\]', i)
    if not j then fail(text, at, "unterminated string") end
    out[#out + 1] = text:sub(i, j - 1)
    if text:sub(j, j) == '"' then return table.concat(out), j + 1 end
    local c = text:sub(j + 1, j + 1)
    if c == "u" then
      local code = tonumber(text:sub(j + 2, j + 5), 16)
      if not code then fail(text, j, "bad \\u escape") end
      i = j + 6
      if code >= 0xD800 and code < 0xDC00 and text:sub(i, i + 1) == "\\u" then
        local low = tonumber(text:sub(i + 2, i + 5), 16)
        if low and low >= 0xDC00 and low < 0xE000 then
          code = 0x10000 + (code - 0xD800) * 1024 + (low - 0xDC00)
          i = i + 6
        end
      end
      out[#out + 1] = utf8_char(code)
    else
      local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
      out[#out + 1] = map[c] or c
      i = j + 2
    end
  end
end

function decode_value(text, at)
  at = skip(text, at)
  local c = text:sub(at, at)
  if c == "{" then
    local object = {}
    at = skip(text, at + 1)
    if text:sub(at, at) == "}" then return object, at + 1 end
    while true do
      if text:sub(at, at) ~= '"' then fail(text, at, "expected a member name") end
      local key
      key, at = decode_string(text, at)
      at = skip(text, at)
      if text:sub(at, at) ~= ":" then fail(text, at, "expected ':'") end
      object[key], at = decode_value(text, at + 1)
      at = skip(text, at)
      local d = text:sub(at, at)
      if d == "}" then return object, at + 1 end
      if d ~= "," then fail(text, at, "expected ',' or '}'") end
      at = skip(text, at + 1)
    end
  elseif c == "[" then
    local array = setmetatable({}, json.array)
    at = skip(text, at + 1)
    if text:sub(at, at) == "]" then return array, at + 1 end
    while true do
      array[#array + 1], at = decode_value(text, at)
      at = skip(text, at)
      local d = text:sub(at, at)
      if d == "]" then return array, at + 1 end
      if d ~= "," then fail(text, at, "expected ',' or ']'") end
      at = at + 1
    end
  elseif c == '"' then
    return decode_string(text, at)
  elseif text:sub(at, at + 3) == "true" then
    return true, at + 4
  elseif text:sub(at, at + 4) == "false" then
    return false, at + 5
  elseif text:sub(at, at + 3) == "null" then
    return json.null, at + 4
  end
  local number = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", at)
  if not number or number == "" or not tonumber(number) then fail(text, at, "unexpected input") end
  return tonumber(number), at + #number
end

-- The Lua value of a JSON text: tables for objects and arrays, json.null for null.
function json.decode(text)
  local value, at = decode_value(text, 1)
  if skip(text, at) <= #text then fail(text, at, "trailing input") end
  return value
end

return json
