--[[
  Backendless: fault injection (app.faults)

  Real backends fail in ways a test can't provoke: a database outage, an external registration hook
  timing out, a bad application key. app.faults.inject makes the emulator fail on purpose:

      local fault = app.faults.inject{ op = "users.register", code = 3021,
                                       message = "Unable to register user due to error: DB offline",
                                       times = 1,            -- default: every matching call
                                       probability = 0.5,    -- default: 1 (drawn from the seeded generator)
                                       when = function(args) return args[1].email == "m@mi6.co.uk" end }

  Every matching call of that operation then returns nil, { code = 3021, message = ... } exactly like a
  real failure, and has no effect (nothing is stored, no session is opened or closed).
  `when` receives the call's arguments as a list: args[1] is the first argument (the property table
  for users.register, the identity for users.login), args[2] the second, and so on.
  fault.hits counts the calls the fault made fail; fault:remove() removes it; app.faults.clear()
  removes all of them. Probabilities are checked here only at 0 and 1, the two values whose outcome
  does not depend on the random seed.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function app_with_bond()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  return app
end

scenario("an injected fault makes the call fail with exactly that code and message", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3021, message = "Unable to register user due to error: DB offline" }
  local user, err = app.users.register{ email = BOND, password = PASSWORD }
  expect.is_nil(user)
  expect.equal(err.code, 3021)
  expect.equal(err.message, "Unable to register user due to error: DB offline")
end)

scenario("an injected fault without a message still gives a string message", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3021 }
  local err = expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(type(err.message), "string", "message type")
end)

scenario("a faulted registration stores nothing", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "users.register", code = 3021, times = 1 }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 0)
  expect.is_nil(app.users.find(BOND))
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(fault.hits, 1)
end)

scenario("a fault with times = 1 fails the next call only", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022, times = 1 }
  expect.error(3022, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(fault.hits, 1)
end)

scenario("a fault with times = 2 fails the next two calls", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022, times = 2 }
  expect.error(3022, app.users.login(BOND, PASSWORD))
  expect.error(3022, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(fault.hits, 2)
end)

scenario("without times, a fault keeps firing and fault.hits counts every failure", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022 }
  expect.equal(fault.hits, 0)
  for _ = 1, 5 do expect.error(3022, app.users.login(BOND, PASSWORD)) end
  expect.equal(fault.hits, 5)
end)

scenario("a fault with probability 0 never fires", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022, probability = 0 }
  for _ = 1, 20 do expect.ok(app.users.login(BOND, PASSWORD)) end
  expect.equal(fault.hits, 0)
end)

scenario("a fault with probability 1 always fires", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022, probability = 1 }
  for _ = 1, 20 do expect.error(3022, app.users.login(BOND, PASSWORD)) end
  expect.equal(fault.hits, 20)
end)

scenario("a fault with a when predicate fires only for the calls it accepts", function()
  local app = app_with_bond()
  expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "olderThanYou" })
  local fault = app.faults.inject{ op = "users.login", code = 3022,
                                   when = function(args) return args[1] == "m@mi6.co.uk" end }
  expect.error(3022, app.users.login("m@mi6.co.uk", "olderThanYou"))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(fault.hits, 1)
end)

scenario("a when predicate on users.register sees the property table as args[1]", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3014,
                     when = function(args) return args[1].email:match("@spectre%.org$") ~= nil end }
  expect.error(3014, app.users.register{ email = "ernst.blofeld@spectre.org", password = "whiteCat" })
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
end)

