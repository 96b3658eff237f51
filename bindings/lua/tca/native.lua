-- The loader: tca.h's declarations (tca/cdef.lua, the preprocessed header) given to LuaJIT's FFI,
-- and libtca opened from TCA_LIBRARY, or "tca" (libtca.so on the system's library path).
local ffi = require("ffi")

ffi.cdef(require("tca.cdef"))

local path = os.getenv("TCA_LIBRARY") or "tca"
local ok, lib = pcall(ffi.load, path)
if not ok then
  error("tca: cannot load libtca (" .. path .. "): " .. tostring(lib)
        .. "; set TCA_LIBRARY to the path of libtca.so", 0)
end
return lib
