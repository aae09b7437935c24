-- Hostile scenarios against the memory cap (run with --max-memory 8 for these to fail quickly).
scenario("__tostring that allocates", function()
  error(setmetatable({}, { __tostring = function() local t = {} for i = 1, 1e8 do t[i] = ("x"):rep(100) .. i end return "" end }))
end)
scenario("all users of a big seed", function()
  local app = understudy.kii()
  app.users.seed{ count = 200000, username = "u%d", password = "secret1" }
  local all = app.users.all()
end)
scenario("many backends", function()
  for _ = 1, 1500000 do understudy.backendless() end
end)
scenario("innocent after the caps", function() expect.equal(#("abc"), 3) end)
