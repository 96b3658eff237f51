-- RFC 6902 JSON Patch applied to decoded JSON (tca.json's tables): how a host that keeps the state
-- as Lua values follows store:patch(since) instead of decoding the whole state again.
--
--   local state, seen = store:value(""), store:version()
--   ...                                              -- sends, advances
--   state = tca.apply_patch(state, store:patch(seen)) -- what changed, applied in place
--   seen = store:version()
local json = require("tca.json")

local patch = {}

local function fail(what, path)
  error(string.format("tca.apply_patch: %s at %q", what, tostring(path)), 3)
end

-- The reference tokens of a JSON Pointer ("/a~1b/0" -> {"a/b", "0"}).
local function tokens(path)
  if path == "" then return {} end
  if path:sub(1, 1) ~= "/" then fail("a path that does not start with /", path) end
  local out = {}
  for token in (path .. "/"):sub(2):gmatch("([^/]*)/") do
    out[#out + 1] = token:gsub("~1", "/"):gsub("~0", "~")
  end
  return out
end

-- The Lua index of array token `token` ("0" -> 1); `past_end` allows "-" and #array + 1.
local function index(array, token, past_end, path)
  if past_end and token == "-" then return #array + 1 end
  if not token:match("^%d+$") or (#token > 1 and token:sub(1, 1) == "0") then
    fail("an array index that is not a number", path)
  end
  local i = tonumber(token) + 1
  if i > #array + (past_end and 1 or 0) then fail("an array index out of range", path) end
  return i
end

-- The container holding the last token of `path`.
local function parent(root, path_tokens, path)
  local node = root
  for i = 1, #path_tokens - 1 do
    local token = path_tokens[i]
    if type(node) ~= "table" or node == json.null then fail("a path through a scalar", path) end
    if json.is_array(node) then node = node[index(node, token, false, path)]
    else node = node[token] end
    if node == nil then fail("a path through nothing", path) end
  end
  if type(node) ~= "table" or node == json.null then fail("a path into a scalar", path) end
  return node
end

local function get(root, path)
  local node = root
  for _, token in ipairs(tokens(path)) do
    if type(node) ~= "table" or node == json.null then fail("a path into a scalar", path) end
    if json.is_array(node) then node = node[index(node, token, false, path)]
    else node = node[token] end
    if node == nil then fail("nothing", path) end
  end
  return node
end

local function add(root, path, value)
  local path_tokens = tokens(path)
  if #path_tokens == 0 then return value end
  local container, last = parent(root, path_tokens, path), path_tokens[#path_tokens]
  if json.is_array(container) then
    table.insert(container, index(container, last, true, path), value)
  else
    container[last] = value
  end
  return root
end

local function remove(root, path)
  local path_tokens = tokens(path)
  if #path_tokens == 0 then fail("a remove of the whole document", path) end
  local container, last = parent(root, path_tokens, path), path_tokens[#path_tokens]
  local value
  if json.is_array(container) then
    value = table.remove(container, index(container, last, false, path))
  else
    value = container[last]
    if value == nil then fail("a remove of nothing", path) end
    container[last] = nil
  end
  return root, value
end

local function copy(value)
  if type(value) ~= "table" or value == json.null then return value end
  local out = setmetatable({}, getmetatable(value))
  for key, element in pairs(value) do out[key] = copy(element) end
  return out
end


-- `document` with the operations of `operations` (a decoded patch, or its JSON text) applied in
-- order. Containers are changed in place (a game keeps one state table and patches it each
-- frame); the result is the new document, which is another value only when the patch replaces
-- the whole of it (path ""). Values a patch adds are its own tables, never shared.
function patch.apply(document, operations)
  if type(operations) == "string" then operations = json.decode(operations) end
  for _, operation in ipairs(operations) do
    local op, path = operation.op, operation.path
    if op == "add" then
      document = add(document, path, operation.value)
    elseif op == "remove" then
      document = remove(document, path)
    elseif op == "replace" then
      if path == "" then
        document = operation.value
      else
        document = add(remove(document, path), path, operation.value)
      end
    elseif op == "move" then
      local value
      document, value = remove(document, operation.from)
      document = add(document, path, value)
    elseif op == "copy" then
      document = add(document, path, copy(get(document, operation.from)))
    elseif op == "test" then
      if not json.equal(get(document, path), operation.value) then
        fail("a failed test", path)
      end
    else
      fail("an unknown op " .. tostring(op), path)
    end
  end
  return document
end

return patch
