scenario("load outside pcall returns a message, not the runner's report", function()
  local f, err = load(function() error("reader broke") end)
  expect.is_nil(f)
  expect.match(err, "reader broke")
end)
scenario("deep coroutine.close nesting is an error, not a crash", function()
  local function nest(n)
    local co = coroutine.create(function()
      local guard <close> = setmetatable({}, { __close = function() if n > 0 then coroutine.close(nest(n - 1)) end end })
      coroutine.yield()
    end)
    coroutine.resume(co)
    return co
  end
  -- Lua 5.4.4 overflowed the C stack here (SIGSEGV); the nesting limit turns the deepest close into an error.
  coroutine.close(nest(20000))
end)
scenario("skip() inside a scenario still skips", function() skip("not today") end)
