-- A minimal harness: check() counts, summary() prints "N passed, N failed" and exits.
local harness = { passed = 0, failed = 0 }

function harness.check(ok, what)
  if ok then
    harness.passed = harness.passed + 1
  else
    harness.failed = harness.failed + 1
    io.stderr:write("FAILED: ", tostring(what), "\n", debug.traceback("", 2), "\n")
  end
end

-- `f(...)` must raise a tca.Error with `status` whose message contains `needle`.
function harness.raises(status, needle, f, ...)
  local tca = require("tca")
  local ok, err = pcall(f, ...)
  harness.check(not ok and tca.is_error(err) and err.status == status
                and err.message:find(needle, 1, true) ~= nil,
                string.format("expected status %d with %q, got %s %s", status, needle,
                              tostring(ok), tostring(err)))
end

function harness.summary()
  print(string.format("%d passed, %d failed", harness.passed, harness.failed))
  os.exit(harness.failed == 0 and 0 or 1)
end

return harness
