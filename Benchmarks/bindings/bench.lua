-- make bench's LuaJIT row: store:send against LuaJIT's FFI floor (ffi.C.abs), JIT on, samples
-- interleaved in one run; one JSON row for Benchmarks/run.py. With TCA_LIBRARY set:
--   luajit Benchmarks/bindings/bench.lua
package.path = (arg[0]:match("^(.*)/") or ".") .. "/../../bindings/lua/?.lua;" .. package.path
local ffi = require("ffi")
local tca = require("tca")
ffi.cdef([[
int abs(int value);
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *now);
]])
jit.on()

local samples = math.max(3, tonumber(os.getenv("BENCH_SAMPLES") or "41"))
local sample_ms = math.max(1, tonumber(os.getenv("BENCH_SAMPLE_MS") or "120"))
-- NB: the monotonic wall clock (CLOCK_MONOTONIC), as the other languages' rows use.
local now = ffi.new("bench_timespec")
local function clock()
  ffi.C.clock_gettime(1, now)
  return tonumber(now.tv_sec) + tonumber(now.tv_nsec) * 1e-9
end

local store = tca.Store.new("counter")
local action = '"incrementButtonTapped"'
local function ours(n)
  for _ = 1, n do store:send(action) end
end
local sink = 0
local function floor(n)
  local abs = ffi.C.abs
  for i = 1, n do sink = sink + abs(i) end
end

local function time_ns(body, n)
  local start = clock()
  body(n)
  return (clock() - start) * 1e9 / n
end

local function iterations(body)
  time_ns(body, 100000) -- warm up: let the JIT compile the loop
  local ns = time_ns(body, 100000)
  return math.max(1000, math.floor(sample_ms * 1e6 / math.max(ns, 0.1)))
end

local function side(label, kind, values, n)
  table.sort(values)
  return string.format('{"label":"%s","kind":"%s","median":%.3f,"min":%.3f,"max":%.3f,'
                       .. '"samples":%d,"iterations":%d}', label, kind,
                       values[math.floor(#values / 2) + 1], values[1], values[#values], #values, n)
end

local n_ours, n_floor = iterations(ours), iterations(floor)
local a, b = {}, {}
for _ = 1, samples do
  a[#a + 1] = time_ns(ours, n_ours)
  b[#b + 1] = time_ns(floor, n_floor)
end
print(string.format('{"group":"Bindings","workload":"LuaJIT store:send \\"incrementButtonTapped\\" '
                    .. '(counter)","unit":"ns/op","note":"bindings/lua, JIT on (%s); floor: ffi.C.abs",'
                    .. '"target":{"floor_plus_c_send":1.2},"ours":%s,"alt":%s}', jit.version,
                    side("store:send", "ours", a, n_ours),
                    side("LuaJIT ffi.C.abs (floor)", "floor", b, n_floor)))
