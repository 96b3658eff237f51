-- libtca from LuaJIT: a store of a feature, driven with JSON, over LuaJIT's FFI.
--
--   local tca = require("tca")
--   local store = tca.Store.new("dice", { clock = "manual", seed = 7 })
--   store:send('"rollButtonTapped"')
--   for _, request in ipairs(store:take_requests()) do ... end   -- haptics.impact
--   store:advance(500)
--   print(store:get("/currentRoll"))                              --> 5
--
-- Pull mode only: the library never calls into Lua (no FFI callbacks), so every call stays
-- compiled by the JIT. Requests wait in the store until store:take_requests(); the host answers
-- them by id (respond, fail, complete) when it likes.
--
-- Failures raise a tca.Error (a table: .status, .name, .message; tostring gives the message),
-- catchable with pcall. Strings the library returns are copied and freed at once; a store is
-- freed by store:free() or, failing that, by the garbage collector.
local ffi = require("ffi")
local lib = require("tca.native")
local json = require("tca.json")

local tca = { json = json, lib = lib }

local status_names = {}
for _, name in ipairs({ "OK", "ERR_INVALID_ARGUMENT", "ERR_INVALID_HANDLE", "ERR_UNKNOWN_FEATURE",
                        "ERR_JSON_SYNTAX", "ERR_JSON_SHAPE", "ERR_UNENCODABLE",
                        "ERR_UNKNOWN_REQUEST", "ERR_REQUEST_FINISHED", "ERR_ALREADY_ANSWERED",
                        "ERR_NOT_A_STREAM", "ERR_REAL_CLOCK", "ERR_NOT_FOUND", "ERR_SYSTEM",
                        "ERR_NO_MEMORY", "ERR_CALLBACK_UNWOUND", "ERR_VERSION_GONE" }) do
  local value = tonumber(lib["TCA_" .. name])
  tca[name] = value
  status_names[value] = "TCA_" .. name
end

-- A failed call: status (a TCA_ERR_* number), name ("TCA_ERR_JSON_SHAPE") and the library's
-- message, which names the function and the place.
local Error = {}
Error.__index = Error
Error.__tostring = function(e) return e.message end
tca.Error = Error

local function raise(status, message)
  error(setmetatable({ status = status, name = status_names[status] or "unknown",
                       message = message or ffi.string(lib.tca_last_error()) }, Error), 2)
end

-- Whether `value` is a tca.Error.
function tca.is_error(value)
  return getmetatable(value) == Error
end

-- The library's version, "MAJOR.MINOR.PATCH".
function tca.version()
  return ffi.string(lib.tca_version())
end

local Store = {}
Store.__index = Store
tca.Store = Store

local kinds = { manual = lib.TCA_CLOCK_MANUAL, real = lib.TCA_CLOCK_REAL }

-- A store of `feature`, in pull mode. options (all optional): clock = "real" | "manual",
-- seed = a number, state = a JSON snapshot (as store:state() returns).
function Store.new(feature, options)
  options = options or {}
  local raw = ffi.new("tca_options")
  lib.tca_options_init(raw)
  raw.requests = lib.TCA_REQUESTS_QUEUED
  if options.clock ~= nil then
    local clock = kinds[options.clock]
    if clock == nil then
      raise(tca.ERR_INVALID_ARGUMENT, "tca.Store.new: clock is " .. tostring(options.clock)
            .. ", expected \"real\" or \"manual\"")
    end
    raw.clock = clock
  end
  if options.seed ~= nil then raw.seed = options.seed end
  feature = tostring(feature)
  local state = options.state
  local out = ffi.new("tca_store *[1]")
  local status = lib.tca_store_new_v2(feature, #feature, state, state and #state or 0, raw, out)
  if status ~= 0 then raise(status) end
  local self = setmetatable({
    -- NB: the handle is freed by free() or by the collector, never both.
    handle = ffi.gc(out[0], lib.tca_store_free),
    out_json = ffi.new("char *[1]"),
    out_length = ffi.new("size_t[1]"),
  }, Store)
  return self
end

-- Frees the store now (later calls raise TCA_ERR_INVALID_HANDLE). The collector does it too.
function Store:free()
  if self.handle ~= nil then
    ffi.gc(self.handle, nil)
    lib.tca_store_free(self.handle)
    self.handle = nil
  end
end

-- Copies the string the library returned into a Lua string and frees the library's.
function Store:_take(status)
  if status ~= 0 then raise(status) end
  local text = ffi.string(self.out_json[0], self.out_length[0])
  lib.tca_string_free(self.out_json[0])
  return text
end

-- Sends one action (JSON text): store:send('"rollButtonTapped"').
function Store:send(action_json)
  local status = lib.tca_store_send_n(self.handle, action_json, #action_json)
  if status ~= 0 then raise(status) end
end

-- The whole state, as JSON text.
function Store:state()
  return self:_take(lib.tca_store_state(self.handle, self.out_json, self.out_length))
end

-- The value at a JSON Pointer ("/count"), as JSON text.
function Store:get(pointer)
  return self:_take(lib.tca_store_get_n(self.handle, pointer, #pointer, self.out_json,
                                        self.out_length))
end

-- The value at a JSON Pointer, decoded (tca.json.null for null).
function Store:value(pointer)
  return json.decode(self:get(pointer))
end

-- The state's version (a number): changes exactly when the state does.
function Store:version()
  local version = lib.tca_store_version(self.handle)
  if version == 0xFFFFFFFFFFFFFFFFULL then raise(tca.ERR_INVALID_HANDLE) end
  return tonumber(version)
end

-- Moves a manual clock forward by `milliseconds` (a 60 Hz loop: 16 or 17 a frame).
function Store:advance(milliseconds)
  local status = lib.tca_store_advance(self.handle, milliseconds)
  if status ~= 0 then raise(status) end
end

-- Runs what is due (answers from other threads, real-clock timers); how much ran.
function Store:poll()
  local ran = ffi.new("uint32_t[1]")
  local status = lib.tca_store_poll(self.handle, ran)
  if status ~= 0 then raise(status) end
  return ran[0]
end

-- Milliseconds until the next timer is due, or nil.
function Store:next_deadline_ms()
  local ms = tonumber(lib.tca_store_next_deadline_ms(self.handle))
  if ms < 0 then return nil end
  return ms
end

local empty = "[]"

-- The requests and cancellation notices waiting, oldest first: a list of
--   { id = 7, name = "numberFact.fetch", kind = "oneShot", payload = <decoded JSON> }
--   { cancelled = 7 }
-- empty when none waits (then nothing is decoded: cheap once a frame).
function Store:take_requests()
  local text = self:_take(lib.tca_store_take_requests(self.handle, self.out_json,
                                                      self.out_length))
  if text == empty then return {} end
  return json.decode(text)
end

-- Answers request `id` with a JSON text (a stream: one more element).
function Store:respond(id, response_json)
  local status = lib.tca_store_respond_n(self.handle, id, response_json, #response_json)
  if status ~= 0 then raise(status) end
end

-- Fails request `id`: the feature gets `message`.
function Store:fail(id, message)
  local status = lib.tca_store_fail_n(self.handle, id, message, #message)
  if status ~= 0 then raise(status) end
end

-- Ends stream `id`.
function Store:complete(id)
  local status = lib.tca_store_complete(self.handle, id)
  if status ~= 0 then raise(status) end
end

return tca
