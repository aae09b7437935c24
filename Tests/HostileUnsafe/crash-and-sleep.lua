-- Run with --unsafe --timeout 1: a scenario that kills its own process with SIGSEGV, one stuck in C code past
-- its deadline, and innocent scenarios around them that must still run and pass.
local function own_pid()
  local stat = io.open("/proc/self/stat"):read("l")
  return stat:match("^(%d+)")
end
scenario("innocent before", function() expect.equal(2 * 2, 4) end)
scenario("crashes its process", function() os.execute("kill -SEGV " .. own_pid()) os.execute("exec sleep 5 >/dev/null 2>&1") end)
scenario("innocent between", function() expect.equal(3 * 3, 9) end)
scenario("stuck in C code", function() os.execute("exec sleep 30 >/dev/null 2>&1") end)
scenario("innocent after", function() expect.equal(4 * 4, 16) end)
