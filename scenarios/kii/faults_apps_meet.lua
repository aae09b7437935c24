-- Kii: the faults apps really meet (issue 31): after_commit, windows, wildcards, the rate limit
-- (429 TOO_MANY_REQUESTS with retry_after) and fixed test phone numbers.

local PASSWORD = "123ABC"

scenario("after_commit on users.register: the user exists, the call fails, the retry meets USER_ALREADY_EXISTS", function()
  local app = understudy.kii()
  app.faults.inject{ op = "users.register", code = "RESOURCE_TEMPORARILY_UNAVAILABLE", status = 503, after_commit = true, times = 1 }
  expect.error({ status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }, app.users.register{ username = "alice", password = PASSWORD })
  expect.equal(app.users.count(), 1)
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS" }, app.users.register{ username = "alice", password = PASSWORD })
end)

scenario("users.* hits login and register alike", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  app.faults.inject{ op = "users.*", code = "RESOURCE_TEMPORARILY_UNAVAILABLE", status = 503 }
  expect.error("RESOURCE_TEMPORARILY_UNAVAILABLE", app.users.login("alice", PASSWORD))
  expect.error("RESOURCE_TEMPORARILY_UNAVAILABLE", app.users.register{ username = "bob", password = PASSWORD })
end)

scenario("an outage window ends by itself once the clock passes until", function()
  local app = understudy.kii()
  app.faults.inject{ op = "*", code = "RESOURCE_TEMPORARILY_UNAVAILABLE", status = 503, ["until"] = app.clock.now() + 60 }
  expect.error("RESOURCE_TEMPORARILY_UNAVAILABLE", app.users.register{ username = "alice", password = PASSWORD })
  app.clock.advance(60)
  expect.ok(app.users.register{ username = "alice", password = PASSWORD })
end)

scenario("the rate limit answers 429 TOO_MANY_REQUESTS with retry_after on the virtual clock", function()
  local app = understudy.kii()
  app.settings.rate_limit = 1
  app.settings.rate_limit_seconds = 10
  app.clock.set(1893456000)
  expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  local err = expect.error({ status = 429, code = "TOO_MANY_REQUESTS" }, app.users.login("alice", PASSWORD))
  expect.equal(err.retry_after, 10)
  app.clock.advance(10)
  expect.ok(app.users.login("alice", PASSWORD))
end)

scenario("a test phone number gets its fixed SMS code", function()
  local app = understudy.kii()
  app.settings.phone_verification = true
  app.settings.test_phone_numbers = { ["+819012345678"] = "123456" }
  local user = expect.ok(app.users.register{ username = "alice", phone = "+819012345678", password = PASSWORD })
  local sms = app.outbox.sms()
  expect.equal(sms[#sms].code, "123456")
  expect.ok(app.users.verify_phone(user.userID, "123456"))
end)

scenario("a number not listed still gets a seeded code", function()
  local app = understudy.kii()
  app.settings.phone_verification = true
  app.settings.test_phone_numbers = { ["+819012345678"] = "123456" }
  expect.ok(app.users.register{ username = "bob", phone = "+819087654321", password = PASSWORD })
  local sms = app.outbox.sms()
  expect.truthy(sms[#sms].code ~= "123456")
end)

scenario("test_phone_numbers refuses a number that is not E.164", function()
  local app = understudy.kii()
  local ok, message = pcall(function() app.settings.test_phone_numbers = { ["09012345678"] = "123456" } end)
  expect.falsy(ok)
  expect.match(message, "test_phone_numbers")
end)
