--[[
  Backendless: the faults apps really meet (issue 31)

      app.faults.inject{ op = "users.register", code = 3021, after_commit = true }
          -- the change is made, then the error is answered (over HTTP with drop = true: the reply is lost)
      app.faults.inject{ op = "users.*", code = 3021, from = t0, ["until"] = t1 }
          -- a window on the virtual clock: the outage ends by itself once clock.now() reaches `until`
      app.faults.inject{ op = "*", code = 3021, for_seconds = 60 }   -- every operation, for a minute
      app.faults.inject{ op = "users.login", delay_ms = { 100, 500 } }   -- seeded delay per reply (HTTP)
      app.settings.rate_limit = 3                                     -- calls per rate_limit_seconds (60)

  `until` is a Lua keyword: write it ["until"] in a table constructor.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("after_commit: the user is registered, the call answers the error, and the retry meets 3033", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "users.register", code = 3021, after_commit = true, times = 1 }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1, "the registration was made before the error")
  expect.not_nil(app.users.find(BOND))
  expect.equal(fault.hits, 1)
  expect.error(3033, app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("after_commit does not fire when the call fails by its own rules", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local fault = app.faults.inject{ op = "users.register", code = 3021, after_commit = true }
  expect.error(3033, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(fault.hits, 0)
end)

scenario("after_commit on login opens the session and answers the error", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.faults.inject{ op = "users.login", code = 3000, after_commit = true, times = 1 }
  expect.error(3000, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("users.* fails both register and login", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local fault = app.faults.inject{ op = "users.*", code = 3021 }
  expect.error(3021, app.users.register{ email = "q@mi6.co.uk", password = PASSWORD })
  expect.error(3021, app.users.login(BOND, PASSWORD))
  expect.equal(fault.hits, 2)
  expect.equal(app.faults.list()[1].op, "users.*")
end)

scenario("op = '*' is a whole-backend outage", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "*", code = 3021 }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3021, app.devices.register{ token = "t", device_id = "d", os = "IOS" })
end)

scenario("an unknown wildcard prefix is refused, naming the operations", function()
  local app = understudy.backendless()
  local ok, message = pcall(app.faults.inject, { op = "usrs.*", code = 3021 })
  expect.falsy(ok)
  expect.match(message, "unknown operation 'usrs%.%*'")
end)

scenario("a window opens at from and ends by itself when the clock passes until", function()
  local app = understudy.backendless()
  local now = app.clock.now()
  app.faults.inject{ op = "users.register", code = 3021, from = now + 10, ["until"] = now + 70 }
  expect.ok(app.users.register{ email = "before@mi6.co.uk", password = PASSWORD })
  app.clock.advance(10)
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  app.clock.advance(59)
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  app.clock.advance(1)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("for_seconds: an outage that lasts that long from now", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3021, for_seconds = 30 }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
  app.clock.advance(30)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("until before from is refused", function()
  local app = understudy.backendless()
  local ok, message = pcall(app.faults.inject, { op = "users.register", code = 3021, from = 100, ["until"] = 50 })
  expect.falsy(ok)
  expect.match(message, "fault.until")
end)

scenario("the rate limit answers 999 past rate_limit calls, with retry_after, until the window ends", function()
  local app = understudy.backendless()
  app.settings.rate_limit = 2
  app.settings.rate_limit_seconds = 60
  app.clock.set(1893456000)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.login(BOND, PASSWORD))
  local err = expect.error(999, app.users.login(BOND, PASSWORD))
  expect.equal(err.retry_after, 60)
  app.clock.advance(45)
  err = expect.error(999, app.users.login(BOND, PASSWORD))
  expect.equal(err.retry_after, 15)
  app.clock.advance(15)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("the rate limit is off by default", function()
  local app = understudy.backendless()
  expect.equal(app.settings.rate_limit, 0)
  for i = 1, 50 do expect.ok(app.users.register{ email = "u" .. i .. "@mi6.co.uk", password = PASSWORD }) end
end)
