-- Hostile scenarios: each must end within its deadline or budget, and be reported as failed.
scenario("load with a failing reader in a loop", function()
  while true do load(function() error("x") end) end
end)
scenario("innocent after a load loop", function() expect.equal(1 + 1, 2) end)
scenario("error object whose __tostring loops through xpcall", function()
  local function loop() while true do end end
  error(setmetatable({}, { __tostring = function() return xpcall(loop, loop) end }))
end)
scenario("a pattern that backtracks for ever", function()
  ("a"):rep(30000):find(".-.-.-b")
end)
scenario("seeding a million users at once", function()
  local app = understudy.kii()
  for _ = 1, 3 do app.users.seed{ count = 1000000, username = "u%d", password = "secret1" } end
end)
scenario("a fault predicate that raises, called in a loop", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.logout", code = 3000, when = function() error("x") end }
  while true do pcall(app.users.logout, "t") end
end)
scenario("innocent at the end", function() expect.truthy(true) end)
