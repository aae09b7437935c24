-- A fault predicate's args hold the operation's declared arguments only: a misspelt name raises (naming the
-- declared ones) instead of reading nil and never matching.

-- expect.fails takes a Lua pattern: this one matches the text as it is.
local function plain(text) return (text:gsub("%p", "%%%0")) end

-- A predicate reading a misspelt name (args.identity) fails its scenario, even inside a pcall, with
-- "args.identity is not an argument of users.login (did you mean args.identity_value?): its arguments are
-- identity_value, password" (HonestMistakeTests checks it: a scenario here cannot pass by failing).

scenario("the declared name matches, and an absent optional argument reads nil", function()
  local app = understudy.backendless()
  app.users.register{ email = "locked@example.com", password = "pw" }
  local seen = "unset"
  app.faults.inject{ op = "users.login", code = 3036,
    when = function(args) seen = args.password; return args.identity_value == "locked@example.com" end }
  expect.error(3036, app.users.login("locked@example.com", "pw"))
  expect.equal(seen, "pw")
  expect.ok(app.users.register{ email = "free@example.com", password = "pw" })
end)

scenario("a registration's properties stay open: an absent property reads nil", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3033, when = function(args) return args.phone ~= nil end }
  expect.ok(app.users.register{ email = "a@example.com", password = "pw" })
  expect.error(3033, app.users.register{ email = "b@example.com", password = "pw", phone = "+15550100" })
end)

scenario("an unknown fault operation suggests the nearest one", function()
  local app = understudy.backendless()
  expect.fails(function() app.faults.inject{ op = "users.logn", code = 3003 } end,
    plain("unknown operation 'users.logn' in fault.op (did you mean 'users.login'?)"))
end)

scenario("an unknown setting suggests the nearest one", function()
  expect.fails(function() understudy.backendless{ lockout_aftr = 3 } end, plain("(did you mean 'lockout_after'?)"))
end)