scenario("a when predicate sees the second argument as args[2]", function()
  local app = app_with_bond()
  app.faults.inject{ op = "users.login", code = 3022, when = function(args) return args[2] == "letMeIn" end }
  expect.error(3022, app.users.login(BOND, "letMeIn"))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("fault:remove() stops the fault", function()
  local app = app_with_bond()
  local fault = app.faults.inject{ op = "users.login", code = 3022 }
  expect.error(3022, app.users.login(BOND, PASSWORD))
  fault:remove()
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("app.faults.clear() removes every fault and returns true", function()
  local app = app_with_bond()
  app.faults.inject{ op = "users.login", code = 3022 }
  app.faults.inject{ op = "users.register", code = 3021 }
  expect.equal(app.faults.clear(), true)
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
end)

scenario("a fault on one operation leaves the others alone", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.login", code = 3022 }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.guest_login())
  expect.error(3022, app.users.login(BOND, PASSWORD))
end)

scenario("a fault on guest_login fails it and creates no guest", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "users.guest_login", code = 3022, times = 1 }
  expect.error(3022, app.users.guest_login())
  expect.equal(fault.hits, 1)
  expect.equal(expect.ok(app.users.guest_login()).user.userStatus, "GUEST")
end)

scenario("a faulted logout leaves the session open", function()
  local app = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  app.faults.inject{ op = "users.logout", code = 3023, times = 1 }
  expect.error(3023, app.users.logout(session.token))
  expect.equal(app.users.logout(session.token), true)
end)

scenario("a faulted confirm_email leaves the user pending", function()
  local app = understudy.backendless{ email_confirmation = true }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.faults.inject{ op = "users.confirm_email", code = 3021, times = 1 }
  expect.error(3021, app.users.confirm_email(user.objectId))
  expect.error(3087, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.confirm_email(user.objectId))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("a fault can imitate any catalogue error, e.g. a disabled account on login", function()
  local app = app_with_bond()
  app.faults.inject{ op = "users.login", code = 3090, message = "User account is disabled" }
  local err = expect.error(3090, app.users.login(BOND, PASSWORD))
  expect.equal(err.message, "User account is disabled")
  expect.equal(expect.ok(app.users.find(BOND)).userStatus, "ENABLED")
end)

scenario("faults belong to one backend", function()
  local faulty = understudy.backendless()
  local healthy = understudy.backendless()
  faulty.faults.inject{ op = "users.register", code = 3021 }
  expect.error(3021, faulty.users.register{ email = BOND, password = PASSWORD })
  expect.ok(healthy.users.register{ email = BOND, password = PASSWORD })
end)

scenario("injecting a fault for an unknown operation name raises a Lua error", function()
  local app = understudy.backendless()
  expect.fails(function() app.faults.inject{ op = "users.signup", code = 3021 } end, "users.signup")
end)

scenario("a when predicate may read its fault's hits: here it lets the first two logins fail, then no more", function()
  local app = app_with_bond()
  local fault
  fault = app.faults.inject{ op = "users.login", code = 3000, when = function() return fault.hits < 2 end }
  expect.error(3000, app.users.login(BOND, PASSWORD))
  expect.error(3000, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(fault.hits, 2)
end)

scenario("a when predicate may change the faults and call the app; its own calls skip its own fault", function()
  local app = understudy.backendless()
  local seen = 0
  app.faults.inject{ op = "users.register", code = 3021, when = function(args)
    seen = seen + 1
    -- a call the predicate makes is not subject to this fault (so no endless recursion): it registers
    app.users.register{ email = "shadow-" .. args[1].email, password = PASSWORD }
    app.faults.inject{ op = "users.login", code = 3034, times = 1 }
    return true
  end }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(seen, 1)
  expect.ok(app.users.find("shadow-" .. BOND))
  expect.is_nil(app.users.find(BOND))
  expect.error(3034, app.users.login("shadow-" .. BOND, PASSWORD))
  expect.ok(app.users.login("shadow-" .. BOND, PASSWORD))
end)

scenario("a when predicate may remove its own fault: the call it was deciding then goes through", function()
  local app = understudy.backendless()
  local fault
  fault = app.faults.inject{ op = "users.register", code = 3021, when = function() fault:remove() return true end }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(fault.hits, 0)
end)
