-- The preprocessed header (cc -E -P include/tca.h) loads in LuaJIT's ffi.cdef as it is, its enum
-- constants have their values, its structs their layout, and every function it declares is in
-- libtca.so. Run: luajit Tests/lua/test_cdef.lua PREPROCESSED-HEADER LIBRARY
local ffi = require("ffi")
local header_path, library_path = arg[1], arg[2]
local passed, failed = 0, 0
local function check(ok, what)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    io.stderr:write("FAILED: ", what, "\n")
  end
end

local file = assert(io.open(header_path, "rb"))
local header = file:read("*a")
file:close()
local loaded, err = pcall(ffi.cdef, header)
check(loaded, "ffi.cdef of the preprocessed tca.h: " .. tostring(err))
if not loaded then
  print(string.format("%d passed, %d failed", passed, failed))
  os.exit(1)
end

local constants = {
  TCA_OK = 0, TCA_ERR_INVALID_ARGUMENT = 1, TCA_ERR_INVALID_HANDLE = 2,
  TCA_ERR_UNKNOWN_FEATURE = 3, TCA_ERR_JSON_SYNTAX = 4, TCA_ERR_JSON_SHAPE = 5,
  TCA_ERR_UNENCODABLE = 6, TCA_ERR_UNKNOWN_REQUEST = 7, TCA_ERR_REQUEST_FINISHED = 8,
  TCA_ERR_ALREADY_ANSWERED = 9, TCA_ERR_NOT_A_STREAM = 10, TCA_ERR_REAL_CLOCK = 11,
  TCA_ERR_NOT_FOUND = 12, TCA_ERR_SYSTEM = 13, TCA_ERR_NO_MEMORY = 14,
  TCA_ERR_CALLBACK_UNWOUND = 15, TCA_ERR_VERSION_GONE = 16,
  TCA_CLOCK_REAL = 0, TCA_CLOCK_MANUAL = 1,
  TCA_REQUEST_ONE_SHOT = 0, TCA_REQUEST_STREAM = 1, TCA_REQUEST_FIRE_AND_FORGET = 2,
  TCA_REQUESTS_CALLBACK = 0, TCA_REQUESTS_QUEUED = 1,
  TCA_ANSWERS_ANY_THREAD = 0, TCA_ANSWERS_HOST_THREAD = 1, TCA_OPTIONS_VERSION = 2,
}
local lib = ffi.load(library_path)
for name, value in pairs(constants) do
  -- NB: an enum constant declared by ffi.cdef is readable through any library namespace.
  local ok, got = pcall(function() return lib[name] end)
  check(ok and tonumber(got) == value, name .. " is " .. tostring(got) .. ", expected " .. value)
end

check(ffi.offsetof("tca_options", "version") == 0, "tca_options.version at 0")
check(ffi.offsetof("tca_options", "clock") == 4, "tca_options.clock at 4")
check(ffi.offsetof("tca_options", "threaded") == 8, "tca_options.threaded at 8")
check(ffi.offsetof("tca_options", "seed") == 16, "tca_options.seed at 16")
check(ffi.offsetof("tca_options", "requests") == 12, "tca_options.requests at 12")
check(ffi.offsetof("tca_options", "answers") == 24, "tca_options.answers at 24")
check(ffi.offsetof("tca_options", "record") == 28, "tca_options.record at 28")
check(ffi.offsetof("tca_options", "record_limit") == 32, "tca_options.record_limit at 32")
check(ffi.offsetof("tca_options", "shared") == 40, "tca_options.shared at 40")
check(ffi.offsetof("tca_options", "reserved32") == 44, "tca_options.reserved32 at 44")
check(ffi.offsetof("tca_options", "reserved") == 48, "tca_options.reserved at 48")
check(ffi.sizeof("tca_options") == 64, "sizeof(tca_options) is 64")
check(ffi.sizeof("tca_request") == 40, "sizeof(tca_request) is 40")
check(ffi.offsetof("tca_request", "kind") == 32, "tca_request.kind at 32")

-- Every function the header declares resolves in the library.
local functions = 0
for name in header:gmatch("[%w_%*%s]-[%s%*](tca_[%w_]+)%s*%(") do
  functions = functions + 1
  local ok = pcall(function() return lib[name] end)
  check(ok, name .. " declared by tca.h is exported by libtca.so")
end
check(functions >= 25, "the header declares " .. functions .. " functions")

-- Calls through the declarations: a store in pull mode, and a bad feature's status and message.
local options = ffi.new("tca_options")
lib.tca_options_init(options)
check(options.version == 2 and options.requests == 0, "tca_options_init fills version 2")
options.requests = lib.TCA_REQUESTS_QUEUED
local store = ffi.new("tca_store *[1]")
check(lib.tca_store_new_v2("counter", 7, nil, 0, options, store) == 0, "a queued counter")
check(lib.tca_store_send(store[0], '"numberFactButtonTapped"') == 0, "send")
local json, length = ffi.new("char *[1]"), ffi.new("size_t[1]")
check(lib.tca_store_take_requests(store[0], json, length) == 0, "take_requests")
local taken = ffi.string(json[0], length[0])
lib.tca_string_free(json[0])
check(taken:find('"name":"numberFact.fetch"', 1, true) ~= nil, "the request taken: " .. taken)
lib.tca_store_free(store[0])

local out = ffi.new("tca_store *[1]")
local status = lib.tca_store_new_v2("nope", 4, nil, 0, nil, out)
check(status == lib.TCA_ERR_UNKNOWN_FEATURE, "tca_store_new_v2 of nope: " .. tostring(status))
check(ffi.string(lib.tca_last_error()):find("nope", 1, true) ~= nil, "the message names nope")

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
