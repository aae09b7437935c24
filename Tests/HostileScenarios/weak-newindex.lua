-- Hostile scenario: Lua 5.4.4's emergency-GC bug. A table reached only through a weak metatable's __newindex
-- grows past the memory cap; Lua's emergency collection frees it while it is being grown, and an allocation
-- retried after that collection wrote into freed memory (abort or SIGSEGV). It must end as a memory-cap failure.
scenario("a weak metatable's __newindex table grown past the cap", function()
  for k = 10, 20 do
    for extra = 0, 3 do
      local n = 1 << k
      local store = {}
      local mt = setmetatable({ __newindex = store }, { __mode = "v" })
      local t = setmetatable({}, mt)
      local pad = {}
      for i = 1, extra * (1 << (k - 2)) do pad[i] = i end
      for i = 1, n do t["k" .. i] = i end
      store = nil
      pcall(function() t["k" .. (n + 1)] = true end)
      pcall(function() t[1.5] = true end)
    end
  end
end)
scenario("innocent after the weak __newindex", function() expect.equal(1 + 1, 2) end)
