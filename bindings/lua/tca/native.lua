-- The loader: tca.h's declarations (tca/cdef.lua, the preprocessed header) given to LuaJIT's FFI,
-- and libtca opened from the first of these places that has it:
--   1. $TCA_LIBRARY (a path; nothing else is tried when it is set);
--   2. inside the libtca repository, its build/lib (what `make lib` builds), found from this
--      file's own path, so a script runs from any directory;
--   3. the dynamic loader's own search for libtca.so.0 (LD_LIBRARY_PATH, ldconfig's cache, the
--      system's folders): where `make install` into a system prefix puts it;
--   4. the standard prefixes, for an install ldconfig has not indexed: /usr/local/lib,
--      /usr/local/lib64, /usr/lib/x86_64-linux-gnu (or the machine's), /usr/lib64, /usr/lib.
-- A library found nowhere raises an error that lists each place and why it failed, and says
-- what to set.
local ffi = require("ffi")

ffi.cdef(require("tca.cdef"))

local SONAME = "libtca.so.0"

-- This file's folder (bindings/lua/tca), or nil when the source is not a file.
local function here()
  local source = debug.getinfo(1, "S").source
  if source:sub(1, 1) ~= "@" then return nil end
  return source:sub(2):match("^(.*)/") or "."
end

local function exists(path)
  local file = io.open(path, "rb")
  if file then file:close() end
  return file ~= nil
end

-- The places to try, in order: { path or name, where it comes from }.
local function candidates()
  local explicit = os.getenv("TCA_LIBRARY")
  if explicit and explicit ~= "" then return { { explicit, "$TCA_LIBRARY" } } end
  local found = {}
  local folder = here()
  if folder then
    local root = folder .. "/../../.."
    if exists(root .. "/include/tca.h") and exists(root .. "/bindings/lua/tca.lua") then
      found[#found + 1] = { root .. "/build/lib/" .. SONAME, "this repository's `make lib`" }
    end
  end
  found[#found + 1] = { SONAME, "the dynamic loader: LD_LIBRARY_PATH, ldconfig's cache" }
  local multiarch = ffi.arch == "x64" and "x86_64-linux-gnu"
    or ffi.arch == "arm64" and "aarch64-linux-gnu" or nil
  for _, prefix in ipairs({ "/usr/local/lib", "/usr/local/lib64",
                            multiarch and "/usr/lib/" .. multiarch or nil,
                            "/usr/lib64", "/usr/lib" }) do
    found[#found + 1] = { prefix .. "/" .. SONAME, "a standard prefix" }
  end
  return found
end

local tried = {}
for _, candidate in ipairs(candidates()) do
  local path, origin = candidate[1], candidate[2]
  if path:find("/", 1, true) and not exists(path) then
    tried[#tried + 1] = string.format("  %s (%s): not found", path, origin)
  else
    local ok, lib = pcall(ffi.load, path)
    if ok then return lib end
    tried[#tried + 1] = string.format("  %s (%s): %s", path, origin, tostring(lib))
  end
end
error("tca: cannot load libtca. Tried, in order:\n" .. table.concat(tried, "\n")
      .. "\nTo fix: set TCA_LIBRARY to the path of libtca.so.0 (this repository's"
      .. " build/lib/libtca.so.0 after `make`), or install libtca (`make install`, then"
      .. " `ldconfig`), or add its folder to LD_LIBRARY_PATH.", 0)
