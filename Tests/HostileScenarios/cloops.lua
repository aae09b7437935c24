-- Hostile scenarios: C library loops that no count hook sees. Each must be stopped by the budget alone (the
-- containment tests run the same calls with --timeout 0), and the innocent one must pass.
local huge = setmetatable({}, { __len = function() return 1 << 40 end })
scenario("table.insert under a __len of 2^40", function() table.insert(huge, 1, "x") end)
scenario("table.remove under a __len of 2^40", function() table.remove(huge, 1) end)
scenario("a plain find of a long needle, in a loop", function()
  local hay, needle = ("a"):rep(1 << 20), ("a"):rep(1 << 12) .. "b"
  while true do hay:find(needle, 1, true) end
end)
scenario("sorting many references to one long string", function()
  local s, t = ("x"):rep(1 << 20), {}
  for i = 1, 20000 do t[i] = s end
  table.sort(t)
end)
scenario("utf8.len of a long string, in a loop", function()
  local s = ("a"):rep(1 << 20)
  while true do utf8.len(s) end
end)
scenario("string.pack with a long format, in a loop", function()
  local f = ("x"):rep(1 << 20)
  while true do string.pack(f) end
end)
scenario("os.date with a long format, in a loop", function()
  local f = ("%%"):rep(1 << 19)
  while true do os.date(f) end
end)
scenario("innocent after the C loops", function()
  local t = { 3, 1, 2 }
  table.sort(t)
  table.insert(t, 1, 0)
  expect.equal(table.remove(t, 1), 0)
  expect.equal(table.concat(t, ","), "1,2,3")
  expect.equal(("abc"):find("b", 1, true), 2)
  expect.equal(utf8.len("aé"), 2)
end)
