-- libtca from LuaJIT: a store of a feature, driven with JSON, over LuaJIT's FFI.
--
--   local tca = require("tca")
--   local store = tca.Store.new("dice", { clock = "manual", seed = 7 })
--   store:send('"rollButtonTapped"')
--   for _, request in ipairs(store:take_requests()) do ... end   -- haptics.impact
--   store:advance(500)
--   print(store:get("/currentRoll"))                              --> 5
--
-- The library never calls into Lua (no FFI callbacks), so every call stays compiled by the JIT:
-- - requests wait in the store (pull mode) until store:take_requests(); the host answers them by
--   id (respond, fail, complete) when it likes;
-- - subscribers (store:subscribe) are Lua functions this module calls itself, at the end of each
--   of its calls that changed the state (send, advance, poll, respond, fail, complete): it reads
--   the store's version there, the way a C subscriber would be told, but from Lua.
--
-- Failures raise a tca.Error (a table: .status, .name, .message, .description; tostring gives the
-- message), catchable with pcall. Strings the library returns are copied into Lua strings and
-- freed at once (store:state_borrow alone lends the library's text); a store is freed by
-- store:free() or, failing that, by the garbage collector.
local ffi = require("ffi")
local lib = require("tca.native")
local json = require("tca.json")
local patch = require("tca.patch")

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

local VERSION_NONE = 0xFFFFFFFFFFFFFFFFULL

-- A failed call: status (a TCA_ERR_* number), name ("TCA_ERR_JSON_SHAPE"), the library's
-- message, which names the function and the place, and the status's description
-- (tca_status_str: "JSON of the wrong shape").
local Error = {}
Error.__index = Error
Error.__tostring = function(e) return e.message end
tca.Error = Error

local function raise(status, message)
  error(setmetatable({ status = status, name = status_names[status] or "unknown",
                       description = ffi.string(lib.tca_status_str(status)),
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

-- A string the library returned through char **: copied into a Lua string, then freed.
local function take(status, out_json, out_length)
  if status ~= 0 then raise(status) end
  local text = ffi.string(out_json[0], out_length[0])
  lib.tca_string_free(out_json[0])
  return text
end

-- The features compiled into the library, decoded: a list of {name, description, requests,
-- initialState}.
function tca.features()
  local text = lib.tca_features()
  if text == nil then raise(tca.ERR_NO_MEMORY) end
  local copy = ffi.string(text)
  lib.tca_string_free(text)
  return json.decode(copy)
end

-- The canonical JSON of an action of `feature` given in any form its stores accept:
-- tca.canonical_action("counter", '"incrementButtonTapped"') --> '{"incrementButtonTapped":{}}'.
function tca.canonical_action(feature, action_json)
  local out_json, out_length = ffi.new("char *[1]"), ffi.new("size_t[1]")
  return take(lib.tca_canonical_action_n(feature, #feature, action_json, #action_json, out_json,
                                         out_length), out_json, out_length)
end

-- The schema of `feature` (docs/schema.md): JSON Schema of its state, actions and requests,
-- decoded; tca.schema_text(feature) gives the document's text.
function tca.schema_text(feature)
  local out_json, out_length = ffi.new("char *[1]"), ffi.new("size_t[1]")
  return take(lib.tca_feature_schema_n(feature, #feature, out_json, out_length), out_json,
              out_length)
end

function tca.schema(feature)
  return json.decode(tca.schema_text(feature))
end

-- `document` (decoded JSON) with a JSON Patch (store:patch's text, or decoded) applied in order;
-- containers are changed in place (tca/patch.lua).
tca.apply_patch = patch.apply

local Store = {}
Store.__index = Store
tca.Store = Store

local clocks = { manual = lib.TCA_CLOCK_MANUAL, real = lib.TCA_CLOCK_REAL }
local answer_modes = { any_thread = lib.TCA_ANSWERS_ANY_THREAD,
                       host_thread = lib.TCA_ANSWERS_HOST_THREAD }
local shared_modes = { process = lib.TCA_SHARED_PROCESS, isolated = lib.TCA_SHARED_ISOLATED }

local function option(table_, value, what, expected)
  local chosen = table_[value]
  if chosen == nil then
    raise(tca.ERR_INVALID_ARGUMENT, string.format("%s is %s, expected %s", what, tostring(value),
                                                  expected))
  end
  return chosen
end

-- tca_options in pull mode, from the Lua options (see Store.new).
local function native_options(options, where)
  local raw = ffi.new("tca_options")
  lib.tca_options_init(raw)
  raw.requests = lib.TCA_REQUESTS_QUEUED
  if options.clock ~= nil then
    raw.clock = option(clocks, options.clock, where .. ": clock", '"real" or "manual"')
  end
  if options.answers ~= nil then
    raw.answers = option(answer_modes, options.answers, where .. ": answers",
                         '"any_thread" or "host_thread"')
  end
  if options.seed ~= nil then raw.seed = options.seed end
  if options.threaded then raw.threaded = 1 end
  if options.record then raw.record = 1 end
  if options.record_limit ~= nil then raw.record_limit = options.record_limit end
  if options.shared ~= nil then
    raw.shared = option(shared_modes, options.shared, where .. ": shared",
                        '"process" or "isolated"')
  end
  return raw
end

-- The Lua store over a new handle (freed by free() or by the collector, never both).
local function wrap(handle)
  return setmetatable({
    handle = ffi.gc(handle, lib.tca_store_free),
    out_json = ffi.new("char *[1]"),
    out_length = ffi.new("size_t[1]"),
    borrowed = ffi.new("const char *[1]"),
    -- Subscriptions (store:subscribe), and whether there are any: the hot path tests only that.
    subscriptions = {},
    listening = false,
  }, Store)
end

-- A store of `feature`, in pull mode. options (all optional): clock = "real" | "manual",
-- seed = a number, state = a JSON snapshot (as store:state() returns), record = true (a journal
-- and the reductions log), record_limit = n (with record: the journal lines kept; older ones
-- fold into a checkpoint, docs/wire-format.md "Checkpoints"), answers = "any_thread" |
-- "host_thread", threaded = true (a thread of the store's own runs real-clock timers; still no
-- callback into Lua), shared = "process" | "isolated" (the state's shared fields are the
-- store's own: no other store sees its changes, nor it theirs).
function Store.new(feature, options)
  options = options or {}
  local raw = native_options(options, "tca.Store.new")
  feature = tostring(feature)
  local state = options.state
  local out = ffi.new("tca_store *[1]")
  local status = lib.tca_store_new_v2(feature, #feature, state, state and #state or 0, raw, out)
  if status ~= 0 then raise(status) end
  return wrap(out[0])
end

-- Time travel: a new store rebuilt from `journal` (store:journal's text) up to state version
-- `to` (nil: all of it), on a manual clock with the journal's seed, in pull mode: requests the
-- journal leaves unanswered wait for take_requests(). It records too. options: answers,
-- threaded (as Store.new).
function tca.replay(journal, to, options)
  local raw = native_options(options or {}, "tca.replay")
  local out = ffi.new("tca_store *[1]")
  local status = lib.tca_store_replay(journal, #journal, to == nil and VERSION_NONE or to, raw,
                                      out)
  if status ~= 0 then raise(status) end
  return wrap(out[0])
end

-- Frees the store now (later calls raise TCA_ERR_INVALID_HANDLE; its subscriptions end). The
-- collector does it too.
function Store:free()
  if self.handle ~= nil then
    ffi.gc(self.handle, nil)
    lib.tca_store_free(self.handle)
    self.handle = nil
  end
  for _, subscription in ipairs(self.subscriptions) do subscription.store = nil end
  self.subscriptions, self.listening = {}, false
end

-- Copies the string the library returned into a Lua string and frees the library's.
function Store:_take(status)
  return take(status, self.out_json, self.out_length)
end

-- Sends one action (JSON text): store:send('"rollButtonTapped"').
function Store:send(action_json)
  local status = lib.tca_store_send_n(self.handle, action_json, #action_json)
  if status ~= 0 then raise(status) end
  if self.listening then self:_deliver() end
end

-- The whole state, as JSON text.
function Store:state()
  return self:_take(lib.tca_store_state(self.handle, self.out_json, self.out_length))
end

-- The whole state as the library lends it: a `const char *` (cdata) and its length. The text is
-- the store's, not a copy, and stays valid only until the next call on this store (any method):
-- read it (ffi.string, a C parser through the FFI) before calling the store again. It may have
-- runs of spaces between values (room for leaves to grow in place); as JSON it equals state().
function Store:state_borrow()
  local status = lib.tca_store_state_borrow(self.handle, self.borrowed, self.out_length)
  if status ~= 0 then raise(status) end
  return self.borrowed[0], tonumber(self.out_length[0])
end

-- The value at a JSON Pointer ("/count"), as JSON text.
function Store:get(pointer)
  return self:_take(lib.tca_store_get_n(self.handle, pointer, #pointer, self.out_json,
                                        self.out_length))
end

-- The value at a JSON Pointer, decoded (tca.json.null for null); "" for the whole state.
function Store:value(pointer)
  return json.decode(self:get(pointer))
end

-- The state's version (a number): changes exactly when the state does.
function Store:version()
  local version = lib.tca_store_version(self.handle)
  if version == VERSION_NONE then raise(tca.ERR_INVALID_HANDLE) end
  return tonumber(version)
end

-- What changed since version `since`: an RFC 6902 JSON Patch as JSON text ("[]" when nothing
-- did). Raises TCA_ERR_VERSION_GONE when the store no longer keeps that version (it keeps its
-- last 16): read the whole state, or use store:changes.
function Store:patch(since)
  return self:_take(lib.tca_store_patch(self.handle, since, self.out_json, self.out_length))
end

-- What changed since version `since`, decoded, and the version it brings you to:
--   local operations, now = store:changes(seen)
-- A version no longer kept gives one operation that replaces the whole state.
function Store:changes(since)
  while true do
    local before = self:version()
    local status = lib.tca_store_patch(self.handle, since, self.out_json, self.out_length)
    local operations
    if status == tca.ERR_VERSION_GONE then
      operations = { { op = "replace", path = "", value = self:value("") } }
    else
      operations = json.decode(self:_take(status))
    end
    -- NB: a threaded store's own thread may change the state meanwhile: read again then.
    if self:version() == before then return operations, before end
  end
end

-- Moves a manual clock forward by `milliseconds` (a 60 Hz loop: 16 or 17 a frame).
function Store:advance(milliseconds)
  local status = lib.tca_store_advance(self.handle, milliseconds)
  if status ~= 0 then raise(status) end
  if self.listening then self:_deliver() end
end

-- Runs what is due (answers from other threads, real-clock timers); how much ran. Subscribers
-- hear of changes made since the last call, the store's own thread's too.
function Store:poll()
  local ran = ffi.new("uint32_t[1]")
  local status = lib.tca_store_poll(self.handle, ran)
  if status ~= 0 then raise(status) end
  if self.listening then self:_deliver() end
  return ran[0]
end

-- Milliseconds until the next timer is due, or nil.
function Store:next_deadline_ms()
  local ms = tonumber(lib.tca_store_next_deadline_ms(self.handle))
  if ms < 0 then return nil end
  return ms
end

-- A descriptor readable exactly when poll() has work, or requests wait (the store's: only wait on
-- it, never read or close it), for a host loop built on poll(2) or epoll.
function Store:fd()
  local fd = lib.tca_store_fd(self.handle)
  if fd < 0 then raise(tca.ERR_SYSTEM) end
  return fd
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
  if self.listening then self:_deliver() end
end

-- Fails request `id`: the feature gets `message`.
function Store:fail(id, message)
  local status = lib.tca_store_fail_n(self.handle, id, message, #message)
  if status ~= 0 then raise(status) end
  if self.listening then self:_deliver() end
end

-- Ends stream `id`.
function Store:complete(id)
  local status = lib.tca_store_complete(self.handle, id)
  if status ~= 0 then raise(status) end
  if self.listening then self:_deliver() end
end

-- ---- recording ------------------------------------------------------------------------------

-- The journal of a store made with record = true (or replayed): JSON Lines, a header and one
-- line per input (docs/wire-format.md, "Journals"). tca.replay(journal, to) rebuilds the store.
function Store:journal()
  return self:_take(lib.tca_store_journal(self.handle, self.out_json, self.out_length))
end

-- Starts (true) or stops and drops (false) the log of the actions a recording store reduces.
function Store:log_reductions(enabled)
  local status = lib.tca_store_log_reductions(self.handle, enabled and 1 or 0)
  if status ~= 0 then raise(status) end
end

-- The actions reduced since the last take, oldest first, decoded: a list of
--   { origin = "host" | "effect", action = <canonical action>, state = <the state after it> }
function Store:take_reductions()
  return json.decode(self:_take(lib.tca_store_take_reductions(self.handle, self.out_json,
                                                              self.out_length)))
end

-- ---- subscriptions --------------------------------------------------------------------------

local Subscription = {}
Subscription.__index = Subscription
tca.Subscription = Subscription

-- Stops the calls. Twice is fine.
function Subscription:unsubscribe()
  local store = self.store
  if store == nil then return end
  self.store = nil
  local kept = {}
  for _, other in ipairs(store.subscriptions) do
    if other ~= self then kept[#kept + 1] = other end
  end
  store.subscriptions, store.listening = kept, #kept > 0
end

-- Calls fn(version) after each call of this module on the store that changed its state (send,
-- advance, poll, respond, fail, complete), once per call, in the order of subscribing. With
-- { patches = true }, calls fn(version, operations): the decoded patch from the version this
-- subscriber last heard of (at first, the version when it subscribed) to `version`.
--
-- No C callback: the library never calls into Lua (a callback out of a JIT-compiled FFI call
-- panics). The module reads the version at the end of its own calls instead; a change made by
-- a threaded store's own thread is told at the next poll() (or any of those calls). An error
-- in fn propagates out of that call (fn has been told; subscribers after it are told at the
-- next call).
-- Returns a tca.Subscription: subscription:unsubscribe() stops the calls.
function Store:subscribe(fn, options)
  if type(fn) ~= "function" and not (getmetatable(fn) or {}).__call then
    raise(tca.ERR_INVALID_ARGUMENT, "store:subscribe: fn is a " .. type(fn) .. ", not a function")
  end
  local subscription = setmetatable({ store = self, fn = fn, version = self:version(),
                                      patches = options ~= nil and options.patches == true },
                                    Subscription)
  self.subscriptions[#self.subscriptions + 1] = subscription
  self.listening = true
  return subscription
end

-- Tells each subscriber whose version is not the current one, until a round tells nobody (a
-- subscriber may send). Not re-entered: a call from inside a subscriber leaves the telling to
-- the round in progress.
local function deliver(self)
  local told = true
  while told do
    told = false
    local subscriptions = { unpack(self.subscriptions) }
    for _, subscription in ipairs(subscriptions) do
      if subscription.store == self then
        local now = self:version()
        if subscription.version ~= now then
          told = true
          if subscription.patches then
            local operations
            operations, now = self:changes(subscription.version)
            subscription.version = now
            subscription.fn(now, operations)
          else
            subscription.version = now
            subscription.fn(now)
          end
        end
      end
    end
  end
end

function Store:_deliver()
  if self.delivering then return end
  self.delivering = true
  local ok, err = pcall(deliver, self)
  self.delivering = false
  if not ok then error(err, 0) end
end

return tca
